"""The exception types: InputError for bad input (exit 2), ExecutionError for work that could not run (exit 1).

Every validation failure raises :class:`InputError` with a one-line message that names the parameter
and its allowed range; the CLI prints it and exits with code 2.
"""

import contextlib
import contextvars
import re


class ParamName(str):
    """The name of a library function's own parameter in an :class:`InputError`
    (``InputError(ParamName("means"), ...)``: "means must be ..."). A front end that sets the parameter from an option of its own names that option instead:
    the CLI's one table, boundcalc/cli/flags.py FLAGS ("means" -> "--means"), translates it when it prints the error
    (issue 23 §1: library code knows parameters, only cli/ knows flags). A plain ``str`` parameter is printed as
    written (a file's key "instance means", a bound's keyword)."""

    __slots__ = ()

    def __reduce__(self):  # picklable as itself (an error raised in a worker process keeps its parameter's kind)
        return (ParamName, (str(self),))


# a parameter named in text meant for the user: flag("runs") -> "{flag:runs}" (rendered by render)
_PLACEHOLDER = re.compile(r"\{flag:([A-Za-z_][A-Za-z0-9_]*)\}")
_FRONT_END_NAMES: contextvars.ContextVar = contextvars.ContextVar("boundcalc_flag_names", default=None)


def flag(parameter: str) -> str:
    """Text meant for the user that points at the option setting a library parameter ("lower " + flag("T") + " or
    ..." in an InputError, a note, a caption) holds this placeholder, "{flag:T}", not the option: only the front end
    knows its options (issue 23 §1). :func:`render` turns it into the front end's name for it (the CLI's table,
    boundcalc/cli/flags.py FLAGS: "--T"), or into the parameter's own name ("T") when no front end named it."""
    return "{flag:" + parameter + "}"


def render(text: str, names=None) -> str:
    """``text`` with every :func:`flag` placeholder replaced by its name in ``names`` (parameter -> option; default:
    the table of the front end running, :func:`front_end_names`); a parameter the table does not name, or every
    one without a table, by its own name."""
    names = _FRONT_END_NAMES.get() if names is None else names
    if "{flag:" not in text:
        return text
    return _PLACEHOLDER.sub(lambda m: (names or {}).get(m.group(1), m.group(1)), text)


@contextlib.contextmanager
def front_end_names(names):
    """Inside, :func:`render` names parameters by ``names`` (the CLI runs each command inside its FLAGS): library
    text meant for the user (notes, captions, report lines) names the option the user typed."""
    token = _FRONT_END_NAMES.set(names)
    try:
        yield
    finally:
        _FRONT_END_NAMES.reset(token)


class InputError(ValueError):
    """Bad user input: a parameter outside its allowed range (one-line message). ``parameter`` and ``allowed`` may
    hold :func:`flag` placeholders: ``str(exc)`` renders them with the running front end's table (:func:`render`;
    the parameter's own name outside one) and a :class:`ParamName` as written; :meth:`text` names both by a table.
    ``allowed`` keeps its placeholders, for an error raised again with another parameter. A parameter other text may
    quote (``f"cannot simulate here: {exc}"``) is a placeholder, as the quoted line then names the option too."""

    def __init__(self, parameter: str, allowed: str, got: object = None):
        self.parameter = parameter
        self.allowed = allowed
        self.got = got
        super().__init__(self.text({}))

    def text(self, names=None) -> str:
        """The one line naming parameters by ``names`` (parameter -> option: a :class:`ParamName` parameter and every
        :func:`flag` placeholder, in ``got`` too; ``{}``: by their own names); None: the placeholders by the running front end's
        table and a ParamName as written (``str(exc)``)."""
        p = self.parameter
        if isinstance(p, ParamName):
            head = names.get(str(p), str(p)) if names else str(p)
        else:
            head = render(str(p), names)
        msg = f"{head} must be {render(str(self.allowed), names)}"
        if self.got is not None:  # a value the library put together may name parameters too ("--y-scale linear")
            msg += f" (got {render(self.got, names) if isinstance(self.got, str) else self.got!r})"
        return msg

    def __str__(self):
        return self.text(None)

    def __reduce__(self):  # picklable: an error raised in a worker process reaches the parent with its parameter
        return (type(self), (self.parameter, self.allowed, self.got))


class ExecutionError(RuntimeError):
    """A computation could not be carried out where it was sent (a worker process died, a Dask scheduler could
    not be reached or has no workers): one line saying what happened where; the CLI prints it, exit code 1."""


class PluginError(InputError):
    """A bad plugin (bound or algorithm): one line naming the plugin (file or entry point) and the problem (exit 2)."""

    def __init__(self, origin: str, problem: str, label: str = "plugin"):
        self.origin = origin
        self.problem = problem
        self.label = label
        self.parameter, self.allowed, self.got = f"{label} {origin}", problem, None
        ValueError.__init__(self, self.text({}))

    def text(self, names=None) -> str:
        return f"{self.label} {self.origin}: {render(str(self.problem), names)}"

    def __reduce__(self):  # picklable: a plugin's error in a worker process reaches the parent as itself
        return (type(self), (self.origin, self.problem, self.label))
