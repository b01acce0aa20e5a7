"""Privacy calibration of LinUCB-DGS and Private-LinUCB (seed 004; docs/formulas/dgs-contextual.md §0, 1.3, 1.4, 7.4).

1. Node scales of both sensitivity modes against the formulas written out here:
   "paper"  DGS: b = Delta_e log2(T)/eps, Private-LinUCB: b = L log2(T)/eps (seed 004 Alg. 1 line 2, §3.1);
   "strict" DGS: b = sqrt(d) Delta_e (ceil(log2 T) + 1)/eps, Private-LinUCB: b = 2 sqrt(d) L (ceil(log2 T) + 1)/eps
   (sheet §0: L1 sensitivity, ceil(log2 T) + 1 levels; delta' = delta/log2 T in both modes, sheet §0),
   with Delta_t of seed 004 Lemma 1 under the sheet's "paper" and "safe" schedules; and the drawn noise has the
   variance sum_i 2 b_i^2 over the nodes of t (Monte Carlo), which rejects the other mode's noise.
2. Private-LinUCB's guarantee: the exact pure-DP epsilon of the released stream, from a brute-force count of the
   released tree nodes containing each index j, and its attainment, from scipy's Laplace log-densities at a point
   beyond both neighbours' means: 2 sqrt(d) (floor(log2 T) + 1)/log2 T * eps with the paper calibration (not eps),
   <= eps with the strict one.
3. The memoised tree of seed 004 Alg. 2 (binary-tree mechanism: each node's noise drawn once and reused whenever
   the node is part of a released prefix): Cov(eta_s, eta_t) = sum over the nodes shared by the decompositions of s
   and t of 2 b_node^2 (per coordinate). Tested on the noise that simulate adds, for every pair s <= t <= 8; the
   fresh-noise-per-call mutant (tree="fresh", kept in the code for audits) fails the same test.
4. Labels: the algorithms' metadata and ``simulate --json`` state what each calibration guarantees; the CLI options
   reach the algorithm (same numbers as a direct library call).
"""

import json
import math

import numpy as np
import pytest
from scipy import stats
from typer.testing import CliRunner

from boundcalc.algorithms.contextual import LinUCBDGS, PrivateLinUCB
from boundcalc.envs.contextual import make_contextual_env
from boundcalc.errors import InputError

EPS, DELTA, LAM, L = 2.0, 0.1, 1.0, 1.0


def _delta_t(t, T, lam0, schedule):
    """seed 004 Lemma 1 with docs/formulas/dgs-contextual.md §0: delta' = delta / log2 T."""
    dp = DELTA / math.log2(T)
    if schedule == "paper":
        if t > 32 * math.log(1 / dp) / lam0:
            return min(2 * L / LAM, 32 * L / (lam0 * t))
        return 2 * L / LAM
    lg = math.log((t + 3) / dp)
    lp = lam0 * t / 4 - 8 * lg - 2 * math.sqrt(t * lg)
    return 2 * L / (LAM + max(0.0, lp))


def _dgs_scale(i, t, T, d, lam0, schedule, scale_at, mode):
    e = 2**i * (t // 2**i)
    at = e if scale_at == "end" else max(1, e - 2**i)
    if mode == "paper":
        levels = math.log2(T)
        return _delta_t(at, T, lam0, schedule) * levels / EPS
    levels = math.ceil(math.log2(T)) + 1
    return math.sqrt(d) * _delta_t(at, T, lam0, schedule) * levels / EPS


def _private_scale(T, d, mode):
    if mode == "paper":
        return L * math.log2(T) / EPS
    return 2 * math.sqrt(d) * L * (math.ceil(math.log2(T)) + 1) / EPS


def _bits(t):
    return [i for i in range(t.bit_length()) if t >> i & 1]


@pytest.mark.parametrize("mode", ["paper", "strict"])
@pytest.mark.parametrize("schedule, scale_at, lam0", [("paper", "end", 0.5), ("safe", "start", 20.0), ("paper", "start", 3.0)])
def test_node_scales_both_modes_against_the_sheet(mode, schedule, scale_at, lam0):
    for T in (100, 1024, 5000):
        for d in (3, 10):
            alg = LinUCBDGS(eps=EPS, delta=DELTA, lam=LAM, L=L, lambda0=lam0, schedule=schedule, scale_at=scale_at,
                            sensitivity=mode)
            for t in (1, 6, 37, 64, 99, T):
                for i in _bits(t):
                    want = _dgs_scale(i, t, T, d, lam0, schedule, scale_at, mode)
                    assert alg.node_scale(i, t, T, d) == pytest.approx(want, rel=1e-12)
            p = PrivateLinUCB(eps=EPS, L=L, sensitivity=mode)
            assert p.node_scale(0, 1, T, d) == pytest.approx(_private_scale(T, d, mode), rel=1e-12)
            assert p.node_scale(3, 15, T, d) == p.node_scale(0, 1, T, d)  # constant sensitivity


@pytest.mark.parametrize("make, scale_of", [
    (lambda m: LinUCBDGS(eps=EPS, delta=DELTA, alpha=1.0, lambda0=100.0, sensitivity=m),
     lambda i, t, T, d, m: _dgs_scale(i, t, T, d, 100.0, "paper", "end", m)),
    (lambda m: PrivateLinUCB(eps=EPS, alpha=1.0, sensitivity=m), lambda i, t, T, d, m: _private_scale(T, d, m)),
], ids=["DGS", "Private-LinUCB"])
def test_strict_noise_variance_and_power_against_the_paper_mode(make, scale_of):
    env = make_contextual_env("rdp-contextual")
    T, n, d = 12, 4000, env.d
    cps = np.arange(1, T + 1)

    def ok(noise, mode):
        for t in (3, 8, 11, 12):
            var = sum(2 * scale_of(i, t, T, d, mode) ** 2 for i in _bits(t))
            x = noise[:, t - 1].ravel()
            if abs(x.var() / var - 1) > 5 * math.sqrt(5 / x.size):  # Laplace: Var(s^2) = 5 sigma^4 / n
                return False
        return True

    strict = make("strict").simulate(env, T, n, np.random.default_rng(1), cps).extra["tree_noise"]
    paper = make("paper").simulate(env, T, n, np.random.default_rng(1), cps).extra["tree_noise"]
    assert ok(strict, "strict") and ok(paper, "paper")
    assert not ok(paper, "strict") and not ok(strict, "paper")


# -- 2. the guarantee of Private-LinUCB ------------------------------------------------------------------------
def _max_released_nodes_containing_an_index(T):
    """Brute force: every node of every prefix decomposition t = 1..T, then the largest count over indices j."""
    used = set()
    for t in range(1, T + 1):
        for i in _bits(t):
            e = 2**i * (t // 2**i)
            used.add((e - 2**i + 1, e))
    cover = np.zeros(T + 2, dtype=int)
    for s, e in used:
        cover[s] += 1
        cover[e + 1] -= 1
    counts = np.cumsum(cover)[1:T + 1]
    return int(counts.max()), int(counts[0])


@pytest.mark.parametrize("T", [2, 3, 5, 8, 31, 40, 100, 1000, 1024, 4097, 10_000])
@pytest.mark.parametrize("d", [1, 5, 10])
def test_private_linucb_exact_epsilon(T, d):
    worst, at_one = _max_released_nodes_containing_an_index(T)
    assert worst == at_one  # j = 1 is in the most released nodes
    for mode in ("paper", "strict"):
        alg = PrivateLinUCB(eps=EPS, L=L, sensitivity=mode)
        b = _private_scale(T, d, mode)
        want = 2 * math.sqrt(d) * L * worst / b  # L1 shift 2 ||x||_1 <= 2 sqrt(d) L per node, loss = shift / b
        assert alg.privacy_epsilon(T, d) == pytest.approx(want, rel=1e-12)
        if mode == "paper":
            assert want == pytest.approx(2 * math.sqrt(d) * (math.floor(math.log2(T)) + 1) / math.log2(T) * EPS)
            assert want > EPS  # NOT eps-DP
        else:
            assert want <= EPS * (1 + 1e-12)
            if T & (T - 1) == 0:
                assert want == pytest.approx(EPS)
    assert PrivateLinUCB(eps=EPS, noise_mult=2.0).privacy_epsilon(T, d) == pytest.approx(
        PrivateLinUCB(eps=EPS).privacy_epsilon(T, d) / 2)


@pytest.mark.parametrize("mode", ["paper", "strict"])
def test_private_linucb_epsilon_is_attained(mode):
    """Worst neighbours: x_1 = (L/sqrt d) 1 at t = 1, r_1 = -1 against +1; the released nodes containing 1 shift by
    2 x_1. At an output point beyond both means the privacy loss (scipy Laplace log-densities) equals eps_true."""
    T, d = 100, 10
    alg = PrivateLinUCB(eps=EPS, L=L, sensitivity=mode)
    b = alg.node_scale(0, 1, T, d)
    nodes = [(1, 2**i) for i in range(T.bit_length())]  # the released nodes containing index 1
    x = np.full(d, L / math.sqrt(d))
    mu = np.zeros((len(nodes), d))  # node means (other rewards fixed, so only the shift matters)
    mu2 = mu + 2 * x
    y = mu2 + 40 * b
    loss = float((stats.laplace.logpdf(y, mu2, b) - stats.laplace.logpdf(y, mu, b)).sum())
    assert loss == pytest.approx(alg.privacy_epsilon(T, d), rel=1e-9)
    assert (loss > EPS) == (mode == "paper")


def test_private_linucb_epsilon_bad_input():
    with pytest.raises(InputError):
        PrivateLinUCB().privacy_epsilon(0, 3)
    with pytest.raises(InputError):
        PrivateLinUCB().privacy_epsilon(10, 3, reward_range=-1)
    with pytest.raises(InputError):
        PrivateLinUCB(sensitivity="exact")
    with pytest.raises(InputError):
        LinUCBDGS(tree="per-call")


# -- 3. memoised tree: covariance structure; fresh-noise mutant rejected ---------------------------------------
def _nodes(t):
    return {(2**i * (t // 2**i) - 2**i + 1, 2**i * (t // 2**i), i) for i in _bits(t)}


def _memo_structure_holds(alg, scale_of, n=4000, T=8):
    """Every sample covariance of (eta_s, eta_t), s <= t <= T, within 5 standard errors of the memoised tree's
    sum_{shared nodes} 2 b^2."""
    env = make_contextual_env("rdp-contextual")
    noise = alg.simulate(env, T, n, np.random.default_rng(7), np.arange(1, T + 1)).extra["tree_noise"]
    worst = 0.0
    for s in range(1, T + 1):
        for t in range(s, T + 1):
            want = sum(2 * scale_of(i, e, T) ** 2 for (_, e, i) in _nodes(s) & _nodes(t))
            prod = (noise[:, s - 1] * noise[:, t - 1]).ravel()  # the noise has mean 0
            z = (prod.mean() - want) / (prod.std() / math.sqrt(prod.size))
            worst = max(worst, abs(z))
    return worst < 5


@pytest.mark.parametrize("tree", ["memo", "fresh"])
def test_memoised_tree_noise_structure_and_fresh_mutant(tree):
    lam0, T, d = 100.0, 8, 5
    dgs = LinUCBDGS(eps=EPS, delta=DELTA, alpha=1.0, lambda0=lam0, tree=tree)
    held = _memo_structure_holds(dgs, lambda i, e, T: _dgs_scale(i, e, T, d, lam0, "paper", "end", "paper"))
    assert held == (tree == "memo")
    priv = PrivateLinUCB(eps=EPS, alpha=1.0, tree=tree)
    assert _memo_structure_holds(priv, lambda i, e, T: _private_scale(T, d, "paper")) == (tree == "memo")


# -- 4. labels -------------------------------------------------------------------------------------------------
def test_labels_state_the_guarantee():
    p = PrivateLinUCB(eps=1.0).describe()
    assert p["notion"] == "pure" and "NOT eps-DP" in p["guarantee"] and "2 sqrt(d)" in p["guarantee"]
    assert p["sensitivity"] == "paper" and p["tree"] == "memo"
    s = PrivateLinUCB(eps=1.0, sensitivity="strict").describe()
    assert s["guarantee"].startswith("pure eps-DP")
    assert "NOT eps-DP" not in s["guarantee"]
    g = LinUCBDGS().describe()["guarantee"]
    assert "ERRATA 6" in g and "L2 sensitivity" in g
    assert "ERRATA 7" in LinUCBDGS(tree="fresh").describe()["guarantee"]
    assert "L1 sensitivity" in LinUCBDGS(sensitivity="strict").describe()["guarantee"]
    assert "strict" in PrivateLinUCB.guarantee and "ERRATA 6" in LinUCBDGS.guarantee
    from boundcalc import algorithms as algos

    assert algos.guarantee(PrivateLinUCB) == PrivateLinUCB.guarantee
    assert algos.guarantee(PrivateLinUCB(eps=1.0, sensitivity="strict")).startswith("pure eps-DP")
    assert algos.guarantee(algos.lookup("AdaC-OFUL")).startswith("zcdp")
    assert algos.guarantee(algos.lookup("LinUCB")).startswith("none")
    registry = pytest.importorskip("boundcalc.bounds.registry")
    for bid in LinUCBDGS.bound_ids:
        assert any("sqrt(d)" in c and "strict" in c for c in registry.get(bid).caveats)


runner = CliRunner()


def _sim(args):
    from boundcalc.cli.app import app

    r = runner.invoke(app, ["simulate", "--env", "rdp-contextual", "--T", "40", "--runs", "3", "--seed", "2",
                            "--json", *args])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _direct(alg, T=40, runs=3, seed=2):
    from boundcalc.montecarlo import log_checkpoints, run

    return run(alg, make_contextual_env("rdp-contextual", seed=3), T, runs, seed=seed,
               checkpoints=log_checkpoints(T, 12), block_runs=50)


@pytest.mark.parametrize("params, make", [
    ([], lambda: PrivateLinUCB(1.0)),
    (["--param", "sensitivity=strict"], lambda: PrivateLinUCB(1.0, sensitivity="strict")),
    (["--param", "tree=fresh"], lambda: PrivateLinUCB(1.0, tree="fresh")),
])
def test_cli_private_linucb_options_and_label(params, make):
    d = _sim(["--algo", "Private-LinUCB", "--epsilon", "1", *params])
    alg = make()
    assert d["algorithm"]["guarantee"] == alg.guarantee_text()
    assert d["inputs"]["params"]["sensitivity"] == alg.sensitivity and d["inputs"]["params"]["tree"] == alg.tree
    assert d["regret_mean"] == pytest.approx(float(_direct(alg).mean()[-1]), rel=1e-12)


def test_cli_dgs_tree_and_sensitivity_options_take_effect():
    # eps = 20: noise comparable to the signal (with much larger noise the argmax of x^T eta is scale-free, so the
    # paper and strict scales can pick the same arms)
    args = ["--algo", "LinUCB-DGS", "--epsilon", "20", "--delta", "0.1", "--param", "alpha=1"]
    base = _sim(args)
    for opt, kw in (("tree=fresh", {"tree": "fresh"}), ("sensitivity=strict", {"sensitivity": "strict"})):
        d = _sim([*args, "--param", opt])
        alg = LinUCBDGS(20.0, 0.1, alpha=1.0, **kw)
        assert d["regret_mean"] == pytest.approx(float(_direct(alg).mean()[-1]), rel=1e-12)
        assert d["regret_mean"] != base["regret_mean"]
        assert d["algorithm"]["guarantee"] == alg.guarantee_text()
