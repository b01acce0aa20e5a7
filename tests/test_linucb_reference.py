"""LinUCB family (seed 004): the vectorised ``simulate`` against the independent plain ``reference``.

``reference`` (boundcalc.algorithms.contextual.linucb) is a separate code path written from dgs-contextual.md:
a scalar loop over t and over the K candidates, the explicit matrix A_t solved directly (no Sherman-Morrison),
the tree kept as a dict of dyadic blocks [s, e] with its own sensitivity schedule and noise-norm bound. The two
draw the same kinds of random variables (contexts, rewards, Laplace node noise) in different orders, so only
their distributions can agree.

Test: two-sample Kolmogorov-Smirnov and Welch t-tests on the final pseudo-regret and on the final parameter error
||theta^p_{T+1} - theta*|| (the latter is driven by the privacy noise), 150 reference runs against 1000 simulated
runs at T = 80; each of the four tests must give p > alpha = 1e-3 (family-wise level <= 4e-3 per case).
Power: the same four tests, against a simulation whose Laplace scales are deliberately multiplied by 2
(``noise_mult=2``), must reject (smallest p < 1e-3). The cases cover both sensitivity schedules, block-end and
block-start node scales, memoised and fresh node noise, the constant and the "theory" width, and noise on theta
(LinUCB-DGS) or on b (Private-LinUCB). lambda0 is set explicitly (5 and 20, larger than the environment's 1/d) so
that the shrinking branch of each schedule is reached inside T = 80; this exercises the bookkeeping, it is not a
claim about the instance.
"""

import numpy as np
import pytest
from scipy import stats

from boundcalc.algorithms.contextual import LinUCB, LinUCBDGS, PrivateLinUCB
from boundcalc.envs.contextual import make_contextual_env

ALPHA = 1e-3
T, N_REF, N_SIM = 80, 150, 1000

CASES = {
    "LinUCB-theory": lambda m=1.0: LinUCB(alpha="theory"),
    "DGS-paper-end-memo": lambda m=1.0: LinUCBDGS(eps=2.0, delta=0.1, alpha=1.0, lambda0=5.0, noise_mult=m),
    "DGS-safe-start-fresh-theory": lambda m=1.0: LinUCBDGS(eps=2.0, delta=0.1, alpha="theory", lambda0=20.0,
                                                           schedule="safe", scale_at="start", memoise=False,
                                                           noise_mult=m),
    "Private-LinUCB": lambda m=1.0: PrivateLinUCB(eps=2.0, delta=0.1, alpha=1.0, noise_mult=m),
}


def _pvalues(ref_reg, ref_err, res):
    sim_reg, sim_err = res.regret[:, -1], res.extra["theta_err"]
    return [stats.ks_2samp(ref_reg, sim_reg).pvalue, stats.ttest_ind(ref_reg, sim_reg, equal_var=False).pvalue,
            stats.ks_2samp(ref_err, sim_err).pvalue, stats.ttest_ind(ref_err, sim_err, equal_var=False).pvalue]


@pytest.mark.parametrize("case", list(CASES))
def test_simulate_matches_independent_reference(case):
    make = CASES[case]
    env = make_contextual_env("rdp-contextual")
    rng = np.random.default_rng(2024)
    ref = [make().reference(env, T, rng, np.array([T])) for _ in range(N_REF)]
    ref_reg = np.array([r.regret[0, -1] for r in ref])
    ref_err = np.array([r.extra["theta_err"][0] for r in ref])
    res = make().simulate(env, T, N_SIM, np.random.default_rng(2025), np.array([T]))
    assert min(_pvalues(ref_reg, ref_err, res)) > ALPHA
    if case.startswith("LinUCB"):
        return  # no privacy noise to mis-scale
    bad = make(2.0).simulate(env, T, N_SIM, np.random.default_rng(2026), np.array([T]))
    assert min(_pvalues(ref_reg, ref_err, bad)) < ALPHA  # the test has power against 2x noise


def test_reference_checkpoints_and_noise_mult_validation():
    env = make_contextual_env("rdp-contextual")
    r = LinUCBDGS(eps=2.0, alpha=1.0).reference(env, 20, np.random.default_rng(0), np.array([0, 5, 20]))
    assert r.regret.shape == (1, 3) and r.regret[0, 0] == 0 and np.all(np.diff(r.regret[0]) >= 0)
    from boundcalc.errors import InputError

    with pytest.raises(InputError):
        LinUCBDGS(noise_mult=0)
