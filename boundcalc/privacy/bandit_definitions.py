"""Exact privacy levels of a small bandit policy under the DP definitions of seed 003 Sec. III and seed 001 §2 / App. B.

The policy is a randomised three-step policy on K = 2 arms with {0, 1} rewards, given by its conditional
probabilities of playing arm 1 (``random_policy(rng)``). Each definition induces a family of pairs of output laws
(over the 2³ action sequences) on neighbouring inputs, enumerated exactly:

* Table DP (seed 003 Def. 2 / seed 001 Def. 2.3(a)): input a table x ∈ {0,1}^{T×K} of potential rewards, the policy
  sees x_{t, a_t}; neighbours differ in one row (one user);
* View DP (seed 003 Def. 2 / seed 001 Def. 2.3(b)): input the list r ∈ {0,1}^T of observed rewards; neighbours
  differ in one entry;
* the adaptive continual release model (seed 001 App. B, Remark B.4): input a tree of rewards, the reward at depth t
  depends on the actions a_1..a_t; neighbours differ at one depth;
* Interactive DP (seed 003 Def. 4): tables, and a deterministic adversary B_t(o_1..o_t) choosing the queried arm
  q_t whose reward x_{t, q_t} the policy observes; the view is (o_1..o_T); neighbours as for tables.

For a family of pairs (P, Q): ε = max log P/Q (pure DP), δ(ε) = max Σ (P − e^ε Q)_+ ((ε, δ)-DP), and the Rényi
divergences D_α(P ‖ Q) (ρ-zCDP: sup_α D_α/α ≤ ρ). Pure numpy; used by the claims of seed 001 Props 2.4, B.5 and
seed 003 Props 1, 2 (boundcalc/verify/claims/dp_definitions.py).
"""

from __future__ import annotations

import itertools

import numpy as np

T, K = 3, 2
ACTIONS = list(itertools.product(range(K), repeat=T))  # the 8 action sequences (outputs)


def random_policy(rng: np.random.Generator, lo: float = 0.05, hi: float = 0.95) -> dict:
    """π_1(1), π_2(1 | a_1, r_1), π_3(1 | a_1, r_1, a_2, r_2): probabilities in [lo, hi] (full support)."""
    return {"p1": rng.uniform(lo, hi), "p2": rng.uniform(lo, hi, size=(K, 2)),
            "p3": rng.uniform(lo, hi, size=(K, 2, K, 2))}


def _pr(p, a):
    return p if a == 1 else 1 - p


def law(pol: dict, observe) -> np.ndarray:
    """P(o_1, o_2, o_3) when the policy's history at step t is (h_1, y_1, .., h_{t−1}, y_{t−1}) with
    (h_s, y_s) = observe(s, (o_1..o_s)): the action the policy records and the reward it sees."""
    out = np.empty(len(ACTIONS))
    for i, o in enumerate(ACTIONS):
        h1, y1 = observe(0, o[:1])
        h2, y2 = observe(1, o[:2])
        out[i] = (_pr(pol["p1"], o[0]) * _pr(pol["p2"][h1, y1], o[1]) * _pr(pol["p3"][h1, y1, h2, y2], o[2]))
    return out


def table_law(pol, x):
    """Table mechanism M^π(x) (seed 003 Def. 2): the policy sees x[t, a_t]."""
    return law(pol, lambda t, o: (o[t], int(x[t][o[t]])))


def view_law(pol, r):
    """View mechanism V^π(r): the policy sees r[t] whatever it plays."""
    return law(pol, lambda t, o: (o[t], int(r[t])))


def tree_law(pol, tree):
    """Adaptive continual release (seed 001 Remark B.4): ``tree[t][(a_1..a_{t+1})]`` is the reward at depth t + 1."""
    return law(pol, lambda t, o: (o[t], int(tree[t][tuple(o[:t + 1])])))


def interactive_law(pol, x, B):
    """Interactive view (seed 003 Def. 4): q_t = B[t][(o_1..o_t)], the policy records q_t and sees x[t, q_t]."""
    def observe(t, o):
        q = B[t][tuple(o[:t + 1])]
        return q, int(x[t][q])
    return law(pol, observe)


def policy_B(pol, B) -> dict:
    """π^B of seed 003 Prop. 2(b): π^B_t(a | a_1, r_1, ..) = π_t(a | B_1(a_1), r_1, B_2(a_1, a_2), r_2, ..)."""
    p2 = np.empty((K, 2))
    p3 = np.empty((K, 2, K, 2))
    for a1, r1 in itertools.product(range(K), range(2)):
        q1 = B[0][(a1,)]
        p2[a1, r1] = pol["p2"][q1, r1]
        for a2, r2 in itertools.product(range(K), range(2)):
            p3[a1, r1, a2, r2] = pol["p3"][q1, r1, B[1][(a1, a2)], r2]
    return {"p1": pol["p1"], "p2": p2, "p3": p3}


# -- inputs and neighbours --------------------------------------------------------------------------------------------
ROWS = list(itertools.product(range(2), repeat=K))
TABLES = [tuple(rows) for rows in itertools.product(ROWS, repeat=T)]
LISTS = list(itertools.product(range(2), repeat=T))


def table_pairs():
    """Ordered pairs of tables differing in exactly one row."""
    for x in TABLES:
        for t in range(T):
            for row in ROWS:
                if row != x[t]:
                    y = list(x)
                    y[t] = row
                    yield x, tuple(y)


def list_pairs():
    for r in LISTS:
        for t in range(T):
            s = list(r)
            s[t] = 1 - s[t]
            yield r, tuple(s)


def _depth_keys(t):
    return list(itertools.product(range(K), repeat=t + 1))


def trees():
    """Every tree of depths 1 and 2 (depth 3 is never observed before the last action); depth 3 fixed to 0."""
    k1, k2, k3 = _depth_keys(0), _depth_keys(1), _depth_keys(2)
    for v1 in itertools.product(range(2), repeat=len(k1)):
        for v2 in itertools.product(range(2), repeat=len(k2)):
            yield (dict(zip(k1, v1)), dict(zip(k2, v2)), {k: 0 for k in k3})


def tree_pairs():
    """Ordered pairs of trees differing at exactly one depth (1 or 2)."""
    ts = list(trees())
    for a in ts:
        for b in ts:
            diff = [t for t in range(T) if a[t] != b[t]]
            if len(diff) == 1:
                yield a, b


def adversaries():
    """Every deterministic adversary (B_1: o_1 → q_1, B_2: (o_1, o_2) → q_2, B_3 unused by the view)."""
    k1, k2, k3 = _depth_keys(0), _depth_keys(1), _depth_keys(2)
    for v1 in itertools.product(range(K), repeat=len(k1)):
        for v2 in itertools.product(range(K), repeat=len(k2)):
            yield (dict(zip(k1, v1)), dict(zip(k2, v2)), {k: 0 for k in k3})


IDENTITY = ({k: k[-1] for k in _depth_keys(0)}, {k: k[-1] for k in _depth_keys(1)}, {k: k[-1] for k in _depth_keys(2)})


# -- families of output-law pairs ---------------------------------------------------------------------------------------
def family(pol, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """(P, Q) stacked over every neighbouring pair of the definition ``kind``: table, view, tree, interactive."""
    # each input's law is computed once (inputs recur in many pairs)
    if kind == "table":
        L = {x: table_law(pol, x) for x in TABLES}
        pairs = [(L[x], L[y]) for x, y in table_pairs()]
    elif kind == "view":
        L = {r: view_law(pol, r) for r in LISTS}
        pairs = [(L[r], L[s]) for r, s in list_pairs()]
    elif kind == "tree":
        ts = list(trees())
        L = [tree_law(pol, a) for a in ts]
        pairs = [(L[i], L[j]) for i, a in enumerate(ts) for j, b in enumerate(ts)
                 if sum(a[t] != b[t] for t in range(T)) == 1]
    elif kind == "interactive":
        tp = list(table_pairs())
        pairs = []
        for B in adversaries():
            L = {x: interactive_law(pol, x, B) for x in TABLES}
            pairs += [(L[x], L[y]) for x, y in tp]
    else:  # pragma: no cover
        raise ValueError(kind)
    P = np.array([p for p, _ in pairs])
    Q = np.array([q for _, q in pairs])
    return P, Q


def pure_eps(P, Q) -> float:
    """max over pairs and outputs of log P/Q (pure ε-DP level)."""
    return float(np.max(np.log(P) - np.log(Q)))


def delta(P, Q, eps) -> np.ndarray:
    """δ(ε) = max over pairs of Σ_o (P(o) − e^ε Q(o))_+, for each ε of the array ``eps``."""
    e = np.exp(np.asarray(eps, float))[:, None, None]
    return np.max(np.sum(np.clip(P[None] - e * Q[None], 0, None), axis=2), axis=1)


def renyi(P, Q, alphas) -> np.ndarray:
    """max over pairs of D_α(P ‖ Q) = log Σ P^α Q^{1−α} / (α − 1), for each α > 1 of ``alphas``."""
    a = np.asarray(alphas, float)[:, None, None]
    lp, lq = np.log(P)[None], np.log(Q)[None]
    s = np.log(np.sum(np.exp(a * lp + (1 - a) * lq), axis=2)) / (a[..., 0] - 1)
    return np.max(s, axis=1)
