"""The leader-stretch engine of UCB, KL-UCB and IMED (algorithms/finite/_stretch.py) against the per-step
algorithms (issue 9 §4).

1. Exact: the engine and the plain step-by-step ``reference`` read one reward tape (the j-th pull of arm a
   gets tape[a][j]) and one tie Generator per run; they must make the same decisions: equal pull counts and
   regret at every checkpoint, run by run. Mutants of the engine's certificate kept as parametrised cases
   (the others' exploration growth ignored; the leader's bridge envelope or own growth ignored) must break
   that equality: the comparison has power.
2. KL-UCB's certificate and refutation at their boundary: blocks whose true gap (mpmath) is 2 MARGIN plus
   -1e-7..1e-2, the leader far from its state at the stretch start: sound (nothing short of the gap accepted)
   and complete (everything 1e-9 past it accepted); mutants loosened by 1e-6 and the old threshold guess
   (first-order models from the stretch start, which made KL-UCB on mu1 at T = 1e7 split every block of a
   long stretch down to single steps) are rejected. A starved-start long stretch on one tape: engine ==
   reference, and few steps decided one by one.
3. In distribution, with fresh draws: the engine (Binomial/Hypergeometric draws) against the vectorised
   per-step loop ``simulate_steps`` (one Bernoulli draw per step), regret at several checkpoints and pull
   counts and the number of stretches (Kolmogorov-Smirnov and Welch, Bonferroni, level ALPHA); the same
   statistic rejects the mutants (and the naive shortcut: accept a block when the leader leads at its first
   step). ``simulate`` takes the per-step loop below the card's ``stretch_min_T`` (faster there): the tests of the
   engine through ``simulate`` force it (fixture ``force_stretch``).
4. The path choice (issue 17 §8): at the real (algorithm, T), ``simulate`` takes the path the measured rule
   (benchmarks/RESULTS_stretch_switch.md) says and ``granularity(alg, env, T)`` names it; below the switch
   ``simulate`` is the per-step loop itself (same stream, same numbers). Mutant rules are rejected.
"""

import dataclasses
import functools
import warnings

import numpy as np
import pytest
from scipy import stats

from boundcalc.algorithms.finite import IMED, KLUCB, UCB
from boundcalc.algorithms.finite import _stretch, nonprivate
from boundcalc.envs import BernoulliEnv, GaussianEnv

ALPHA = 1e-3


# the cards' switches (stretch_min_T of UCB, KL-UCB, IMED), read once; mutants set them on the classes
SWITCHES = {cls.name: cls.stretch_min_T for cls in (UCB, KLUCB, IMED)}


def _set_switches(monkeypatch, switches: dict) -> None:
    for cls in (UCB, KLUCB, IMED):
        monkeypatch.setattr(cls, "stretch_min_T", switches[cls.name])


@pytest.fixture
def force_stretch(monkeypatch):
    """``simulate`` takes the leader-stretch engine at every T (these tests check the engine, at small T)."""
    _set_switches(monkeypatch, dict.fromkeys(SWITCHES, 0))


# ---------------------------------------------------------------------------------------------------
# mutants: certificates with a shortcut (each accepts blocks the true policy would not play in full)
# ---------------------------------------------------------------------------------------------------
class UCBNoGrowth(UCB):
    """Mutant: the others' exploration bonus taken at the stretch's first round (its growth ignored)."""

    def certify(self, box):
        return super().certify(dataclasses.replace(box, r_hi=box.r0))


class UCBNoEnvelope(UCB):
    """Mutant: the leader's mean at the block's first step used for the whole block (no bridge envelope)."""

    def certify(self, box):
        return super().certify(dataclasses.replace(box, mean_lo=box.mean1))


class KLUCBNoGrowth(KLUCB):
    """Mutant: the others' kl-UCB level taken at the stretch's first round (its growth ignored)."""

    def certify(self, box):
        return super().certify(dataclasses.replace(box, r_hi=box.r0))


class KLUCBNoEnvelope(KLUCB):
    """Mutant: the leader's mean at the block's first step used for the whole block (no bridge envelope)."""

    def certify(self, box):
        return super().certify(dataclasses.replace(box, mean_lo=box.mean1))


class IMEDNoGrowth(IMED):
    """Mutant: the leader's ln n and n kl(.) taken at the block's first step (its own growth ignored)."""

    def certify(self, box):
        return super().certify(dataclasses.replace(box, n_hi=box.n_lo, mean_lo=box.mean1))


def _tapes(means, runs, T, seed):
    rng = np.random.default_rng(seed)
    return (rng.random((runs, len(means), T + 1)) < np.asarray(means)[None, :, None]).astype(np.int64)


_REFERENCE_RUNS = {}  # the step-by-step reference on one tape, shared by the tests of one worker (group "fastpath-tape")


def _reference_on_tape(alg, means, tape, T, seed, r, cps):
    """``alg.reference`` on ``tape`` with the tie stream default_rng([seed, r]), cached: a mutant of the engine's
    certificate (it overrides ``certify``, never ``index`` or ``reference``) reads the same reference run as its
    policy on the same tape, so the step-by-step loop (most of these tests' time) runs once per tape and policy."""
    key = (type(alg).index, type(alg).reference, tuple(sorted(alg.params().items())), tuple(means), T, seed, r,
           tape.tobytes(), cps.tobytes())
    if key not in _REFERENCE_RUNS:
        _REFERENCE_RUNS[key] = alg.reference(_stretch.TapeEnv(means, tape), T, np.random.default_rng([seed, r]), cps)
    return _REFERENCE_RUNS[key]


def _mismatches(alg, means, T, runs=8, seed=0, stop_at=None):
    """Runs in which the engine and the reference, on one tape and one tie stream, disagree (counting stops at
    ``stop_at``: enough for an assertion ``>= stop_at``)."""
    tapes = _tapes(means, runs, T, seed)
    cps = np.unique(np.geomspace(1, T, 25).astype(np.int64))
    fast = _stretch.simulate(alg, means, T, runs,
                             _stretch.TapeSource(tapes, [np.random.default_rng([seed, r]) for r in range(runs)]), cps)
    bad = 0
    for r in range(runs):
        ref = _reference_on_tape(alg, means, tapes[r], T, seed, r, cps)
        same = np.array_equal(ref.pulls[0], fast.pulls[r]) and np.allclose(ref.regret[0], fast.regret[r], rtol=0,
                                                                            atol=1e-9)
        bad += not same
        if stop_at is not None and bad >= stop_at:
            break
    return bad


POLICIES = [UCB(), UCB(c=0.5), KLUCB(), KLUCB(c=3.0), IMED(), UCB(ties="lowest"), KLUCB(ties="lowest"),
            IMED(ties="lowest")]
MU2 = [0.75, 0.625, 0.5, 0.375, 0.25]
EDGE_MEANS = [[0.7, 0.5, 0.4], [0.5, 0.5, 0.3, 0.5], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.9, 0.1],
              [0.02, 0.01, 0.015]]


# T = 1500: the six tapes of the mutants' test below (seed 3), whose reference runs this group's cache shares
LONG_TAPES = dict(T=1500, runs=6, seed=3)


@pytest.mark.xdist_group("fastpath-tape")  # one worker: the cached reference runs (_REFERENCE_RUNS) are built once
@pytest.mark.parametrize("alg", POLICIES, ids=lambda a: f"{a.name}-{a.params()}")
def test_engine_equals_reference_on_one_tape(alg):
    # T = 1 and T = K (initial round-robin only), K + 1 (one decision), short and long horizons
    for T in (1, 5, 6, 40):
        assert _mismatches(alg, MU2, T, runs=4, seed=T) == 0, (alg.name, T)
    assert _mismatches(alg, MU2, **LONG_TAPES) == 0, (alg.name, LONG_TAPES)


@pytest.mark.parametrize("alg", [UCB(), KLUCB(), IMED()], ids=lambda a: a.name)
@pytest.mark.parametrize("means", EDGE_MEANS, ids=str)
def test_engine_equals_reference_on_one_tape_edge_means(alg, means):
    # means at 0 and 1 (deterministic rewards, exact ties), equal arms, tiny means
    for T in (len(means), 30, 300):
        assert _mismatches(alg, means, T, runs=4, seed=T) == 0, (alg.name, means, T)


def test_tape_runs_exercise_ties():
    # equal arms with deterministic rewards: every decision after the first rounds is a tie; the random
    # tie-breaks must be drawn identically by the engine and the reference (and not all go to one arm)
    means = [1.0, 1.0, 1.0]
    T, runs = 61, 8
    tapes = _tapes(means, runs, T, 1)
    fast = _stretch.simulate(UCB(), means, T, runs,
                             _stretch.TapeSource(tapes, [np.random.default_rng([1, r]) for r in range(runs)]),
                             np.array([T]))
    assert len({tuple(p) for p in fast.pulls}) > 1
    assert _mismatches(UCB(), means, T, runs=runs, seed=1) == 0


@pytest.mark.xdist_group("fastpath-tape")  # the reference runs of test_engine_equals_reference_on_one_tape
@pytest.mark.parametrize("mutant", [UCBNoGrowth(), UCBNoEnvelope(), KLUCBNoGrowth(), KLUCBNoEnvelope(),
                                    IMEDNoGrowth()], ids=lambda m: type(m).__name__)
def test_tape_comparison_catches_a_shortcut(mutant):
    assert _mismatches(mutant, MU2, **LONG_TAPES, stop_at=3) >= 3


# ---------------------------------------------------------------------------------------------------
# KL-UCB's certificate at its boundary, and its threshold far from the stretch start
# ---------------------------------------------------------------------------------------------------
def _np_kl(x, q):
    with np.errstate(divide="ignore", invalid="ignore"):
        return x * np.log(x / q) + (1 - x) * np.log((1 - x) / (1 - q))


def _newton_q_step(x, level, q):
    """One Newton step on kl(x, q) = level in q (the engine's threshold guess before the fix)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q = np.clip(q, np.nextafter(x, 1.0), np.nextafter(1.0, 0.0))
        out = np.clip(q - (_np_kl(x, q) - level) * q * (1 - q) / (q - x), x, 1.0)
    return np.where(np.isfinite(out), out, q)


class KLUCBFirstOrderTheta(KLUCB):
    """Mutant (speed, not soundness): the certificate's threshold guessed as before the fix -- first-order
    models of the indexes from the stretch start, one Newton step in q. Far from the start (a starved arm that
    took the lead at n = 10 and keeps it to n = 3000) the guess falls outside the gap: nothing is certified,
    every block is split down to single steps decided one by one (409 CPU s instead of 33 for mu1 at 1e7)."""

    def stretch_setup(self, S, N, lead, t0, scores):
        m = np.clip(S / N, 0.0, 1.0)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            dlev = scores * (1 - scores) / (scores - m)
            dx = (np.log(scores) - np.log1p(-scores) - np.log(m) + np.log1p(-m)) * dlev
        return {"m0": m, "q0": scores, "dlev": dlev, "dx": dx, "e0": self._explore((t0 + 1).astype(float))}

    def _theta(self, box, mean, lev_lead, e_oth):
        p, j, a = box.pre, np.arange(box.lead.size), box.lead
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            q_lead = (p["q0"][j, a] + p["dx"][j, a] * (mean - p["m0"][j, a])
                      + p["dlev"][j, a] * (lev_lead - p["e0"] / box.N[j, a]))
            q_lead = _newton_q_step(mean, lev_lead, q_lead)
            m = np.clip(box.S / box.N, 0.0, 1.0)
            q_oth = _newton_q_step(m, e_oth[:, None] / box.N,
                                   p["q0"] + p["dlev"] * ((e_oth - p["e0"])[:, None] / box.N))
            return 0.5 * (q_lead + np.where(box.others, q_oth, -np.inf).max(axis=1))


class KLUCBTinyLoose(KLUCB):
    """Mutant: the leader's level taken 1e-6 (relative) too large in the certificate and too small in the
    refutation (a tiny loosening of each)."""

    def certify(self, box):
        return super().certify(dataclasses.replace(box, n_hi=box.n_hi * (1 - 1e-6)))

    def refute(self, box):
        return super().refute(dataclasses.replace(box, n_lo=box.n_lo * (1 + 1e-6)))


GAP_OFFSETS = (-1e-7, -1e-9, -1e-10, 1e-9, 1e-7, 1e-4, 1e-2)  # |true gap| minus 2 MARGIN


@functools.lru_cache(maxsize=None)
def _boundary_rows(c, side, seed=11, stretches=12):
    """Blocks on K = 3 arms (leader: arm 0, from 5..40 pulls at the stretch start) at the boundary of KL-UCB's
    certificate (``side`` = "certify": the leader's kl-UCB index at the block's worst corner minus the best
    other index at the block's last round) or refutation ("refute": the best other index minus the leader's,
    both at the block's first step): that gap is 2 MARGIN + each of GAP_OFFSETS, in mpmath at 40 digits,
    independently of the engine. The leader's count is solved from the target gap (its mean chosen 0.002..0.15
    below its index), far from its stretch-start state; its rounding to a float moves the index by < 1e-15
    (relative level error 1.1e-16 times q - x). Returns arrays S, N, t0, x, n, r_lo, r_hi and the gap minus
    2 MARGIN, one row per block."""
    import mpmath

    from boundcalc.algorithms.finite.nonprivate import MARGIN
    from boundcalc.info import kl_bernoulli_mp, kl_ucb_mp

    alg = KLUCB(c=c)
    rng = np.random.default_rng([seed, int(c), side == "refute"])
    rows = []
    with mpmath.workdps(40):
        for _ in range(stretches):
            N = np.array([rng.integers(5, 40), rng.integers(50, 5000), rng.integers(50, 5000)], dtype=float)
            S = np.floor(N * rng.uniform(0.3, 0.8, 3))
            t0 = float(rng.integers(int(N.sum()), 50 * int(N.sum())))
            s = float(rng.integers(2, 10**5))
            r_lo, r_hi = (t0 + 1, t0 + s) if side == "certify" else (t0 + s, t0 + s)
            e_oth = mpmath.mpf(float(alg._explore(np.array(r_hi))))
            top = max(kl_ucb_mp(mpmath.mpf(S[b]) / int(N[b]), e_oth / int(N[b])) for b in (1, 2))
            for off in GAP_OFFSETS:
                sign = 1 if side == "certify" else -1
                target = top + sign * (2 * mpmath.mpf(MARGIN) + mpmath.mpf(off))
                x = float(target) - rng.uniform(0.002, 0.15)
                n = float(mpmath.mpf(float(alg._explore(np.array(r_lo)))) / kl_bernoulli_mp(x, target))
                rows.append((S, N, t0, x, n, r_lo, r_hi, off))
    return tuple(np.array([r[i] for r in rows]) for i in range(8))


def _boundary_box(alg, rows):
    """The Box of ``_boundary_rows`` for ``alg`` (its own stretch-start precomputations)."""
    S, N, t0, x, n, r_lo, r_hi, _ = rows
    lead = np.zeros(x.size, dtype=np.int64)
    others = np.ones(N.shape, dtype=bool)
    others[:, 0] = False
    scores = alg.index(S, N, (t0 + 1)[:, None])
    return _stretch.Box(lead=lead, mean1=x, mean_lo=x, n_lo=n, n_hi=n, r_lo=r_lo, r_hi=r_hi, r0=t0 + 1,
                        S=S, N=N, others=others, pre=alg.stretch_setup(S, N, lead, t0, scores))


@pytest.mark.xdist_group("fastpath-boundary")  # one worker: the cached rows (_boundary_rows) are built once
@pytest.mark.parametrize("side", ["certify", "refute"])
@pytest.mark.parametrize("c", [0.0, 3.0])
@pytest.mark.parametrize("alg_cls", [KLUCB, KLUCBTinyLoose, KLUCBFirstOrderTheta], ids=lambda a: a.__name__)
def test_klucb_certificate_at_its_boundary(alg_cls, c, side):
    # sound: a block is certified (refuted) only if its true gap exceeds 2 MARGIN (up to float rounding,
    # < 1e-13); complete: every block whose gap exceeds 2 MARGIN by 1e-9 is certified (refuted), however far the
    # leader is from its state at the stretch start (the threshold guess lands inside a gap of width 1e-9)
    rows = _boundary_rows(c, side)
    off = rows[-1]
    alg = alg_cls(c=c)
    yes = getattr(alg, side)(_boundary_box(alg, rows))
    sound = not yes[off < -1e-13].any()
    complete = yes[off >= 1e-9].all()
    if alg_cls is KLUCB:
        assert sound and complete, [(o, int(yes[off == o].sum())) for o in GAP_OFFSETS]
    elif alg_cls is KLUCBTinyLoose:  # a 1e-6 relative loosening accepts blocks 1e-10 short of the gap
        assert not sound
    else:  # the old threshold guess misses most gaps far from the stretch start
        assert yes[off >= 1e-9].mean() < 0.5


def test_klucb_threshold_brackets():
    # _kl_ucb_bracket (the threshold guess's building block): hi is right of the kl-UCB index after any Newton
    # step in logit(q) (convexity), from any guess (uniform, near, NaN, >= 1), edges x = 0 and 1 included; the
    # steps from hi converge to the index (boundcalc.info.kl_ucb, itself tested against mpmath): quadratically
    # from a near guess, in up to ~15 steps from a far one (the engine's guesses are near)
    from boundcalc.algorithms.finite.nonprivate import _kl_ucb_bracket
    from boundcalc.info import kl_ucb

    rng = np.random.default_rng(0)
    n = 20000
    x = rng.uniform(0, 1, n)
    x[:200], x[200:400] = 0.0, 1.0
    lev = 10 ** rng.uniform(-9, 1, n)
    exact = kl_ucb(x, lev)
    settled = (lev > 1e-6) & (x > 1e-3)  # tiny levels at extreme x need more steps (never needed there)
    for guess in (rng.uniform(0, 1, n), exact + rng.normal(0, 1e-3, n), np.full(n, np.nan), np.full(n, 2.0)):
        lo, hi = _kl_ucb_bracket(x, lev, guess)
        assert (hi >= exact - 1e-15).all() and (lo <= hi).all()
        for _ in range(16):
            lo, hi = _kl_ucb_bracket(x, lev, hi)
        assert (hi >= exact - 1e-15).all()
        assert np.abs(hi - exact)[settled].max() < 1e-12
    width = exact - x
    lo, hi = _kl_ucb_bracket(x, lev, exact + 1e-3 * width)  # near (0.1% of the width off): one step
    assert (np.abs(hi - exact) <= 1e-5 * width + 1e-15)[settled].all()


def test_klucb_long_stretch_from_a_starved_start():
    # the starved-arm regime of mu1 at T = 1e7, small: arm 0 (mean 0.75) starts with 2 rewards in 10 pulls,
    # takes the lead early and keeps it for thousands of pulls. The engine equals the reference on the tape and
    # decides only a few dozen single steps exactly; the old threshold guess certified nothing there and decided
    # almost every step one by one
    means, T, runs = [0.75, 0.6], 3000, 4
    tapes = _tapes(means, runs, T, 5)
    tapes[:, 0, :10] = 0
    tapes[:, 0, :2] = 1

    class Enough(Exception):
        pass

    def exact_steps(cls, stop_above=None):
        """(exact index rows, result); with ``stop_above`` the run is abandoned once the count exceeds it (all the
        assertion below needs of the old guess, which would go on deciding nearly every step one by one)."""
        class Counted(cls):
            n = 0

            def index(self, S, N, t):
                Counted.n += S.shape[0]
                if stop_above is not None and Counted.n > stop_above:
                    raise Enough
                return super().index(S, N, t)

        try:
            out = _stretch.simulate(Counted(), means, T, runs,
                                    _stretch.TapeSource(tapes, [np.random.default_rng([5, r]) for r in range(runs)]),
                                    np.array([T]))
        except Enough:
            out = None
        return Counted.n, out

    n_fix, fast = exact_steps(KLUCB)
    n_old, _ = exact_steps(KLUCBFirstOrderTheta, stop_above=0.5 * runs * T)
    assert (fast.pulls[:, 0] > 0.8 * T).all()
    for r in range(runs):
        ref = KLUCB().reference(_stretch.TapeEnv(means, tapes[r]), T, np.random.default_rng([5, r]), np.array([T]))
        np.testing.assert_array_equal(ref.pulls[0], fast.pulls[r])
    assert n_fix < 0.02 * runs * T < 0.5 * runs * T < n_old, (n_fix, n_old)


# ---------------------------------------------------------------------------------------------------
# in distribution, fresh draws
# ---------------------------------------------------------------------------------------------------
def _two_sample_p(a, b):
    """Bonferroni-corrected smallest p-value over checkpoints/arms (KS on the laws, Welch on the means)."""
    ps = []
    warnings.simplefilter("ignore", RuntimeWarning)
    for j in range(a.shape[1]):
        x, y = np.round(a[:, j], 9), np.round(b[:, j], 9)
        if np.ptp(np.concatenate([x, y])) == 0:
            continue
        ps.append(stats.ks_2samp(x, y).pvalue)
        ps.append(stats.ttest_ind(x, y, equal_var=False).pvalue)
    return min(1.0, min(ps) * len(ps))


class StartOnly:
    """Mutant mixin: a block is accepted whenever the leader is ahead at its first step (the envelope, the
    leader's own growth and the others' growth all ignored): the naive shortcut."""

    def certify(self, box):
        return super().certify(dataclasses.replace(box, mean_lo=box.mean1, n_hi=box.n_lo, r_hi=box.r_lo))


class UCBStartOnly(StartOnly, UCB):
    pass


class KLUCBStartOnly(StartOnly, KLUCB):
    pass


class IMEDStartOnly(StartOnly, IMED):
    pass


# (policy, mutant or None, means): T = 3000, 400 runs each. The statistic includes the number of stretches
# (``episodes``: maximal runs of one arm), which a shortcut that accepts too much merges; regret and pull
# counts alone barely move (an index policy makes up a delayed pull). KL-UCB's no-growth mutant is caught by
# the exact tape comparison above, not reliably at this sample size.
DIST_CASES = [
    (UCB(), None, MU2),
    (KLUCB(), None, MU2),
    (IMED(), None, MU2),
    (UCB(), None, [0.9, 0.8, 0.2]),
    (KLUCB(), None, [0.99, 0.9, 0.5]),
    (IMED(), None, [0.9, 0.8, 0.2]),
    (UCB(), UCBStartOnly(), MU2),
    (KLUCB(), KLUCBStartOnly(), MU2),
    (IMED(), IMEDStartOnly(), MU2),
    (UCB(), UCBNoGrowth(), MU2),
    (UCB(), UCBNoEnvelope(), MU2),
    (KLUCB(), KLUCBNoEnvelope(), MU2),
    (IMED(), IMEDNoGrowth(), MU2),
]


@functools.lru_cache(maxsize=None)
def _per_step(cls, means, T, runs):
    """The per-step loop's sample (shared by the cases that compare against it)."""
    return cls().simulate_steps(BernoulliEnv(list(means)), T, runs, np.random.default_rng([1, 1]),
                                np.array([10, 30, 100, 300, 1000, T]))


# one xdist worker for the cases that share a per-step sample (_per_step is cached per process): built once
@pytest.mark.xdist_group("fastpath-per-step")
@pytest.mark.parametrize("alg,mutant,means", DIST_CASES,
                         ids=[f"{c[0].name}-{type(c[1]).__name__ if c[1] else 'engine'}-{c[2]}" for c in DIST_CASES])
def test_engine_matches_per_step_loop_in_distribution(alg, mutant, means, force_stretch):
    env = BernoulliEnv(means)
    T, runs = 3000, 400
    cps = np.array([10, 30, 100, 300, 1000, T])
    steps = _per_step(type(alg), tuple(means), T, runs)
    fast = (mutant or alg).simulate(env, T, runs, np.random.default_rng([2, 1]), cps)
    p = min(_two_sample_p(steps.regret, fast.regret), _two_sample_p(steps.pulls, fast.pulls),
            _two_sample_p(steps.episodes[:, None], fast.episodes[:, None]))
    if mutant is None:
        assert p > ALPHA, (steps.regret.mean(0), fast.regret.mean(0), steps.episodes.mean(), fast.episodes.mean())
    else:  # power: the same statistic rejects the shortcut
        assert p < ALPHA, (steps.regret.mean(0), fast.regret.mean(0), steps.episodes.mean(), fast.episodes.mean())


def test_engine_used_on_bernoulli_only():
    # Gaussian rewards: no exact sufficient-statistic path with bounded rewards; the per-step loop runs
    env = GaussianEnv([0.5, 0.2], sigma=0.1)
    a = UCB().simulate(env, 300, 5, np.random.default_rng(0), np.array([300]))
    b = UCB().simulate_steps(env, 300, 5, np.random.default_rng(0), np.array([300]))
    np.testing.assert_array_equal(a.pulls, b.pulls)
    assert _stretch.step_rewards_env(BernoulliEnv([0.5, 0.2])) and not _stretch.step_rewards_env(env)


def test_engine_reproducible_and_consistent(force_stretch):
    env = BernoulliEnv([0.75, 0.625, 0.5, 0.375, 0.25])
    cps = np.array([7, 70, 700, 7000])
    for alg in (UCB(), KLUCB(), IMED()):
        a = alg.simulate(env, 7000, 20, np.random.default_rng(4), cps)
        b = alg.simulate(env, 7000, 20, np.random.default_rng(4), cps)
        np.testing.assert_array_equal(a.regret, b.regret)
        assert (a.pulls.sum(axis=1) == 7000).all()
        np.testing.assert_allclose(a.regret[:, -1], a.pulls @ env.gaps, atol=1e-9)
        assert (np.diff(a.regret, axis=1) >= -1e-12).all()


# ---------------------------------------------------------------------------------------------------
# Lazy-DP-TS by thinning (algorithms/finite/_thinned_ts.py)
# ---------------------------------------------------------------------------------------------------
from boundcalc.algorithms.finite import LazyDPTS  # noqa: E402
from boundcalc.algorithms.finite import _thinned_ts  # noqa: E402


def test_theta_given_open_is_the_conditional_law():
    # the conditional sampler against rejection sampling from the unconditional product law restricted to D
    rng = np.random.default_rng(3)
    A = np.array([[60.0, 20.0, 9.0, 3.0]])
    B = np.array([[25.0, 15.0, 11.0, 2.0]])
    a, c = 0, 0.62
    is_lead = np.array([[True, False, False, False]])
    from scipy import special as sp

    lo, hi = sp.betainc(A, B, c), sp.betainc(B, A, 1 - c)
    bad = np.where(is_lead, lo, hi)
    n = 20000
    cond = _thinned_ts.theta_given_open(rng, np.repeat(A, n, 0), np.repeat(B, n, 0), np.repeat(lo, n, 0),
                                        np.repeat(hi, n, 0), np.repeat(is_lead, n, 0), np.repeat(bad, n, 0))
    free = rng.beta(np.repeat(A, 4 * n, 0), np.repeat(B, 4 * n, 0))
    inD = (free[:, a] < c) | (np.delete(free, a, axis=1) > c).any(axis=1)
    ref = free[inD]
    assert inD.mean() == pytest.approx(1 - (1 - lo[0, a]) * np.prod(1 - np.delete(bad[0], a)), abs=0.01)
    for k in range(4):
        assert stats.ks_2samp(cond[:, k], ref[:, k]).pvalue > ALPHA
    wins = np.bincount(cond.argmax(axis=1), minlength=4), np.bincount(ref.argmax(axis=1), minlength=4)
    assert stats.chi2_contingency(np.array(wins)).pvalue > ALPHA
    # power: unconditional draws are not that law
    assert stats.ks_2samp(free[: cond.shape[0], 0], ref[:, 0]).pvalue < ALPHA


def _lazy_p():
    env = BernoulliEnv([0.7, 0.5, 0.4])
    T, runs = 1500, 400
    cps = np.array([10, 30, 100, 300, 1000, T])
    alg = LazyDPTS(epsilon=1.0)
    steps = _lazy_steps(T, runs)
    fast = alg.simulate(env, T, runs, np.random.default_rng([2, 2]), cps)
    return min(_two_sample_p(steps.regret, fast.regret), _two_sample_p(steps.pulls, fast.pulls),
               _two_sample_p(steps.episodes[:, None], fast.episodes[:, None]))


@functools.lru_cache(maxsize=None)
def _lazy_steps(T, runs):
    return LazyDPTS(epsilon=1.0).simulate_steps(BernoulliEnv([0.7, 0.5, 0.4]), T, runs,
                                                np.random.default_rng([1, 2]), np.array([10, 30, 100, 300, 1000, T]))


@pytest.mark.xdist_group("fastpath-lazy")  # one worker: the cached per-step sample (_lazy_steps) is built once
@pytest.mark.parametrize("mutant", [None, "unconditional theta", "first bad uniform"])
def test_lazy_dp_ts_thinning_matches_per_step_loop(monkeypatch, mutant):
    # thinning from round 31 on (the per-step phase shortened, thinning at this small eps * T), against the loop
    monkeypatch.setattr(_thinned_ts, "PER_STEP_ROUNDS_PER_ARM", 10)
    monkeypatch.setattr(_thinned_ts, "MIN_EPS_T", 0.0)
    if mutant == "unconditional theta":  # an open round drawn from the unconditional law
        monkeypatch.setattr(_thinned_ts, "theta_given_open", lambda rng, A, B, lo, hi, isl, bad: rng.beta(A, B))
    if mutant == "first bad uniform":  # the leaving coordinate drawn uniformly instead of by its probability
        real = _thinned_ts.theta_given_open

        def wrong(rng, A, B, lo, hi, isl, bad):
            return real(rng, A, B, lo, hi, isl, np.full_like(bad, 0.5))
        monkeypatch.setattr(_thinned_ts, "theta_given_open", wrong)
    p = _lazy_p()
    if mutant is None:
        assert p > ALPHA
    else:
        assert p < ALPHA


def test_lazy_dp_ts_thinning_noise_and_bookkeeping(monkeypatch):
    # thinning keeps the release schedule: noise of every release is Lap(1/(eps O)), O = 1, 2, 4, ...
    monkeypatch.setattr(_thinned_ts, "PER_STEP_ROUNDS_PER_ARM", 10)
    monkeypatch.setattr(_thinned_ts, "MIN_EPS_T", 0.0)
    eps = 0.6
    out = LazyDPTS(epsilon=eps, record_noise=True).simulate(BernoulliEnv([0.7, 0.5, 0.3]), 20000, 40,
                                                          np.random.default_rng(9), np.array([100, 20000]))
    z, O = out.extra["noise_draws"], out.extra["noise_O"]
    assert stats.kstest(z * eps * O, "laplace").pvalue > ALPHA and O.max() >= 1024
    assert z.size == out.episodes.sum() + 3 * 40 and (out.pulls.sum(axis=1) == 20000).all()
    np.testing.assert_allclose(out.regret[:, -1], out.pulls @ np.array([0.0, 0.2, 0.4]), atol=1e-9)


def test_granularity_follows_the_environment():
    """The bulk paths need Bernoulli rewards: on Gaussian arms the same algorithms loop over every step, and the
    step caps and per-step limits (worksheets, simulate, regret --check) must see that."""
    from boundcalc.algorithms import granularity
    from boundcalc.algorithms.finite import IMED, KLUCB, UCB, LazyDPTS
    from boundcalc.envs import make_env
    from boundcalc.envs.base import GaussianEnv

    bern = make_env("mu2")
    gauss = GaussianEnv(bern.means, sigma=0.5)
    for alg, fast in ((IMED(), "stretch"), (KLUCB(), "stretch"), (UCB(), "stretch"), (LazyDPTS(1.0), "thinning")):
        assert granularity(alg) == fast
        assert granularity(alg, bern) == fast
        assert granularity(alg, gauss) == "step"


@pytest.mark.parametrize("eps, T, thinned", [(1.0, 10**5, False), (0.01, 10**6, False), (1.0, 5 * 10**5, True),
                                             (0.1, 10**7, True)])
def test_lazy_dp_ts_takes_the_per_step_loop_where_thinning_is_slower(monkeypatch, eps, T, thinned):
    """Below eps * T = MIN_EPS_T ``simulate`` is the per-step loop itself (same stream, same numbers); above, the
    thinning path (replaced here by a sentinel, so nothing long runs)."""
    env = BernoulliEnv([0.7, 0.5, 0.4])
    calls = []
    alg = LazyDPTS(epsilon=eps)
    with monkeypatch.context() as m:  # sentinels: the choice at the real (eps, T), nothing long runs
        m.setattr(_thinned_ts, "simulate", lambda *a, **k: "thinned")
        m.setattr(LazyDPTS, "simulate_steps", lambda *a, **k: "steps")
        assert alg.simulate(env, T, 3, np.random.default_rng(0), np.array([T])) == ("thinned" if thinned else "steps")
    if thinned:
        return
    monkeypatch.setattr(_thinned_ts, "simulate", lambda *a, **k: calls.append(a) or "thinned")
    T_small = 300  # the same rule at a length that runs in no time: simulate is simulate_steps, exactly
    monkeypatch.setattr(_thinned_ts, "MIN_EPS_T", eps * T_small * 2)
    a = alg.simulate(env, T_small, 20, np.random.default_rng(5), np.array([T_small]))
    b = alg.simulate_steps(env, T_small, 20, np.random.default_rng(5), np.array([T_small]))
    assert not calls and np.array_equal(a.regret, b.regret) and np.array_equal(a.pulls, b.pulls)


# ---------------------------------------------------------------------------------------------------
# which path UCB, KL-UCB and IMED take (issue 17 §8): the engine is slower than the loop at short horizons
# ---------------------------------------------------------------------------------------------------
# The measured rule (benchmarks/RESULTS_stretch_switch.md: stretch engine vs per-step loop, CPU time, K = 2, 5, 10,
# T = 1e3..1e6), written out here at decades and next to each switch, not read from the cards' stretch_min_T.
RULE = {"UCB": {10**3: "step", 10**4: "step", 99_999: "step", 10**5: "stretch", 10**6: "stretch", 10**7: "stretch"},
        "KL-UCB": {10**3: "step", 2_999: "step", 3_000: "stretch", 10**4: "stretch", 10**6: "stretch"},
        "IMED": {10**3: "step", 4_999: "step", 5_000: "stretch", 10**4: "stretch", 10**6: "stretch"}}
RULE_MUTANTS = {
    "always the engine (before issue 17)": dict.fromkeys(SWITCHES, 0),
    "never the engine": dict.fromkeys(SWITCHES, float("inf")),
    "UCB's switch at KL-UCB's": {**SWITCHES, "UCB": SWITCHES["KL-UCB"]},
    "KL-UCB's switch at UCB's": {**SWITCHES, "KL-UCB": SWITCHES["UCB"]},
    "IMED's switch a decade late": {**SWITCHES, "IMED": 10 * SWITCHES["IMED"]},
    "off by one": {k: v + 1 for k, v in SWITCHES.items()},
}


def _taken_paths(monkeypatch, cls):
    """{T: (path simulate takes, granularity(alg, env, T))} at the real horizons of RULE (sentinels: nothing runs)."""
    from boundcalc.algorithms import granularity

    env = BernoulliEnv([0.7, 0.5, 0.4])
    alg = cls()
    out = {}
    with monkeypatch.context() as m:
        m.setattr(_stretch, "simulate", lambda *a, **k: "stretch")
        m.setattr(cls, "simulate_steps", lambda *a, **k: "step")
        for T in RULE[cls.name]:
            out[T] = (alg.simulate(env, T, nonprivate.SWITCH_RUNS, np.random.default_rng(0), np.array([T])),
                      granularity(alg, env, T))
    return out


@pytest.mark.parametrize("mutant", [None, *RULE_MUTANTS])
def test_index_policies_take_the_faster_path(monkeypatch, mutant):
    """At the real (algorithm, T) ``simulate`` takes the path of the measured rule, and ``granularity`` names the
    path it takes; each mutant rule picks the wrong path somewhere and is rejected."""
    if mutant:
        _set_switches(monkeypatch, RULE_MUTANTS[mutant])
    wrong = []
    for cls in (UCB, KLUCB, IMED):
        for T, (taken, named) in _taken_paths(monkeypatch, cls).items():
            assert taken == named, (cls.name, T, taken, named)  # granularity is truthful, mutant or not
            if taken != RULE[cls.name][T]:
                wrong.append((cls.name, T, taken))
    if mutant is None:
        assert not wrong, wrong
    else:
        assert wrong, mutant


@pytest.mark.parametrize("cls, T", [(UCB, 1000), (KLUCB, 300), (IMED, 500)], ids=lambda v: getattr(v, "name", v))
@pytest.mark.parametrize("mutant", [False, True])
def test_below_the_switch_simulate_is_the_per_step_loop(monkeypatch, cls, T, mutant):
    """Below the switch (real thresholds, these T run in a fraction of a second) ``simulate`` is ``simulate_steps``
    on one stream: identical pulls, regret and stretch counts. Mutant: the engine taken there (the old behaviour)
    draws differently and is told apart; the engine is exact in distribution only (tests above)."""
    if mutant:
        _set_switches(monkeypatch, dict.fromkeys(SWITCHES, 0))
    env = BernoulliEnv([0.7, 0.5, 0.4, 0.45])
    cps = np.array([10, 100, T])
    a = cls().simulate(env, T, 10, np.random.default_rng(5), cps)
    b = cls().simulate_steps(env, T, 10, np.random.default_rng(5), cps)
    same = np.array_equal(a.regret, b.regret) and np.array_equal(a.pulls, b.pulls)
    assert same != mutant
    if not mutant:
        np.testing.assert_array_equal(a.episodes, b.episodes)


def test_granularity_at_a_horizon_lazy_dp_ts():
    """``granularity(alg, env, T)`` names the path Lazy-DP-TS's ``simulate`` takes (thinning from eps T = MIN_EPS_T =
    5e5, benchmarks/RESULTS_perstep.md); without T, the long-horizon path; on a class, the class's path."""
    from boundcalc.algorithms import granularity

    env = BernoulliEnv([0.7, 0.5, 0.4])
    for eps, T, want in [(1.0, 10**5, "step"), (1.0, 5 * 10**5, "thinning"), (0.01, 10**6, "step"),
                         (0.1, 10**7, "thinning")]:
        assert granularity(LazyDPTS(eps), env, T) == want, (eps, T)
        assert granularity(LazyDPTS(eps), env) == "thinning"
        assert granularity(LazyDPTS(eps), GaussianEnv([0.7, 0.5], sigma=1.0), T) == "step"
    assert granularity(UCB, env, 10) == "stretch" and granularity(UCB(), env) == "stretch"


@pytest.mark.parametrize("mutant", [False, True])
def test_small_blocks_move_the_switch_down(monkeypatch, mutant):
    """A block of few runs takes the engine earlier: the loop's cost per round hardly depends on the block's runs, the
    engine's is proportional to them (the switches were measured on blocks of SWITCH_RUNS runs). KL-UCB at T = 1000:
    the loop for a block of 50 runs, the engine for a block of 2 (threshold 3e3 * 2/50 = 120). Mutant: the switch
    that ignores the block's runs (the first version) keeps the loop for 2 runs and is told apart."""
    if mutant:
        monkeypatch.setattr(KLUCB, "uses_stretch", lambda self, env, T, runs=50: T >= KLUCB.stretch_min_T)
    env = BernoulliEnv([0.7, 0.5, 0.4])
    taken = {}
    with monkeypatch.context() as m:
        m.setattr(_stretch, "simulate", lambda *a, **k: "stretch")
        m.setattr(KLUCB, "simulate_steps", lambda *a, **k: "step")
        for runs in (50, 2):
            taken[runs] = KLUCB().simulate(env, 1000, runs, np.random.default_rng(0), np.array([1000]))
    assert (taken == {50: "step", 2: "stretch"}) != mutant, taken
