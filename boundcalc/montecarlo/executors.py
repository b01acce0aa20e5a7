"""Where the blocks of a Monte Carlo run are computed: one interface, several implementations.

An executor receives picklable tasks (a top-level function and its arguments: one block of runs each) and
yields ``(task index, result)`` as the blocks finish, in completion order. It decides only *where* a block
runs: each block draws from its own ``SeedSequence`` child (the engine's seeding contract), so the numbers are
bit-identical whatever ran them, in any order. Like numpy's ``Generator``, the executor is passed explicitly
(``montecarlo.run(..., executor=...)``); whoever creates one closes it (``with`` or ``close()``).

- :class:`InProcess`: the blocks one after another in this process (the default).
- :class:`LocalProcesses`: a pool of worker processes on this machine (fork where available), started at the first
  map (or a ``warm``) and kept until ``close`` (a search's engine calls all use the same warm workers); the workers
  hand each other the entries of the process caches they compute (boundcalc.algorithms.process_cache: the G-optimal
  designs), with their next tasks and live through a private directory of the pool (``ProcessCache.obtain``);
  ``warm`` starts work every block needs in one worker ahead of the blocks (montecarlo.engine.warm). Workers
  ignore SIGINT; on Ctrl-C or a failed block the pending blocks are cancelled and the workers terminated at once.
- :class:`Dask`: a running Dask distributed cluster (``Dask("tcp://host:8786")``), or :class:`DaskLocal`
  (a ``LocalCluster`` of N single-threaded worker processes started here and closed with the executor). Blocks
  are submitted as futures and gathered with ``as_completed``; on Ctrl-C or an error the futures are cancelled
  (and a local cluster closed). Needs the optional extra ``pip install 'boundcalc[dask]'``.

Failures: an exception raised inside a block reaches the caller as itself (its type and message, with a note
naming the block and the executor); a worker that dies (killed, out of memory, a crash in native code), a
scheduler that cannot be reached or has no workers raise :class:`boundcalc.errors.ExecutionError` with one line
saying what happened where.

Only the standard library is imported at module level (Dask is imported when a Dask executor is built).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import signal
import threading
import uuid
from concurrent.futures import as_completed
from typing import Any, Callable, Iterator, Sequence

from .. import validate
from ..errors import ExecutionError, InputError, render
from ..errors import flag as _flag

KINDS = ("in-process", "processes", "dask-local", "dask")
DASK_EXTRA = "pip install 'boundcalc[dask]'"
MAX_WORKERS = 256  # a sane ceiling for a local request; the CPU count caps what is started


class Executor:
    """The interface: ``imap_unordered(fn, tasks)`` yields ``(i, fn(*tasks[i]))`` as each task finishes.

    Subclasses implement ``imap_unordered``, ``workers`` and ``describe``; ``close`` releases what the
    executor started (nothing for InProcess). Executors are context managers."""

    kind = "executor"
    warms = False  # ``warm`` starts work elsewhere (montecarlo.engine.warm)

    def imap_unordered(self, fn: Callable, tasks: Sequence[tuple]) -> Iterator[tuple[int, Any]]:
        raise NotImplementedError

    @property
    def workers(self) -> int:
        """Blocks computed at the same time."""
        return 1

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "workers": self.workers}

    def warm(self, fn: Callable, args: tuple) -> bool:
        """Start ``fn(*args)`` now, ahead of the blocks: work whose only product is entries of the process caches
        (boundcalc.algorithms.process_cache) that every later block needs, e.g. the G-optimal design of the full
        action set (montecarlo.engine.warm). Nothing here: a block computes what it needs itself; LocalProcesses
        computes it in one worker while this process goes on, and ships it to the others with their first tasks.
        True when the work was started elsewhere (this process is free meanwhile)."""
        return False

    def close(self) -> None:
        return None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.describe().items() if k != 'kind')})"


def _note(exc: BaseException, where: str) -> BaseException:
    """Attach 'in task i on EXECUTOR' to an exception raised inside a block (PEP 678 notes, Python >= 3.11)."""
    if hasattr(exc, "add_note"):
        exc.add_note(where)
    return exc


class InProcess(Executor):
    """Every block in this process, one after another (no pickling, no worker)."""

    kind = "in-process"

    def imap_unordered(self, fn, tasks):
        for i, args in enumerate(tasks):
            try:
                out = fn(*args)
            except Exception as exc:
                raise _note(exc, f"(in block task {i}, in-process)")
            yield i, out


# -- local processes -------------------------------------------------------------------------------------------
def _worker_init(shared_dir: str | None = None) -> None:
    """Workers leave Ctrl-C to the parent (no traceback per worker; the parent terminates them); ``shared_dir``:
    the directory through which the workers of one pool share the process caches' entries live
    (boundcalc.algorithms.process_cache.SHARED_DIR)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if shared_dir is not None:
        from ..algorithms import process_cache

        process_cache.SHARED_DIR = shared_dir


def _shared_dir() -> str | None:
    """A new private directory for one pool's live sharing (in memory where the system has /dev/shm); None when
    none can be made (the workers then share at task boundaries only)."""
    import tempfile

    shm = "/dev/shm"
    try:
        return tempfile.mkdtemp(prefix="boundcalc-shared-",
                                dir=shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else None)
    except OSError:
        return None


def _remove_dir(path: str | None) -> None:
    if path is not None:
        import shutil

        shutil.rmtree(path, ignore_errors=True)


def _call(fn, args):
    return fn(*args)


def _call_sharing(fn, args, incoming, upto):
    """A task in a worker process: install the process caches' entries ``incoming`` (computed by other workers or
    the parent; boundcalc.algorithms.process_cache), run ``fn(*args)``, and return its result with the entries this
    worker computed meanwhile, its process id, ``upto`` (the parent's log position it now holds) and the task's CPU
    seconds plus the seconds it waited for values another worker had claimed (``ProcessCache.obtain``)."""
    import sys
    import time

    cpu = time.process_time()
    if incoming:
        from ..algorithms import process_cache

        process_cache.install_all(incoming)
    pc = sys.modules.get("boundcalc.algorithms.process_cache")
    waited = pc.WAITED if pc is not None else 0.0
    out = fn(*args)
    pc = sys.modules.get("boundcalc.algorithms.process_cache")  # no such module loaded: no cache to share
    fresh = pc.drain_all() if pc is not None else []
    waited = (pc.WAITED - waited) if pc is not None else 0.0
    return out, fresh, os.getpid(), upto, time.process_time() - cpu + waited


class _SharedLog:
    """The parent's side of the process caches' sharing (boundcalc.algorithms.process_cache) for one pool: every
    entry learned from a worker or set in the parent since the pool started, in order (positions ``base`` …), and
    the position each worker is known to hold. A task carries the entries past the lowest position among the
    workers (it may go to any of them; a worker keeps the entries it has); a worker not yet heard from holds
    ``start`` (what a forked worker inherited). At most ``LIMIT`` entries are kept: a worker that fell further
    behind computes the missing ones again (slower, never different: a shared value is a function of its key)."""

    LIMIT = 4096

    def __init__(self, processes: int, start: int = 0):
        self.processes, self.entries, self.base, self.start, self.seen = processes, [], start, start, {}

    @property
    def end(self) -> int:
        return self.base + len(self.entries)

    def add(self, entries) -> None:
        self.entries.extend(entries)
        drop = len(self.entries) - self.LIMIT
        if drop > 0:
            del self.entries[:drop]
            self.base += drop

    def learn_local(self) -> None:
        """Entries set in this (the parent) process since the last look."""
        import sys

        pc = sys.modules.get("boundcalc.algorithms.process_cache")
        if pc is not None:
            self.add(pc.drain_all())

    def payload(self) -> tuple[list, int]:
        low = min(self.seen.values()) if len(self.seen) >= self.processes else self.start
        return self.entries[max(low, self.base) - self.base:], self.end

    def received(self, fresh, pid: int, upto: int) -> None:
        self.seen[pid] = max(self.seen.get(pid, 0), upto)
        if fresh:
            from ..algorithms import process_cache

            self.add(process_cache.install_all(fresh))  # new to the parent: pass them on


def _abort_pool(pool) -> None:
    """Cancel the pending blocks and terminate the running workers now (Ctrl-C, an error in a block)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=2)


def plan_workers(requested, n_tasks: int, name: str = "workers", flag: str = _flag("workers"),
                 maximum: int = MAX_WORKERS) -> tuple[int, str | None]:
    """Worker processes actually started on this machine for ``n_tasks`` blocks, and a note when fewer than
    requested: at most the number of blocks (an idle worker costs a start-up and buys nothing) and the CPU count
    (more workers than cores only add contention). The seeding contract makes the numbers independent of it."""
    P = validate.count(name, requested, maximum=maximum)
    cpus = os.cpu_count() or 1
    used = max(1, min(P, n_tasks, cpus))
    if used == P:
        return P, None
    why = []
    if used == n_tasks and n_tasks < P:
        why.append(f"{n_tasks} block{'s' if n_tasks != 1 else ''} of runs")
    if used == cpus and cpus < P:
        why.append(f"{cpus} CPU{'s' if cpus != 1 else ''} on this machine")
    return used, render(f"{flag} {P} capped at {used} ({' and '.join(why)})")


class LocalProcesses(Executor):
    """A pool of ``processes`` worker processes on this machine (started at the first map, kept for every map after
    it until ``close``: a search's decisions all use the same warm workers).

    Submission: at most 2 × ``processes`` tasks are in flight (one running and one waiting per worker), the next
    submitted as one finishes, so that a task carries what the workers had learnt when it left: the entries of the
    process caches (boundcalc.algorithms.process_cache; e.g. the G-optimal designs) that one worker computed are
    installed in the others with their next task and not computed there again (``_SharedLog``). Forked workers
    (Linux) inherit the parent's modules and caches at their start (tens of milliseconds for the pool)."""

    kind = "processes"
    warms = True

    def __init__(self, processes: int = 2):
        self.processes = validate.count("processes", processes, maximum=MAX_WORKERS)
        self._pool = None
        self.maps = 0  # imap_unordered calls so far
        # (map, worker pid, CPU seconds and waits for another worker's values) of every task: benchmarks
        self.task_cpu: list[tuple[int, int, float]] = []
        self._warming: list = []  # futures of ``warm`` tasks not yet collected (by the next map)
        self._warm_from = 0.0  # this process's CPU seconds when the first of them was submitted
        # (this process's CPU seconds from the warm tasks' submission to their collection, worker pid, the task's CPU
        # seconds) of every warm task: benchmarks (the warm tasks run while this process works)
        self.warm_cpu: list[tuple[float, int, float]] = []
        self._shared: str | None = None  # the workers' live-sharing directory (``_shared_dir``), made with the pool
        self._cleanup = None

    @property
    def workers(self) -> int:
        return self.processes

    def _get_pool(self):
        if self._pool is None:
            import multiprocessing as mp  # deferred: start-up of `simulate`
            from concurrent.futures import ProcessPoolExecutor  # deferred: multiprocessing, for a process pool only

            fork = "fork" in mp.get_all_start_methods()
            ctx = mp.get_context("fork") if fork else None
            self._log = _SharedLog(self.processes)
            self._log.learn_local()  # a forked worker inherits these; a spawned one gets them with its first task
            if fork:
                self._log.start = self._log.end
            if self._shared is None:
                import weakref

                self._shared = _shared_dir()
                self._cleanup = weakref.finalize(self, _remove_dir, self._shared)  # at close, or at exit
            self._pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=ctx, initializer=_worker_init,
                                             initargs=(self._shared,))
        return self._pool

    def warm(self, fn, args) -> bool:
        """Start the pool (if not yet) and ``fn(*args)`` in one worker now; the next map waits for it first and its
        tasks carry the cache entries it computed to the other workers (``_SharedLog``), so that the workers do not
        all compute the same values at once at the start of their first blocks, while this process goes on with
        its own work meanwhile (issue 24 item 9)."""
        import time

        pool = self._get_pool()
        self._log.learn_local()
        incoming, upto = self._log.payload()
        if not self._warming:
            self._warm_from = time.process_time()
        self._warming.append(pool.submit(_call_sharing, fn, args, incoming, upto))
        return True

    def _collect_warm(self) -> None:
        """Wait for the ``warm`` tasks and log what they computed. A failed warm task is dropped: its work was only
        a head start (a block computes the same values itself, and raises the same error if there is one)."""
        import time
        from concurrent.futures.process import BrokenProcessPool  # deferred: start-up of `simulate`

        warming, self._warming = self._warming, []
        during = time.process_time() - self._warm_from
        for f in warming:
            try:
                _, fresh, pid, upto, cpu = f.result()
            except BrokenProcessPool as exc:
                raise ExecutionError(f"a worker process died while computing the values every block needs "
                                     f"(killed, out of memory or crashed; {exc}); the run was stopped") from None
            except Exception:  # noqa: BLE001 - see the docstring
                continue
            self.warm_cpu.append((during, pid, cpu))
            self._log.received(fresh, pid, upto)

    def imap_unordered(self, fn, tasks):
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool  # deferred: start-up of `simulate`

        pool = self._get_pool()
        log = self._log
        log.learn_local()
        self.maps += 1
        todo = iter(enumerate(tasks))
        futs: dict = {}

        def submit() -> bool:
            nxt = next(todo, None)
            if nxt is None:
                return False
            incoming, upto = log.payload()
            futs[pool.submit(_call_sharing, fn, nxt[1], incoming, upto)] = nxt[0]
            return True

        try:
            self._collect_warm()
            while len(futs) < 2 * self.processes and submit():
                pass
            while futs:
                done, _ = wait(futs, return_when=FIRST_COMPLETED)
                for f in done:
                    i = futs.pop(f)
                    try:
                        out, fresh, pid, upto, cpu = f.result()
                    except BrokenProcessPool as exc:
                        raise ExecutionError(f"a worker process died while computing block task {i} (killed, out "
                                             f"of memory or crashed; {exc}); the run was stopped") from None
                    except Exception as exc:
                        raise _note(exc, f"(in block task {i}, on a local worker process)")
                    log.received(fresh, pid, upto)
                    if len(self.task_cpu) < 100_000:
                        self.task_cpu.append((self.maps, pid, cpu))
                    submit()
                    yield i, out
        except BaseException:  # Ctrl-C, a failed block, or the consumer stopped early: stop the workers now
            self._abort()
            raise

    def _abort(self) -> None:
        self._warming = []
        if self._pool is not None:
            _abort_pool(self._pool)
            self._pool = None
        self._remove_shared()

    def _remove_shared(self) -> None:
        if self._cleanup is not None:
            self._cleanup()  # removes the directory (once)
        self._shared = self._cleanup = None

    def close(self) -> None:
        self._warming = []
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self._remove_shared()


# -- Dask ------------------------------------------------------------------------------------------------------
def dask_available() -> bool:
    return importlib.util.find_spec("distributed") is not None


def _import_distributed(kind: str):
    try:
        import distributed
    except ImportError:
        raise InputError(_flag("executor"), f"in-process or processes unless Dask is installed ({kind} needs the dask "
                         f"extra: {DASK_EXTRA})", kind) from None
    return distributed


def _environment() -> dict[str, str]:
    """What a worker must share with the client for bit-identical numbers: boundcalc and numpy versions."""
    import numpy  # deferred: read where it runs (client.run on each Dask worker); module level is stdlib only

    from .. import __version__  # deferred: read where it runs (client.run on each Dask worker)

    return {"boundcalc": __version__, "numpy": numpy.__version__}


class Dask(Executor):
    """Blocks as futures on a Dask distributed cluster: ``Dask("tcp://host:8786")`` (a running scheduler) or
    ``Dask(client=...)`` (an existing ``distributed.Client``, left open by ``close``).

    At the start every worker is asked for its boundcalc and numpy versions: a mismatch with this process is
    an ExecutionError (the numbers would not be bit-identical). Results are gathered with ``as_completed`` and
    each future released once read; on Ctrl-C or a failed block the remaining futures are cancelled."""

    kind = "dask"

    def __init__(self, scheduler: str | None = None, *, client=None, connect_timeout: float = 10.0,
                 worker_timeout: float = 30.0):
        distributed = _import_distributed(self.kind)
        self.scheduler = scheduler
        self._own_client = client is None
        if client is None:
            address = scheduler or _config_scheduler()
            if not address:
                raise InputError(_flag("scheduler"), "the address of a running Dask scheduler (e.g. tcp://10.0.0.5:8786) "
                                 f"with {_flag('executor')} dask, or the dask config scheduler-address", None)
            self.scheduler = address
            _check_comm(distributed, address)
            try:
                client = distributed.Client(address, timeout=connect_timeout, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise ExecutionError(f"cannot reach the Dask scheduler at {address} within {connect_timeout:g} s "
                                     f"({' '.join(str(exc).split())[:200]})") from None
            except (ValueError, TypeError, ImportError) as exc:  # an address distributed cannot use (no such comm)
                raise InputError(_flag("scheduler"), "the address of a Dask scheduler [tcp://]HOST:PORT that distributed "
                                 "can connect to", f"{address}: {' '.join(str(exc).split())[:200]}") from None
        self.client = client
        try:
            self._check_workers(worker_timeout)
        except BaseException:
            self.close()
            raise

    def _check_workers(self, timeout: float) -> None:
        where = self.scheduler or getattr(self.client, "scheduler", None)
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (TimeoutError, OSError):
            raise ExecutionError(f"no Dask worker joined the scheduler {where} within {timeout:g} s") from None
        mine = _environment()
        seen = self.client.run(_environment)
        bad = {w: v for w, v in seen.items() if v != mine}
        if bad:
            w, v = next(iter(bad.items()))
            raise ExecutionError(f"Dask worker {w} runs boundcalc {v['boundcalc']} with numpy {v['numpy']}, this "
                                 f"client boundcalc {mine['boundcalc']} with numpy {mine['numpy']}: the numbers would "
                                 "not be bit-identical; install the same versions on every worker")

    @property
    def workers(self) -> int:
        try:
            info = self.client.scheduler_info()
            return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))
        except Exception:  # noqa: BLE001 - only a display number
            return 1

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "workers": self.workers, "scheduler": str(self.scheduler)}

    def imap_unordered(self, fn, tasks):
        distributed = _import_distributed(self.kind)
        token = uuid.uuid4().hex[:12]
        futs = []
        try:
            futs = [self.client.submit(fn, *args, key=f"boundcalc-block-{token}-{i}", pure=False)
                    for i, args in enumerate(tasks)]
            index = {f.key: i for i, f in enumerate(futs)}
            for f in distributed.as_completed(futs, loop=self.client.loop):
                i = index[f.key]
                try:
                    out = f.result()
                except distributed.KilledWorker as exc:
                    raise ExecutionError(f"the Dask worker computing block task {i} died (KilledWorker: "
                                         f"{' '.join(str(exc).split())[:200]}); the run was stopped") from None
                except distributed.client.FutureCancelledError as exc:
                    raise ExecutionError(f"block task {i} was cancelled on the Dask cluster ({exc})") from None
                except Exception as exc:
                    raise _note(exc, f"(in block task {i}, on the Dask cluster {self.scheduler})")
                f.release()
                yield i, out
        except BaseException:  # Ctrl-C, a failed block or the consumer stopped early: cancel what is left
            try:
                self.client.cancel([f for f in futs if not f.done()], force=True)
            except Exception:  # noqa: BLE001 - the cluster may already be gone
                pass
            self._abort()
            raise

    def _abort(self) -> None:
        """Stop the running blocks now (a remote cluster's workers are not ours: cancelling is all we do)."""
        return None

    def close(self) -> None:
        client, self.client = getattr(self, "client", None), None
        if client is not None and self._own_client:
            try:
                client.close(timeout=5)
            except Exception:  # noqa: BLE001
                pass


class _sigint_deferred:
    """Hold a Ctrl-C (SIGINT) back while a LocalCluster starts and raise it as KeyboardInterrupt at the end: an
    interrupted start-up leaves half-started workers and an unclosable cluster behind (tracebacks at exit);
    a started one is closed cleanly. Main thread only; a SIGINT this process ignores stays ignored."""

    def __enter__(self):
        self.hit, self.old = False, None
        if threading.current_thread() is threading.main_thread():
            current = signal.getsignal(signal.SIGINT)
            if current not in (signal.SIG_IGN, None):
                self.old = signal.signal(signal.SIGINT, self._record)
        return self

    def _record(self, signum, frame) -> None:
        self.hit = True

    def __exit__(self, exc_type, exc, tb):
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
        if self.hit and exc_type is None:
            raise KeyboardInterrupt
        return False


def _start_method_without_sigint() -> str:
    """The multiprocessing start method for a LocalCluster's workers, chosen so that they ignore SIGINT.

    A terminal's Ctrl-C goes to the whole process group: workers that took it would each print a traceback while
    this process cancels the run and kills them anyway. POSIX: multiprocessing's fork server is started here with
    SIGINT ignored for the instant of its launch (an ignored disposition survives exec; this process handles
    Ctrl-C again right after); the fork server keeps ignoring it and so do the workers forked from it, restarts
    included. The server preloads distributed, numpy and the engine, so workers start fast. Elsewhere: spawn."""
    import multiprocessing as mp  # deferred: start-up of `simulate`

    if "forkserver" not in mp.get_all_start_methods() or threading.current_thread() is not threading.main_thread():
        return "spawn"
    from multiprocessing import forkserver  # deferred: start-up of `simulate`

    try:
        import distributed.utils as du

        du._forkserver_preload_set = True  # keep our preload list (Dask would set its own, longer one)
    except (ImportError, AttributeError):
        pass
    mp.get_context("forkserver").set_forkserver_preload(["distributed", "numpy", "boundcalc.montecarlo.engine"])
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, old)
    return "forkserver"


def _check_comm(distributed, address: str) -> None:
    """InputError for an address whose protocol cannot be used here, before a Client is made (a Client that fails
    half-made waits 20 s and prints a traceback when it is collected, issue 22 §4): ucx:// needs ucx-py, tls:// and
    wss:// a TLS configuration (dask config distributed.comm.tls)."""
    proto = address.split("://", 1)[0].lower() if "://" in address else "tcp"
    if proto == "ucx" and importlib.util.find_spec("ucp") is None and importlib.util.find_spec("ucxx") is None:
        raise InputError(_flag("scheduler"), "an address whose protocol can be used here (ucx:// needs ucx-py installed)",
                         address)
    if proto in ("tls", "wss"):
        try:
            ctx = distributed.Security().get_connection_args("client").get("ssl_context")
        except Exception:  # noqa: BLE001 - a broken TLS configuration is the same answer
            ctx = None
        if ctx is None:
            raise InputError(_flag("scheduler"), f"an address whose protocol can be used here ({proto}:// needs a TLS "
                             "configuration: dask config distributed.comm.tls)", address)


def _config_scheduler() -> str | None:
    try:
        import dask

        return dask.config.get("scheduler-address", None)
    except Exception:  # noqa: BLE001
        return None


class DaskLocal(Dask):
    """A Dask ``LocalCluster`` of ``workers`` single-threaded worker processes started here (``processes=False``:
    threads in this process), closed with the executor. Same submission and cancellation as :class:`Dask`."""

    kind = "dask-local"

    def __init__(self, workers: int = 2, *, processes: bool = True, threads_per_worker: int = 1):
        distributed = _import_distributed(self.kind)
        self.n_workers = validate.count("workers", workers, maximum=MAX_WORKERS)
        self.processes = bool(processes)
        self.cluster = None
        self.client = None
        self._own_client = True
        try:
            import dask

            with _sigint_deferred():  # a Ctrl-C during the start-up is raised once the cluster exists
                method = _start_method_without_sigint() if self.processes else "spawn"
                with dask.config.set({"distributed.worker.multiprocessing-method": method}):
                    # no dashboard; the scheduler's HTTP endpoints on a free port (8787 may be taken: a warning)
                    self.cluster = distributed.LocalCluster(n_workers=self.n_workers,
                                                            threads_per_worker=threads_per_worker,
                                                            processes=self.processes, dashboard_address=None,
                                                            scheduler_kwargs={"dashboard_address": ":0"},
                                                            silence_logs=logging.CRITICAL)
                client = distributed.Client(self.cluster, set_as_default=False)
                super().__init__(None, client=client)
        except BaseException:
            self._own_client = True  # the client is ours to close, whatever Dask.__init__ had set
            self._abort()
            self.close()
            raise
        self._own_client = True
        self.scheduler = self.cluster.scheduler_address

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "workers": self.n_workers, "processes": self.processes}

    def _abort(self) -> None:
        """Ctrl-C or a failed block: a running block cannot be interrupted inside a worker, so the local worker
        processes are killed (their nannies told not to restart them); closing the cluster is then quick."""
        self._aborted = True
        if self.cluster is None or not self.processes:
            return
        for nanny in list(getattr(self.cluster, "workers", {}).values()):
            try:
                nanny.auto_restart = False
                pid = getattr(getattr(getattr(nanny, "process", None), "process", None), "pid", None)
                if pid:
                    os.kill(pid, signal.SIGKILL)
            except (OSError, AttributeError):
                pass

    def _close_cluster(self) -> None:
        """Close the LocalCluster: gracefully (up to 10 s), or after an abort (its workers killed) with a short
        timeout; either way it is then forgotten by Dask's exit handler (no second close, no traceback at exit)."""
        cluster, self.cluster = self.cluster, None
        if cluster is None:
            return
        try:
            cluster.close(timeout=1 if getattr(self, "_aborted", False) else 10)
        except BaseException:  # noqa: BLE001 - a timeout, or a second Ctrl-C: the workers are gone either way
            pass
        try:
            from distributed.deploy.spec import SpecCluster

            SpecCluster._instances.discard(cluster)
        except (ImportError, AttributeError):
            pass

    def close(self) -> None:
        super().close()
        self._close_cluster()


def make(kind: str = "in-process", workers: int | None = None, scheduler: str | None = None) -> Executor:
    """An executor by name (``KINDS``): ``processes`` and ``dask-local`` start ``workers`` workers (default: the
    CPU count); ``dask`` connects to ``scheduler``."""
    if kind not in KINDS:
        raise InputError(_flag("executor"), "one of " + ", ".join(KINDS), kind)
    n = workers if workers is not None else (os.cpu_count() or 1)
    if kind == "in-process":
        return InProcess()
    if kind == "processes":
        return LocalProcesses(n)
    if kind == "dask-local":
        return DaskLocal(n)
    return Dask(scheduler)


__all__ = ["Executor", "InProcess", "LocalProcesses", "Dask", "DaskLocal", "make", "plan_workers", "KINDS",
           "dask_available", "DASK_EXTRA"]
