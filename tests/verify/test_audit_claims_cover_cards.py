"""The privacy claims judged by an audit (verify/claims/audit.py) cover every built-in card that declares an audit
scenario (boundcalc.algorithms cards: ``audit_scenario``; boundcalc.audit.scenarios.SCENARIOS), one claim each, with the
notion and the budget box taken from the card's scenario. The claims' order and citations are the verifier's (the
table); the cards decide which algorithms there are to audit (issue 23 §3)."""

from boundcalc.audit.scenarios import SCENARIOS
from boundcalc.verify.claims import CLAIMS
from boundcalc.verify.claims import audit as A


def _problems(rows) -> list[str]:
    algos = [algo for _, algo, *_ in rows]
    out = [f"no privacy claim for the auditable card {n}" for n in SCENARIOS if n not in algos]
    out += [f"{n}: not an auditable card" for n in algos if n not in SCENARIOS]
    out += [f"{n}: twice" for n in set(algos) if algos.count(n) > 1]
    for paper, algo, *_ in rows:
        c = CLAIMS.get(A._claim_id(paper, algo))
        if c is None or c.method != "monte-carlo" or {p.name for p in c.params} != set(SCENARIOS[algo].default_budget):
            out.append(f"{algo}: its claim is not the audit of its card's scenario")
    return out


def test_every_auditable_card_has_its_privacy_claim():
    assert len(A._ROWS) == len(SCENARIOS) == 21
    assert _problems(A._ROWS) == []


def test_a_card_left_out_of_the_table_is_found():
    """Mutants: a row dropped (a card with an audit scenario but no claim) and a row doubled."""
    assert _problems(A._ROWS[:-1]) == ["no privacy claim for the auditable card LDP-GLOC"]
    assert _problems(A._ROWS + A._ROWS[:1]) == ["DP-SE: twice"]
