"""``budget --by simulation``: the strongest privacy at which the *measured* target holds on the user's instance.

The bound-based answer (boundcalc.budget.solve) is a statement about worst-case bounds whose non-private part can
be 20–100× loose on a given instance; this module measures instead. For a private algorithm A and its named
non-private counterpart N (card ``counterpart``: AdaC-GOPE → GOPE-limit, GOPE with AdaC-GOPE's own phase schedule and no noise,
its ρ → ∞ limit (``GOPE --param schedule=limit``; docs/formulas/zcdp-bandits.md §0: the non-private baselines are the ρ → ∞ limits, so that
the overhead measures the cost of privacy and vanishes as ρ grows — against the Lattimore–Szepesvári schedule
``schedule=ls``, the paper's experimental baseline, AdaC-GOPE's regret is ≈ 4.6× larger at every ρ in [1, 1e4] on the
K = 50, d = 5 instance at T = 1e7: a difference of constants, not of privacy), DP-KLUCB → KL-UCB, DP-IMED → IMED, AdaP-UCB/AdaC-UCB/AdaR-UCB →
UCB, AdaP-KLUCB → KL-UCB, AdaC-OFUL/AdaR-OFUL → OFUL, LinUCB-DGS/Private-LinUCB → LinUCB; an algorithm without a
non-private version (DP-SE, Lazy-DP-TS, the local-DP GLM algorithms, AdaR-GOPE's RDP noise aside) is compared with
*itself at the non-private limit*, budget 1e12 in its own notion, as ``budget --check`` does), it finds the
smallest user budget b (ρ, ε, … — ``UserNotion``; the algorithm runs at ``calibrate_upper(b)`` in its own notion)
at which, with 95% confidence, one of

- ``overhead`` x, mean: r = mean(Reg_A(T)) / mean(Reg_N(T)) − 1 ≤ x;
- ``overhead`` x, quantile q: Q_q(Reg_A(T)) / Q_q(Reg_N(T)) − 1 ≤ x (the bad runs);
- ``regret`` R, mean: mean(Reg_A(T)) ≤ R;   ``regret`` R, quantile q: Q_q(Reg_A(T)) ≤ R

holds (``Reg`` is the pseudo-regret the Monte Carlo engine records at T).

**Pairing (``pairing``).** Runs come in *batches*; the private batch k at budget b is a ``montecarlo.run`` with the
seed ``batch_seed(seed, k)``. N does not depend on b, so its batches are simulated once and compared with A's
batches at every budget.

- ``independent`` (the default in the finite setting, ``DEFAULT_PAIRING``): N's batch k draws from ``counterpart_seed(seed, k)``, a stream independent of every
  private batch, and one fresh set of N batches serves all the fresh-seed confirmations. Every run is then
  independent of every other run (the engine's runs within a block draw distinct variates of one Generator), so
  each run is its own unit of the intervals and the engine blocks can be as large as is fast (default 50: the
  engines vectorise across a block's runs; IMED at T = 1e6 costs ≈ 1 s per run in blocks of 1 and 0.08 s in blocks of
  50). Common random numbers would only help through a correlation between A's and N's runs; A and N draw sufficient
  statistics (Binomial counts of an episode, hierarchical stretches), not exact reward tapes, so their streams
  diverge after their first differing decision, and on the 10-armed question the paired final regrets of DP-IMED and
  IMED are uncorrelated (benchmarks/RESULTS_budget_measured.md).
- ``common`` (the default in the other settings, where the paired runs do correlate: AdaC-GOPE and GOPE-limit on
  the linear question): N's batch k uses A's seed and blocks, so block i of A and block i of N draw from the *same* Generator
  (``SeedSequence(batch_seed).spawn(n_blocks)[i]``). Run i of A may then depend on run j ≠ i of N within a block, and
  the blocks are the units of the intervals (``block_runs`` defaults to max(1, runs // 20): ≥ 20 clusters in the first
  batch).

**Intervals (95%, two-sided).** Units: every run (independent pairing) or every engine block (common pairing); run
i of A and run i of N form a pair, and the pairs of different units are independent. Mean overhead: the
cluster-robust delta method for a ratio of means (``cluster_overhead``: Var(r̂) ≈ B/(B−1) Σ_b (P_b − r̂ N_b)² / (Σ N_b)²,
half-width t_{0.975,B−1} √Var; with one run per unit it is the paired delta method of
``budget.check.paired_overhead``, valid for independent pairs whatever the dependence within a pair). Mean regret:
Student-t. **The unseen tail** (issue 22): a run's regret lies in [0, S], S = T·Δ_max (``regret_span``), and a mean
can be carried by rare runs the sample has not seen (DP-IMED runs locked on a wrong arm, ≈ 4 in 1,000 at ε = 1 on
the 10-armed instance of benchmarks/RESULTS_budget_measured.md). With n runs, the mass above the largest run seen,
v, is at most p* = 1 − 0.025^(1/n) ≈ 3.7/n at 97.5% (``tail_mass``; the rule of three), and E R ≤ E min(R, v) +
(S − v)·p*: a mean's upper end is the sample interval's plus (S − v)·p* (over the counterpart's mean for the
overhead; the overhead's lower end allows the counterpart's own unseen tail) — ``assess``, ``tail_floor``. Each end
is then a one-sided 95% bound (2.5% each part, Bonferroni). Valid for any bounded regret, and not much improvable
(mass ≈ 3/n at S goes unseen ≈ 5% of the time); its price is runs (≈ 3.7 S/slack). When the runs ``max_runs``
allows cannot pin a mean down (``tail_blocks``), a decision stops adding runs, and a search with no budget met says
``not pinned down`` with the reason (``_not_pinned``), pointing to a quantile target. It also keeps the interval of
identical runs (phased elimination at small T) from having zero width. Quantile of the regret: the distribution-free
order-statistic interval [X_(l), X_(u)] with l, u from Binomial(R, q) (Hahn & Meeker, *Statistical Intervals*,
§5.2). Quantile overhead: the paired percentile bootstrap of Q_q(p)/Q_q(n) − 1 resampling whole units (2000
resamples, Generator seeded from ``seed``); its upper end is +inf when the order-statistic interval of Q_q(p) reaches
above the sample or that of Q_q(n) below it (too few runs for q: the quantile may lie where no run was seen).

**Decision at a budget.** *met* when the interval lies at or below the target, *missed* when it lies above,
*ambiguous* when it straddles it; an ambiguous budget gets more runs (the next batch doubles the total) until it is
decided or ``max_runs`` is reached, when it stays *ambiguous* and is treated as **not met** (never recommended).

**Search.** Bracket in log b from ``start`` by factors of 10 within ``BUDGET_LIMITS`` (up until a budget is met,
down until one is not), then bisect in log b until hi/lo ≤ ``rel_width``. The answer is the interval
[b_miss, b_met]: b_met is the recommendation (target met at 95%), b_miss a budget where it was missed or not shown
met. Regret need not be monotone in b for noisy measurements (and need not be monotone at all): the endpoints are
measured again on *fresh* seeds (batches from ``CONFIRM_OFFSET`` on, with fresh counterpart runs). If b_met is not
met on the fresh seeds, the search moves up by factors of hi/lo until a budget is met on both (else no answer); if
b_miss turns out met on fresh seeds, a note says the answer may be conservative. Each decision has 95% confidence on
its own; no multiplicity correction is made across the (≈ 10) decisions of a search (the fresh-seed confirmation of
b_met is the guard against a lucky decision).

**Prior.** ``solve_measured(..., prior=P, instances=N)`` draws N instances (``P.sample(N, seed)``), answers each,
and reports the worst (largest b_met) and the ``prior_quantile`` of b_met over the instances.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from ..errors import InputError, ParamName, flag, render

LEVEL = 0.95
BUDGET_LIMITS = (1e-4, 1e4)  # user budgets searched (ρ, ε, …)
NONPRIVATE_LIMIT = 1e12
CONFIRM_OFFSET = 1_000_000  # batch index from which the fresh-seed confirmations draw
BOOTSTRAP = 2000
BOOTSTRAP_CELLS = 2_000_000  # resampled values held at once by the quantile bootstrap (16 MB per array)
# The first batch at each budget and the most runs at one budget (``--runs``, ``--max-runs``): the measured trade-off of
# benchmarks/RESULTS_budget_measured.md (issue 24): 50 first runs escalating to 800 cost 3× the CPU of 100 escalating
# to 400 on the finite question in the issue (three decisions took 800 runs each), 1.1–1.4× in our runs at T = 1e6
# and 0.65× at T = 1e5; 400 caps a search's counterpart runs at 800 (1600 before), and 100 first runs see DP-IMED's
# rare bad runs where 50 missed them (ε = 1 "met" on 50 runs, 293% [8%, 577%] on 400)
DEFAULT_RUNS = 100
DEFAULT_MAX_RUNS = 400
DEFAULT_NOTION = {"finite": "epsilon", "linear": "rho", "contextual": "rho", "glm": "ldp"}


# -- counterparts ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Counterpart:
    """The non-private algorithm a private one is compared with: ``name`` (a name ``simulate --algo`` accepts),
    constructor ``params`` (``simulate --param``), ``budget`` (None: non-private; else the same algorithm at the
    non-private limit) and ``how`` (in words)."""

    name: str
    params: tuple = ()
    budget: dict | None = None
    how: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "params": dict(self.params), "budget": self.budget, "how": self.how}


def _named(cls) -> tuple | None:
    """The non-private counterpart the algorithm's card declares: ``cls.counterpart = (name, how)`` (or
    ``(name, params, how)``; boundcalc.algorithms.base.Algorithm), None when it names none."""
    cp = getattr(cls, "counterpart", None)
    if not cp:
        return None
    return (cp[0], tuple(sorted(dict(cp[1]).items())), cp[2]) if len(cp) == 3 else (cp[0], (), cp[1])


def counterpart_of(name: str) -> Counterpart:
    """The named non-private counterpart of a private algorithm, or the algorithm itself at the non-private limit."""
    from .. import algorithms

    cls = algorithms.lookup(name)
    if cls.notion == "none":
        raise InputError(ParamName("algo"), "a private algorithm (this one is non-private)", name)
    if _named(cls):
        n, p, how = _named(cls)
        return Counterpart(n, p, None, how)
    field_name = "rho" if cls.notion == "zcdp" else "epsilon"
    return Counterpart(cls.name, (), {"notion": cls.notion, field_name: NONPRIVATE_LIMIT},
                       f"{cls.name} itself at {field_name} = {NONPRIVATE_LIMIT:g} (no non-private version implemented; "
                       "its noise is then of order 1e-6 to 1e-12 of the rewards)")


def chosen_counterpart(private_name: str, name: str | None, params: dict | None = None) -> Counterpart:
    """The counterpart the user chose (``--counterpart NAME --counterpart-param k=v``; ``budget.solve(...,
    counterpart=NAME, counterpart_params={...})``), or the named one (``counterpart_of``) when ``name`` is None.

    NAME is a name ``simulate --algo`` accepts: a non-private algorithm of the private one's setting (e.g. ``GOPE``,
    whose default ``schedule=ls`` is the Lattimore–Szepesvári schedule, the paper's experimental baseline for
    AdaC-GOPE), or the private algorithm itself (then: at its non-private limit, budget ``NONPRIVATE_LIMIT``)."""
    from .. import algorithms

    if isinstance(name, Counterpart):
        return name
    cls = algorithms.lookup(private_name)
    if name is None:
        if params:
            raise InputError(ParamName("counterpart_param"), f"used with {flag('counterpart')} NAME", params)
        return counterpart_of(cls.name)
    if not isinstance(name, str) or not name.strip():
        raise InputError(ParamName("counterpart"), f"the name of a non-private algorithm (as simulate {flag('algo')} accepts)", name)
    try:
        ccls = algorithms.lookup(name.strip())
    except InputError as exc:  # lookup names --algo; the name came from --counterpart (issue 22 §4)
        raise InputError(ParamName("counterpart"), exc.allowed, exc.got) from None
    if ccls.setting != cls.setting:
        raise InputError(ParamName("counterpart"), f"a {cls.setting} algorithm (the setting of {cls.name})", ccls.name)
    params = dict(params or {})
    if ccls.name == cls.name:
        field_name = "rho" if cls.notion == "zcdp" else "epsilon"
        cp = Counterpart(cls.name, tuple(sorted(params.items())), {"notion": cls.notion, field_name: NONPRIVATE_LIMIT},
                         render(f"{cls.name} itself at {field_name} = {NONPRIVATE_LIMIT:g} (chosen with {flag('counterpart')})"))
    elif ccls.notion != "none":
        raise InputError(ParamName("counterpart"), f"a non-private {cls.setting} algorithm, or {cls.name} itself (at its "
                         "non-private limit)", ccls.name)
    else:
        cp = Counterpart(ccls.name, tuple(sorted(params.items())), None,
                         render(f"{ccls.name}" + "".join(f" {flag('param')} {k}={v}" for k, v in sorted(params.items()))
                                + f" (chosen with {flag('counterpart')})"))
    try:  # bad parameters: InputError now, not after the first private runs
        build_counterpart(cp, cls.name)
    except InputError as exc:
        raise InputError(ParamName("counterpart_param"), f"parameters {cp.name} accepts ({exc.allowed})", exc.got) from None
    return cp


def default_algorithms(setting: str, notion) -> list[str]:
    """The private algorithms of ``setting`` with a named non-private counterpart whose notion can meet ``notion``."""
    from .. import algorithms
    from ..privacy.conversions import calibrate_upper

    out = []
    for name, cls in algorithms.by_setting()[setting].items():
        if cls.notion == "none" or not _named(cls):
            continue
        own, _ = calibrate_upper(notion.budget(1.0), cls.notion)
        if own is not None:
            out.append(name)
    return out


def _limit_budget(cls, notion_name):
    from ..privacy import LocalDP, PureDP, ZCDP, ApproxDP

    if cls.notion == "zcdp":
        return ZCDP(NONPRIVATE_LIMIT)
    if cls.notion == "pure":
        return PureDP(NONPRIVATE_LIMIT)
    if cls.notion == "approx":
        return ApproxDP(NONPRIVATE_LIMIT, 1e-6)
    if cls.notion == "ldp":
        return LocalDP(NONPRIVATE_LIMIT, 1e-6 if "delta" in str(cls.__init__.__code__.co_varnames) else 0.0)
    raise InputError(ParamName("algo"), "an algorithm whose non-private limit is defined (pure, zCDP, (ε, δ), local)", cls.name)


def build_counterpart(cp: Counterpart, private_name: str):
    from .. import algorithms

    if cp.budget is None:
        return algorithms.build(cp.name, None, dict(cp.params))
    cls = algorithms.lookup(private_name)
    return algorithms.build(cls.name, _limit_budget(cls, None), dict(cp.params))


# -- statistics -----------------------------------------------------------------------------------------------
def quantile_ci(x: np.ndarray, q: float, level: float = LEVEL) -> tuple[float, float, float]:
    """(estimate, lo, hi): the q-quantile and its distribution-free order-statistic interval (Hahn & Meeker §5.2):
    [X_(l), X_(u)] with l = B⁻¹((1−level)/2), u = B⁻¹((1+level)/2) + 1 for B = Binomial(R, q) (1-based order
    statistics; coverage ≥ level up to the discreteness). An endpoint beyond the sample is ±inf."""
    from scipy.stats import binom

    xs = np.sort(np.asarray(x, dtype=float))
    R = xs.size
    a = (1 - level) / 2
    lo_i = int(binom.ppf(a, R, q))  # X_(lo_i) with 1-based index lo_i; 0 -> -inf
    hi_i = int(binom.ppf(1 - a, R, q)) + 1
    lo = -math.inf if lo_i < 1 else float(xs[lo_i - 1])
    hi = math.inf if hi_i > R else float(xs[hi_i - 1])
    return float(np.quantile(xs, q)), lo, hi


def tail_mass(runs: int, level: float = LEVEL) -> float:
    """The most probability a run's regret can have above the largest of ``runs`` independent runs, at one-sided
    confidence 1 − (1 − level)/2: p* = 1 − ((1 − level)/2)^(1/runs) ≈ ln(40)/runs ≈ 3.7/runs at level 0.95 (the
    "rule of three", ≈ 3/n at one-sided 95%: Hanley & Lippman-Hand, JAMA 249 (1983) 1743–1745; Louis, Am. Stat. 35
    (1981) 154). Exact for any distribution: the mass above the sample maximum, 1 − F(X_(n)), is Beta(1, n) for a
    continuous F (P(mass > p) = (1 − p)^n) and stochastically smaller for a discrete one."""
    a = (1 - level) / 2
    return float(-math.expm1(math.log(a) / max(int(runs), 1)))


def tail_floor(x, span: float | None, level: float = LEVEL) -> float:
    """The most the runs not seen can add to the mean of a run's regret X ∈ [0, span]: (span − max x) · p*
    (``tail_mass``), at one-sided confidence 1 − (1 − level)/2. E X = E min(X, v) + E (X − v)⁺ ≤ E min(X, v) +
    (span − v) P(X > v) with v the largest run seen. 0 when no span is known (``span`` None)."""
    x = np.asarray(x, dtype=float)
    if span is None or not math.isfinite(float(span)) or x.size == 0:
        return 0.0
    return max(float(span) - max(float(x.max()), 0.0), 0.0) * tail_mass(x.size, level)


def regret_span(env, T) -> float | None:
    """The largest pseudo-regret a run can have at T: T × the largest gap Δ_max (per round at most Δ_max: finite
    arms, a linear instance's fixed action set; ``env.gaps``); with changing but bounded contexts T × the largest
    regret of a round (``_context_span``); None for unbounded (Gaussian) contexts: then the mean's interval has no
    tail floor (and its method says so)."""
    gaps = getattr(env, "gaps", None)
    if gaps is None:
        return _context_span(env, T)
    try:
        g = np.asarray(gaps, dtype=float).ravel()
    except (TypeError, ValueError):
        return None
    if g.size == 0 or not np.all(np.isfinite(g)):
        return None
    return float(T) * max(float(g.max()), 0.0)


def _context_span(env, T) -> float | None:
    """T × the largest regret of one round where contexts change but are bounded: contextual linear (the pseudo-regret
    max_k <θ, x_k> − <θ, x_a> ≤ 2 max‖x‖ ‖θ‖; contexts on the sphere, projected, or a pool: its largest row norm) and
    GLM with bounded contexts (|x^T θ_a| ≤ C_B ‖θ‖_F, so a round's regret ≤ μ(C_B ‖θ‖_F) − μ(−C_B ‖θ‖_F), μ the
    increasing link); None for unbounded (Gaussian) contexts."""
    setting = getattr(env, "setting", None)
    th = getattr(env, "theta", None)
    if th is None:
        return None
    norm = float(np.linalg.norm(np.asarray(th, dtype=float)))
    if setting == "contextual":
        xmax = float(getattr(env, "max_context_norm", math.inf))  # sphere/projected: 1; a pool: its largest row
        if not math.isfinite(xmax):
            return None
        return float(T) * 2.0 * xmax * norm
    if setting == "glm" and hasattr(env, "mu"):
        cb = float(getattr(env, "C_B", math.inf))
        if not math.isfinite(cb):
            return None
        r = cb * norm
        return float(T) * float(env.mu(r) - env.mu(-r))
    return None


def _t_quantile(p: float, df: float) -> float:
    """The Student-t quantile t_{p, df}: ``scipy.special.stdtrit(df, p)``, which is what ``scipy.stats.t.ppf(p, df)``
    computes (t_gen._ppf; ppf adds loc 0 and scales by 1: the same float) without importing scipy.stats (0.5 s of
    this process's own work before the first answer, issue 24 item 9)."""
    from scipy.special import stdtrit

    return float(stdtrit(df, p))


def _mean_ci(x: np.ndarray, level: float = LEVEL) -> tuple[float, float, float]:
    R = x.size
    m = float(x.mean())
    half = _t_quantile(0.5 + level / 2, R - 1) * float(x.std(ddof=1)) / math.sqrt(R) if R > 1 else math.inf
    return m, m - half, m + half


def cluster_overhead(p, n, clusters, level: float = LEVEL) -> tuple[float, float, float]:
    """r̂ − 1 = Σp/Σn − 1 and its cluster-robust delta-method interval (the ratio estimator under cluster sampling,
    Cochran, *Sampling Techniques*, 3rd ed., §6.11 with clusters as units): with block totals P_b, N_b of the
    B clusters, Var(r̂) ≈ B/(B−1) Σ_b (P_b − r̂ N_b)² / (Σ_b N_b)², half-width t_{(1+level)/2, B−1} √Var. Valid for
    any dependence between the runs of one cluster (here: the private and counterpart runs of one engine block,
    which draw from one Generator), as long as clusters are independent (different SeedSequence children)."""
    p, n = np.asarray(p, dtype=float), np.asarray(n, dtype=float)
    labels, inv = np.unique(np.asarray(clusters), return_inverse=True)
    B = labels.size
    P = np.bincount(inv, weights=p, minlength=B)
    N = np.bincount(inv, weights=n, minlength=B)
    if not N.sum() > 0:
        return (math.inf if P.sum() > 0 else 0.0), -math.inf, math.inf
    r = P.sum() / N.sum()
    if B < 2:
        return float(r - 1), -math.inf, math.inf
    var = B / (B - 1) * float(np.sum((P - r * N) ** 2)) / N.sum() ** 2
    half = _t_quantile(0.5 + level / 2, B - 1) * math.sqrt(var)
    return float(r - 1), float(r - 1 - half), float(r - 1 + half)


def _bootstrap_quantile_overhead(p, n, q, level, rng, clusters=None) -> tuple[float, float, float]:
    """Q_q(p)/Q_q(n) − 1 and its paired percentile-bootstrap interval: whole clusters resampled (each with its
    pairs), so within-cluster dependence is kept."""
    R = p.size
    qn = float(np.quantile(n, q))
    est = float(np.quantile(p, q)) / qn - 1 if qn > 0 else math.inf
    cl = np.arange(R) if clusters is None else np.unique(np.asarray(clusters), return_inverse=True)[1]
    B = int(cl.max()) + 1
    members = [np.nonzero(cl == b)[0] for b in range(B)]
    pick = rng.integers(0, B, size=(BOOTSTRAP, B))
    qp_b = np.empty(BOOTSTRAP)
    qn_b = np.empty(BOOTSTRAP)
    if len({m.size for m in members}) == 1:  # clusters of one size (every run, or equal blocks): rows at once
        M = np.stack(members)
        step = max(1, BOOTSTRAP_CELLS // R)  # resamples per slab: at most BOOTSTRAP_CELLS values in memory
        for i in range(0, BOOTSTRAP, step):
            idx = M[pick[i:i + step]].reshape(-1, R)  # row j: the members of its picked clusters, in pick order
            qp_b[i:i + step] = np.quantile(p[idx], q, axis=1)  # the same order statistics and interpolation as
            qn_b[i:i + step] = np.quantile(n[idx], q, axis=1)  # one row at a time: bit-identical
    else:
        for i in range(BOOTSTRAP):
            idx = np.concatenate([members[b] for b in pick[i]])
            qp_b[i] = np.quantile(p[idx], q)
            qn_b[i] = np.quantile(n[idx], q)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(qn_b > 0, qp_b / qn_b - 1, np.inf)
    a = (1 - level) / 2
    return est, float(np.quantile(r, a)), float(np.quantile(r, 1 - a))


def _units_label(pairing: str | None, clusters) -> tuple[str, str]:
    """(pairing, units) as computed: ``independent`` — every run its own unit; ``common`` — engine blocks as
    clusters; None (a direct call) — read from the cluster labels."""
    if pairing == "independent":
        return "independent", "runs (each run its own unit: the counterpart on independent seeds)"
    if pairing == "common":
        return "common", "engine blocks (clusters: a block's private and counterpart runs share a Generator)"
    k = np.unique(np.asarray(clusters)).size
    if k == np.asarray(clusters).size:
        return "given", "runs (each pair its own unit)"
    return "given", f"the {k} given clusters"


def assess(p, n, kind: str, value: float, quantile: float | None = None, level: float = LEVEL,
           rng: np.random.Generator | None = None, clusters=None, span: float | None = None,
           pairing: str | None = None) -> dict[str, Any]:
    """The measured quantity (``estimate``), its interval ``ci`` and the decision ``status`` (met / missed /
    ambiguous) for final regrets ``p`` (private) and ``n`` (counterpart), paired by index; ``clusters`` (one label per
    run; default: every run its own) are the independent units of the overhead's interval; ``pairing`` (independent /
    common / None) only labels them. See the module docstring.

    ``span``: the largest regret a run can have (``regret_span``: T Δ_max). A mean's interval is then the sample
    interval (``ci_sample``: delta method / Student t) widened by the unseen tail (``tail_floor``, the rule of three
    times the room above the largest run seen): the upper end by (span − max p)·p*/mean(n) for the overhead, by
    (span − max p)·p* for the regret; the overhead's lower end by the counterpart's unseen tail,
    (1 + lo)·mean(n)/(mean(n) + (span − max n)·p*) − 1. Each end then holds at one-sided 1 − (1 − level) (the
    sample part and the tail at (1 − level)/2 each, Bonferroni): "met" is a 95% statement even when rare runs far
    above the ones seen (a run stuck on a bad arm) carry the mean. A quantile's interval needs no floor (the
    order statistics are distribution-free)."""
    p = np.asarray(p, dtype=float)
    n = np.asarray(n, dtype=float)
    cl = np.arange(p.size) if clusters is None else np.asarray(clusters)
    pairing_done, units = _units_label(pairing, cl)
    extra: dict[str, Any] = {}
    if kind == "overhead":
        if quantile is None:
            est, lo, hi = cluster_overhead(p, n, cl, level)
            method = ("delta method for the ratio of means" if pairing_done == "independent" or units.startswith("runs")
                      else "cluster-robust delta method for the ratio of means")
            method += {"independent": ", the counterpart on independent seeds (each run its own unit)",
                       "common": ", runs paired by seed (common pairing), engine blocks as clusters"}.get(
                pairing_done, f", units: {units}")
            nbar = float(n.mean()) if n.size else 0.0
            fp, fn = tail_floor(p, span, level), tail_floor(n, span, level)
            extra["ci_sample"] = [float(lo), float(hi)]
            if span is not None:
                hi2 = hi + (fp / nbar if nbar > 0 else (math.inf if fp > 0 else 0.0))
                lo2 = (1 + lo) * nbar / (nbar + fn) - 1 if (1 + lo > 0 and nbar + fn > 0) else lo
                lo, hi = lo2, hi2
                method += ("; each end widened by the unseen tail (rule of three on the runs above the largest "
                           "seen, up to the span T·Δ_max)")
                extra["tail"] = _tail_info(p, n, span, level, fp, fn)
            else:
                method += "; no span known: no tail floor (valid only if no rare large runs go unseen)"
        else:
            est, lo, hi = _bootstrap_quantile_overhead(p, n, quantile, level, rng or np.random.default_rng(0), cl)
            method = (f"cluster bootstrap ({BOOTSTRAP} resamples) of the q = {quantile:g} quantile ratio, resampling "
                      f"units: {units}")
            # the unseen tail of a quantile: when the runs cannot bound Q_q(A) from above (its order-statistic upper
            # end lies beyond the sample) or Q_q(N) from below, no resampling of them can: the upper end is +inf
            if math.isinf(quantile_ci(p, quantile, level)[2]) or math.isinf(quantile_ci(n, quantile, level)[1]):
                extra["ci_bootstrap"] = [float(lo), float(hi)]
                hi = math.inf
                method += (f"; upper end +inf: {p.size} runs cannot bound the q = {quantile:g} quantile (its "
                           "order-statistic interval reaches beyond the sample)")
    elif kind == "regret":
        if quantile is None:
            est, lo, hi = _mean_ci(p, level)
            method = "Student-t interval of the mean regret"
            extra["ci_sample"] = [float(lo), float(hi)]
            if span is not None:
                fp = tail_floor(p, span, level)
                hi = hi + fp
                method += ("; upper end widened by the unseen tail (rule of three on the runs above the largest "
                           "seen, up to the span T·Δ_max)")
                extra["tail"] = _tail_info(p, None, span, level, fp, 0.0)
            else:
                method += "; no span known: no tail floor (valid only if no rare large runs go unseen)"
        else:
            est, lo, hi = quantile_ci(p, quantile, level)
            method = f"order-statistic interval of the q = {quantile:g} quantile"
    else:
        raise InputError("target", f"overhead or regret for {flag('by')} simulation (ratio is a statement about bounds)", kind)
    status = "met" if hi <= value else ("missed" if lo > value else "ambiguous")
    out = {"estimate": float(est), "ci": [float(lo), float(hi)], "status": status, "method": method,
           "runs": int(p.size), "pairing": pairing_done, "units": units}
    out.update(extra)
    return out


def _tail_info(p, n, span, level, fp, fn) -> dict[str, Any]:
    return {"span": float(span), "mean_counterpart": None if n is None or not n.size else float(n.mean()), "mass": tail_mass(p.size, level), "max_private": float(p.max()) if p.size else None,
            "max_counterpart": None if n is None or not n.size else float(n.max()), "add_private": float(fp),
            "add_counterpart": float(fn),
            "rule": "P(run > largest seen) <= 1 - ((1 - level)/2)^(1/runs) ~ 3.7/runs; times (span - largest seen)"}


def tail_blocks(res: dict, value: float, kind: str, max_runs: int, level: float = LEVEL) -> bool:
    """Whether the unseen tail keeps an ambiguous decision of a mean ambiguous even at ``max_runs`` runs: the estimate
    is within the target but the estimate plus the tail floor that ``max_runs`` runs would leave (with the largest
    run seen so far) is not — more runs cannot show it met; or (overhead) the estimate is above the target but the
    lower end the counterpart's unseen tail leaves at ``max_runs`` is not — more runs cannot show it missed. Either
    way the decision counts as not met, as it would at ``max_runs``, and the search stops adding runs there. Only a
    block on the "met" side (estimate within the target) makes the answer "not pinned down" (``_not_pinned``)."""
    t = res.get("tail")
    if not t or res["status"] != "ambiguous":
        return False
    nbar = t.get("mean_counterpart")
    if not res["estimate"] <= value:  # above the target: can the overhead's lower end clear it by max_runs?
        if kind != "overhead" or not nbar or not nbar > 0:
            return False
        room_n = max(t["span"] - (t["max_counterpart"] or 0.0), 0.0) * tail_mass(max_runs, level)
        return (1 + res["estimate"]) * nbar / (nbar + room_n) - 1 <= value  # not "missed" either: stop (not met)
    room = max(t["span"] - (t["max_private"] or 0.0), 0.0) * tail_mass(max_runs, level)
    if kind == "overhead":
        add = room / nbar if nbar and nbar > 0 else math.inf
    else:
        add = room
    return res["estimate"] + add > value


# -- simulation with caches -----------------------------------------------------------------------------------
def batch_seed(seed: int, k: int) -> int:
    """The engine seed of batch k (an integer below 2**53, exact through the engine's seed validation, from SeedSequence([seed, k]))."""
    return int(np.random.SeedSequence([int(seed), int(k)]).generate_state(1, np.uint64)[0] % np.uint64(2**53))


def counterpart_seed(seed: int, k: int) -> int:
    """The engine seed of the counterpart's batch k under independent pairing: from SeedSequence([seed, k, 1]), a
    stream independent of every private batch's (``batch_seed``)."""
    return int(np.random.SeedSequence([int(seed), int(k), 1]).generate_state(1, np.uint64)[0] % np.uint64(2**53))


PAIRINGS = ("independent", "common")
# The default pairing per setting (benchmarks/RESULTS_budget_measured.md): finite — independent (the paired final
# regrets of DP-IMED and IMED are uncorrelated, and IMED's stretch engine is 4–12× slower in the small blocks common
# pairing needs); linear, contextual, GLM — common (AdaC-GOPE's and GOPE-limit's paired runs correlate: the
# overhead's interval at ρ = 0.01, 160 runs, is ≈ 30% narrower under common pairing, and their episode engines are
# cheap in small blocks).
DEFAULT_PAIRING = {"finite": "independent", "linear": "common", "contextual": "common", "glm": "common"}


def batch_sizes(runs: int, max_runs: int) -> list[int]:
    """Batch sizes: ``runs``, then each batch doubles the total, capped at ``max_runs`` in all."""
    out, total = [runs], runs
    while total < max_runs:
        nxt = min(total, max_runs - total)
        out.append(nxt)
        total += nxt
    return out


# The counterpart's batches, per process (``PairedSimulator.np_batch``): they do not depend on the private algorithm or
# its budget, so every search of this process that compares with the same counterpart on the same instance, T, seed,
# batch size, blocks and checkpoints reuses them (issue 24: DP-KLUCB's search at T = 1e5 was 96% KL-UCB runs, and
# DP-KLUCB and AdaP-KLUCB compare with the same KL-UCB). Bounded: the oldest batch goes when full.
COUNTERPART_CACHE_SIZE = 512
_COUNTERPART_RUNS: dict = {}


def counterpart_cache_key(alg, env, T: int, engine_seed: int, runs: int, block_runs: int, checkpoints):
    """The process cache's key of a counterpart batch: a digest of the pickled algorithm and environment (their
    whole state: class, parameters, arms / actions) with T, the engine seed, the runs, the runs per block (the
    seeding contract: a block draws from its own SeedSequence child, so the block size changes the numbers) and the
    checkpoints. None (no caching) when the algorithm or the environment cannot be pickled."""
    import hashlib
    import pickle

    try:
        blob = pickle.dumps((alg, env), protocol=4)
    except Exception:  # noqa: BLE001 - an unpicklable plugin or env: simulate every time
        return None
    cps = np.asarray(checkpoints, dtype=float)
    return (hashlib.blake2b(blob, digest_size=20).hexdigest(), int(T), int(engine_seed), int(runs), int(block_runs),
            cps.tobytes())


class PairedSimulator:
    """Private runs at any budget beside cached counterpart runs, batch by batch.

    ``make_private(b)`` builds the private algorithm at user budget b; ``counterpart`` the non-private one;
    ``env`` the instance. ``final(b, k)``/``np_batch(k)`` are the final regrets of batch k (cached).

    ``pairing="independent"`` (the default): the counterpart's batches draw from their own seeds
    (``counterpart_seed``), independent of the private runs, and one fresh set of counterpart batches serves every
    fresh-seed confirmation (private batch k ≥ CONFIRM_OFFSET pairs with counterpart batch
    CONFIRM_OFFSET + k mod CONFIRM_OFFSET); every run is then independent of every other, whatever the block sizes,
    so each run is its own cluster and the blocks can be large (fast). ``pairing="common"``: the counterpart's
    batch k uses the private batch's seed and blocks (common random numbers); the blocks are then the clusters."""

    def __init__(self, make_private: Callable[[float], Any], counterpart, env, T: int, seed: int, runs: int,
                 max_runs: int, executor=None, block_runs: int = 50, checkpoints=None, pairing: str = "independent",
                 np_block_runs: int | None = None):
        from ..montecarlo.engine import log_checkpoints

        if pairing not in PAIRINGS:
            raise InputError("pairing", " or ".join(PAIRINGS), pairing)
        self.make_private, self.counterpart, self.env = make_private, counterpart, env
        self.T, self.seed, self.executor, self.block_runs = int(T), int(seed), executor, int(block_runs)
        self.pairing = pairing
        self.np_block_runs = int(block_runs if pairing == "common" or np_block_runs is None else np_block_runs)
        cps = log_checkpoints(T) if checkpoints is None else np.asarray(checkpoints)
        self.checkpoints = np.unique(np.append(cps, int(0.9 * T))) if T >= 20 else cps
        self.sizes = batch_sizes(runs, max_runs)
        self._np: dict[int, Any] = {}
        self._priv: dict[tuple[float, int], Any] = {}
        self.seconds = 0.0
        self.np_seconds = 0.0
        self.run_count = 0  # runs used (simulated, or counterpart batches from the process cache)
        self.simulated_runs = 0  # runs simulated by this search
        self.np_run_count = 0
        self.np_cached_runs = 0
        self.np_simulated_runs = 0
        self.calls: list[tuple[bool, int, float]] = []  # (counterpart?, runs, seconds) of every simulation

    def _run(self, alg, engine_seed: int, runs: int, block_runs: int):
        from .. import montecarlo

        t0 = time.perf_counter()
        res = montecarlo.run(alg, self.env, self.T, runs, seed=engine_seed, checkpoints=self.checkpoints,
                             block_runs=block_runs, executor=self.executor)
        self.last_seconds = time.perf_counter() - t0
        self.seconds += self.last_seconds
        self.run_count += runs
        self.simulated_runs += runs
        self.calls.append((alg is self.counterpart, int(runs), float(self.last_seconds)))  # for cost_estimate
        return res

    def np_key(self, k: int) -> int:
        """The counterpart batch that private batch k is compared with."""
        if self.pairing == "common" or k < CONFIRM_OFFSET:
            return k
        return CONFIRM_OFFSET + k % CONFIRM_OFFSET

    def np_batch(self, k: int, runs: int):
        """The counterpart's batch for private batch k: simulated once per search (``_np``, every budget and decision
        shares it) and, through ``_COUNTERPART_RUNS`` (``counterpart_cache_key``), once per process for the same
        counterpart, instance, T, seed, runs, blocks and checkpoints (another algorithm with the same counterpart,
        another search of the same question). A batch taken from the process cache counts in ``run_count`` (the runs
        the answer uses) and in ``np_cached_runs``, not in ``simulated_runs``."""
        key = self.np_key(k)
        if key not in self._np:
            s = batch_seed(self.seed, key) if self.pairing == "common" else counterpart_seed(self.seed, key)
            ck = counterpart_cache_key(self.counterpart, self.env, self.T, s, runs, self.np_block_runs,
                                       self.checkpoints)
            hit = _COUNTERPART_RUNS.get(ck) if ck is not None else None
            if hit is None:
                hit = self._run(self.counterpart, s, runs, self.np_block_runs)
                self.np_seconds += self.last_seconds
                self.np_simulated_runs += runs
                if ck is not None:
                    if len(_COUNTERPART_RUNS) >= COUNTERPART_CACHE_SIZE:
                        _COUNTERPART_RUNS.pop(next(iter(_COUNTERPART_RUNS)))  # oldest first
                    _COUNTERPART_RUNS[ck] = hit
            else:
                self.run_count += runs
                self.np_cached_runs += runs
            self._np[key] = hit
            self.np_run_count += runs
        return self._np[key]

    def priv_batch(self, b: float, k: int, runs: int):
        key = (float(b), k)
        if key not in self._priv:
            self._priv[key] = self._run(self.make_private(b), batch_seed(self.seed, k), runs, self.block_runs)
        return self._priv[key]

    def clusters(self, batches: list[tuple[int, int]]) -> np.ndarray:
        """One label per run, the independent units of the intervals: under independent pairing every run (all runs
        are independent); under common pairing (batch, engine block) — a block's private and counterpart runs
        share a Generator."""
        if getattr(self, "pairing", "independent") == "independent":
            return np.concatenate([k * 10**7 + np.arange(r) for k, r in batches])
        return np.concatenate([k * 10**7 + np.arange(r) // self.block_runs for k, r in batches])

    def finals(self, b: float, batches: list[tuple[int, int]]):
        P = [self.priv_batch(b, k, r) for k, r in batches]
        N = [self.np_batch(k, r) for k, r in batches]
        return (np.concatenate([x.regret[:, -1] for x in P]), np.concatenate([x.regret[:, -1] for x in N]), P, N)


# -- the answer -----------------------------------------------------------------------------------------------
@dataclass
class MeasuredAnswer:
    """The measured answer for one algorithm on one instance (user notion ``notion``)."""

    algorithm: str
    counterpart: dict
    status: str  # met | unreachable | any budget | not simulable
    budget: float | None = None  # b_met: the strongest privacy at which the target was met (and confirmed)
    interval: list = field(default_factory=list)  # [b_miss, b_met] (b_miss None: met at the smallest budget)
    confidence: str = ""
    overhead: dict | None = None  # measured overhead at b_met: estimate and 95% interval
    regret: dict | None = None  # measured private regret at b_met: distribution
    regret_nonprivate: dict | None = None  # the counterpart's: distribution
    measure: dict | None = None  # the target's quantity at b_met (estimate, ci, status, method, runs)
    runs_used: int = 0
    seconds: float = 0.0
    estimate_seconds: float | None = None  # the up-front estimate of the search's seconds (``cost_estimate``)
    estimate_range: list = field(default_factory=list)  # the up-front [fewest, most] seconds, escalations included
    estimates: list = field(default_factory=list)  # ``cost_estimate`` after every decision (updated as it goes)
    evaluations: list = field(default_factory=list)  # every decision: budget, runs, estimate, ci, status, stage
    own_budget: dict | None = None
    conversion: str = ""
    curves: dict | None = None  # mean regret curves at b_met (private, counterpart)
    notes: list = field(default_factory=list)
    reason: str = ""
    final_regrets: dict | None = None  # per-run final regrets at b_met (for the distribution figures; not in JSON)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("final_regrets", None)
        return d


def _private_factory(name: str, notion, params: dict | None):
    from .. import algorithms
    from ..privacy.conversions import calibrate_upper

    cls = algorithms.lookup(name)

    def make(b: float):
        own, _ = calibrate_upper(notion.budget(float(b)), cls.notion)
        if own is None:
            raise InputError(ParamName("algo"), f"an algorithm whose guarantee can meet {notion.describe()}", cls.name)
        return algorithms.build(cls.name, own, params or {})

    return cls, make


def _env_of(instance):
    if hasattr(instance, "make_env"):
        return instance.make_env()
    return instance


def _setting_of(instance, env) -> str:
    return getattr(instance, "setting", None) or getattr(env, "setting", None) or "finite"


def search(algorithm: str, instance, T, kind: str, value: float, notion=None, quantile: float | None = None,
           runs: int = DEFAULT_RUNS, max_runs: int = DEFAULT_MAX_RUNS, seed: int = 0, executor=None,
           start: float | None = None,
           rel_width: float = 1.25, params: dict | None = None, progress: Callable[[dict], None] | None = None,
           block_runs: int | None = None, limits: tuple[float, float] = BUDGET_LIMITS,
           confirm: bool = True, counterpart=None, counterpart_params: dict | None = None,
           pairing: str | None = None, meanwhile: Callable[[], None] | None = None) -> MeasuredAnswer:
    """The smallest user budget at which ``algorithm`` meets the measured target on ``instance`` (module docstring).

    ``instance``: an object with ``make_env()`` and ``setting`` (boundcalc.envs.spec.Instance) or an environment;
    ``kind``/``value``: ``overhead`` x or ``regret`` R; ``quantile``: None (the mean) or q in (0, 1); ``runs``: the
    first batch; ``max_runs``: the most runs at one budget; ``progress(event)`` is called after every decision
    (keys: stage, budget, runs, status, estimate, ci, elapsed, estimate_seconds, estimate_range: the search's total
    seconds, likely and [fewest, most], updated after every decision, ``cost_estimate``); ``counterpart``: a name
    ``simulate --algo`` accepts (with ``counterpart_params``), default the named one (``chosen_counterpart``);
    ``pairing``: ``independent`` or ``common`` (``PairedSimulator``; default ``DEFAULT_PAIRING[setting]``); ``block_runs``: runs per engine
    block (default: 50 under independent pairing — a speed setting only; max(1, runs // 20) under common pairing,
    where the blocks are the clusters); ``meanwhile()``: the caller's own work, called once the worker processes
    (if any) have started on what every block needs (``montecarlo.engine.warm``) and before the first decision, so
    that it overlaps theirs."""
    from .. import validate as v
    from .notions import UserNotion

    T = v.horizon(ParamName("T"), T)
    env = _env_of(instance)
    setting = _setting_of(instance, env)
    if notion is None:
        notion = DEFAULT_NOTION[setting]
    if isinstance(notion, str):
        notion = UserNotion(notion, delta=1e-6 if notion == "approx" else None)
    if quantile is not None and not 0 < float(quantile) < 1:
        raise InputError(ParamName("quantile"), "a number in (0, 1) (0.9: the 90% quantile of the regret)", quantile)
    runs = v.count(ParamName("runs"), runs, minimum=2)
    max_runs = max(v.count(ParamName("max_runs"), max_runs, minimum=2), runs)
    cls, make = _private_factory(algorithm, notion, params)
    cp = chosen_counterpart(cls.name, counterpart, counterpart_params)
    ans = MeasuredAnswer(algorithm=cls.name, counterpart=cp.as_dict(), status="")
    pairing = DEFAULT_PAIRING.get(setting, "common") if pairing is None else pairing
    if pairing not in PAIRINGS:
        raise InputError("pairing", " or ".join(PAIRINGS), pairing)
    if block_runs is None:
        from ..montecarlo.engine import DEFAULT_BLOCK_RUNS

        # independent pairing: every run is its own cluster, the block size only sets the speed (the engines
        # vectorise across a block's runs); common pairing: at least ~20 clusters in the first batch
        block_runs = DEFAULT_BLOCK_RUNS if pairing == "independent" else max(1, runs // 20)
    cp_alg = build_counterpart(cp, cls.name)
    from ..algorithms import limits as _limits

    for a in (cls, cp_alg):  # the size limits of simulate, for the most runs at one budget (before any work)
        _limits.check_run_steps(a, env, T, max_runs, setting, product_name=f"{flag('T')} x {flag('max_runs')}")
    sim = PairedSimulator(make, cp_alg, env, T, seed, runs, max_runs, executor, block_runs,
                          pairing=pairing)
    ans.counterpart["pairing"] = pairing
    span = regret_span(env, T)  # a run's regret lies in [0, T Δ_max]: the unseen tail's room (assess)
    boot_rng = np.random.default_rng(np.random.SeedSequence([int(seed), 7]))
    from ..montecarlo.engine import warm

    lo_lim, hi_lim = limits
    b = min(max(float(start) if start else 1.0, lo_lim), hi_lim)  # the first budget decided
    warm([(cp_alg, env), (make(b), env)], executor)  # one worker computes what every block needs (issue 24 item 9)
    if meanwhile is not None:
        meanwhile()  # the caller's own work, while that worker computes
    t_start = time.perf_counter()
    state = {"evals": 0}

    def decide(b: float, stage: str, fresh: bool = False) -> dict:
        base = CONFIRM_OFFSET * (1 + state.get("confirms", 0)) if fresh else 0
        used: list[tuple[int, int]] = []
        res = None
        for j, size in enumerate(sim.sizes):
            used.append((base + j, size))
            p, n, _, _ = sim.finals(b, used)
            res = assess(p, n, kind, value, quantile, rng=boot_rng, clusters=sim.clusters(used), span=span,
                         pairing=pairing)
            if res["status"] != "ambiguous":
                break
            if tail_blocks(res, value, kind, max_runs):  # the unseen tail keeps it from "met" even at max_runs
                res["tail_blocks"] = True
                break
        res.update(budget=float(b), stage=stage, fresh=fresh)
        if fresh:
            state["confirms"] = state.get("confirms", 0) + 1
        ans.evaluations.append(res)
        state["evals"] += 1
        est = cost_estimate(sim, ans.evaluations, time.perf_counter() - t_start, max_runs, rel_width, limits, confirm,
                            history=ans.estimates)
        ans.estimates.append(est)
        if state["evals"] == 1:  # the up-front estimate (from the first decision)
            ans.estimate_seconds, ans.estimate_range = est["likely"], est["range"]
        if progress:
            progress({"stage": stage, "budget": float(b), "runs": res["runs"], "status": res["status"],
                      "estimate": res["estimate"], "ci": res["ci"], "elapsed": est["elapsed"],
                      "estimate_seconds": est["likely"], "estimate_range": est["range"], "algorithm": cls.name,
                      "decision": state["evals"]})
        return res

    lo_lim, hi_lim = limits
    b = float(start) if start else 1.0
    b = min(max(b, lo_lim), hi_lim)
    first = decide(b, "bracket")
    met_b, miss_b = (b, None) if first["status"] == "met" else (None, b)
    if met_b is None:  # go up until met
        x = b
        while x < hi_lim:
            x = min(x * 10, hi_lim)
            if decide(x, "bracket")["status"] == "met":
                met_b = x
                break
            miss_b = x
        if met_b is None:
            ans.status = "unreachable"
            ans.reason = (f"the measured target is not met (at {int(LEVEL * 100)}% confidence) even at "
                          f"{notion.symbol} = {hi_lim:g}, the weakest privacy searched"
                          + (" — the non-private counterpart itself does not meet a regret cap this small"
                             if kind == "regret" else ""))
            _not_pinned(ans, kind, value, max_runs, notion)
            _finish(ans, sim, t_start)
            return ans
    else:  # go down until not met
        x = b
        while x > lo_lim:
            x = max(x / 10, lo_lim)
            if decide(x, "bracket")["status"] != "met":
                miss_b = x
                break
            met_b = x
        if miss_b is None:
            ans.status = "any budget"
            ans.budget, ans.interval = met_b, [None, met_b]
            ans.reason = f"met already at {notion.symbol} = {lo_lim:g}, the strongest privacy searched"
    while miss_b is not None and met_b / miss_b > rel_width:
        mid = math.sqrt(met_b * miss_b)
        if decide(mid, "bisect")["status"] == "met":
            met_b = mid
        else:
            miss_b = mid
    if confirm:
        step = max(met_b / miss_b if miss_b else 10.0, rel_width)
        for _ in range(6):
            c = decide(met_b, "confirm", fresh=True)
            if c["status"] == "met":
                break
            ans.notes.append(f"{notion.symbol} = {met_b:.4g} met the target on the search seeds but not on fresh seeds "
                             f"({c['status']}); moved up")
            miss_b = met_b
            met_b = min(met_b * step, hi_lim)
        else:
            c = None
        if c is None or c["status"] != "met":
            ans.status = "unreachable"
            ans.reason = "no budget met the target on fresh seeds as well as on the search seeds"
            _not_pinned(ans, kind, value, max_runs, notion)
            _finish(ans, sim, t_start)
            return ans
        if miss_b is not None:
            m = decide(miss_b, "confirm", fresh=True)
            if m["status"] == "met":
                ans.notes.append(f"at {notion.symbol} = {miss_b:.4g} the target was met on fresh seeds although not on "
                                 "the search seeds: the regret is noisy (or not monotone) in the budget there; the "
                                 "answer may be conservative by up to the interval's width")
    ans.status = ans.status or "met"
    ans.budget = met_b
    ans.interval = [miss_b, met_b]
    ans.confidence = (f"target met at {notion.symbol} = {met_b:.4g} with {int(LEVEL * 100)}% confidence on the search "
                      f"seeds and again on fresh seeds; " + ("" if miss_b is None else
                      f"not met (missed, or not shown met with {max_runs} runs) at {notion.symbol} = {miss_b:.4g}"))
    from ..privacy.conversions import calibrate_upper

    ob, conv = calibrate_upper(notion.budget(met_b), cls.notion)
    ans.own_budget, ans.conversion = ob.as_dict(), conv
    _measure_at(ans, sim, met_b, kind, value, quantile, boot_rng)
    _finish(ans, sim, t_start)
    return ans


NOT_PINNED = "not pinned down"


def _not_pinned(ans: MeasuredAnswer, kind: str, value: float, max_runs: int, notion) -> None:
    """No budget met: when the unseen tail blocked a decision (``tail_blocks``: the runs seen were within the target,
    but the room T·Δ_max above them, times the rule of three at ``max_runs`` runs, was not), the status is
    ``not pinned down`` and the reason says why, how many runs would pin the mean down, and points to --quantile."""
    blocked = [e for e in ans.evaluations if e.get("tail_blocks") and e["estimate"] <= value]
    if not blocked:
        return
    e = min(blocked, key=lambda x: x["estimate"])
    t = e["tail"]
    room = max(t["span"] - (t["max_private"] or 0.0), 0.0)
    a = math.log(2 / (1 - LEVEL))  # p* ≈ ln(40)/runs
    if kind == "overhead":
        nbar = t["mean_counterpart"] or 0.0
        slack = (value - e["estimate"]) * nbar
        what = (f"the mean overhead {100 * e['estimate']:.3g}% (sample interval {100 * e['ci_sample'][0]:.3g}% to "
                f"{100 * e['ci_sample'][1]:.3g}%, {e['runs']} runs)")
        allow = f"{slack:.4g} (the target {100 * value:g}% of the counterpart's mean {nbar:.4g})"
    else:
        slack = value - e["estimate"]
        what = (f"the mean regret {e['estimate']:.4g} (sample interval {e['ci_sample'][0]:.4g} to "
                f"{e['ci_sample'][1]:.4g}, {e['runs']} runs)")
        allow = f"{slack:.4g} (the cap {value:g} less the mean)"
    need = math.ceil(a * room / slack) if slack > 0 else None
    ans.status = NOT_PINNED
    ans.reason = render(f"mean not pinned down: at {notion.symbol} = {e['budget']:.4g} the runs seen give {what}, but a run's "
                  f"regret can be as large as T·Δ_max = {t['span']:.4g}, and up to {100 * tail_mass(max_runs):.2g}% "
                  f"of runs could lie above the largest seen ({t['max_private']:.4g}) even after {flag('max_runs')} "
                  f"{max_runs} runs (rule of three, 97.5%): rare runs up there (a run stuck on a bad arm) could raise "
                  f"the mean by up to {room * tail_mass(max_runs):.4g}, more than the target leaves, {allow}"
                  + (f"; about {float(f'{need:.2g}'):,.0f} runs per budget would pin it down ({flag('max_runs')})" if need else "")
                  + f"; use a quantile target instead ({flag('quantile')} 0.9: the order statistics pin a quantile down)")


def _bisections(ratio: float, rel_width: float) -> int:
    """Bisection steps in log b from a bracket [b/ratio, b] to one of ratio ≤ rel_width (each halves log ratio)."""
    if not ratio > rel_width or not rel_width > 1:
        return 0
    return math.ceil(math.log2(math.log(ratio) / math.log(rel_width)) - 1e-12)


ESCALATIONS = 3  # decisions of a search expected to need --max-runs runs (``cost_estimate``'s likely value)


def cost_estimate(sim, evaluations: list, elapsed: float, max_runs: int, rel_width: float = 1.25,
                  limits: tuple[float, float] = BUDGET_LIMITS, confirm: bool = True,
                  history: list | None = None) -> dict[str, Any]:
    """The search's total seconds as a range [fewest, most] and a likely value, from where it stands after the
    decisions ``evaluations`` (``elapsed`` seconds so far); recomputed after every decision.

    Seconds per run, measured so far (``sim.calls``), private and counterpart: for the fewest, the cheapest
    simulation of each kind seen (a private run no dearer than the cheapest run seen: the first simulations pay
    one-off costs, imports and AdaC-GOPE's designs); for the likely value, the simulations after the first decision;
    for the most, the mean over all of them; plus the search's own seconds per decision outside the simulations
    (intervals, bootstrap). Decisions left: bracketing
    (at least one more step while no budget on each side of the target is known; at most the steps to the limit
    ``limits``), the bisection steps from the bracket's ratio down to ``rel_width`` (exact: each halves log ratio),
    and the fresh-seed confirmations (2; the most adds one move up). Runs: *fewest* — no decision escalates (the
    first batch each, ``sim.sizes[0]``); *most* — every decision left escalates to ``max_runs``, and the counterpart
    runs to ``max_runs`` for the search and for the confirmations (independent pairing: one fresh set; common
    pairing: one per confirmation); *likely* — the fewest decisions, of which ``ESCALATIONS`` in all (less those
    seen) need ``max_runs`` runs: the decisions next to the answer, the last bisection steps and the confirmation of
    the missed side, are the ones whose interval straddles the target (the finite question of issue 24 had 3); or,
    if more, the fraction of the decisions so far that escalated.
    ``history``: the estimates after the earlier decisions (their ``sim_seconds``): the seconds outside the
    simulations per decision are taken from the decisions after the first (the first pays one-off imports; after
    it alone, they count in the most only).
    The seconds are this machine's wall seconds at its current load (another load scales them)."""
    n_dec = len(evaluations)
    first = int(sim.sizes[0])
    np_runs = int(getattr(sim, "np_simulated_runs", 0))
    np_secs = float(getattr(sim, "np_seconds", 0.0))
    p_runs = int(getattr(sim, "simulated_runs", sim.run_count)) - np_runs
    p_secs = float(sim.seconds) - np_secs
    c_p = p_secs / p_runs if p_runs > 0 else 0.0
    c_n = np_secs / np_runs if np_runs > 0 else c_p
    # per run, fewest: the cheapest simulation seen of each kind (a private run at least as cheap as the cheapest run
    # seen: the first simulations pay one-off costs, imports, AdaC-GOPE's designs); likely: the simulations after the
    # first decision (the first's while there are none); most: the mean of all, one-off costs included
    calls = list(getattr(sim, "calls", []))

    def rate(sel):
        xs = [sec / r for is_np, r, sec in sel if r > 0]
        return min(xs) if xs else None

    n_min = rate([c for c in calls if c[0]])
    p_min = rate([c for c in calls if not c[0]])
    cn_lo = n_min if n_min is not None else c_n
    cp_lo = min([x for x in (p_min, n_min) if x is not None], default=c_p)
    later = calls[history[0].get("calls", 0):] if history else []
    lp, ln = [c for c in later if not c[0]], [c for c in later if c[0]]
    cp_likely = sum(c[2] for c in lp) / sum(c[1] for c in lp) if sum(c[1] for c in lp) else cp_lo
    cn_likely = sum(c[2] for c in ln) / sum(c[1] for c in ln) if sum(c[1] for c in ln) else cn_lo
    cp_hi, cn_hi = max(c_p, cp_likely), max(c_n, cn_likely)
    # seconds per decision outside the simulations: from the decisions after the first (the first pays one-off
    # imports); after the first decision alone, 0 for the fewest and likely, its own for the most
    other_hi = max(float(elapsed) - float(sim.seconds), 0.0) / max(n_dec, 1)
    other = 0.0
    if history:
        h0 = history[0]
        other = other_hi = max((float(elapsed) - h0["elapsed"]) - (float(sim.seconds) - h0["sim_seconds"]), 0.0) / max(
            n_dec - 1, 1)
    search = [e for e in evaluations if not e.get("fresh")]
    fresh = [e for e in evaluations if e.get("fresh")]
    n_conf = 2 if confirm else 0
    lo_lim, hi_lim = limits
    if fresh:  # confirming: what is left of the two confirmations (a failed one moves up: one more)
        left = max(n_conf - len(fresh), 0)
        dec_lo, dec_hi = left, left + (1 if left else 0)
    else:
        met = [e["budget"] for e in search if e["status"] == "met"]
        met_b = min(met) if met else None
        miss = [e["budget"] for e in search if e["status"] != "met" and (met_b is None or e["budget"] < met_b)]
        miss_b = max(miss) if miss else None
        if met_b is not None and miss_b is not None:
            dec_lo = _bisections(met_b / miss_b, rel_width) + n_conf
            dec_hi = dec_lo + (1 if confirm else 0)
        else:
            b = met_b if met_b is not None else miss_b
            lim = lo_lim if met_b is not None else hi_lim
            steps = max(math.ceil(abs(math.log10(b / lim)) - 1e-9), 1) if b is not None else 1
            dec_lo = 1 + _bisections(10.0, rel_width) + n_conf
            dec_hi = steps + _bisections(10.0, rel_width) + n_conf + (1 if confirm else 0)
    depth_s = max([e["runs"] for e in search], default=0)
    depth_f = max([e["runs"] for e in fresh], default=0)
    conf_lo = min(dec_lo, max(n_conf - len(fresh), 0))  # confirmations among the decisions left
    conf_hi = min(dec_hi, max(n_conf - len(fresh), 0) + (1 if confirm else 0))
    seen = sum(e["runs"] > first for e in evaluations)  # decisions that escalated so far
    esc = min(dec_lo, max(ESCALATIONS - seen, round(seen / max(n_dec, 1) * dec_lo), 0))  # likely escalations left
    if getattr(sim, "pairing", "independent") == "common":  # each confirmation has its own counterpart batches
        np_lo = conf_lo * first
        np_hi = max(max_runs - depth_s, 0) + conf_hi * max_runs
        esc_c = min(esc, conf_lo)
        np_likely = ((max(max_runs - depth_s, 0) if esc > esc_c else 0) + esc_c * max_runs
                     + (conf_lo - esc_c) * first)
    else:  # one set for the search, one fresh set for every confirmation
        np_lo = max(first - depth_f, 0) if conf_lo else 0
        np_hi = max(max_runs - depth_s, 0) + (max(max_runs - depth_f, 0) if confirm else 0)
        np_likely = ((max(max_runs - depth_s, 0) if esc > min(esc, conf_lo) and dec_lo > conf_lo else 0)
                     + ((max(max_runs - depth_f, 0) if esc else max(first - depth_f, 0)) if conf_lo else 0))
    if dec_hi == 0:  # nothing left to decide: no counterpart runs either (a search ended before --max-runs)
        np_lo = np_hi = np_likely = 0
    lo = elapsed + dec_lo * (first * cp_lo + other) + np_lo * cn_lo
    hi = elapsed + dec_hi * (max_runs * cp_hi + other_hi) + np_hi * cn_hi
    likely = elapsed + dec_lo * other + (esc * max_runs + (dec_lo - esc) * first) * cp_likely + np_likely * cn_likely
    return {"decisions": n_dec, "elapsed": float(elapsed), "sim_seconds": float(sim.seconds), "calls": len(calls),
            "range": [float(lo), float(hi)],
            "likely": float(min(max(likely, lo), hi)), "decisions_left": [int(dec_lo), int(dec_hi)],
            "seconds_per_run": {"private": [cp_lo, cp_likely, cp_hi], "counterpart": [cn_lo, cn_likely, cn_hi]}}


def _measure_at(ans: MeasuredAnswer, sim: PairedSimulator, b: float, kind, value, quantile, rng) -> None:
    """Overhead, regret distributions and curves at b from every batch run there (search and confirmation)."""
    from ..montecarlo.distribution import min_positive_gap, regret_distribution

    keys = sorted(k for (bb, k) in sim._priv if bb == float(b))
    P = [sim._priv[(float(b), k)] for k in keys]
    N = [sim.np_batch(k, x.regret.shape[0]) for k, x in zip(keys, P)]
    p = np.concatenate([x.regret for x in P])
    n = np.concatenate([x.regret for x in N])
    cl = sim.clusters([(k, x.regret.shape[0]) for k, x in zip(keys, P)])
    gap = min_positive_gap(sim.env)
    pairing = getattr(sim, "pairing", "independent")
    span = regret_span(sim.env, sim.T) if hasattr(sim, "T") else None
    ans.measure = assess(p[:, -1], n[:, -1], kind, value, quantile, rng=rng, clusters=cl, span=span, pairing=pairing)
    mo = assess(p[:, -1], n[:, -1], "overhead", math.inf, None, clusters=cl, span=span, pairing=pairing)
    ans.overhead = {"value": mo["estimate"], "ci": mo["ci"], "method": "95% " + mo["method"],
                    "ci_sample": mo["ci_sample"], "pairing": mo["pairing"], "units": mo["units"]}
    if "tail" in mo:
        ans.overhead["tail"] = mo["tail"]
    ans.regret = regret_distribution(p, sim.checkpoints, gap)
    ans.regret_nonprivate = regret_distribution(n, sim.checkpoints, gap)
    q = _t_quantile(0.5 + LEVEL / 2, max(p.shape[0] - 1, 1))
    ans.curves = {"t": sim.checkpoints.tolist()}
    for key, x in (("private", p), ("nonprivate", n)):
        m, h = x.mean(axis=0), q * x.std(axis=0, ddof=1) / math.sqrt(x.shape[0])
        ans.curves.update({key: m.tolist(), key + "_lo": (m - h).tolist(), key + "_hi": (m + h).tolist()})
    ans.final_regrets = {"private": p[:, -1].tolist(), "nonprivate": n[:, -1].tolist()}


def _finish(ans, sim, t_start):
    ans.runs_used = int(sim.run_count)
    ans.seconds = float(time.perf_counter() - t_start)


# -- over instances, and the bound-based answers beside ---------------------------------------------------------
@dataclass
class MeasuredPlan:
    """Measured answers for every algorithm (and instance of a prior), with the bound-based plan beside them."""

    setting: str
    T: int
    target: dict
    notion: dict
    quantile: float | None
    instances: list  # descriptions of the instances answered
    answers: list  # per instance: list of MeasuredAnswer (one per algorithm)
    value: float | None  # the strongest budget over algorithms that meets the target (worst over instances)
    value_algorithm: str | None
    reason: str = ""
    bound: list = field(default_factory=list)  # per algorithm: the bound-based answer and its looseness
    lower_limit: float | None = None
    lower_id: str | None = None
    prior: dict | None = None  # worst and quantile of b_met over the instances, per algorithm
    notes: list = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["answers"] = [[a.as_dict() if hasattr(a, "as_dict") else a for a in row] for row in self.answers]
        return d


def solve_measured(setting: str | None, T, target, notion=None, instance=None, prior=None, instances: int = 1,
                   algos: list[str] | None = None, settings=None, executor=None, delta: float = 1e-6,
                   prior_quantile: float = 0.9, progress=None, with_bounds: bool = True,
                   rel_width: float = 1.25) -> MeasuredPlan:
    """``budget.solve(..., by="simulation")``: measured answers per algorithm on ``instance`` (or on ``instances``
    draws of ``prior``), the bound-based answer of each algorithm beside (``with_bounds``) and the lower limit.
    ``settings``: the search's settings, a :class:`boundcalc.budget.settings.Search` (quantile, runs, max_runs, seed,
    block_runs: a speed setting under independent pairing, the clusters of the overhead's interval under common
    pairing; counterpart with its params: the non-private algorithm every private one is compared with; pairing);
    default ``Search()``. ``executor``: where the blocks run (a montecarlo.executors executor; None: in-process)."""
    from .. import validate as v
    from .notions import UserNotion
    from .settings import Search
    from .solve import Target

    settings = Search() if settings is None else settings
    if not isinstance(settings, Search):
        raise InputError("settings", "a boundcalc.budget.settings.Search", settings)
    quantile, seed = settings.quantile, settings.seed

    if not isinstance(target, Target):
        raise InputError("target", "a boundcalc.budget.Target", target)
    if target.kind == "ratio":
        raise InputError(ParamName("max_ratio_to_lower"), f"{flag('by')} bound (the ratio to a lower bound is a statement about bounds; "
                         f"measure with {flag('max_overhead')} or {flag('max_regret')})", target.value)
    T = v.horizon(ParamName("T"), T)
    if not 0 < float(prior_quantile) <= 1:
        raise InputError("prior_quantile", "a number in (0, 1]", prior_quantile)
    if prior is not None:
        n_inst = int(instances) if isinstance(instances, (int, np.integer)) else v.count(ParamName("instances"), instances)
        if n_inst < 1:
            raise InputError(ParamName("instances"), "at least 1 instance drawn from the prior", instances)
        insts = list(prior.sample(n_inst, seed))
        if not insts:
            raise InputError(ParamName("prior"), "a prior that yields at least one instance", 0)
    elif instance is not None:
        insts = [instance]
    else:
        raise InputError("instance", f"an instance ({flag('means')}, {flag('instance_file')} FILE, …) or a prior ({flag('prior')}) for "
                         f"{flag('by')} simulation", None)
    env0 = _env_of(insts[0])
    setting = setting or _setting_of(insts[0], env0)
    notion = notion or DEFAULT_NOTION[setting]
    if isinstance(notion, str):
        notion = UserNotion(notion, delta=delta if notion == "approx" else None)
    names = list(algos) if algos else default_algorithms(setting, notion)
    if not names:
        raise InputError(ParamName("algo"), f"a private {setting} algorithm whose guarantee can meet {notion.describe()}", None)
    from .. import algorithms

    for nm in names:
        cls = algorithms.lookup(nm)
        if cls.setting != setting:
            raise InputError(ParamName("algo"), f"a {setting} algorithm", nm)
    kind = target.kind
    all_answers = []
    early: dict = {}

    def bound_plan() -> None:  # independent of the measured answers: done while a worker warms up (``search``)
        if with_bounds and len(insts) == 1 and "bp" not in early:
            early["bp"] = _bound_plan(insts[0], env0, setting, int(T), target, notion, delta)

    for inst in insts:
        row = []
        for nm in names:
            row.append(search(nm, inst, T, kind, target.value, notion, quantile, settings.runs, settings.max_runs,
                              seed, executor, progress=progress, rel_width=rel_width, block_runs=settings.block_runs,
                              counterpart=settings.counterpart, counterpart_params=settings.counterpart_params,
                              pairing=settings.pairing, meanwhile=bound_plan))
        all_answers.append(row)
    plan = MeasuredPlan(setting=setting, T=int(T), target={"kind": kind, "value": target.value},
                        notion={"name": notion.name, "alpha": notion.alpha, "delta": notion.delta},
                        quantile=None if quantile is None else float(quantile),
                        instances=[_describe(i) for i in insts], answers=all_answers, value=None,
                        value_algorithm=None)
    # per algorithm: the worst over instances (a budget must serve every instance), then the best algorithm
    per_alg = {}
    for j, nm in enumerate(names):
        bs = [r[j].budget if r[j].status in ("met", "any budget") else None for r in all_answers]
        if any(b is None for b in bs):
            per_alg[all_answers[0][j].algorithm] = None
        else:
            per_alg[all_answers[0][j].algorithm] = max(bs)
        if prior is not None:
            ok = [b for b in bs if b is not None]
            plan.prior = plan.prior or {}
            plan.prior[all_answers[0][j].algorithm] = {
                "instances": len(bs), "met": len(ok), "worst": None if len(ok) < len(bs) else max(ok),
                "quantile": prior_quantile,
                "at_quantile": float(np.quantile(ok, prior_quantile)) if ok else None}
    ok = {k: b for k, b in per_alg.items() if b is not None}
    if ok:
        plan.value_algorithm = min(ok, key=ok.get)
        plan.value = ok[plan.value_algorithm]
    else:
        plan.reason = "no algorithm meets the measured target at any budget searched" + (
            " on every instance drawn" if prior is not None else "")
        if any(a.status == NOT_PINNED for r in all_answers for a in r):
            plan.reason += render(" (for some, the mean is not pinned down by the runs a budget gets: rare runs far "
                                  f"above the ones seen could carry it; see the rows, and use a quantile target, {flag('quantile')} 0.9)")
    if with_bounds and len(insts) == 1:
        bound_plan()
        _bounds_beside(plan, insts[0], env0, target, notion, early["bp"])
    return plan


def _describe(inst) -> dict:
    if hasattr(inst, "to_dict"):
        try:
            return inst.to_dict()
        except Exception:  # noqa: BLE001 - a description is best-effort
            pass
    env = _env_of(inst)
    d = env.describe() if hasattr(env, "describe") else {"name": str(env)}
    return {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in d.items()}


def context_overrides(inst, env, setting) -> dict:
    """The bounds' instance overrides of an instance (``Instance.context_overrides()``, else from the env)."""
    if hasattr(inst, "context_overrides"):
        return dict(inst.context_overrides())
    from ..verify.adapters import instance_for

    over, _ = instance_for(env, setting)
    return over or {}


def bound_value_at(bound_id: str, setting: str, overrides: dict, notion, b: float, T: float) -> float | None:
    """The value at T of bound ``bound_id`` for the user's budget b (through the direction-aware conversion)."""
    from ..bounds import registry

    bound = next((x for x in registry.select(setting=setting) if x.id == bound_id), None)
    if bound is None:
        return None
    ctx = registry.make_context(setting, overrides, notion.budget(float(b)))
    ctx.params["T"] = float(T)
    own, _ = ctx.budget_for(bound)
    if own is None or bound.conditions(ctx):
        return None
    with np.errstate(all="ignore"):
        val = float(bound.evaluate([float(T)], ctx, own).value[0])
    return val if math.isfinite(val) else None


def _bound_plan(inst, env, setting: str, T: int, target, notion, delta):
    """The bound-based plan (budget.solve) of the instance, or the InputError saying why there is none."""
    from .solve import solve

    over = context_overrides(inst, env, setting)
    try:
        return solve(setting, T, target, notion, overrides=over, delta=delta)
    except InputError as exc:
        return exc


def _bounds_beside(plan: MeasuredPlan, inst, env, target, notion, bp) -> None:
    """The bound-based answer of each measured algorithm (its smallest rigorous 'met' budget), how loose the bound
    is on this instance (bound value ÷ measured mean regret, both at the measured answer), and the lower limit.
    ``bp``: the instance's bound-based plan (``_bound_plan``)."""
    over = context_overrides(inst, env, plan.setting)
    if isinstance(bp, InputError):
        plan.notes.append(f"bound-based answers unavailable on this instance: {bp}")
        return
    plan.lower_limit, plan.lower_id = bp.lower_limit, bp.lower_id
    for a in plan.answers[0]:
        rows = [r for r in bp.rows if r.algorithm == a.algorithm and r.is_upper and r.rigorous
                and r.status in ("met", "any budget") and r.user_budget is not None]
        entry = {"algorithm": a.algorithm, "by": "bound", "budget": None, "bound_id": None, "loose_by": None,
                 "bound_at_measured": None, "note": ""}
        if not rows:
            entry["note"] = "no rigorous upper bound of this algorithm meets the target"
        else:
            r = min(rows, key=lambda x: x.user_budget)
            entry.update(budget=r.user_budget, bound_id=r.id)
        ups = [r for r in bp.rows if r.algorithm == a.algorithm and r.is_upper and r.status != "not applicable"]
        cands = ([entry["bound_id"]] if entry["bound_id"] else []) + [r.id for r in ups if r.rigorous] + [
            r.id for r in ups if not r.rigorous]
        for rid in cands if a.budget is not None and a.regret else []:
            bv = bound_value_at(rid, plan.setting, over, notion, a.budget, plan.T)
            if bv is not None and a.regret["mean"] > 0:
                rig = next(r.rigorous for r in bp.rows if r.id == rid)
                entry.update(loose_bound_id=rid, bound_at_measured=bv, loose_by=bv / a.regret["mean"],
                             loose_bound_rigorous=bool(rig))
                break
        plan.bound.append(entry)
