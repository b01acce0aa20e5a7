"""One registry of the implemented algorithms across the four settings (finite, linear, contextual, glm).

The setting packages (``finite``, ``linear``, ``contextual``, ``glm``) each expose ``ALGORITHMS`` (display
name -> class); this module collects them lazily (nothing is imported until asked) and adds what the CLI
and the verifier need uniformly:

* ``lookup(name)``: case-insensitive, ignoring '-' and '_' (``linucb-dgs``, ``LinUCB_DGS``);
* ``granularity(alg)``: ``"episode"`` (decisions fixed inside an episode, exact batch draws),
  ``"chunk"`` (rarely-switching OFUL family: every step scored, in vectorised chunks) or ``"step"`` (the
  estimate changes every step: a Python loop over t vectorised across runs);
* ``build(name, budget, params)``: an instance from a boundcalc.privacy Budget of the algorithm's own
  notion and constructor keyword parameters; a missing or mismatched budget raises InputError naming the
  flags needed (no conversion between notions is applied here: ``regret --check`` does that);
* ``params_of(alg)``: the constructor parameters of an instance (for JSON output).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import MutableMapping
from typing import Any

from ..errors import InputError, flag, render

SETTINGS = ("finite", "linear", "contextual", "glm")

# The budget parameters of each privacy notion, as placeholders of their options (errors.flag; the CLI renders them
# as its flags: "--alpha and --rdp-epsilon").
NOTION_PARAMS = {"none": "none", "pure": flag("epsilon"), "zcdp": flag("rho"),
                 "rdp": f"{flag('alpha')} and {flag('rdp_epsilon')}", "approx": f"{flag('epsilon')} and {flag('delta')}",
                 "ldp": f"{flag('ldp_epsilon')} [{flag('ldp_delta')}]"}

# Constructor keyword names of the budget, per notion, for the non-finite classes (finite classes use
# FiniteAlgorithm.from_options).
_BUDGET_KWARGS = {"zcdp": ("rho",), "rdp": ("alpha", "eps"), "approx": ("eps", "delta"), "pure": ("eps",),
                  "ldp": ("eps", "delta")}


# Algorithms registered from outside the package (boundcalc.algorithms.plugins: --algorithms-file, entry points).
_PLUGINS: dict[str, type] = {}


class Registered(MutableMapping):
    """A setting package's ``ALGORITHMS``: {display name: class}, whose built-in entries name the class's module
    (``"UCB": "nonprivate.UCB"``, relative to the package) and import it on first lookup, so that a command using one
    algorithm imports one module (start-up, issue 23 §5); listing them all (``dict(ALGORITHMS)``, ``items()``)
    imports them all. An entry may also be a class (``register``). A class whose ``name`` is not its key is an error
    (the key is what ``lookup`` matches before importing)."""

    def __init__(self, package: str, entries: dict):
        self.package, self._entries = package, dict(entries)
        self._specs = {n: v for n, v in self._entries.items() if isinstance(v, str)}  # kept after the import

    def __getitem__(self, name: str) -> type:
        v = self._entries[name]
        if isinstance(v, str):
            module, _, attr = v.rpartition(".")
            cls = getattr(importlib.import_module(f"{self.package}.{module}"), attr)
            if getattr(cls, "name", None) != name:
                raise ImportError(f"{self.package}.ALGORITHMS: {v} is named {getattr(cls, 'name', None)!r}, "
                                  f"registered as {name!r}")
            self._entries[name] = v = cls
        return v

    def __setitem__(self, name: str, cls) -> None:
        self._entries[name] = cls

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __iter__(self):
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registered({self.package!r}, {self._entries!r})"

    def module_of(self, attr: str) -> str | None:
        """The module (relative) that defines the registered class named ``attr`` (a Python name), if any."""
        for v in self._specs.values():
            if v.rpartition(".")[2] == attr:
                return v.rpartition(".")[0]
        return None


def lazy_exports(package: str, registered: Registered, others: dict[str, str]):
    """A setting package's module ``__getattr__`` (PEP 562): its registered classes by their Python names and
    ``others`` ({name: module}) imported on first access, so importing the package imports none of them."""

    def __getattr__(name: str):
        where = registered.module_of(name) or others.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{where}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


def _setting_registry(setting: str) -> Registered:
    return importlib.import_module(f"{__name__}.{setting}").ALGORITHMS


def builtin_names() -> dict[str, list[str]]:
    """{setting: [name]} of the package's own algorithms, importing none of them."""
    return {s: list(_setting_registry(s)) for s in SETTINGS}


def builtin_by_setting() -> dict[str, dict[str, type]]:
    """{setting: {name: class}} of the package's own algorithms (imports every algorithm module)."""
    return {s: dict(_setting_registry(s)) for s in SETTINGS}


def by_setting() -> dict[str, dict[str, type]]:
    """{setting: {name: class}} for every setting package, then the plugin algorithms (docs/plugins.md)."""
    out = builtin_by_setting()
    for name, cls in plugin_algorithms().items():
        out[cls.setting][name] = cls
    return out


def add_plugin_algorithms(classes, origin: str, check_only: bool = False) -> None:
    """Register plugin algorithm classes (checked by ``plugins.check_class``), all or none: a name already taken
    (built-in or plugin, compared as ``lookup`` does) is a PluginError naming ``origin``."""
    from ..errors import PluginError

    taken = {_key(n): "a built-in algorithm" for algs in builtin_names().values() for n in algs}
    taken.update({_key(n): f"an algorithm of plugin {getattr(c, 'plugin_origin', '?')}" for n, c in _PLUGINS.items()})
    for c in classes:
        if _key(c.name) in taken:
            raise PluginError(origin, f"algorithm name {c.name!r} is already {taken[_key(c.name)]}; choose another name")
        taken[_key(c.name)] = f"an algorithm of plugin {origin}"
    if check_only:
        return
    for c in classes:
        if not getattr(c, "plugin_origin", None):
            c.plugin_origin = origin
        _PLUGINS[c.name] = c


def register(cls) -> type:
    """The one registration call of a built-in algorithm: add ``cls`` (checked as a plugin class is,
    ``plugins.check_class``) to its setting package's ``ALGORITHMS`` — what adding the class to that package's
    tuple does, at run time. Every consumer then reads the class's card (base.Algorithm; docs/plugins.md, "The
    algorithm card"): simulate, algorithms, budget --by simulation, audit, regret --check. ``unregister`` undoes it."""
    from ..errors import PluginError
    from .plugins import check_class

    origin = getattr(cls, "__module__", "") or "register"
    check_class(cls, origin)
    taken = {_key(n) for algs in builtin_names().values() for n in algs} | {_key(n) for n in plugin_algorithms()}
    if _key(cls.name) in taken:
        raise PluginError(origin, f"algorithm name {cls.name!r} is already registered; choose another name")
    _setting_registry(cls.setting)[cls.name] = cls
    return cls


def unregister(name: str) -> None:
    """Remove an algorithm added by ``register`` (tests)."""
    cls = lookup(name)
    _setting_registry(cls.setting).pop(cls.name, None)


def clear_plugin_algorithms() -> None:
    _PLUGINS.clear()


def plugin_algorithms() -> dict[str, type]:
    """{name: class} of the plugin algorithms (installed packages' entry points loaded on first use)."""
    from . import plugins

    plugins.load_entry_points()
    return dict(_PLUGINS)


def is_plugin(alg) -> bool:
    """Whether ``alg`` (class or instance) is a plugin algorithm."""
    cls = alg if isinstance(alg, type) else type(alg)
    return _PLUGINS.get(getattr(cls, "name", None)) is cls


def all_algorithms() -> dict[str, type]:
    out: dict[str, type] = {}
    for algs in by_setting().values():
        out.update(algs)
    return out


def _key(name: str) -> str:
    return name.replace("-", "").replace("_", "").replace(" ", "").lower()


def lookup(name: str) -> type:
    """The class of an algorithm by name, across all settings: a built-in one is found by its registered name and
    only its own module is imported (no plugin takes a built-in name: add_plugin_algorithms); otherwise the plugins."""
    for s in SETTINGS:
        reg = _setting_registry(s)
        for n in reg:
            if _key(n) == _key(name):
                return reg[n]
    algs = all_algorithms()
    for n, cls in algs.items():
        if _key(n) == _key(name):
            return cls
    raise InputError(flag("algo"), "one of " + ", ".join(algs), name)


def granularity(alg, env=None, T=None) -> str:
    """``episode``, ``chunk``, ``stretch``, ``thinning`` or ``step`` (class or instance). The leader-stretch and
    thinning fast paths need Bernoulli rewards: on another ``env`` such an algorithm loops over every step. They
    are also slower than the per-step loop at short horizons, where ``simulate`` takes the loop: with an instance,
    ``env`` and ``T`` the answer is the path ``alg.simulate(env, T, ...)`` takes (``uses_stretch`` /
    ``uses_thinning``); without ``T``, the path of long horizons (the one whose cost does not grow with T:
    what limits on T x runs ask about, since the loop is taken below the switch only where it is the cheaper)."""
    g = getattr(alg, "granularity", None)
    if g in ("stretch", "thinning") and env is not None:
        from .finite._stretch import step_rewards_env

        if not step_rewards_env(env):
            return "step"
        uses = getattr(alg, "uses_" + ("stretch" if g == "stretch" else "thinning"), None)
        if T is not None and not isinstance(alg, type) and uses is not None and not uses(env, T):
            return "step"
        return g
    # the card's ``granularity`` (base.Algorithm); a class that does not say gets the per-step limits
    return g or "step"


def constructor_params(cls) -> list[str]:
    """Keyword parameters of the constructor (budget ones included)."""
    return [p for p in inspect.signature(cls.__init__).parameters if p != "self"]


def budget_kwargs(cls) -> tuple[str, ...]:
    """The constructor keywords that carry the budget (empty for non-private algorithms)."""
    if cls.setting == "finite":
        return tuple(cls.budget_params)
    names = _BUDGET_KWARGS.get(cls.notion, ())
    accepted = constructor_params(cls)
    return tuple(k for k in names if k in accepted)


def tunable_params(cls) -> list[str]:
    """Constructor parameters a user may set (``--param name=value``): all but the budget."""
    skip = set(budget_kwargs(cls))
    if cls.setting == "finite":
        skip |= {"record_noise"}
    return [p for p in constructor_params(cls) if p not in skip]


def _budget_values(cls, budget) -> dict[str, Any]:
    """Constructor keywords from a Budget of the algorithm's notion (InputError if missing/mismatched)."""
    need = NOTION_PARAMS.get(cls.notion, cls.notion)
    if cls.notion == "none":
        if budget is not None:
            raise InputError("budget", f"omitted for the non-private {cls.name}", budget.describe())
        return {}
    if budget is None:
        raise InputError(need, f"given for {cls.name} ({cls.notion} privacy)", None)
    if budget.notion != cls.notion:
        raise InputError("budget", f"{need} for {cls.name} ({cls.notion} privacy)", budget.describe())
    if cls.setting == "finite":
        vals = {"pure": {"epsilon": getattr(budget, "epsilon", None)}, "zcdp": {"rho": getattr(budget, "rho", None)},
                "rdp": {"alpha": getattr(budget, "alpha", None), "rdp_epsilon": getattr(budget, "epsilon", None)}}
        return vals.get(cls.notion, {})
    out: dict[str, Any] = {}
    for k in budget_kwargs(cls):
        if k == "rho":
            out[k] = budget.rho
        elif k == "alpha":
            out[k] = budget.alpha
        elif k == "eps":
            out[k] = budget.epsilon
        elif k == "delta":
            if cls.notion == "ldp" and not budget.delta:
                raise InputError(flag("ldp_delta"), f"given (in (0, 1)) for {cls.name} ((ε, δ)-LDP)", None)
            out[k] = budget.delta
    return out


def build(name: str, budget=None, params: dict | None = None):
    """An algorithm instance from its name, a Budget of its notion and constructor parameters."""
    cls = lookup(name) if isinstance(name, str) else name
    params = {k: v for k, v in (params or {}).items() if v is not None}
    allowed = tunable_params(cls)
    for k in params:
        if k not in allowed:
            raise InputError(flag("param"), f"one of {', '.join(allowed) or '(none)'} for {cls.name}", k)
    kw = _budget_values(cls, budget)
    with plugin_errors(cls, "constructor"):
        return cls(**kw, **params)


def plugin_error(alg, exc: BaseException, what: str):
    """The one-line PluginError for an exception a plugin algorithm (class or instance) raised in ``what`` (its
    constructor, simulate): the plugin's file, the algorithm's name and the exception (issue 22 §4: it was "internal
    error ... (please report)" naming neither); None for a built-in algorithm, and for boundcalc's own exceptions
    (InputError, ExecutionError, a time limit), which already say what happened."""
    from ..errors import ExecutionError

    cls = alg if isinstance(alg, type) else type(alg)
    origin = getattr(cls, "plugin_origin", None)
    if not origin or not isinstance(exc, Exception) or isinstance(exc, (InputError, ExecutionError)) \
            or type(exc).__name__ == "TimeLimit":
        return None
    from ..bounds.declared import PluginError

    msg = " ".join(str(exc).split())[:200]
    return PluginError(f"{origin} [algorithm {getattr(cls, 'name', cls.__name__)!r}]",
                       f"its {what} raised {type(exc).__name__}" + (f": {msg}" if msg else "")
                       + " (an error in the plugin's code)")


class plugin_errors:
    """Context manager: an exception a plugin algorithm raises inside the block is its PluginError
    (:func:`plugin_error`); other exceptions pass unchanged."""

    def __init__(self, alg, what: str):
        self.alg, self.what = alg, what

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        err = plugin_error(self.alg, exc, self.what) if exc is not None else None
        if err is not None:
            raise err from None
        return False


def guarantee(alg) -> str:
    """What the algorithm's privacy guarantee is, in words (class or instance): its ``guarantee`` text where it
    differs from the bare notion (e.g. Private-LinUCB's paper calibration is not eps-DP), else the claimed notion."""
    if not isinstance(alg, type) and hasattr(alg, "guarantee_text"):
        return alg.guarantee_text()
    text = getattr(alg, "guarantee", None)
    if text:
        return text
    notion = getattr(alg, "notion", "none")
    if notion == "none":
        return "none (non-private)"
    return render(f"{notion} ({NOTION_PARAMS.get(notion, '')}) as claimed by its source")


def params_of(alg) -> dict[str, Any]:
    """The constructor parameters of an instance, read back from its attributes."""
    if hasattr(alg, "params"):
        return alg.params()
    out = {}
    for p in constructor_params(type(alg)):
        if hasattr(alg, p):
            v = getattr(alg, p)
            if isinstance(v, (int, float, str, bool)) or v is None:
                out[p] = v
    return out


__all__ = ["Registered", "lazy_exports", "builtin_names", "register", "unregister", "add_plugin_algorithms", "plugin_algorithms", "is_plugin", "builtin_by_setting", "SETTINGS", "NOTION_PARAMS", "by_setting", "all_algorithms", "lookup", "granularity", "build",
           "budget_kwargs", "tunable_params", "constructor_params", "params_of", "guarantee"]
