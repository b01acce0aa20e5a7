"""Option values converted without pydantic where the answer is plain (issue 23 §5, start-up).

typer (0.29) converts every option value through a pydantic ``TypeAdapter`` built on first use: importing pydantic
and building ~45 adapters costs about 0.1 s of CPU in every command that parses options (not ``--help``), a third of
what importing numpy and scipy.special costs. Nearly all of boundcalc's options are ``str``, ``bool``, ``int``,
``float``, ``float`` with a parser, or ``list[str]``, and for the common values (a str, a bool flag, a plain decimal
number) the conversion is the obvious one. ``install(command)`` gives each such parameter of a click command a
converter that returns those values directly and hands every other value (``" 4"``, ``"1_000"``, ``"inf"``, a value
it does not recognise, a parser's error) to typer's own converter, built then: results and error messages are typer's
in every case, and pydantic is imported only when such a value appears.

It relies on two private names of typer (``_TyperParameter.get_runtime_param`` / ``_runtime_param`` and
``TypeDescriptor``); where they are missing (another typer) nothing is installed and typer converts as before.
tests/cli/test_startup_imports.py checks both the values (against typer's converter) and that pydantic stays out.
"""

from __future__ import annotations

import re

_MISS = object()
# plain decimal numbers only (ASCII digits, no whitespace, no "_", no inf/nan): what int()/float() and pydantic read
# alike; anything else goes to typer's converter
_INT = re.compile(r"[+-]?[0-9]{1,18}\Z")
_FLOAT = re.compile(r"[+-]?(?:[0-9]{1,40}\.?[0-9]{0,40}|\.[0-9]{1,40})(?:[eE][+-]?[0-9]{1,3})?\Z")


def _kind(descriptor) -> str | None:
    """Which plain conversion a parameter's annotation allows (None: typer converts every value)."""
    if getattr(descriptor, "file_annotation", None) is not None:
        return None
    ann, info = descriptor.annotation, descriptor.parameter_info
    if getattr(info, "parser", None) is not None:
        return "parser"
    if any(getattr(info, k, None) is not None for k in ("min", "max", "click_type")):
        return None
    if ann is str:
        return "str"
    if ann is bool:
        return "bool"
    if ann is int:
        return "int"
    if ann is float:
        return "float"
    if getattr(ann, "__origin__", None) is list and getattr(ann, "__args__", None) == (str,):
        return "list[str]"
    return None


def plain(kind: str, value, parser=None):
    """The converted value when it is plain, else _MISS (typer's converter decides)."""
    t = type(value)
    if kind == "str":
        return value if t is str else _MISS
    if kind == "bool":
        return value if t is bool else _MISS
    if kind == "int":
        if t is int:
            return value
        return int(value) if t is str and _INT.match(value) else _MISS
    if kind == "float":
        if t is float:
            return value
        if t is int and abs(value) < 2 ** 53:
            return float(value)
        return float(value) if t is str and _FLOAT.match(value) else _MISS
    if kind == "list[str]":
        return list(value) if t in (list, tuple) and all(type(v) is str for v in value) else _MISS
    if kind == "parser":
        try:
            return parser(value)
        except Exception:  # noqa: BLE001 - typer's converter calls the parser again and reports its error its way
            return _MISS
    return _MISS


class PlainParam:
    """A parameter's converter: plain values directly, every other value through typer's (built on first need)."""

    def __init__(self, descriptor, kind: str, build):
        self.descriptor, self.kind, self._build, self._typer = descriptor, kind, build, None
        self.parser = getattr(descriptor.parameter_info, "parser", None)

    def typer_param(self):
        if self._typer is None:
            self._typer = self._build(self.descriptor)
        return self._typer

    def coerce(self, value, param, ctx):
        if value is None:  # as typer's RuntimeParam.coerce
            return () if (param.multiple or param.nargs == -1) else None
        if not (self.kind == "list[str]" and isinstance(value, str)):  # a str for a list: typer's error
            out = plain(self.kind, value, self.parser)
            if out is not _MISS:
                return out
        return self.typer_param().coerce(value, param=param, ctx=ctx)


def install(command) -> int:
    """Give every parameter of ``command`` (and of its subcommands) whose annotation allows it a PlainParam; the
    number installed (0 when this typer lacks the private names used)."""
    try:
        from typer import core
        build = core.build_runtime_param
    except (ImportError, AttributeError):
        return 0
    n = 0
    for sub in getattr(command, "commands", {}).values():
        n += install(sub)
    for p in getattr(command, "params", ()):
        n += _give(p, build)
    made = getattr(command, "get_help_option", None)
    if made is not None:  # --help is made on first parse, for a context: give it one then

        def get_help_option(ctx):
            opt = made(ctx)
            if opt is not None:
                _give(opt, build)
            return opt

        command.get_help_option = get_help_option
    return n


def _give(p, build) -> int:
    desc = getattr(p, "type_descriptor", None)
    if desc is None or not hasattr(p, "get_runtime_param") or getattr(p, "_runtime_param", _MISS) is not None:
        return 0
    kind = _kind(desc)
    if kind is None:
        return 0
    p._runtime_param = PlainParam(desc, kind, build)
    return 1
