"""The ``--bounds-file FILE`` option (repeatable): bounds from a TOML or Python file join the registry (issue 15,
docs/plugins.md). Imports only typer/stdlib at module level."""

from __future__ import annotations


def load(paths) -> None:
    """Register the bounds of every ``--bounds-file`` (a bad file: one-line error naming it, exit 2)."""
    if not paths:
        return
    from ..bounds import plugins
    from ..errors import PluginError

    try:
        plugins.load_bounds_files(paths)
    except PluginError as exc:  # name the option: "--bounds-file FILE [bound 'id']: problem"
        if not exc.origin.startswith("entry point"):
            raise PluginError(exc.origin, exc.problem, label="--bounds-file") from None
        raise


def load_algorithms(paths) -> None:
    """Register the algorithms (and the bounds) of every ``--algorithms-file`` (a bad file: one-line error naming it,
    exit 2; the built-in algorithms unchanged)."""
    if not paths:
        return
    from ..algorithms import plugins
    from ..errors import PluginError

    try:
        plugins.load_algorithms_files(paths)
    except PluginError as exc:
        if not exc.origin.startswith("entry point"):
            raise PluginError(exc.origin, exc.problem, label="--algorithms-file") from None
        raise
