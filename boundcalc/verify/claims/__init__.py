"""Claims of the five papers as data: every ERRATA item and every sheet check is a :class:`Claim`.

``CLAIMS`` maps a claim id to its record; :func:`run` evaluates claims on their default domains,
:func:`evaluate` one claim on a user's box. Evaluators live beside the claims, one module per area
(info: seed 001 quantities; finite; privacy; linear; contextual; glm). See registry.py for the verdict
vocabulary ("holds" is reserved for a proof).
"""

from .registry import (  # noqa: F401
    CLAIM_PAPERS,
    CLAIMS,
    ERRATA_WORDS,
    METHODS,
    PAPERS,
    PASS_WORDS,
    VERDICT_WORDS,
    Claim,
    Result,
    Verdict,
    add_evaluator,
    evaluate,
    get,
    run,
    select,
)
from . import info  # noqa: E402,F401  (registers the claims, in this order)
from . import lower_bounds  # noqa: E402,F401
from . import concentration  # noqa: E402,F401
from . import finite  # noqa: E402,F401
from . import privacy  # noqa: E402,F401
from . import bounds  # noqa: E402,F401
from . import contextual  # noqa: E402,F401
from . import linear  # noqa: E402,F401
from . import glm  # noqa: E402,F401
from . import dgs  # noqa: E402,F401
from . import dgs_privacy  # noqa: E402,F401
from . import audit  # noqa: E402,F401  (privacy claims checked by the empirical audit)
from . import pairs  # noqa: E402,F401  (every registered lower <= upper pair)
from . import dp_definitions  # noqa: E402,F401  (issue 16 item 8: relations between DP definitions)
from . import lower_kl  # noqa: E402,F401  (issue 16 item 4: seed 003 Thm 1, 6, 8, 15, 16)
from . import coverage  # noqa: E402,F401  (issue 16 item 5: confidence sets, Monte Carlo coverage)
from . import glm_assumptions  # noqa: E402,F401  (issue 16 coverage table: seed 002 Assumptions 1-3, (C.4))
from . import dgs_cb  # noqa: E402,F401  (issue 16 coverage table: seed 004 Eq. 3)
from . import seed003_items  # noqa: E402,F401  (issue 16: seed 003 items of the coverage table)
from . import coverage_issue22  # noqa: E402,F401  (issue 22 §3: restated results and Lemma D.1 as printed)
from . import textbook_issue22  # noqa: E402,F401  (issue 22 §3: restated textbook results, exact examples)
