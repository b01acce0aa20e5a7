"""The exception types: InputError for bad input (exit 2), ExecutionError for work that could not run (exit 1).

Every validation failure raises :class:`InputError` with a one-line message that names the parameter
and its allowed range; the CLI prints it and exits with code 2.
"""


class ParamName(str):
    """The name of a library function's own parameter in an :class:`InputError`
    (``InputError(ParamName("means"), ...)``: "means must be ..."). A front end that sets the parameter from an option of its own names that option instead:
    the CLI's one table, boundcalc/cli/flags.py FLAGS ("means" -> "--means"), translates it when it prints the error
    (issue 23 §1: library code knows parameters, only cli/ knows flags). A plain ``str`` parameter is printed as
    written (a file's key "instance means", a bound's keyword)."""

    __slots__ = ()

    def __reduce__(self):  # picklable as itself (an error raised in a worker process keeps its parameter's kind)
        return (ParamName, (str(self),))


class InputError(ValueError):
    """Bad user input: a parameter outside its allowed range (one-line message)."""

    def __init__(self, parameter: str, allowed: str, got: object = None):
        self.parameter = parameter
        self.allowed = allowed
        self.got = got
        msg = f"{parameter} must be {allowed}"
        if got is not None:
            msg += f" (got {got!r})"
        super().__init__(msg)

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
        ValueError.__init__(self, f"{label} {origin}: {problem}")
        self.parameter, self.allowed, self.got = f"{label} {origin}", problem, None

    def __reduce__(self):  # picklable: a plugin's error in a worker process reaches the parent as itself
        return (type(self), (self.origin, self.problem, self.label))
