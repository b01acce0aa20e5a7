"""Mutants for the tests: a one-line edit of a library function, compiled from its own source, so that a test can
show its check rejects that mistake (monkeypatch the result in)."""

import inspect
import textwrap


def mutate(func, old: str, new: str):
    """``func`` recompiled from its own source with ``old`` replaced by ``new`` (exactly one occurrence), in the
    globals of its module: a one-line mistake as a monkeypatchable function."""
    src = textwrap.dedent(inspect.getsource(func))
    assert src.count(old) == 1, f"mutant anchor {old!r} found {src.count(old)} times in {func.__qualname__}"
    ns = dict(func.__globals__)
    exec(compile(src.replace(old, new), inspect.getsourcefile(func), "exec"), ns)  # noqa: S102 - test mutant
    return ns[func.__name__]
