"""Seed 000 Thm 15 (App. C.2) checked on its own (claim 000-thm15-width; the coverage table's row "000 Thm 15"):
fixed designs with any counts, not only the counts of Corollary 16.

Independent computations: the width typed again in mpmath from the theorem's display; the exact per-arm probabilities
of the claim against a simulation written here (rewards drawn one pull at a time, least squares by lstsq, the privacy
noise added as Algorithm 3 Step 4 does). Mutants kept: a width without its privacy term and a halved width must be
reported as violating the theorem; an exact-probability function with the privacy variance understated (α/(2ε) for
2α/ε) must disagree with the simulation. Not caught (the theorem's union bound and |Supp(π)| ≤ d(d+1)/2 are loose on
these designs, the exact probabilities stay below δ/10): d in place of d(d+1) in the width.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy.special import ndtr

from boundcalc.concentration.montecarlo import clopper_pearson
from boundcalc.verify import claims as C
from boundcalc.verify.box import Domain
from boundcalc.verify.claims import linear as L


def test_claim_registered_with_its_expected_verdict():
    v = C.evaluate("000-thm15-width")
    assert v.verdict == v.expected == "no counterexample", v.measured
    ev = v.evidence
    assert len(ev["rows"]) >= 4 * 4 * 7 * 7 - 4 * 49 and not ev["monte_carlo"]["violated"]
    # every case is inside the theorem: the exact probabilities are below δ
    assert max(r["max_prob"] / r["delta"] for r in ev["rows"]) <= 1.0


@pytest.mark.parametrize("g,d,alpha,eps,delta", [(0.3, 3, 2.0, 0.1, 0.05), (1.2, 2, 5.0, 3.0, 0.5),
                                                 (0.05, 6, 1.5, 10.0, 0.01)])
def test_width_typed_again(g, d, alpha, eps, delta):
    with mpmath.workdps(40):
        g_, L_ = mpmath.mpf(g), mpmath.log(4 / mpmath.mpf(delta))
        w = g_ * mpmath.sqrt(2 * L_) + g_**2 * mpmath.sqrt(2 * mpmath.mpf(alpha) * d * (d + 1) / mpmath.mpf(eps) * L_)
    assert math.isclose(L.thm15_width(g, d, alpha, eps, delta), float(w), rel_tol=1e-13)


def _simulated_frequencies(A, counts, support, theta, alpha, eps, w, runs, seed):
    """⟨θ̃ − θ*, a⟩ by the algorithm's steps: every pull's reward ⟨θ*, a⟩ + N(0, 1), θ̂ by least squares on the pulls,
    θ̃ = θ̂ + V⁻¹ Σ_{b ∈ support} b N_b with N_b ~ N(0, 2α/ε) (seed 000 Algorithm 3 Steps 3–4)."""
    rng = np.random.default_rng(seed)
    X = np.repeat(A, counts.astype(int), axis=0)  # the design, one row per pull
    V = X.T @ X
    S = A[support]
    hits = np.zeros(A.shape[0], dtype=int)
    for _ in range(runs):
        r = X @ theta + rng.standard_normal(X.shape[0])
        th_hat = np.linalg.lstsq(X, r, rcond=None)[0]
        th = th_hat + np.linalg.solve(V, S.T @ (math.sqrt(2 * alpha / eps) * rng.standard_normal(S.shape[0])))
        hits += np.abs(A @ (th - theta)) >= w
    return hits


def _agrees(prob_fn, hits, runs, *args):
    """Every arm's simulated frequency inside its 99.9% Clopper–Pearson interval around the exact probability."""
    p, _, _ = prob_fn(*args)
    for h, pa in zip(hits, p):
        lo, hi = clopper_pearson(int(h), runs, 0.001)
        if not lo <= pa <= hi:
            return False
    return True


def _understated(A, counts, support, alpha, eps, delta, width=L.thm15_width):
    """Mutant: the privacy variance read as α/(2ε) instead of 2α/ε."""
    return L.thm15_probabilities(A, counts, support, alpha / 4, eps, delta, width)


def test_exact_probabilities_against_a_simulation():
    A = np.array([[1.0, 0.0], [0.0, 1.0], [math.sqrt(0.5), math.sqrt(0.5)]])
    counts = np.array([3.0, 5.0, 2.0])
    support = np.array([0, 1])
    theta = np.array([0.3, -0.2])
    alpha, eps, runs = 2.0, 4.0, 4000
    fixed = 0.7  # a width that makes every arm's probability moderate (the theorem's own width is far out)

    def width(g, d, a, e, dl):
        return fixed

    hits = _simulated_frequencies(A, counts, support, theta, alpha, eps, fixed, runs, seed=7)
    p, w, _ = L.thm15_probabilities(A, counts, support, alpha, eps, 0.1, width)
    assert w == fixed and 0.05 < p.min() and p.max() < 0.7
    assert _agrees(L.thm15_probabilities, hits, runs, A, counts, support, alpha, eps, 0.1, width)
    assert not _agrees(_understated, hits, runs, A, counts, support, alpha, eps, 0.1, width)  # mutant rejected


@pytest.mark.parametrize("name,mutant", [
    ("privacy term dropped", lambda g, d, a, e, dl: g * math.sqrt(2 * math.log(4 / dl))),
    ("width halved", lambda g, d, a, e, dl: L.thm15_width(g, d, a, e, dl) / 2),
])
def test_mutant_widths_are_rejected(name, mutant):
    dom = Domain.of(C.get("000-thm15-width").params)
    assert L._thm15(mutant)(dom).verdict == "statement violated", name
    assert L._thm15()(dom).verdict == "no counterexample"


def test_box_without_spanning_actions_is_an_input_error():
    from typer.testing import CliRunner

    from boundcalc.cli.app import app

    res = CliRunner().invoke(app, ["verify", "--claim", "000-thm15-width", "--box", "K=2"])
    assert res.exit_code == 2 and "K" in res.output and "Traceback" not in res.output
