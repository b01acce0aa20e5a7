"""Registered non-closed-form quantities of the finite-armed bounds (issue 15: one definition per bound).

A bound's sympy expression (boundcalc/bounds/finite.py) names each per-arm sum by a symbol (``H_kl``, ``H_eps``,
…); the number behind the symbol is computed here, once, in three backends:

* ``numpy``: floats, what ``regret`` evaluates (``Bound.symbol_values`` → :func:`values`);
* ``mpmath``: at the current mpmath precision, written independently of the numpy path (d_ε from its definition,
  seed 001 Eq. 6, by ``info.d_eps.d_eps_definition_mp``; kl by ``info.kl_bernoulli_mp``), for the prover's
  50-digit re-checks (``rigorous.bound_pairs.finite_symbol_values_mp``);
* ``interval``: a rigorous enclosure over boxes of the means and the budget (``intervals.enclosures`` /
  ``intervals.interval``), for ``check`` / ``verify`` (``rigorous.bound_pairs.finite_symbol_intervals``).

Every quantity is a function of the arms: μ* (the best mean), the means μ_a of the *suboptimal* arms (Δ_a = μ* − μ_a
> 0; optimal arms contribute nothing), K (the number of arms, optimal ones included) and of named parameters
(``epsilon``: the ε of a pure-DP budget; ``c``: a bound's constant). The backends' inputs are :class:`Arms`
built by :func:`arms_numpy`, :func:`arms_mpmath`, :func:`arms_interval`. Each quantity's numpy docstring cites
its source (seed 001 = Azize, Wu, Honda, Orabona, Ito, Basu, "Optimal Regret of Bernoulli Bandits under Global
Differential Privacy", arXiv:2505.05613; seed 003 = Azize & Basu, "Concentrated Differential Privacy for Bandits";
seed 000 = Azize & Basu, "Rényi Differentially Private Bandits"; docs/papers.md).
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np


@dataclass(frozen=True)
class Arms:
    """The arms in one backend: μ*, the suboptimal arms' means and gaps (same order), K (all arms)."""

    mu_star: Any
    means: Any  # suboptimal arms only
    gaps: Any  # μ* − μ_a > 0, same order as ``means``
    K: Any


@dataclass(frozen=True, eq=False)
class Quantity:
    """A registered non-closed-form quantity, one type for every setting (issue 15 item 1).

    ``name`` is the symbol (finite: a symbol of the expressions) or the sympy function (linear, GLM: lambdify calls
    the object itself, see ``__call__``) that the bounds' expressions use; ``numpy``, ``mpmath``, ``interval`` are its
    three implementations (``interval`` None: no enclosure, ``no_interval`` says why). Two calling conventions:

    * ``args == ()``: a quantity of the arms (finite setting): ``impl(Arms, **params)`` with ``params`` named
      parameters (``defaults`` for the optional ones);
    * ``args`` names the positional arguments (e.g. ``("T", "d", "K", "r")``): ``impl(*args)`` on floats / arrays,
      mpf, or :class:`boundcalc.intervals.interval.Interval` boxes.
    """

    name: str
    numpy: Callable
    mpmath: Callable
    interval: Callable | None
    params: tuple = ()
    defaults: dict = field(default_factory=dict)
    setting: str = "finite"
    args: tuple = ()
    source: str = ""
    closed_form: Callable | None = None  # the sympy closed form it stands for (display, numbers), if any
    no_interval: str = ""  # why there is no interval implementation (when ``interval`` is None)
    formula: str = ""  # the defining formula with its source, when the numpy docstring does not start with it

    @property
    def doc(self) -> str:
        return (self.numpy.__doc__ or "").strip()

    @property
    def summary(self) -> str:
        """The defining formula: ``formula``, else the first paragraph of the numpy implementation's docstring."""
        if self.formula:
            return self.formula
        return " ".join(self.doc.split("\n\n")[0].split())

    @property
    def domain(self) -> tuple:
        """The declared range (boundcalc.domains.Range) of each positional argument, in the order of ``args``
        (issue 23 item 2: one declaration, boundcalc.domains.QUANTITY_ARGS); () for a quantity of the arms."""
        from .. import domains

        return tuple(r for _, r in domains.quantity_args(self.name)) if self.args else ()

    def signature(self) -> str:
        """``name(args)`` or ``name(arms; params)``, as ``bounds show`` prints it."""
        if self.args:
            return f"{self.name}({', '.join(self.args)})"
        return f"{self.name}(arms{'; ' + ', '.join(self.params) if self.params else ''})"

    def __call__(self, *args):
        """The mpmath implementation for mpmath arguments, the interval one for Interval arguments, the numpy one
        otherwise (sympy's lambdify calls this for the quantities with positional ``args``)."""
        mods = [type(a).__module__ for a in args]
        if any(m.startswith("mpmath") for m in mods):
            return self.mpmath(*args)
        if any(m.endswith("intervals.interval") for m in mods):
            if self.interval is None:
                raise NotImplementedError(f"quantity {self.name} has no interval implementation: {self.no_interval}")
            return self.interval(*args)
        return self.numpy(*args)


# the one registry of every setting's quantities; ``QUANTITIES`` below is the finite setting's view (arm quantities)
_REGISTRY: dict[str, Quantity] = {}
QUANTITIES: dict[str, Quantity] = {}
_MODULES = ("boundcalc.bounds.quantities_linear", "boundcalc.bounds.quantities_glm")


def register(q: Quantity) -> Quantity:
    """Add ``q`` to the registry (each setting's module registers its quantities at import)."""
    if q.name in _REGISTRY and _REGISTRY[q.name] is not q:
        raise ValueError(f"quantity {q.name} is registered twice")
    _REGISTRY[q.name] = q
    if q.setting == "finite":
        QUANTITIES[q.name] = q
    return q


def _load_all() -> None:
    import importlib

    for m in _MODULES:
        importlib.import_module(m)


def get(name: str) -> Quantity:
    """The registered quantity ``name`` (any setting); KeyError naming the registered ones otherwise."""
    if name not in _REGISTRY:
        _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no registered quantity {name!r} (registered: {', '.join(sorted(_REGISTRY))})") from None


def all_quantities(setting: str | None = None) -> list[Quantity]:
    """Every registered quantity (of ``setting`` if given), in registration order."""
    _load_all()
    return [q for q in _REGISTRY.values() if setting is None or q.setting == setting]


def names(setting: str | None = None) -> tuple[str, ...]:
    """The registered quantities' names (of ``setting`` if given)."""
    return tuple(q.name for q in all_quantities(setting))


def __getattr__(name: str):
    """Module attributes under the quantities' names (``from boundcalc.bounds.quantities import R_phases``: the
    generated numpy code of the bounds, boundcalc/bounds/_generated_numpy.py, imports them so)."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return get(name)
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def _register(name, numpy, mpmath, interval, params=(), defaults=None):
    register(Quantity(name, numpy, mpmath, interval, tuple(params), dict(defaults or {})))


# -- the arms in each backend ---------------------------------------------------------------------------------
def arms_numpy(means, K=None) -> Arms:
    """Arms from all the arms' means (floats): the suboptimal ones are those below the best mean."""
    m = np.asarray(means, dtype=float)
    mu_star = float(m.max())
    gaps = mu_star - m
    sub = gaps > 0
    return Arms(mu_star, m[sub], gaps[sub], float(len(m) if K is None else K))


def arms_mpmath(mu_star, sub_means, K) -> Arms:
    """Arms in mpmath from μ* and the suboptimal arms' means (each below μ*)."""
    import mpmath

    ms = mpmath.mpf(mu_star)
    m = [mpmath.mpf(a) for a in sub_means]
    return Arms(ms, m, [ms - a for a in m], mpmath.mpf(K))


def arms_interval(mu_star, sub_means, K) -> Arms:
    """Arms as intervals (boxes of the means): each suboptimal range must lie below μ*'s."""
    from ..intervals.interval import Interval

    def iv(x):
        return x if isinstance(x, Interval) else Interval(float(x))

    ms = iv(mu_star)
    m = [iv(a) for a in sub_means]
    return Arms(ms, m, [ms - a for a in m], iv(K))


def _itot(terms):
    from ..intervals.interval import Interval

    out = Interval(0.0)
    for t in terms:
        out = out + t
    return out


def _mpsum(terms):
    import mpmath

    return mpmath.fsum(list(terms))


# -- H_kl: the Lai–Robbins constant ---------------------------------------------------------------------------
def _H_kl_np(a: Arms) -> float:
    """H_kl = Σ_{a:Δ_a>0} Δ_a / kl(μ_a, μ*), kl the Bernoulli relative entropy: the Lai–Robbins constant
    (seed 001 Eq. 3; Lai & Robbins 1985 with KL_inf = kl for Bernoulli arms)."""
    from ..info import kl_bernoulli

    return float(np.sum(a.gaps / kl_bernoulli(a.means, a.mu_star)))


def _H_kl_mp(a: Arms):
    from ..info import kl_bernoulli_mp

    return _mpsum(g / kl_bernoulli_mp(m, a.mu_star) for m, g in zip(a.means, a.gaps))


def _H_kl_iv(a: Arms):
    from ..intervals import enclosures as en

    return _itot(en.gap_over_kl_range(m, a.mu_star) for m in a.means)


_register("H_kl", _H_kl_np, _H_kl_mp, _H_kl_iv)


# -- H_eps: LB_ε(ν) of seed 001 Thm 3.1 ---------------------------------------------------------------------
def _H_eps_np(a: Arms, epsilon) -> float:
    """H_eps = Σ_{a:Δ_a>0} Δ_a / d_ε(μ_a, μ*) = LB_ε(ν), the constant of seed 001 Thm 3.1 (Eq. 5), with
    d_ε(x, y) = inf_z ε|z − x| + kl(z, y) (Eq. 6) in its closed form (Eq. 8 / Lemma F.1); numpy uses the closed form."""
    from ..info import d_epsilon

    return float(np.sum(a.gaps / d_epsilon(a.means, a.mu_star, epsilon)))


def _H_eps_mp(a: Arms, epsilon):
    # d_ε from its definition (Eq. 6) by golden-section search: independent of the closed form used by numpy
    from ..info.d_eps import d_eps_definition_mp

    return _mpsum(g / d_eps_definition_mp(m, a.mu_star, epsilon) for m, g in zip(a.means, a.gaps))


def _H_eps_iv(a: Arms, epsilon):
    from ..intervals import enclosures as en

    return _itot(en.gap_over_d_eps_range(m, a.mu_star, epsilon) for m in a.means)


_register("H_eps", _H_eps_np, _H_eps_mp, _H_eps_iv, params=("epsilon",))


# -- H_min: seed 001 Eq. 7 ----------------------------------------------------------------------------------
def _H_min_np(a: Arms, epsilon, c=1.0) -> float:
    """H_min = Σ_{a:Δ_a>0} Δ_a / min{kl(μ_a, μ*), c·ε·Δ_a}: seed 001 Eq. 7 (Azize & Basu 2022 Thm 3 for
    Bernoulli arms; c = 6 or 1 per bound) and, with c = 1, seed 001 Eq. 49 (AdaP-KLUCB, C2 = 1)."""
    from ..info import kl_bernoulli

    c_eps = float(c) * float(epsilon)
    return float(np.sum(a.gaps / np.minimum(kl_bernoulli(a.means, a.mu_star), c_eps * a.gaps)))


def _H_min_mp(a: Arms, epsilon, c=1.0):
    import mpmath

    from ..info import kl_bernoulli_mp

    ce = mpmath.mpf(c) * mpmath.mpf(epsilon)
    return _mpsum(g / min(kl_bernoulli_mp(m, a.mu_star), ce * g) for m, g in zip(a.means, a.gaps))


def _H_min_iv(a: Arms, epsilon, c=1.0):
    # Δ/min(kl, cεΔ) = max(Δ/kl, 1/(cε)): both monotone, so the ranges are exact up to rounding
    from ..intervals import enclosures as en
    from ..intervals import interval as iv

    inv = (iv.Interval(float(c)) * epsilon).reciprocal()
    return _itot(iv.imax(en.gap_over_kl_range(m, a.mu_star), inv) for m in a.means)


_register("H_min", _H_min_np, _H_min_mp, _H_min_iv, params=("epsilon", "c"), defaults={"c": 1.0})


# -- H_inv, H_min_eps: the 1/Δ sums of the UCB-type bounds ---------------------------------------------------
def _H_inv_np(a: Arms) -> float:
    """H_inv = Σ_{a:Δ_a>0} 1/Δ_a: the gap sum of seed 003 Thm 10, seed 000 Thm 5, seed 001 Eq. 49 (AdaP-UCB,
    Azize & Basu 2022 Thm 7), DP-SE and Shariff–Sheffet as quoted in seed 001 §1 and §5."""
    return float(np.sum(1.0 / a.gaps))


def _H_inv_mp(a: Arms):
    return _mpsum(1 / g for g in a.gaps)


def _H_inv_iv(a: Arms):
    return _itot(g.reciprocal() for g in a.gaps)


_register("H_inv", _H_inv_np, _H_inv_mp, _H_inv_iv)


def _H_min_eps_np(a: Arms, epsilon) -> float:
    """H_min_eps = Σ_{a:Δ_a>0} 1/min{Δ_a, ε}: AdaP-UCB (Azize & Basu 2022 Thm 7, quoted with seed 001 Eq. 49)."""
    return float(np.sum(1.0 / np.minimum(a.gaps, epsilon)))


def _H_min_eps_mp(a: Arms, epsilon):
    import mpmath

    e = mpmath.mpf(epsilon)
    return _mpsum(1 / min(g, e) for g in a.gaps)


def _H_min_eps_iv(a: Arms, epsilon):
    from ..intervals import interval as iv

    return _itot(iv.imin(g, epsilon).reciprocal() for g in a.gaps)


_register("H_min_eps", _H_min_eps_np, _H_min_eps_mp, _H_min_eps_iv, params=("epsilon",))


# -- counts and gap sums ---------------------------------------------------------------------------------------
def _n_sub_np(a: Arms) -> float:
    """n_sub = #{a : Δ_a > 0}, the number of suboptimal arms (per-arm additive terms of seed 003 Thm 10,
    seed 000 Thm 5, seed 001 Eq. 49)."""
    return float(len(a.gaps))


def _n_sub_mp(a: Arms):
    import mpmath

    return mpmath.mpf(len(a.gaps))


def _n_sub_iv(a: Arms):
    from ..intervals.interval import Interval

    return Interval(float(len(a.gaps)))


_register("n_sub", _n_sub_np, _n_sub_mp, _n_sub_iv)


def _sum_Delta_np(a: Arms) -> float:
    """sum_Delta = Σ_a Δ_a: the additive term 3β/(β−3)·Σ_a Δ_a at the end of the proof of seed 003 Thm 11."""
    return float(np.sum(a.gaps))


def _sum_Delta_mp(a: Arms):
    return _mpsum(a.gaps)


def _sum_Delta_iv(a: Arms):
    return _itot(a.gaps)


_register("sum_Delta", _sum_Delta_np, _sum_Delta_mp, _sum_Delta_iv)


def _Delta_max_np(a: Arms) -> float:
    """Delta_max = max_a Δ_a (0 without a suboptimal arm): the failure term T·Δ_max·β·π²/12 of DP-SE
    (Sajed & Sheffet 2019, constants of formula sheet 001 §7.1, as in seed 001 App. G)."""
    return float(np.max(a.gaps, initial=0.0))


def _Delta_max_mp(a: Arms):
    import mpmath

    return max(a.gaps, default=mpmath.mpf(0))


def _Delta_max_iv(a: Arms):
    from ..intervals import interval as iv

    return iv.imax(*a.gaps) if a.gaps else iv.Interval(0.0)


_register("Delta_max", _Delta_max_np, _Delta_max_mp, _Delta_max_iv)


# -- DP-SE's epoch sums (seed 001 App. G baseline; Sajed & Sheffet 2019, formula sheet 001 §7.1) ----------------
def dpse_last_epoch(gaps):
    """e_a = ⌊log2(1/Δ_a)⌋ + 1: the first epoch of DP-SE with Δ_e = 2^{-e} < Δ_a (arm a is gone after it;
    Sajed & Sheffet 2019 as used in seed 001 App. G, formula sheet 001 §7.1)."""
    g = np.asarray(gaps, float)
    e = np.floor(np.log2(1.0 / g)) + 1
    # guard against rounding in log2 at exact powers of two: need 2^{-e} < Δ ≤ 2^{-(e-1)}
    e = np.where(2.0 ** (-(e - 1)) < g, e - 1, e)
    e = np.where(2.0 ** (-e) >= g, e + 1, e)
    return e


def _epoch_mp(g):
    import mpmath

    e = mpmath.floor(mpmath.log(1 / g, 2)) + 1
    while mpmath.mpf(2) ** (-(e - 1)) < g:
        e -= 1
    while mpmath.mpf(2) ** (-e) >= g:
        e += 1
    return e


def _epoch_float(v: float) -> float:
    """e = ⌊log2(1/v)⌋ + 1, i.e. the integer with 2^-e < v ≤ 2^-(e-1); exact float comparisons."""
    import math

    if v <= 0:
        return math.inf
    e = math.floor(-math.log2(v)) + 1
    while 2.0 ** (-(e - 1)) < v:
        e -= 1
    while 2.0 ** (-e) >= v:
        e += 1
    return float(e)


def _epoch_iv(g):
    from ..intervals.interval import Interval

    return Interval(_epoch_float(g.hi), _epoch_float(g.lo))  # e_a is nonincreasing in Δ_a


def _S_1_np(a: Arms) -> float:
    """S_1 = Σ_{a:Δ_a>0} ln(8K e_a²)/Δ_a, e_a = ⌊log2(1/Δ_a)⌋ + 1: the non-private sum of the explicit DP-SE
    bound (Sajed & Sheffet 2019 as the baseline of seed 001 App. G, constants of formula sheet 001 §7.1; DERIVED,
    see finite.DPSEExplicit)."""
    e = dpse_last_epoch(a.gaps)
    return float(np.sum(np.log(8 * a.K * e**2) / a.gaps))


def _S_1_mp(a: Arms):
    import mpmath

    return _mpsum(mpmath.log(8 * a.K * _epoch_mp(g) ** 2) / g for g in a.gaps)


def _S_1_iv(a: Arms):
    from ..intervals import interval as iv

    es = [_epoch_iv(g) for g in a.gaps]
    return _itot(iv.log(8 * a.K * e * e) / g for e, g in zip(es, a.gaps))


def _S_2_np(a: Arms) -> float:
    """S_2 = Σ_{a:Δ_a>0} ln(4K e_a²): the privacy sum of the explicit DP-SE bound (Sajed & Sheffet 2019 as the
    baseline of seed 001 App. G, constants of formula sheet 001 §7.1; DERIVED, see finite.DPSEExplicit)."""
    e = dpse_last_epoch(a.gaps)
    return float(np.sum(np.log(4 * a.K * e**2)))


def _S_2_mp(a: Arms):
    import mpmath

    return _mpsum(mpmath.log(4 * a.K * _epoch_mp(g) ** 2) for g in a.gaps)


def _S_2_iv(a: Arms):
    from ..intervals import interval as iv

    return _itot(iv.log(4 * a.K * e * e) for e in (_epoch_iv(g) for g in a.gaps))


def _S_3_np(a: Arms) -> float:
    """S_3 = Σ_{a:Δ_a>0} e_a·Δ_a: the regret of the epochs' first pulls in the explicit DP-SE bound (Sajed &
    Sheffet 2019 as the baseline of seed 001 App. G, constants of formula sheet 001 §7.1; DERIVED, see
    finite.DPSEExplicit)."""
    e = dpse_last_epoch(a.gaps)
    return float(np.sum(e * a.gaps))


def _S_3_mp(a: Arms):
    return _mpsum(_epoch_mp(g) * g for g in a.gaps)


def _S_3_iv(a: Arms):
    return _itot(_epoch_iv(g) * g for g in a.gaps)


_register("S_1", _S_1_np, _S_1_mp, _S_1_iv)
_register("S_2", _S_2_np, _S_2_mp, _S_2_iv)
_register("S_3", _S_3_np, _S_3_mp, _S_3_iv)


# -- evaluation -----------------------------------------------------------------------------------------------
def evaluate(name: str, arms: Arms, backend: str = "numpy", **params):
    """The quantity ``name`` for ``arms`` in ``backend`` ("numpy", "mpmath" or "interval").

    ``params`` may hold more names than the quantity uses (each takes its own); a missing one raises KeyError.
    """
    q = QUANTITIES[name]
    kw = {}
    for p in q.params:
        if p in params and params[p] is not None:
            kw[p] = params[p]
        elif p in q.defaults:
            kw[p] = q.defaults[p]
        else:
            raise KeyError(f"quantity {name} needs the parameter {p}")
    f = getattr(q, backend)
    if f is None:
        raise NotImplementedError(f"quantity {name} has no {backend} implementation")
    kept = _MEMO.get()
    key = _memo_key(name, f, arms, kw) if kept is not None and backend == "numpy" else None
    if key is None:
        return f(arms, **kw)
    if key in kept:
        return kept[key]
    out = f(arms, **kw)
    if isinstance(out, (float, np.floating)):  # a number (an array could be changed by its caller): kept
        kept[key] = out
    return out


# -- values kept inside one computation (memo) -------------------------------------------------------------------
_MEMO: contextvars.ContextVar[dict | None] = contextvars.ContextVar("boundcalc_quantities_memo", default=None)


@contextlib.contextmanager
def memo():
    """Inside: each numpy value of ``evaluate`` is computed once per quantity, implementation, arms and parameters
    (the same numbers: a pure function of them), and kept until the outermost ``memo`` ends. budget.solve evaluates
    every bound at each of its grid budgets, and each evaluation computed the instance's H_kl, H_min, … again,
    though only the budget changed. Nothing is kept outside a ``memo`` (a patched implementation is a new key)."""
    token = _MEMO.set({}) if _MEMO.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _MEMO.reset(token)


def _memo_key(name, f, arms: Arms, kw: dict):
    """The key of a numpy value: float scalars and float arrays by their bytes; None (not kept) for anything else."""
    parts = []
    for v in (arms.mu_star, arms.means, arms.gaps, arms.K, *kw.values()):
        a = np.asarray(v)
        if a.dtype.kind not in "fiu":
            return None
        parts.append((a.dtype.str, a.shape, a.tobytes()))
    return name, f, tuple(kw), tuple(parts)


def values(names, arms: Arms, backend: str = "numpy", **params) -> dict:
    """{name: value} of every registered quantity among ``names`` (others are skipped)."""
    return {n: evaluate(n, arms, backend, **params) for n in names if n in QUANTITIES}
