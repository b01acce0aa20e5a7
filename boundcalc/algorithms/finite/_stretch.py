"""Leader-stretch simulation of index policies on Bernoulli arms: exact in distribution, cost ~ switches.

An index policy (UCB, KL-UCB, IMED) pulls the same arm, its *leader*, for long stretches. Inside a stretch
only the leader's statistics change, and the index at step s of the stretch depends on the leader's reward
count P(s - 1) after s - 1 further pulls (a sufficient statistic) and on the round. A stretch is simulated
by sampling the leader's reward path hierarchically, never reward by reward:

* the steps s = 1..T - t0 of a stretch are cut into blocks [s1, s2]; the count of each block is drawn
  forward (Binomial) or, when a block is split, its left part given the whole (Hypergeometric: given k
  successes in n exchangeable draws, the first m hold a Hypergeometric(k, n - k, m) number). The path law is
  that of i.i.d. Bernoulli rewards whatever the order of the draws;
* a block is *certified* when a sound closed-form condition shows the leader is the strict, unique argmax
  at every step of the block for every path with the block's end counts (``policy.certify``: the leader's
  index at its worst point -- lowest possible mean (the bridge envelope: all the block's zeros first),
  latest pull count, earliest round -- against the others' indices at the block's last round, with a margin
  of ~1e-9 that absorbs the rounding of the reference's own index computation); it is *refuted* when
  another arm's index exceeds the leader's at its first step by the margin (``policy.refute``): the stretch
  ends there at the latest, and later blocks are dropped;
* a one-step block that is neither gets the exact decision of the policy's own ``index`` (as the
  step-by-step reference computes it): leader strictly best, tied, or beaten; a longer one is cut into
  2**split_levels parts;
* the first step that is not the leader's (beaten, or a tie drawn against it) is the *crossing*: the leader
  is credited with the steps before it (its reward count there is known exactly), and the arm chosen at
  the crossing starts the next stretch. Rewards drawn past the crossing are discarded: the crossing is a
  stopping time of the leader's reward sequence, so the used prefix is an i.i.d. prefix.

Ties are broken exactly as in the reference (uniformly at random among exactly equal indices, one draw per
tie, in the order the run meets them). The run advances by whole stretches; all runs of a block advance
together, pass by pass (each pass certifies, decides or splits every pending block of every run).

The rewards come from a *source*: ``BernoulliSource`` (fresh Binomial/Hypergeometric draws from the run's
Generator) or ``TapeSource`` (the j-th pull of arm a reads tape[a][j]; its step-by-step twin ``TapeEnv`` lets
the plain reference consume the same rewards, so that the two can be compared exactly in tests).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...envs.base import BernoulliEnv
from ._common import Runs, argbest, init_order

PENDING, CERT, TIE, LOSE = 0, 1, 2, 3
SPLIT_MAX = 2**29  # hypergeometric populations stay below numpy's limit of 1e9
MAX_EVAL_PER_RUN = 32  # pending blocks looked at per run and pass (later ones wait their turn)


# ------------------------------------------------------------------------------------------------------
# reward sources
# ------------------------------------------------------------------------------------------------------
class BernoulliSource:
    """Fresh exact draws: Binomial block counts, Hypergeometric splits, ties from the same Generator."""

    def __init__(self, means, rng: np.random.Generator):
        self.p = np.asarray(means, dtype=float)
        self.rng = rng

    def fresh(self, rows, arm, pos, n):
        """Reward counts of ``n`` consecutive pulls of ``arm`` starting at pull index ``pos`` (per entry)."""
        return self.rng.binomial(np.asarray(n, dtype=np.int64), self.p[arm]).astype(np.int64)

    def split(self, rows, arm, pos, n_left, n_total, k_total):
        """Count of the first ``n_left`` of ``n_total`` pulls holding ``k_total`` successes in all."""
        k_total = np.asarray(k_total, dtype=np.int64)
        return self.rng.hypergeometric(k_total, np.asarray(n_total, dtype=np.int64) - k_total,
                                       np.asarray(n_left, dtype=np.int64)).astype(np.int64)

    def choose(self, rows, scores, ties):
        return argbest(scores, self.rng, ties)

    def order(self, K, runs, ties):
        return init_order(self.rng, K, runs, ties)


class TapeSource:
    """Rewards from per-run tapes: the j-th pull (0-based) of arm a in run r reads ``tapes[r, a, j]``.

    Ties and the initial order are drawn from ``tie_rngs[r]`` with the same calls as the reference makes, so
    a reference run on ``TapeEnv(means, tapes[r])`` with Generator ``tie_rngs[r]`` (in its initial state)
    makes exactly the same decisions.
    """

    def __init__(self, tapes, tie_rngs):
        tapes = np.asarray(tapes, dtype=np.int64)
        self.cum = np.concatenate([np.zeros(tapes.shape[:2] + (1,), dtype=np.int64), np.cumsum(tapes, axis=2)],
                                  axis=2)
        self.rngs = list(tie_rngs)

    def fresh(self, rows, arm, pos, n):
        pos = np.asarray(pos, dtype=np.int64)
        return self.cum[rows, arm, pos + n] - self.cum[rows, arm, pos]

    def split(self, rows, arm, pos, n_left, n_total, k_total):
        return self.fresh(rows, arm, pos, n_left)

    def choose(self, rows, scores, ties):
        out = np.empty(len(rows), dtype=np.int64)
        for i, r in enumerate(np.asarray(rows)):
            out[i] = argbest(scores[i:i + 1], self.rngs[r], ties)[0]
        return out

    def order(self, K, runs, ties):
        return np.stack([init_order(self.rngs[r], K, 1, ties)[0] for r in range(runs)])


class TapeEnv(BernoulliEnv):
    """A Bernoulli environment whose rewards are read from a tape (one run): ``tape[a][j]`` is the reward of
    the j-th pull of arm a. ``draw`` ignores the Generator (for the step-by-step reference in exact tests)."""

    def __init__(self, means, tape):
        super().__init__(means, name="tape")
        self.tape = np.asarray(tape, dtype=np.int64)
        self.ptr = np.zeros(self.K, dtype=np.int64)

    def draw(self, arm, rng):
        v = self.tape[arm, self.ptr[arm]]
        self.ptr[arm] += 1
        return float(v)

    def sum_rewards(self, arm_idx, n, rng):  # pragma: no cover - the tape env is for the step reference
        raise NotImplementedError("TapeEnv serves the step-by-step reference only")


# ------------------------------------------------------------------------------------------------------
# what a certificate sees
# ------------------------------------------------------------------------------------------------------
@dataclass
class Box:
    """Per-block bounds of the leader's state over the steps of a block (arrays of length n).

    ``mean1``: the leader's exact empirical mean at the block's first step; ``mean_lo``: its lowest possible
    mean over the block's steps (all the block's zeros first); ``n_lo``/``n_hi``: its pull count before the
    block's first/last step; ``r_lo``/``r_hi``: the rounds of the first/last step (``r0``: the round of the
    stretch's first step); ``S``/``N``: (n, K) counts
    of every arm at the stretch start (the leader's column is stale: use the fields above); ``others``:
    (n, K) mask of the other arms; ``pre``: the policy's per-stretch precomputations, gathered per block.
    """

    lead: np.ndarray
    mean1: np.ndarray
    mean_lo: np.ndarray
    n_lo: np.ndarray
    n_hi: np.ndarray
    r_lo: np.ndarray
    r_hi: np.ndarray
    r0: np.ndarray
    S: np.ndarray
    N: np.ndarray
    others: np.ndarray
    pre: dict

    def take(self, idx) -> "Box":
        """The box of blocks ``idx`` only (every per-block field and precomputation indexed)."""
        out = {f: getattr(self, f)[idx] for f in self.__dataclass_fields__ if f != "pre"}
        return Box(**out, pre={k: v[idx] for k, v in self.pre.items()})


def _decide(scores, lead):
    """Exact status of the leader's step: CERT (unique strict best), TIE (tied best) or LOSE."""
    rows = np.arange(scores.shape[0])
    s_lead = scores[rows, lead]
    best = scores.max(axis=1)
    n_best = (scores == best[:, None]).sum(axis=1)
    out = np.full(scores.shape[0], LOSE, dtype=np.int8)
    out[(s_lead == best) & (n_best == 1)] = CERT
    out[(s_lead == best) & (n_best > 1)] = TIE
    return out


def _classify(policy, box):
    """(certified, refuted) masks of the blocks of ``box``: refute is asked only where certify failed."""
    ok = np.asarray(policy.certify(box), dtype=bool)
    bad = np.zeros_like(ok)
    nk = np.nonzero(~ok)[0]
    if nk.size:
        bad[nk] = policy.refute(box.take(nk))
    return ok, bad


def _firsts(run_ids):
    """Mask of the first block of each run in a (run, s1)-sorted block list."""
    out = np.ones(run_ids.size, dtype=bool)
    out[1:] = run_ids[1:] != run_ids[:-1]
    return out


def _within_run_exclusive_cumsum(flag, first, run_ids):
    """For sorted blocks, the number of True flags before each block within its run."""
    excl = np.cumsum(flag, dtype=np.int64)
    excl -= flag
    base = np.zeros(int(run_ids.max()) + 1 if run_ids.size else 0, dtype=np.int64)
    base[run_ids[first]] = excl[first]
    return excl - base[run_ids]


class _Blocks:
    """Blocks [s1, s2] of the current stretches, flattened over runs and sorted by (run, s1); A = P(s1 - 1),
    B = P(s2) are the leader's reward counts since the stretch start, ``st`` the status. Stored as the rows
    of one (6, n) integer array, so that reordering is one indexing operation."""

    FIELDS = ("run", "s1", "s2", "A", "B", "st")

    def __init__(self):
        self.d = np.zeros((6, 0), dtype=np.int64)

    run = property(lambda self: self.d[0])
    s1 = property(lambda self: self.d[1])
    s2 = property(lambda self: self.d[2])
    A = property(lambda self: self.d[3])
    B = property(lambda self: self.d[4])
    st = property(lambda self: self.d[5])

    def take(self, idx):
        self.d = self.d[:, idx]

    def append(self, other: dict):
        self.d = np.concatenate([self.d, np.stack([np.asarray(other[f], dtype=np.int64) for f in self.FIELDS])],
                                axis=1)
        self.take(np.lexsort((self.s1, self.run)))

    @property
    def size(self):
        return self.d.shape[1]


# ------------------------------------------------------------------------------------------------------
# the engine
# ------------------------------------------------------------------------------------------------------
def _grid(Lmax: int) -> tuple[np.ndarray, np.ndarray]:
    """Initial blocks of a stretch: [1, 1] (decided), [2, 2], [3, 4], [5, 8], ... (at most SPLIT_MAX long)."""
    s1, s2 = [1], [1]
    lo = 2
    while lo <= Lmax:
        hi = min(2 * lo - 1, lo + SPLIT_MAX - 1)
        s1.append(lo)
        s2.append(hi)
        lo = hi + 1
    return np.array(s1, dtype=np.int64), np.array(s2, dtype=np.int64)


def simulate(policy, means, T: int, runs: int, source, checkpoints, split_levels: int = 2):
    """Leader-stretch simulation of ``runs`` runs of ``policy`` on Bernoulli arms with ``means``.

    ``policy`` provides ``index(S, N, t)`` (scores, argmax pulled; t broadcastable to (n, 1)), ``ties``,
    ``certify(box)`` / ``refute(box)`` (sound bool arrays: the leader strictly best on the whole block / beaten
    at its first step; refute is asked only where certify failed) and ``stretch_setup(S, N, lead, t0)``. An
    undecided block is cut into up to 2**split_levels parts per pass. Returns the ``BlockResult`` of the
    per-step loop (``episodes`` = 0).
    """
    means = np.asarray(means, dtype=float)
    K = means.size
    T = int(T)
    from ..limits import STRETCH_MAX_T

    if T > STRETCH_MAX_T:  # each stretch holds ~T / SPLIT_MAX blocks per run: 22 GiB at T = 1e18 (issue 17 §3)
        from ...errors import InputError

        raise InputError("T", f"an integer in [1, {STRETCH_MAX_T:g}] for the leader-stretch engine (about "
                         "T / 2**29 blocks per run and stretch)", T)

    class _E:  # the minimal env Runs needs (gaps only; rewards come from the source)
        pass

    e = _E()
    e.gaps = means.max() - means
    e.K = K
    st = Runs(e, T, runs, checkpoints)
    S = np.zeros((runs, K))
    N = np.zeros((runs, K))
    allr = np.arange(runs)

    # -- initial round-robin (rounds 1..min(K, T)) ---------------------------------------------------------
    order = source.order(K, runs, policy.ties)
    for j in range(min(K, T)):
        arm = order[:, j]
        x = source.fresh(allr, arm, np.zeros(runs, dtype=np.int64), np.ones(runs, dtype=np.int64))
        st.credit(allr, arm, np.ones(runs, dtype=np.int64))
        S[allr, arm] += x
        N[allr, arm] += 1
    if T <= K:
        return st.result()

    # -- per-run stretch state -----------------------------------------------------------------------------
    lead = np.zeros(runs, dtype=np.int64)
    t0 = np.zeros(runs, dtype=np.int64)
    c_len = np.zeros(runs, dtype=np.int64)  # steps of the stretch already certified and merged
    c_sum = np.zeros(runs, dtype=np.int64)  # the leader's reward count over those steps
    pre: dict[str, np.ndarray] = {}
    blk = _Blocks()
    g1, g2 = _grid(T)

    def new_stretches(rows, leaders, scores):
        """Start stretches in ``rows`` (t = rounds played) whose first step is already decided for ``leaders``
        (``scores``: the exact indexes at that step)."""
        lead[rows] = leaders
        t0[rows] = st.t[rows]
        st.episodes[rows] += 1
        c_len[rows] = 0
        c_sum[rows] = 0
        setup = policy.stretch_setup(S[rows], N[rows], leaders, t0[rows], scores)
        for k, v in setup.items():
            if k not in pre:
                pre[k] = np.zeros((runs,) + v.shape[1:], dtype=v.dtype)
            pre[k][rows] = v
        Lmax = T - t0[rows]
        s1 = np.broadcast_to(g1, (rows.size, g1.size))
        s2 = np.minimum(g2[None, :], Lmax[:, None])
        keep = s1 <= Lmax[:, None]
        rr = np.broadcast_to(rows[:, None], s1.shape)[keep]
        s1, s2 = s1[keep], s2[keep]
        pos = N[rr, lead[rr]].astype(np.int64) + s1 - 1
        x = source.fresh(rr, lead[rr], pos, s2 - s1 + 1)
        B = np.cumsum(x)
        first = _firsts(rr)
        starts = np.nonzero(first)[0]
        B = B - np.repeat(B[starts] - x[starts], np.diff(np.append(starts, x.size)))
        blk.append({"run": rr, "s1": s1, "s2": s2, "A": B - x, "B": B,
                    "st": np.where(s1 == 1, CERT, PENDING).astype(np.int8)})  # step 1 is decided

    def full_state(idx):
        """(S, N, round) of the exact state at the first step of blocks ``idx``."""
        r = blk.run[idx]
        a = lead[r]
        Sx = S[r].copy()
        Nx = N[r].copy()
        j = np.arange(idx.size)
        Sx[j, a] += blk.A[idx]
        Nx[j, a] += blk.s1[idx] - 1
        return Sx, Nx, (t0[r] + blk.s1[idx]).astype(float)[:, None]

    def commit(rows, steps, counts):
        """Credit the leaders of ``rows`` with ``steps`` pulls holding ``counts`` rewards."""
        a = lead[rows]
        st.credit(rows, a, steps)
        S[rows, a] += counts
        N[rows, a] += steps

    def split(idx):
        """Cut blocks ``idx`` into up to 2**split_levels parts (exact conditional counts), in place."""
        r = blk.run[idx]
        # pieces of the blocks being cut, kept in order: (owner, s1, s2, A, B)
        own, s1, s2, A, B = np.arange(idx.size), blk.s1[idx], blk.s2[idx], blk.A[idx], blk.B[idx]
        for _ in range(split_levels):
            cut = s2 > s1
            if not cut.any():
                break
            c = np.nonzero(cut)[0]
            rc = r[own[c]]
            mid = (s1[c] + s2[c]) // 2
            pos = N[rc, lead[rc]].astype(np.int64) + s1[c] - 1
            left = A[c] + source.split(rc, lead[rc], pos, mid - s1[c] + 1, s2[c] - s1[c] + 1, B[c] - A[c])
            rep = cut.astype(np.int64) + 1
            at = np.repeat(np.arange(own.size), rep)
            ls = (np.cumsum(rep) - rep)[c]  # new position of each cut piece's left half
            own, s1, s2, A, B = own[at], s1[at], s2[at], A[at], B[at]
            s2[ls] = mid
            B[ls] = left
            s1[ls + 1] = mid + 1
            A[ls + 1] = left
        # replace each cut block by its pieces (same order)
        rep = np.ones(blk.size, dtype=np.int64)
        rep[idx] = np.bincount(own, minlength=idx.size)
        at = np.repeat(np.arange(blk.size), rep)
        blk.take(at)
        mark = np.zeros(rep.size, dtype=bool)
        mark[idx] = True
        dest = np.nonzero(mark[at])[0]
        blk.s1[dest] = s1
        blk.s2[dest] = s2
        blk.A[dest] = A
        blk.B[dest] = B

    # first decision (round K + 1)
    scores = policy.index(S, N, np.full((runs, 1), float(K + 1)))
    new_stretches(allr, source.choose(allr, scores, policy.ties), scores)
    in_run = np.zeros(runs, dtype=bool)

    while blk.size:
        # 1. evaluate pending blocks: certificate / refutation, else the exact decision (unit blocks) or a split
        first = _firsts(blk.run)
        pend = blk.st == PENDING
        rank = _within_run_exclusive_cumsum(pend, first, blk.run)
        look = np.nonzero(pend & (rank < MAX_EVAL_PER_RUN))[0]
        to_split = np.zeros(0, dtype=np.int64)
        if look.size:
            r = blk.run[look]
            a = lead[r]
            s1, s2, A, B = blk.s1[look], blk.s2[look], blk.A[look], blk.B[look]
            NA0 = N[r, a]
            SA0 = S[r, a]
            kink = np.clip(s2 + 1 - (B - A), s1, s2)
            others = np.ones((look.size, K), dtype=bool)
            others[np.arange(look.size), a] = False
            box = Box(lead=a, mean1=(SA0 + A) / (NA0 + s1 - 1), mean_lo=(SA0 + A) / (NA0 + kink - 1),
                      n_lo=NA0 + s1 - 1, n_hi=NA0 + s2 - 1, r_lo=(t0[r] + s1).astype(float),
                      r_hi=(t0[r] + s2).astype(float), r0=(t0[r] + 1).astype(float), S=S[r], N=N[r], others=others,
                      pre={k: v[r] for k, v in pre.items()})
            ok, bad = _classify(policy, box)
            und = ~ok & ~bad
            blk.st[look[ok]] = CERT
            blk.st[look[bad]] = LOSE
            unit = s1 == s2
            ex = look[und & unit]
            if ex.size:
                Sx, Nx, rr = full_state(ex)
                blk.st[ex] = _decide(policy.index(Sx, Nx, rr), lead[blk.run[ex]])
            to_split = look[und & ~unit]
        # 2. drop the blocks after the first beaten step of each run
        first = _firsts(blk.run)
        after_lose = _within_run_exclusive_cumsum(blk.st == LOSE, first, blk.run) > 0
        if after_lose.any():
            keep = ~after_lose
            to_split = (np.cumsum(keep) - 1)[to_split[keep[to_split]]]
            blk.take(np.nonzero(keep)[0])
        # 3. cut undecided blocks
        if to_split.size:
            split(to_split)
        # 4. merge certified prefixes; resolve ties and crossings that head their run
        while True:
            first = _firsts(blk.run)
            bad = blk.st != CERT
            lead_cert = ~bad & (_within_run_exclusive_cumsum(bad, first, blk.run) == 0)
            if lead_cert.any():
                li = np.nonzero(lead_cert)[0]
                last = np.ones(li.size, dtype=bool)
                last[:-1] = blk.run[li[1:]] != blk.run[li[:-1]]
                c_len[blk.run[li[last]]] = blk.s2[li[last]]
                c_sum[blk.run[li[last]]] = blk.B[li[last]]
                blk.take(np.nonzero(~lead_cert)[0])
                first = _firsts(blk.run)
            # complete stretches: no block left
            in_run[:] = False
            in_run[blk.run] = True
            done_runs = np.nonzero(~in_run & (st.t < T))[0]
            if done_runs.size:
                commit(done_runs, c_len[done_runs], c_sum[done_runs])
            head = np.nonzero(first)[0]
            hs = blk.st[head]
            res = head[(hs == TIE) | (hs == LOSE)]
            if not res.size:
                break
            Sx, Nx, rr = full_state(res)
            r = blk.run[res]
            sc = policy.index(Sx, Nx, rr)
            choice = source.choose(r, sc, policy.ties)
            cont = choice == lead[r]
            if (cont & (blk.s2[res] > blk.s1[res])).any():  # pragma: no cover - only a unit block can tie
                raise RuntimeError("leader-stretch engine: a refuted block's leader was chosen (unsound refute)")
            blk.st[res[cont]] = CERT  # a tie drawn for the leader: the step is its own
            cross = ~cont
            if cross.any():
                rc, ic = r[cross], res[cross]
                commit(rc, blk.s1[ic] - 1, blk.A[ic])
                in_run[:] = False
                in_run[rc] = True
                blk.take(np.nonzero(~in_run[blk.run])[0])
                new_stretches(rc, choice[cross], sc[cross])
            if not cont.any():
                break
    return st.result()


def step_rewards_env(env) -> bool:
    """Whether the leader-stretch engine applies: Bernoulli rewards (exact Binomial/Hypergeometric draws)."""
    return isinstance(env, BernoulliEnv) and not isinstance(env, TapeEnv)
