"""Monte Carlo coverage of the private confidence sets (issue 16 item 5; boundcalc/verify/claims/coverage.py): seed 003
Thm 14, seed 000 Thm 17, seed 004 Lemma 2 (printed and consistent widths). Each check is shown to have power: a
mutant whose set is too small (its privacy term dropped, its width shrunk, its noise inflated) must be reported as
undercovering, with the same seeds and sample sizes as the claims."""

from __future__ import annotations

import math

import numpy as np
import pytest

from boundcalc.algorithms.contextual.oful import AdaCOFUL, AdaROFUL
from clirun import app, runner
from boundcalc.verify import claims as C
from boundcalc.verify.claims import coverage as cv

IDS = ("003-thm14-coverage", "000-thm17-coverage", "004-lemma2-alpha-printed", "004-lemma2-alpha-derived")


def _adac(noise_mult=1.0):
    return AdaCOFUL(0.01, lam=1.0, C=1.0, delta=0.05, S=0.5, lambda0=1.0, noise_mult=noise_mult)


def _adar():
    return AdaROFUL(2.0, 0.05, lam=1.0, C=1.0, delta=0.05, S=0.5, lambda0=1.0)


def test_claims_registered_and_give_their_expected_verdicts():
    for cid in IDS:
        v = C.evaluate(cid)
        assert v.method == "monte-carlo" and v.verdict == v.expected, (cid, v.verdict, v.measured)
        ev = v.evidence
        lo, hi = ev["clopper_pearson_95"]
        assert lo <= ev["frequency"] <= hi and ev["runs"] >= 100


def test_levels_are_the_stated_failure_probabilities():
    """3δ for Thms 14/17 (the proof's union of three events, ERRATA 13), 2ζ for seed 004 Lemma 2 — read from the
    evaluation's evidence and compared with the claims' own parameters."""
    for cid, level in (("003-thm14-coverage", 3 * 0.05), ("000-thm17-coverage", 3 * 0.05),
                       ("004-lemma2-alpha-derived", 2 * 0.05)):
        assert math.isclose(C.evaluate(cid).evidence["level"], level)


def test_printed_width_formula_typed_again():
    """lemma2_alpha_printed against seed 004 Eq. 4 typed here (mpmath)."""
    import mpmath

    def eq4(t, T, d, L, lam, S, eps, zeta):
        t = mpmath.mpf(t)
        return ((L / mpmath.mpf(eps)) * mpmath.log(T) * mpmath.sqrt(mpmath.log(t) * mpmath.log(1 / mpmath.mpf(zeta)))
                / mpmath.sqrt(t) + mpmath.sqrt(d * mpmath.log((1 + t * L**2 * lam) / mpmath.mpf(zeta)))
                + mpmath.sqrt(lam) * S)

    for args in ((2, 200, 3, 1.0, 1.0, 1.0, 2.0, 0.05), (150, 1000, 5, 0.5, 2.0, 0.7, 0.5, 0.01)):
        assert math.isclose(float(cv.lemma2_alpha_printed(np.array([args[0]]), *args[1:])[0]), float(eq4(*args)),
                            rel_tol=1e-12)


def test_coverage_counts_against_a_direct_replay():
    """A run count by ``oful_coverage`` equals a plain loop written here from seed 003 Alg. 3 (d = 1: V = λ + t,
    Gram scalars) on the same draws: one run, per-round membership recomputed from scratch."""
    alg = _adac(noise_mult=20.0)  # a mutant that leaves the set often, so that the counts are not all zero
    cov = cv.oful_coverage(alg, 60, 1, seed=5)
    rng = np.random.default_rng(5)
    V, b, N, th, Vt, ld_t, n, bt, out = 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0, float(alg.beta(0, 1)), 0
    s = math.sqrt(2 / 0.01) * 20.0
    for t in range(1, 61):
        if math.log(V) > ld_t + math.log(2.0):
            n += 1
            N += s * rng.standard_normal((1, 1))[0, 0]
            th, Vt, ld_t = (b + N) / V, V, math.log(V)
            g = math.sqrt((2 / 0.01) * n * (1 + 2 * math.sqrt(math.log(60 / 0.05)) + 2 * math.log(60 / 0.05))
                          / (1.0 + max(0.0, (t - 1) / 4 - 8 * math.log((t + 2) / 0.05)
                                       - 2 * math.sqrt((t - 1) * math.log((t + 2) / 0.05)))))
            bt = math.sqrt(2 * math.log(1 / 0.05) + math.log1p((t - 1) / 1.0)) + 0.5 + g
        out += abs(th - 0.5) * math.sqrt(Vt) > bt
        X = rng.choice([-1.0, 1.0], size=(1, 2, 1))[0, :, 0]
        a = int(np.argmax(X * th + bt / math.sqrt(Vt)))
        x = X[a]
        r = 1.0 if rng.random(1)[0] < (1 + 0.5 * x) / 2 else -1.0
        V += 1.0
        b += x * r
    assert out > 0 and cov["rounds_outside"] == out


# -- mutants: a set too small is caught ------------------------------------------------------------------------
@pytest.mark.parametrize("make", [_adac, _adar], ids=["003-thm14", "000-thm17"])
def test_private_radius_without_its_privacy_term_undercovers(make):
    """Mutant: the private estimator with the non-private OFUL radius (γ_t dropped) leaves θ* outside in most runs:
    the claim's check says 'statement violated' (95% CP interval above 3δ)."""
    cov = cv.oful_coverage(make(), 300, 400, seed=16, drop_gamma=True)
    assert cv.coverage_result(cov, 3 * 0.05, "mutant", "3δ").verdict == "statement violated"
    honest = cv.oful_coverage(make(), 300, 400, seed=16)
    assert cv.coverage_result(honest, 3 * 0.05, "honest", "3δ").verdict == "no counterexample"


def test_oful_noise_inflated_undercovers():
    """Mutant: AdaC-OFUL drawing 10× the noise its width accounts for (noise_mult = 10)."""
    cov = cv.oful_coverage(_adac(noise_mult=10.0), 300, 400, seed=16)
    assert cv.coverage_result(cov, 3 * 0.05, "mutant", "3δ").verdict == "statement violated"


def test_dgs_width_shrunk_undercovers():
    """Mutant: LinUCB-DGS's own width × 1/4 (the honest width's largest ratio is ≈ 0.43 here, so halving it still
    covers: the set is loose at this horizon; a quarter does not)."""
    cov = cv.dgs_coverage(200, 100, 16, width_scale=0.25)["algorithm"]
    assert cv.coverage_result(cov, 0.1, "mutant", "2ζ").verdict == "statement violated"


def test_evaluator_mutant_ignoring_escapes_is_caught(monkeypatch):
    """Mutant of the evaluator itself: a coverage function that never counts a run outside would pass the printed
    width; the registered claim must not (its expected verdict is 'statement violated')."""
    real = cv.dgs_coverage

    def blind(*a, **k):
        out = real(*a, **k)
        for v in out.values():
            v["runs_outside"] = 0
        return out

    monkeypatch.setattr(cv, "dgs_coverage", blind)
    v = C.evaluate("004-lemma2-alpha-printed")
    assert v.verdict != v.expected


def test_verify_cli_runs_a_coverage_claim():
    r = runner.invoke(app, ["verify", "--claim", "004-lemma2-alpha-derived", "--json"])
    assert r.exit_code == 0, r.output
    assert '"verdict": "no counterexample"' in r.output and "2\\u03b6" in r.output  # JSON escapes ζ
