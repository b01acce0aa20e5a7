"""Bounds from outside the package (issue 15): a TOML file of ``[[bound]]`` tables, a Python module defining
``BOUNDS`` (a list of Bound objects), or an installed package's entry points in the group ``boundcalc.bounds``
(each entry point loads to a list of Bound objects, or to a callable returning one).

Sources: these modules hold no formula of the five papers; each loaded bound cites its own (a Theorem or Eq.
of its paper) in its ``source`` field, printed by ``bounds show``.

Every loaded bound is checked (DeclaredBound validates its expression at load; every bound's metadata is checked by
``base.check_metadata``) and registered with ``registry.add_plugin_bounds``; a file is all-or-nothing, so a bad
plugin leaves the registry as it was. Every problem is a PluginError (an InputError): one line naming the plugin
and the problem, exit 2 in the CLI. The file format is documented in docs/plugins.md.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Iterable

from .base import Bound, check_metadata
from .declared import PluginError, bound_tables, from_mapping

ENTRY_POINT_GROUP = "boundcalc.bounds"
_LOADED_FILES: dict[str, tuple[Bound, ...]] = {}
_MODULES: dict[str, object] = {}  # Python plugin files imported so far (absolute path -> module)
_ENTRY_POINTS_DONE = False


def _check_file(path: str) -> None:
    """A plugin file is a regular file of at most validate.MAX_INPUT_BYTES["plugin"] bytes (PluginError else)."""
    from .. import validate
    from ..errors import InputError

    if not os.path.isfile(path):
        raise PluginError(str(path), "no such file (or not a regular file)")
    try:
        validate.input_file("plugin", path, "plugin", "plugin file")
    except InputError as exc:
        raise PluginError(str(path), f"must be {exc.allowed} (got {exc.got})") from None


def read_bounds_file(path: str) -> list[Bound]:
    """The bounds declared in ``path`` (.toml: [[bound]] tables; .py: a module with a list BOUNDS), not registered."""
    origin = str(path)
    _check_file(path)
    if path.endswith(".toml"):
        import tomllib

        try:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise PluginError(origin, f"TOML syntax error: {exc}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise PluginError(origin, f"cannot read the file ({exc})") from None
        return [from_mapping(t, origin) for t in bound_tables(data, origin)]
    if path.endswith(".py"):
        mod = import_module_file(path)
        if not hasattr(mod, "BOUNDS"):
            raise PluginError(origin, "the module defines no list BOUNDS")
        return _as_bounds(mod.BOUNDS, origin)
    raise PluginError(origin, "a bounds file must end in .toml or .py")


def import_module_file(path: str):
    """The Python plugin module at ``path``, imported once per process (cached by absolute path), also in
    ``sys.modules`` under a name made from its path (so that its classes pickle to forked worker processes). A
    module that fails to import is a PluginError naming the file; it is not cached (a fixed file can be retried)."""
    origin = str(path)
    _check_file(path)
    key = os.path.realpath(path)  # one file however it is named (./x.py, x.py, a link)
    if key in _MODULES:
        return _MODULES[key]
    name = "boundcalc_plugin_" + "".join(c if c.isalnum() else "_" for c in key)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    except PluginError:
        sys.modules.pop(name, None)
        raise
    except BaseException as exc:  # noqa: BLE001 - any failure of the user's module is its problem (SystemExit too)
        sys.modules.pop(name, None)
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise PluginError(origin, f"the module failed to import ({type(exc).__name__}: {exc})") from None
    _MODULES[key] = mod
    return mod


def _as_bounds(items, origin: str) -> list[Bound]:
    if isinstance(items, (str, bytes, Bound)) or not isinstance(items, Iterable):
        raise PluginError(origin, f"BOUNDS must be a list of Bound objects (got {type(items).__name__})")
    out = []
    for b in items:
        if not isinstance(b, Bound):
            raise PluginError(origin, f"BOUNDS holds {type(b).__name__}, not a boundcalc.bounds.base.Bound")
        try:
            check_metadata(b)
        except AssertionError as exc:
            raise PluginError(f"{origin} [bound {getattr(b, 'id', '?')!r}]", f"metadata: {exc}") from None
        out.append(b)
    return out


def load_bounds_file(path: str) -> tuple[Bound, ...]:
    """Read ``path`` and register its bounds (once per file; loading it again returns the same bounds)."""
    from . import registry

    key = os.path.realpath(path)  # one file however it is named (./x.py, x.py, a link)
    if key in _LOADED_FILES:
        return _LOADED_FILES[key]
    bounds = tuple(read_bounds_file(path))
    registry.add_plugin_bounds(bounds, str(path))
    _LOADED_FILES[key] = bounds
    return bounds


def load_bounds_files(paths) -> list[Bound]:
    out: list[Bound] = []
    for p in paths or ():
        out.extend(load_bounds_file(p))
    return out


def load_entry_points() -> None:
    """Register the bounds of installed packages (entry-point group ``boundcalc.bounds``), once per process."""
    global _ENTRY_POINTS_DONE
    if _ENTRY_POINTS_DONE:
        return
    _ENTRY_POINTS_DONE = True
    from . import registry

    for origin, obj in loaded_entry_points(ENTRY_POINT_GROUP, lambda o: isinstance(o, Bound)):
        registry.add_plugin_bounds(tuple(_as_bounds(obj, origin)), origin)


def loaded_entry_points(group: str, is_item):
    """(origin, object) for each entry point of ``group`` (bounds here, algorithms in boundcalc.algorithms.plugins):
    a loaded object that is callable but not ``is_item`` is a factory and is called; any failure is one PluginError
    naming the entry point."""
    from importlib.metadata import entry_points

    for ep in entry_points(group=group):
        origin = f"entry point {ep.name} ({ep.value})"
        try:
            obj = ep.load()
            if callable(obj) and not is_item(obj):
                obj = obj()
        except PluginError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise PluginError(origin, f"failed to load ({type(exc).__name__}: {exc})") from None
        yield origin, obj


def reset() -> None:
    """Forget every plugin bound (tests)."""
    global _ENTRY_POINTS_DONE
    from . import registry

    _LOADED_FILES.clear()
    for mod in _MODULES.values():
        sys.modules.pop(getattr(mod, "__name__", ""), None)
    _MODULES.clear()
    _ENTRY_POINTS_DONE = False
    registry.clear_plugin_bounds()
