"""LinUCB family (seed 004): the vectorised ``simulate`` against the independent plain ``reference``.

``reference`` (boundcalc.algorithms.contextual.linucb) is a separate code path written from docs/formulas/dgs-contextual.md: a
scalar loop over t and over the K candidates, the explicit matrix A_t solved directly (no Sherman-Morrison), the tree
kept as a dict of dyadic blocks [s, e] with its own sensitivity schedules and noise-norm bound. ``simulate`` draws
contexts, rewards and tree noise in chunks from three sub-streams, updates inverse Gram matrices by batched
Sherman-Morrison and scores all runs with one batched matmul per step.

1. Exact: both consume the same random stream in the same order, so run j of a simulate block equals
   ``reference(..., lane=j, lanes=n)`` -- regret at every checkpoint and the final parameter error to 1e-8, the tree
   noise at the checkpoints to 1e-10 (floating-point rounding only: the arm choices are identical). This needs context
   draws that do not depend on the batch shape: Gaussian decision sets with distinct norms (no exact ties at t = 1,
   when theta^p = 0 and every score is alpha ||x||/sqrt(lambda)). Cases: LinUCB with the theory width; LinUCB-DGS in
   both sensitivity modes, both schedules, block-end and block-start scales, memoised and fresh trees; Private-LinUCB
   in both modes and trees; d = 3 and d = 10.
   Power (mutants kept here; each must break the equality): noise x2 (``noise_mult=2``), the other tree, the other
   sensitivity mode, and a shortcut in the fast path (a subclass whose estimate skips A^{-1}).
2. In distribution, on seed 004's synthetic pool instance (whose sampler's rejection step depends on the batch
   shape, so exact replay is impossible): two-sample KS and Welch t-tests on the final regret and parameter error,
   150 reference runs against 1000 simulated, each p > 1e-3; the same four tests reject noise x2 (smallest p < 1e-3).
"""

import math

import numpy as np
import pytest
from scipy import stats

from boundcalc.algorithms.contextual import LinUCB, LinUCBDGS, PrivateLinUCB
from boundcalc.envs.contextual import ContextualLinearEnv, make_contextual_env
from boundcalc.errors import InputError

T_EXACT, LANES = 150, 4
CPS = np.array([0, 1, 2, 7, 64, 100, 150])


def _env(d):
    if d == 3:
        return make_contextual_env("zcdp-contextual")  # N((1/sqrt 3) 1, I/10) decision sets, N(0, 1) rewards
    rng = np.random.default_rng(11)
    th = rng.standard_normal(d)
    return ContextualLinearEnv(th / np.linalg.norm(th), 10, contexts="gaussian", mean=np.full(d, 1 / math.sqrt(d)),
                               scale=math.sqrt(0.1), sigma=0.5, name="gaussian-d10")


EXACT = {
    "LinUCB-theory": lambda **k: LinUCB(alpha="theory"),
    "DGS-paper-end-memo": lambda **k: LinUCBDGS(eps=2.0, delta=0.1, alpha=1.0, lambda0=5.0, **k),
    "DGS-strict-safe-start-fresh-theory": lambda **k: LinUCBDGS(
        eps=2.0, delta=0.1, alpha="theory", lambda0=20.0, schedule="safe", scale_at="start",
        **{"tree": "fresh", "sensitivity": "strict", **k}),
    "Private-paper-memo": lambda **k: PrivateLinUCB(eps=2.0, alpha=1.0, **k),
    "Private-strict-fresh-theory": lambda **k: PrivateLinUCB(eps=4.0, alpha="theory",
                                                             **{"tree": "fresh", "sensitivity": "strict", **k}),
}


def _agrees(alg, env, seed=3, fast=None):
    """True iff every lane of ``fast``'s simulate block (default: ``alg``'s) equals ``alg.reference`` on that lane."""
    sim = (fast or alg).simulate(env, T_EXACT, LANES, np.random.default_rng(seed), CPS)
    for j in range(LANES):
        ref = alg.reference(env, T_EXACT, np.random.default_rng(seed), CPS, lane=j, lanes=LANES)
        if not np.allclose(ref.regret[0], sim.regret[j], rtol=1e-8, atol=1e-8):
            return False
        if not np.allclose(ref.extra["theta_err"][0], sim.extra["theta_err"][j], rtol=1e-8):
            return False
        if "tree_noise" in ref.extra and not np.allclose(ref.extra["tree_noise"][0], sim.extra["tree_noise"][j],
                                                         rtol=1e-10, atol=1e-10):
            return False
    return True


@pytest.mark.parametrize("d", [3, 10])
@pytest.mark.parametrize("case", list(EXACT))
def test_simulate_equals_reference_lane_by_lane(case, d):
    env = _env(d)
    alg = EXACT[case]()
    assert _agrees(alg, env)
    if case.startswith("LinUCB"):
        return
    # power: each mutant breaks the equality
    flip = {"memo": "fresh", "fresh": "memo", "paper": "strict", "strict": "paper"}
    assert not _agrees(alg, env, fast=EXACT[case](noise_mult=2.0))
    assert not _agrees(alg, env, fast=EXACT[case](tree=flip[alg.tree]))
    assert not _agrees(alg, env, fast=EXACT[case](sensitivity=flip[alg.sensitivity]))


class _NoInverse(LinUCB):
    """Shortcut in the fast path: theta = b / lambda (the Gram matrix ignored in the estimate)."""

    def _estimate(self, A_inv, b, eta):
        return b / self.lam


def test_fast_path_shortcut_breaks_the_equality():
    env = _env(3)
    assert _agrees(LinUCB(alpha=1.0), env)
    assert not _agrees(LinUCB(alpha=1.0), env, fast=_NoInverse(alpha=1.0))


def test_same_numbers_whatever_the_block_chunking():
    """Chunks of steps are an implementation detail: a block of 3 runs gives the same numbers with any chunk size
    (the module constant is lowered to force chunks of 1 and 7 steps)."""
    import boundcalc.algorithms.contextual.linucb as lin

    env = _env(3)
    alg = LinUCBDGS(eps=2.0, delta=0.1, alpha=1.0, lambda0=5.0)
    base = alg.simulate(env, 60, 3, np.random.default_rng(8), CPS[CPS <= 60])
    for entries in (3 * 10 * 3, 7 * 3 * 10 * 3):
        old = lin._CHUNK_ENTRIES
        lin._CHUNK_ENTRIES = entries
        try:
            res = alg.simulate(env, 60, 3, np.random.default_rng(8), CPS[CPS <= 60])
        finally:
            lin._CHUNK_ENTRIES = old
        assert np.array_equal(res.regret, base.regret) and np.array_equal(res.extra["tree_noise"], base.extra["tree_noise"])


# -- in distribution, on the pool instance -------------------------------------------------------------------
T, N_REF, N_SIM, ALPHA = 80, 150, 1000, 1e-3
POOL = {
    "DGS-paper-end-memo": lambda m=1.0: LinUCBDGS(eps=2.0, delta=0.1, alpha=1.0, lambda0=5.0, noise_mult=m),
    "Private-LinUCB": lambda m=1.0: PrivateLinUCB(eps=2.0, alpha=1.0, noise_mult=m),
}


def _pvalues(ref_reg, ref_err, res):
    sim_reg, sim_err = res.regret[:, -1], res.extra["theta_err"]
    return [stats.ks_2samp(ref_reg, sim_reg).pvalue, stats.ttest_ind(ref_reg, sim_reg, equal_var=False).pvalue,
            stats.ks_2samp(ref_err, sim_err).pvalue, stats.ttest_ind(ref_err, sim_err, equal_var=False).pvalue]


@pytest.mark.parametrize("case", list(POOL))
def test_simulate_matches_reference_in_distribution_on_the_pool_instance(case):
    make = POOL[case]
    env = make_contextual_env("dgs-synthetic")
    rng = np.random.default_rng(2024)
    ref = [make().reference(env, T, rng, np.array([T])) for _ in range(N_REF)]
    ref_reg = np.array([r.regret[0, -1] for r in ref])
    ref_err = np.array([r.extra["theta_err"][0] for r in ref])
    res = make().simulate(env, T, N_SIM, np.random.default_rng(2025), np.array([T]))
    assert min(_pvalues(ref_reg, ref_err, res)) > ALPHA
    bad = make(2.0).simulate(env, T, N_SIM, np.random.default_rng(2026), np.array([T]))
    assert min(_pvalues(ref_reg, ref_err, bad)) < ALPHA  # the test has power against 2x noise


def test_reference_checkpoints_and_validation():
    env = make_contextual_env("rdp-contextual")
    r = LinUCBDGS(eps=2.0, alpha=1.0).reference(env, 20, np.random.default_rng(0), np.array([0, 5, 20]))
    assert r.regret.shape == (1, 3) and r.regret[0, 0] == 0 and np.all(np.diff(r.regret[0]) >= 0)
    assert r.extra["tree_noise"].shape == (1, 3, env.d)
    with pytest.raises(InputError):
        LinUCBDGS(noise_mult=0)
    with pytest.raises(InputError):
        LinUCB().reference(env, 5, np.random.default_rng(0), [5], lane=2, lanes=2)
