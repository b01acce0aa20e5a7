"""Algorithms from outside the package (issue 15): a Python file defining ``ALGORITHMS`` (a list of classes with the
interface of :class:`boundcalc.algorithms.base.Algorithm`), or an installed package's entry points in the group
``boundcalc.algorithms`` (each loads to such a list, or to a callable returning one). docs/plugins.md, "Add your own
algorithm".

Sources: this module holds no algorithm of the five papers; each plugin class cites its own in ``source``.

A plugin file is one module for both kinds of plugin: ``--algorithms-file FILE.py`` registers its ``ALGORITHMS`` and,
when it also defines ``BOUNDS``, those bounds (an algorithm arrives with the bounds its ``bound_ids`` name), through
the same import as ``--bounds-file FILE.py`` (``bounds.plugins.import_module_file``: a file is imported once).

Every class is checked before anything is registered (:func:`check_class`): a class (the registry builds it with
the budget), the methods ``simulate`` and ``reference`` implemented, a non-empty ``name`` (not a built-in's),
``source``, a ``setting`` of the package and a privacy ``notion`` of the package whose budget the constructor
accepts (``algorithms.budget_kwargs``). A file is all-or-nothing; every problem is a PluginError (one line naming
the plugin and the problem, exit 2); the built-in algorithms are unchanged.

Optional hooks a plugin class may define (used when present; documented in docs/plugins.md):

* ``from_context(cls, ctx, budget)`` — the instance ``regret --check`` simulates for a bound's context (default:
  built with the budget and its default parameters);
* ``check_assumptions(self, ctx, env)`` -> (met, note) — whether the simulated environment meets the theorem's
  assumptions (default: rewards in [0, 1] for finite-armed algorithms, else the setting's own check is not assumed:
  (True, "no assumption check declared by the plugin"));
* ``audit_scenario`` — what ``audit`` needs: ``"first-decision"`` (the built-in finite-armed design of
  audit/scenarios.py: two arms, one private release each, the first decision) or a subclass of
  :class:`boundcalc.audit.base.Scenario`; with ``audit_budget`` (its default budget, e.g. ``{"epsilon": 1.0}``).
  Without it, ``audit`` says "cannot audit: …" in one line.

These hooks are part of the algorithm card every class declares, built-in or plugin (``base.Algorithm``;
docs/plugins.md, "The algorithm card": also ``granularity``, ``counterpart``, ``context_params`` and
``check_assumptions`` by name); ``boundcalc.algorithms.register(cls)`` adds a class as a built-in.
"""

from __future__ import annotations

import os
from typing import Iterable

from ..errors import PluginError

ENTRY_POINT_GROUP = "boundcalc.algorithms"
NOTIONS = ("none", "pure", "zcdp", "rdp", "approx", "ldp")
# The constructor keywords of a finite-armed class's budget (FiniteAlgorithm.budget_params), per notion.
FINITE_BUDGET_PARAMS = {"none": (), "pure": ("epsilon",), "zcdp": ("rho",), "rdp": ("alpha", "rdp_epsilon")}
_LOADED_FILES: dict[str, tuple[type, ...]] = {}
_ENTRY_POINTS_DONE = False


def check_class(cls, origin: str) -> type:
    """``cls`` if it is a usable plugin algorithm class, else a PluginError naming ``origin`` and the problem."""
    from . import SETTINGS, budget_kwargs, constructor_params

    if not isinstance(cls, type):
        raise PluginError(origin, f"ALGORITHMS holds {type(cls).__name__}, not a class (the registry builds each "
                                  "algorithm with the user's budget)")
    label = f"{origin} [algorithm {getattr(cls, 'name', None) or cls.__name__!r}]"
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name.strip():
        raise PluginError(label, "the class sets no name (class attribute name = '...')")
    if not name.replace("-", "").replace("_", "").replace(" ", "").replace("(", "").replace(")", "").isalnum():
        raise PluginError(label, f"name {name!r}: letters, digits, '-', '_', spaces and parentheses only")
    missing = [m for m in ("simulate", "reference") if not callable(getattr(cls, m, None))]
    missing += sorted(getattr(cls, "__abstractmethods__", ()) or ())
    if missing:
        raise PluginError(label, "missing method " + ", ".join(dict.fromkeys(missing)) + " (the interface of "
                                 "boundcalc.algorithms.base.Algorithm: simulate and reference)")
    if not isinstance(getattr(cls, "source", None), str) or not cls.source.strip():
        raise PluginError(label, "the class sets no source (cite the paper, e.g. source = 'Doe 2027, Algorithm 1')")
    if getattr(cls, "setting", None) not in SETTINGS:
        raise PluginError(label, f"setting {getattr(cls, 'setting', None)!r} is not one of {', '.join(SETTINGS)}")
    notion = getattr(cls, "notion", None)
    if notion not in NOTIONS:
        raise PluginError(label, f"privacy notion {notion!r} is not one of {', '.join(NOTIONS)}")
    bids = getattr(cls, "bound_ids", ())
    if isinstance(bids, str) or not all(isinstance(b, str) for b in bids):
        raise PluginError(label, "bound_ids must be a tuple of bound ids (strings)")
    try:
        accepted = constructor_params(cls)
    except (TypeError, ValueError) as exc:
        raise PluginError(label, f"the constructor's signature cannot be read ({exc})") from None
    if cls.setting == "finite":
        want = FINITE_BUDGET_PARAMS.get(notion)
        if want is None:
            raise PluginError(label, f"privacy notion {notion!r} is not one a finite-armed algorithm takes "
                                     f"({', '.join(FINITE_BUDGET_PARAMS)})")
        have = tuple(getattr(cls, "budget_params", ()) or ())
        if have != want:
            raise PluginError(label, f"a finite-armed {notion} algorithm sets budget_params = {want!r} (got {have!r})")
    want = budget_kwargs(cls) if cls.setting == "finite" else _nonfinite_budget(notion)
    if notion == "ldp":
        want = tuple(k for k in want if k != "delta")  # (ε, δ)-LDP or ε-LDP: --ldp-delta is optional
    lacking = [k for k in want if k not in accepted]
    if lacking and "kwargs" not in accepted:
        raise PluginError(label, f"the constructor takes no {', '.join(lacking)} (the budget of a {notion} algorithm)")
    hook = getattr(cls, "audit_scenario", None)
    if hook is not None and not isinstance(hook, str):  # a design's name is checked by audit (scenarios.DESIGNS)
        # a Scenario subclass, recognised by its interface (boundcalc.audit.base.Scenario: ``probes`` and ``event``);
        # audit sits above algorithms, so the class itself is not imported here
        if not (isinstance(hook, type) and all(callable(getattr(hook, m, None)) for m in ("probes", "event"))):
            raise PluginError(label, "audit_scenario must be a design's name (e.g. 'first-decision') or a "
                                     f"boundcalc.audit.base.Scenario subclass (got {hook!r})")
    return cls


def _nonfinite_budget(notion: str) -> tuple[str, ...]:
    from . import _BUDGET_KWARGS

    return _BUDGET_KWARGS.get(notion, ())


def _as_classes(items, origin: str) -> list[type]:
    if isinstance(items, (str, bytes, type)) or not isinstance(items, Iterable):
        raise PluginError(origin, f"ALGORITHMS must be a list of algorithm classes (got {type(items).__name__})")
    out = [check_class(c, origin) for c in items]
    names = [c.name for c in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise PluginError(origin, f"algorithm name(s) {', '.join(dup)} defined twice")
    return out


def read_algorithms_file(path: str) -> list[type]:
    """The checked algorithm classes of the Python file ``path`` (its list ALGORITHMS), not registered."""
    from ..bounds.plugins import import_module_file

    origin = str(path)
    if not str(path).endswith(".py"):
        raise PluginError(origin, "an algorithms file is a Python module (.py) defining a list ALGORITHMS")
    mod = import_module_file(path)
    if not hasattr(mod, "ALGORITHMS"):
        raise PluginError(origin, "the module defines no list ALGORITHMS")
    return _as_classes(mod.ALGORITHMS, origin)


def load_algorithms_file(path: str) -> tuple[type, ...]:
    """Read ``path`` and register its algorithms and, when the module defines BOUNDS, its bounds (once per file)."""
    from ..bounds import plugins as bound_plugins
    from . import add_plugin_algorithms

    key = os.path.realpath(path)  # one file however it is named (./x.py, x.py, a link)
    if key in _LOADED_FILES:
        return _LOADED_FILES[key]
    classes = tuple(read_algorithms_file(path))
    add_plugin_algorithms(classes, str(path), check_only=True)  # a taken name: nothing registered
    if hasattr(bound_plugins.import_module_file(path), "BOUNDS"):
        bound_plugins.load_bounds_file(path)  # checked and registered first: a bad bound leaves both registries
    add_plugin_algorithms(classes, str(path))
    _LOADED_FILES[key] = classes
    return classes


def load_algorithms_files(paths) -> list[type]:
    out: list[type] = []
    for p in paths or ():
        out.extend(load_algorithms_file(p))
    return out


def load_entry_points() -> None:
    """Register the algorithms of installed packages (entry-point group ``boundcalc.algorithms``), once per process."""
    global _ENTRY_POINTS_DONE
    if _ENTRY_POINTS_DONE:
        return
    _ENTRY_POINTS_DONE = True
    from ..bounds import plugins as bound_plugins
    from . import add_plugin_algorithms

    for origin, obj in bound_plugins.loaded_entry_points(ENTRY_POINT_GROUP, lambda o: isinstance(o, type)):
        if isinstance(obj, type):
            obj = [obj]
        add_plugin_algorithms(tuple(_as_classes(obj, origin)), origin)


def reset() -> None:
    """Forget every plugin algorithm (tests)."""
    global _ENTRY_POINTS_DONE
    from . import clear_plugin_algorithms

    _LOADED_FILES.clear()
    _ENTRY_POINTS_DONE = False
    clear_plugin_algorithms()


def origin_of(alg) -> str:
    """Where a plugin algorithm (class or instance) came from ("" for a built-in)."""
    cls = alg if isinstance(alg, type) else type(alg)
    return getattr(cls, "plugin_origin", "") or ""
