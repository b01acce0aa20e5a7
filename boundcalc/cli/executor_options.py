"""`simulate --executor/--workers/--scheduler`: which executor (boundcalc.montecarlo.executors) runs the blocks.

Only typer/rich/stdlib at import (the CLI's rule); the executors are built when a command runs.
"""

from __future__ import annotations

from . import common

# [PROTOCOL://]HOST:PORT: a host name, an IPv4 address or a bracketed IPv6 address, and a port
# (inproc:// is not one: an in-process scheduler has no HOST:PORT and no other process can reach it, issue 22 §4)
SCHEDULER_ADDRESS = r"^(?:(tcp|tls|ucx|ws|wss)://)?(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9][A-Za-z0-9._-]*):(\d{1,5})$"


def check_scheduler(address):
    """--scheduler: [PROTOCOL://]HOST:PORT (a Dask scheduler address), validated whatever the executor."""
    import re

    from ..errors import InputError

    if address is None:
        return None
    m = re.match(SCHEDULER_ADDRESS, str(address))
    if not m or not 1 <= int(m.group(3)) <= 65535:
        raise InputError("--scheduler", "a Dask scheduler address [tcp://]HOST:PORT (e.g. tcp://10.0.0.5:8786)",
                         address)
    return str(address)


def plan_executor(ctx, kind, workers, processes, scheduler, n_tasks: int) -> tuple[dict, list[str]]:
    """Which executor runs the blocks and with how many workers: {"kind", "workers", "scheduler"} and notes.

    Default: ``processes`` when --processes > 1, else ``in-process``. ``processes`` and ``dask-local`` start
    --workers workers (``processes``: --processes is the same count), capped at the blocks and the CPUs with a
    note; ``dask`` sends the blocks to the scheduler at --scheduler. Options an executor does not read are noted."""
    import os

    from .. import validate
    from ..errors import InputError
    from ..montecarlo import engine, executors

    P = validate.count("--processes", processes, maximum=engine.MAX_PROCESSES)
    W = None if workers is None else validate.count("--workers", workers, maximum=executors.MAX_WORKERS)
    addr = check_scheduler(scheduler)
    if kind is None:
        kind = "processes" if P > 1 else "in-process"
    if kind not in executors.KINDS:
        raise InputError("--executor", "one of " + ", ".join(executors.KINDS), kind)
    if kind.startswith("dask") and not executors.dask_available():
        raise InputError("--executor", f"in-process or processes: {kind} needs the dask extra "
                         f"({executors.DASK_EXTRA})", kind)
    notes = []
    p_given = common.option_given(ctx, "--processes")
    if kind != "processes" and p_given:
        notes.append(f"--processes has no effect with --executor {kind}" + (" (use --workers)" if kind == "dask-local"
                                                                            else ""))
    if kind in ("in-process", "dask") and W is not None:
        notes.append(f"--workers has no effect with --executor {kind}")
    if kind != "dask" and addr is not None:
        notes.append(f"--scheduler has no effect with --executor {kind}")
    plan = {"kind": kind, "workers": 1, "scheduler": None}
    if kind == "processes":
        if W is not None and p_given and W != P:
            raise InputError("--workers", f"equal to --processes ({P}) or left out (both count the worker processes)",
                             W)
        want = W if W is not None else (P if p_given or P > 1 else (os.cpu_count() or 1))
        flag = "--workers" if W is not None else "--processes"
        used, note = executors.plan_workers(want, n_tasks, name=flag, flag=flag)
        plan["workers"] = used
        if note and (W is not None or p_given):
            notes.append(note)
    elif kind == "dask-local":
        want = W if W is not None else (os.cpu_count() or 1)
        used, note = executors.plan_workers(want, n_tasks, name="--workers", flag="--workers")
        plan["workers"] = used
        if note and W is not None:
            notes.append(note)
    elif kind == "dask":
        plan["scheduler"] = addr or executors._config_scheduler()
        if not plan["scheduler"]:
            raise InputError("--scheduler", "given with --executor dask: the address of a running Dask scheduler "
                             "[tcp://]HOST:PORT (or the dask config scheduler-address)", None)
        plan["workers"] = None
    return plan, notes


def make_executor(plan):
    """The executor a plan names (a ``montecarlo.settings.ExecutorPlan`` or its dict; the caller closes it:
    ``with make_executor(plan) as ex``)."""
    from ..montecarlo import executors

    plan = plan.as_dict() if hasattr(plan, "as_dict") else plan
    if plan["kind"] == "in-process":
        return executors.InProcess()
    if plan["kind"] == "processes":
        return executors.LocalProcesses(plan["workers"])
    if plan["kind"] == "dask-local":
        return executors.DaskLocal(plan["workers"])
    return executors.Dask(plan["scheduler"])
