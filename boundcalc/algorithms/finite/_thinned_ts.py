"""Lazy-DP-TS on Bernoulli arms by thinning: exact in distribution, cost ~ the rounds where the leader may lose.

Between two statistic updates, Lazy-DP-TS pulls argmax_j theta_j with theta_j ~ Beta(mu_j O_j + 1,
(1 - mu_j) O_j + 1) drawn afresh every round, mu_j = [mu~_j + off ln t / (eps O_j)]_0^1 (sheet 001 §7.3). Only
the winner of a round matters. Fix a *leader* a and a threshold c, and call a round *open* if
D = {theta_a < c} or {theta_j > c for some j != a}. Outside D the leader wins (theta_a >= c >= theta_j), so
the leader wins every round that is not open, and

    d(t) = P(D at round t) = 1 - P(theta_a >= c) prod_{j != a} P(theta_j <= c)

is a product of Beta tail probabilities (``scipy.special.betainc``). Beta(mu O + 1, (1 - mu) O + 1) is
stochastically increasing in mu and mu_j(t) is nondecreasing in t, so over a window of rounds [t1, t2]
d(t) <= dbar = 1 - P_{t1}(theta_a >= c) prod_j P_{t2}(theta_j <= c). The rounds are then simulated by thinning:

* candidate rounds form a Bernoulli(dbar) process (geometric gaps); the leader wins every other round (its
  rewards over a run of such rounds are one Binomial draw);
* a candidate round t is open with probability d(t) / dbar; if it is not, the leader wins it;
* in an open round, theta is drawn from its law conditioned on D (the first coordinate, in the order a, others,
  that leaves its good range is drawn with its exact probability; the earlier ones are drawn truncated to
  their good range, that one to its bad range, the later ones freely -- inverse Beta CDFs), and the round
  goes to argmax theta.

A window ends at the leader's next statistic update (its buffer is full) or after a bounded growth of t; any
pull of another arm or update opens a new window (new leader, new threshold chosen by a normal approximation
to make dbar small; the approximation affects only the speed). Each run advances by one event (window end
or candidate round) per pass; all runs of a block advance together, vectorised.
"""

from __future__ import annotations

import numpy as np
from scipy import special as sp
from scipy.special import ndtr

from ._common import Runs, argbest, init_order

WINDOW_GROWTH = 0.05  # a window covers at most ~5% more rounds than already played
Z_GRID = np.array([-6.0, -4.5, -3.5, -2.75, -2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0])


PER_STEP_ROUNDS_PER_ARM = 2000  # rounds t <= this x K run step by step (thinning pays off later)
# Below epsilon * T = MIN_EPS_T the whole run is cheaper step by step: the privacy noise 1/(eps O) keeps the arms'
# samples overlapping, most rounds are candidates and an open round costs inverse Beta CDFs (measured on seed 001's
# mu1..mu4, 20-100 runs: eps = 0.01 at T = 1e6 and eps = 1 at T = 1e5 were 3-13x slower by thinning; eps = 1 at
# T = 1e6 and eps = 0.1 at T = 1e7 1-17x faster; benchmarks/RESULTS_perstep.md). Both paths are exact.
MIN_EPS_T = 5e5


class _Env:  # the minimal environment Runs needs
    def __init__(self, means):
        self.means = means
        self.gaps = means.max() - means
        self.K = means.size

    def sum_rewards(self, arm, n, rng):
        return rng.binomial(np.asarray(n, dtype=np.int64), self.means[arm]).astype(float)


class TSState:
    """Statistics of Lazy-DP-TS for a block of runs (sheet 001 §7.3): private means mu~, their sizes O, epoch
    indexes r, the buffers (sum bs, count bn); the noise record when asked."""

    def __init__(self, alg, runs, K, rng):
        self.alg, self.rng = alg, rng
        self.mut = np.zeros((runs, K))
        self.O = np.ones((runs, K))
        self.r = np.zeros((runs, K), dtype=np.int64)
        self.bs = np.zeros((runs, K))
        self.bn = np.zeros((runs, K), dtype=np.int64)
        self.draws: list[np.ndarray] = []
        self.draw_O: list[np.ndarray] = []

    def release(self, rows, arm, x, n):
        """Private mean of ``n`` rewards summing to ``x``: (x + Lap(1/eps)) / n."""
        self.mut[rows, arm] = (x + self.alg.sum_noise(self.rng, rows.size)) / n
        if self.alg.record_noise:
            self.draws.append(self.mut[rows, arm] - x / n)
            self.draw_O.append(np.asarray(n, dtype=float) * np.ones(rows.size))

    def add(self, rows, arm, n, x, st):
        """Rewards ``x`` of ``n`` pulls of ``arm`` go to its buffer; a full buffer (2^(r+1)) is released."""
        self.bs[rows, arm] += x
        self.bn[rows, arm] += n
        full = self.bn[rows, arm] == 2 ** (self.r[rows, arm] + 1)
        fr, fa = rows[full], arm[full]
        if fr.size:
            self.release(fr, fa, self.bs[fr, fa], self.bn[fr, fa].astype(float))
            self.O[fr, fa] = self.bn[fr, fa]
            self.r[fr, fa] += 1
            self.bs[fr, fa] = 0.0
            self.bn[fr, fa] = 0
            st.episodes[fr] += 1
        return full

    def extra(self):
        if not self.alg.record_noise:
            return {}
        return {"noise_draws": np.concatenate(self.draws) if self.draws else np.zeros(0),
                "noise_O": np.concatenate(self.draw_O) if self.draw_O else np.zeros(0)}


def init_rounds(alg, st, ts, rng, K, T):
    """Rounds 1..min(K, T): each arm once, in a random order (``ties="random"``) or in index order."""
    rows = np.arange(st.n)
    order = init_order(rng, K, st.n, alg.ties)
    for j in range(min(K, T)):
        a = order[:, j]
        x = st.step(a, rng)
        ts.release(rows, a, x, 1.0)


def step_rounds(alg, st, ts, rng, t_from, t_to):
    """Rounds t_from..t_to one by one, all runs in lockstep (theta drawn every round)."""
    rows = np.arange(st.n)
    for t in range(t_from, t_to + 1):
        mu = np.clip(ts.mut + alg.offset * np.log(t) / (alg.epsilon * ts.O), 0.0, 1.0)
        a = argbest(rng.beta(mu * ts.O + 1, (1 - mu) * ts.O + 1), rng, alg.ties)
        x = st.step(a, rng)
        ts.add(rows, a, np.ones(st.n, dtype=np.int64), x, st)


def is_open(rng, d, dbar):
    """Thinning: a candidate round is open with probability d(t) / dbar."""
    return rng.random(d.size) * dbar < d


def theta_given_open(rng, A, B, lo, hi, is_lead, bad):
    """theta ~ prod_k Beta(A_k, B_k) conditioned on D = {theta_a < c} or {theta_j > c, some j != a}.

    ``lo``/``hi``: P(theta_k < c) / P(theta_k > c); ``bad``: the probability that coordinate k leaves its good
    range (lo for the leader, hi for the others). With the coordinates ordered (leader, others by index), the
    first one to leave its good range is i with probability prod_{k<i} (1 - bad_k) bad_i / P(D); the earlier
    ones are then drawn in their good range, i in its bad range, the later ones freely (inverse Beta CDFs).
    """
    n, K = A.shape
    key = np.where(is_lead, -1, np.arange(K)[None, :])
    perm = np.argsort(key, axis=1, kind="stable")
    bp = np.take_along_axis(bad, perm, axis=1)
    with np.errstate(divide="ignore"):
        logg = np.log1p(-bp)
    before = np.concatenate([np.zeros((n, 1)), np.cumsum(logg, axis=1)[:, :-1]], axis=1)
    pf = np.exp(before) * bp  # P(first bad = position i)
    u = rng.random(n) * pf.sum(axis=1)
    first = np.minimum((np.cumsum(pf, axis=1) <= u[:, None]).sum(axis=1), K - 1)
    pos = np.empty((n, K), dtype=np.int64)
    np.put_along_axis(pos, perm, np.broadcast_to(np.arange(K), (n, K)).copy(), axis=1)  # position of each arm
    U = rng.random((n, K))
    with np.errstate(invalid="ignore"):
        lower = sp.betaincinv(A, B, U * lo)  # drawn in theta < c
        upper = 1.0 - sp.betaincinv(B, A, U * hi)  # drawn in theta > c
    free = rng.beta(A, B)
    good_side = np.where(is_lead, upper, lower)
    bad_side = np.where(is_lead, lower, upper)
    fi = first[:, None]
    return np.where(pos < fi, good_side, np.where(pos == fi, bad_side, free))


def simulate(alg, means, T: int, runs: int, rng: np.random.Generator, checkpoints):
    """Thinned simulation of ``runs`` runs of ``alg`` (a LazyDPTS) on Bernoulli arms with ``means``."""
    p = np.asarray(means, dtype=float)
    K = p.size
    T = int(T)
    eps, off = alg.epsilon, alg.offset
    st = Runs(_Env(p), T, runs, checkpoints)
    ts = TSState(alg, runs, K, rng)
    init_rounds(alg, st, ts, rng, K, T)
    T0 = min(T, PER_STEP_ROUNDS_PER_ARM * K)
    if T0 > K:
        step_rounds(alg, st, ts, rng, K + 1, T0)
    mut, O, rr, bn = ts.mut, ts.O, ts.r, ts.bn

    def beta_params(rows, rnd):
        """(alpha, beta) of every arm of ``rows`` at round(s) ``rnd``."""
        mu = np.clip(mut[rows] + off * np.log(np.asarray(rnd, dtype=float))[:, None] / (eps * O[rows]), 0.0, 1.0)
        return mu * O[rows] + 1.0, (1.0 - mu) * O[rows] + 1.0

    def tails(al, be, c):
        """P(theta < c) and P(theta > c) for Beta(al, be) (each computed directly, accurate when small)."""
        return sp.betainc(al, be, c), sp.betainc(be, al, 1.0 - c)

    def bad_probs(al, be, a, c):
        """(n, K) probability that each coordinate leaves its good range (a: theta_a < c; j: theta_j > c)."""
        lo, hi = tails(al, be, c[:, None])
        lead = np.zeros(al.shape, dtype=bool)
        lead[np.arange(al.shape[0]), a] = True
        return np.where(lead, lo, hi), lo, hi, lead

    def open_prob(bad):
        with np.errstate(divide="ignore"):
            return -np.expm1(np.log1p(-bad).sum(axis=1))

    def pull(rows, arm, n):
        """``arm`` wins ``n`` rounds in ``rows``: exact reward counts, buffers; returns the full-buffer mask."""
        st.credit(rows, arm, n)
        return ts.add(rows, arm, n, rng.binomial(n, p[arm]).astype(float), st)

    lead = np.zeros(runs, dtype=np.int64)
    c = np.zeros(runs)
    dbar = np.ones(runs)
    W = np.zeros(runs, dtype=np.int64)
    tc = np.zeros(runs, dtype=np.int64)
    need = np.ones(runs, dtype=bool)

    def open_windows(rows):
        t = st.t[rows]
        al1, be1 = beta_params(rows, t + 1)
        m1 = al1 / (al1 + be1)
        a = m1.argmax(axis=1)  # the leader (any choice is exact; this one makes dbar small)
        j = np.arange(rows.size)
        remaining = 2 ** (rr[rows, a] + 1) - bn[rows, a]
        w = np.minimum(np.minimum(T, t + remaining), t + np.maximum(1, (WINDOW_GROWTH * t).astype(np.int64)))
        al2, be2 = beta_params(rows, w)
        al = np.where(np.arange(K)[None, :] == a[:, None], al1, al2)
        be = np.where(np.arange(K)[None, :] == a[:, None], be1, be2)
        # threshold: minimise the normal approximation of dbar over a grid around the leader's law
        mean = al / (al + be)
        sd = np.sqrt(al * be / ((al + be) ** 2 * (al + be + 1.0)))
        cs = np.clip(mean[j, a][:, None] + Z_GRID[None, :] * sd[j, a][:, None], 1e-12, 1 - 1e-12)  # (n, G)
        z = (cs[:, :, None] - mean[:, None, :]) / sd[:, None, :]  # (n, G, K)
        good = np.where(np.arange(K)[None, None, :] == a[:, None, None], ndtr(-z), ndtr(z))
        with np.errstate(divide="ignore"):
            approx = -np.expm1(np.log(np.maximum(good, 1e-300)).sum(axis=2))
        ci = cs[j, approx.argmin(axis=1)]
        bad, _, _, _ = bad_probs(al, be, a, ci)
        d = open_prob(bad)
        lead[rows] = a
        c[rows] = ci
        dbar[rows] = np.minimum(1.0, d * (1 + 1e-9) + 1e-300)  # rounding guard (d(t) <= dbar in exact arithmetic)
        W[rows] = w
        tc[rows] = t + rng.geometric(dbar[rows])
        need[rows] = False

    while True:
        act = np.nonzero(st.t < T)[0]
        if not act.size:
            break
        nw = act[need[act]]
        if nw.size:
            open_windows(nw)
        t = st.t[act]
        a = lead[act]
        jump = tc[act] > W[act]
        # the leader wins every round before the next candidate (or to the window's end)
        n_lead = np.where(jump, W[act] - t, tc[act] - 1 - t)
        pull(act, a, n_lead)
        need[act[jump]] = True
        cr = act[~jump]
        if not cr.size:
            continue
        # candidate rounds
        rnd = tc[cr]
        ca = lead[cr]
        al, be = beta_params(cr, rnd)
        bad, lo, hi, is_lead = bad_probs(al, be, ca, c[cr])
        d = open_prob(bad)
        if (d > dbar[cr] * (1 + 1e-6)).any():  # pragma: no cover - a broken bound would bias the law
            raise RuntimeError("Lazy-DP-TS thinning bound violated")
        opened = is_open(rng, d, dbar[cr])
        # rounds that are not open: the leader wins
        sh = cr[~opened]
        if sh.size:
            filled = pull(sh, lead[sh], np.ones(sh.size, dtype=np.int64))
            ended = filled | (tc[sh] >= W[sh])
            need[sh[ended]] = True
            cont = sh[~ended]
            if cont.size:
                tc[cont] = tc[cont] + rng.geometric(dbar[cont])
        # open rounds: theta given D, then argmax
        op = np.nonzero(opened)[0]
        if op.size:
            rows = cr[op]
            theta = theta_given_open(rng, al[op], be[op], lo[op], hi[op], is_lead[op], bad[op])
            w = argbest(theta, rng, alg.ties)
            pull(rows, w, np.ones(rows.size, dtype=np.int64))
            need[rows] = True
    return st.result(**ts.extra())
