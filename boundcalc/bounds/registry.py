"""The bound registry: every bound (Theorem, Corollary, Eq.) of the five papers, one module per setting.

Each setting module (finite, linear, contextual, glm) exposes ``BOUNDS`` (a list of Bound instances),
``DEFAULT_INSTANCE`` (a dict of parameters, with a ``name`` naming the paper experiment it comes from) and
``derive(params) -> params`` (adds derived quantities such as gaps, validates, raises InputError).
Adding a paper means adding objects to these lists, not editing the CLI.
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from ..errors import InputError, flag
from .base import Bound, Context, check_metadata

SETTING_MODULES = {s: f"boundcalc.bounds.{s}" for s in ("finite", "linear", "contextual", "glm")}
# further bound modules (issue 16), each a BOUNDS list: setting -> module names; a module may hold bounds of several
# settings (seed 003 Table II's converted bounds, boundcalc.bounds.converted: finite and linear), each bound's
# ``setting`` says where it belongs
EXTRA_MODULES: dict[str, tuple[str, ...]] = {"contextual": ("boundcalc.bounds.contextual_extra",
                                                            "boundcalc.bounds.baselines"),
                                             "finite": ("boundcalc.bounds.converted", "boundcalc.bounds.finite_lower",
                                                        "boundcalc.bounds.baselines"),
                                             "linear": ("boundcalc.bounds.converted", "boundcalc.bounds.baselines"),
                                             "glm": ("boundcalc.bounds.baselines",)}


def _setting_bounds(setting: str) -> list:
    """The setting module's BOUNDS, then those of its EXTRA_MODULES in that setting."""
    out = list(setting_module(setting).BOUNDS)
    for m in EXTRA_MODULES.get(setting, ()):
        out.extend(b for b in importlib.import_module(m).BOUNDS if b.setting == setting)
    return out


def setting_module(setting: str):
    if setting not in SETTING_MODULES:
        raise InputError(flag("setting"), "one of " + ", ".join(SETTING_MODULES), setting)
    return importlib.import_module(SETTING_MODULES[setting])


# Bounds registered from outside the package (boundcalc.bounds.plugins: --bounds-file, entry points), in order.
_PLUGINS: list[Bound] = []


def add_plugin_bounds(bounds, origin: str) -> None:
    """Register plugin bounds, all or none: an id already registered (built-in or plugin) is a PluginError."""
    from ..errors import PluginError

    taken = {b.id: "a built-in bound" for b in _builtin_bounds()}
    taken.update({b.id: f"a bound of plugin {getattr(b, 'origin', '?')}" for b in _PLUGINS})
    for b in bounds:
        if b.id in taken:
            raise PluginError(origin, f"bound id {b.id!r} is already {taken[b.id]}; choose another id")
        taken[b.id] = f"a bound of plugin {origin}"
    for b in bounds:
        if getattr(b, "origin", None) in (None, "", "<declared>"):  # a DeclaredBound built in a .py plugin
            b.origin = origin
    _PLUGINS.extend(bounds)


def clear_plugin_bounds() -> None:
    _PLUGINS.clear()


def plugin_bounds() -> tuple[Bound, ...]:
    from . import plugins

    plugins.load_entry_points()
    return tuple(_PLUGINS)


def all_bounds() -> tuple[Bound, ...]:
    """Every built-in bound, then the plugin bounds (boundcalc.bounds.plugins)."""
    return _builtin_bounds() + plugin_bounds()


@lru_cache(maxsize=1)
def _builtin_bounds() -> tuple[Bound, ...]:
    out: list[Bound] = []
    for s in SETTING_MODULES:
        out.extend(_setting_bounds(s))
    ids = [b.id for b in out]
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, f"duplicate bound ids: {dup}"
    for b in out:
        check_metadata(b)
    return tuple(out)


def get(bound_id: str) -> Bound:
    for b in _builtin_bounds() + plugin_bounds():
        if b.id == bound_id:
            return b
    raise InputError("ID", "the id of a registered bound (see 'boundcalc bounds')", bound_id)


def select(setting: str | None = None, notion: str | None = None, kind: str | None = None) -> list[Bound]:
    """Filter the registry; ``kind`` matches a prefix ('upper', 'lower', 'upper-minimax', …)."""
    if setting:  # import only that setting's module (CLI start-up)
        res = _setting_bounds(setting)
        for b in res:
            check_metadata(b)
        res += [b for b in plugin_bounds() if b.setting == setting]
    else:
        res = list(all_bounds())
    if notion:
        res = [b for b in res if b.notion == notion]
    if kind:
        res = [b for b in res if b.kind.startswith(kind)]
    return res


def instance_keys(setting: str) -> list[str]:
    """Parameter names the setting's instance accepts (``--param name=value``), aliases included."""
    mod = setting_module(setting)
    keys = [k for k in mod.DEFAULT_INSTANCE if k != "name"]
    return sorted(set(keys) | set(getattr(mod, "ALIASES", {})))


def make_context(setting: str, overrides: dict | None = None, budget=None) -> Context:
    """The setting's default instance, overridden by ``overrides`` (None values ignored), derived.

    Override names are the instance's parameter names or their aliases (e.g. ``lambda0`` for the contextual
    ``lam0``); an unknown name raises InputError rather than being silently ignored. The derive step may name
    the instance it built (``instance_name``); otherwise the default name is kept, marked "(modified)".
    """
    mod = setting_module(setting)
    params = dict(mod.DEFAULT_INSTANCE)
    name = params.pop("name", setting)
    aliases = getattr(mod, "ALIASES", {})
    changed = {}
    for k, val in (overrides or {}).items():
        if val is None:
            continue
        key = aliases.get(k, k)
        if key not in params:
            raise InputError(flag("param"), f"a parameter of the {setting} instance: " + ", ".join(instance_keys(setting)), k)
        changed[key] = val
    params.update(changed)
    params["_given"] = tuple(sorted(changed))
    params = mod.derive(params)
    params.pop("_given", None)
    built = params.pop("instance_name", None)
    if built:
        name = built
    elif changed:
        name = f"{name} (modified)"
    return Context(params=params, budget=budget, instance_name=name)
