"""The Monte Carlo engine: independent runs in fixed-size blocks, reproducible whatever the process count.

Seeding (the contract): runs are split into ``n_blocks = ceil(runs / block_runs)`` blocks of ``block_runs``
runs (the last one smaller). Block ``i`` draws only from
``np.random.default_rng(np.random.SeedSequence(seed).spawn(n_blocks)[i])``. The block size never depends on
``processes``, so the same (seed, runs, block_runs) gives bit-identical results with 1 or many processes and
in any completion order; blocks are assembled by index.

Memory: each block returns regret at the checkpoints (runs x checkpoints), pulls (runs x K) and episode
counts (runs); nothing grows with T. ``check_memory`` bounds runs x (checkpoints + K) by RESULT_BYTES_LIMIT.

Where the blocks run: an executor (boundcalc.montecarlo.executors: in-process, local processes, a Dask cluster)
passed explicitly as ``executor=``; without one, ``processes`` > 1 uses local processes, capped by
``plan_processes`` at the number of blocks and the machine's CPU count (a note says so; more than MAX_PROCESSES is
an input error). Workers ignore SIGINT; on Ctrl-C (or any error) the pending blocks are cancelled and the workers
stopped, so an interrupted run stops at once. ``run_many`` runs several algorithms (each on its environment) with
the same seeds, all their blocks submitted together, and gives each the Results a ``run`` of its own would give.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import validate
from ..errors import InputError
from ..errors import flag as _flag

DEFAULT_BLOCK_RUNS = 50
MAX_PROCESSES = 256  # a sane ceiling for a request; the machine's CPU count caps what is actually used
RESULT_BYTES_LIMIT = 2 * 2**30  # regret + pulls + episodes of all runs held at once (float64/int64)


def derived_seed(base: int, *parts: str) -> int:
    """A seed for one simulation from the worksheet seed and its (worksheet, experiment, label) path: stable across
    runs, processes and Python versions (CRC-32, not hash())."""
    return (int(base) * 1_000_003 + zlib.crc32("/".join(parts).encode())) % (2**32)


def plan_processes(processes, n_blocks: int) -> tuple[int, str | None]:
    """Worker processes actually used for ``n_blocks`` blocks, and a note when fewer than requested.

    At most the number of blocks (an idle worker costs a fork and buys nothing) and the machine's CPU count
    (``os.cpu_count()``: more workers than cores only add contention); the seeding contract makes the numbers
    independent of the count, so capping never changes a result."""
    from .executors import plan_workers  # deferred: start-up of `worksheet list`

    return plan_workers(processes, n_blocks, name="processes", flag=_flag("processes"), maximum=MAX_PROCESSES)


def result_bytes(runs: int, n_checkpoints: int, K: int) -> int:
    """Bytes of the per-run arrays a run returns: regret (runs x C), pulls (runs x K), episodes (runs)."""
    return 8 * int(runs) * (int(n_checkpoints) + int(K) + 1)


def check_memory(runs: int, n_checkpoints: int, K: int, name: str = "runs") -> None:
    """InputError when the per-run results would not fit in RESULT_BYTES_LIMIT (named after ``name``)."""
    need = result_bytes(runs, n_checkpoints, K)
    if need > RESULT_BYTES_LIMIT:
        most = RESULT_BYTES_LIMIT // (8 * (int(n_checkpoints) + int(K) + 1))
        raise InputError(name, f"at most {most:,} with {n_checkpoints} checkpoints and {K} arms (the per-run "
                         f"results would need {need / 2**30:.3g} GiB, limit {RESULT_BYTES_LIMIT / 2**30:g} GiB)", runs)


def log_checkpoints(T: int, n: int = 30, start: int = 10) -> np.ndarray:
    """About ``n`` log-spaced integer checkpoints in [min(start, T), T], always ending at T."""
    T = int(T)
    lo = min(start, T)
    pts = np.unique(np.round(np.geomspace(lo, T, num=max(n, 2))).astype(np.int64))
    pts = pts[(pts >= 1) & (pts <= T)]
    if pts.size == 0 or pts[-1] != T:
        pts = np.append(pts, T)
    return pts


def clean_checkpoints(checkpoints, T: int) -> np.ndarray:
    if checkpoints is None:
        return log_checkpoints(T)
    c = np.unique(np.asarray(checkpoints, dtype=np.int64).ravel())
    if c.size == 0 or c[0] < 1 or c[-1] > T:
        raise InputError("checkpoints", f"integers in [1, T={T}]", list(np.asarray(checkpoints).ravel())[:5])
    return c


def block_sizes(runs: int, block_runs: int) -> list[int]:
    n_blocks = math.ceil(runs / block_runs)
    return [min(block_runs, runs - i * block_runs) for i in range(n_blocks)]


def block_seeds(seed: int, n_blocks: int) -> list[np.random.SeedSequence]:
    return np.random.SeedSequence(seed).spawn(n_blocks)


def run_block(algorithm, env, T: int, size: int, seed_seq, checkpoints: np.ndarray):
    """One block: ``size`` runs with the block's own Generator (picklable top-level function)."""
    from ..algorithms import plugin_errors  # deferred: start-up of `worksheet list`

    rng = np.random.default_rng(seed_seq)
    with plugin_errors(algorithm, "simulate"):  # a plugin's own error names the plugin (a PluginError)
        return algorithm.simulate(env, T, size, rng, checkpoints)


def run_blocks(algorithm, env, T: int, sizes, seed_seqs, checkpoints: np.ndarray) -> list:
    """Several blocks of one algorithm in one task (one shipment of the algorithm and its environment to a worker):
    ``run_block`` for each (size, seed child) in turn, so every block draws from its own Generator as alone."""
    return [run_block(algorithm, env, T, n, q, checkpoints) for n, q in zip(sizes, seed_seqs)]


def warm_jobs(jobs) -> None:
    """``algorithm.warm(env)`` for each (algorithm, env) job that has one (picklable top-level function): the values
    every block of the job needs, into this process's caches (boundcalc.algorithms.process_cache)."""
    for alg, env in jobs:
        w = getattr(alg, "warm", None)
        if w is not None:
            w(env)


def warm(jobs, executor) -> bool:
    """Give ``executor`` a head start on the values every block of ``jobs`` ([(algorithm, env), ...]) will need
    (``Executor.warm``): with worker processes one of them computes them now, in one task, while the caller goes
    on with its own work, and the workers receive them with their first blocks instead of all computing the same
    ones at once (issue 24 item 9: the full action set's G-optimal design, which every block's first phase needs).
    The modules an algorithm's blocks import lazily (``warm_modules``) are imported meanwhile by the other workers
    (one task each, if they take one each: the pool decides), rather than at their first block.
    The numbers do not change: a shared value is a function of its key. True when the work was started elsewhere
    (the caller is free meanwhile); False when no job has such values or the executor has no use for them."""
    jobs = [(a, e) for a, e in jobs if getattr(a, "warm", None) is not None]
    if not jobs or executor is None or not getattr(executor, "warms", False):
        return False
    started = bool(executor.warm(warm_jobs, (jobs,)))
    modules = sorted({m for alg, _ in jobs for m in getattr(alg, "warm_modules", ())})
    if started and modules:  # the other workers import them meanwhile, not at their first block
        for _ in range(max(int(getattr(executor, "workers", 1)) - 1, 0)):
            executor.warm(import_modules, (modules,))
    return started


def import_modules(names) -> None:
    """Import the modules ``names`` (in a worker process: ``warm``)."""
    import importlib

    for name in names:
        importlib.import_module(name)


BLOCKS_PER_TASK = 16  # most blocks of one job in one task of an out-of-process executor (``_chunks``)


def _chunks(order: list[int], workers: int) -> list[list[int]]:
    """Consecutive groups of the block indices ``order`` (in submission order) for an executor of ``workers``
    workers outside this process: one group per worker (``workers`` × k groups of at most BLOCKS_PER_TASK blocks
    when there are more blocks), so that a task's fixed cost — shipping the algorithm and the environment, and a
    round trip through the pool, which on a loaded machine waits for the scheduler at every hand-over — is paid
    about once per worker and engine call, not per block (issue 24 item 9: the measured linear search makes ≈ 20
    engine calls of 20–40 blocks of 5 runs, 0.1–0.6 CPU s each). Each block still draws from its own seed child."""
    w = max(int(workers), 1)
    n_tasks = max(1, min(len(order), w * math.ceil(len(order) / (w * BLOCKS_PER_TASK))))
    per = math.ceil(len(order) / n_tasks)
    return [order[i:i + per] for i in range(0, len(order), per)]


@dataclass
class Results:
    """Outcome of ``runs`` runs: per-run regret at checkpoints, pulls per arm, episodes; summaries."""

    algorithm: dict[str, Any]
    env: dict[str, Any]
    T: int
    seed: int
    block_runs: int
    checkpoints: np.ndarray  # (C,)
    regret: np.ndarray  # (runs, C)
    pulls: np.ndarray  # (runs, K)
    episodes: np.ndarray  # (runs,)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def runs(self) -> int:
        return int(self.regret.shape[0])

    # -- summaries ---------------------------------------------------------------------------------------
    def mean(self) -> np.ndarray:
        return self.regret.mean(axis=0)

    def std(self) -> np.ndarray:
        return self.regret.std(axis=0, ddof=1) if self.runs > 1 else np.zeros(self.regret.shape[1])

    def ci(self, level: float = 0.95, method: str = "normal") -> tuple[np.ndarray, np.ndarray]:
        """Interval for the mean regret at each checkpoint.

        ``normal``: mean ± z s/√n (z = 1.96 at 95%); ``t``: Student-t quantile with n − 1 degrees of freedom.
        """
        n = self.runs
        m, s = self.mean(), self.std()
        if method == "normal":
            from statistics import NormalDist  # deferred: start-up of `worksheet list`

            q = NormalDist().inv_cdf(0.5 + level / 2)
        elif method == "t":
            from scipy.special import stdtrit  # Student-t quantile, = scipy.stats.t.ppf (no scipy.stats import)

            q = float(stdtrit(max(n - 1, 1), 0.5 + level / 2))
        else:
            raise InputError("method", "'normal' or 't'", method)
        half = q * s / math.sqrt(n)
        return m - half, m + half

    def final(self) -> dict[str, float]:
        lo, hi = self.ci()
        return {"mean": float(self.mean()[-1]), "std": float(self.std()[-1]), "ci_low": float(lo[-1]),
                "ci_high": float(hi[-1])}

    def table(self) -> list[dict[str, float]]:
        lo, hi = self.ci()
        m, s = self.mean(), self.std()
        return [{"t": int(t), "mean": float(a), "std": float(b), "ci_low": float(c), "ci_high": float(d)}
                for t, a, b, c, d in zip(self.checkpoints, m, s, lo, hi)]

    def pulls_mean(self) -> np.ndarray:
        return self.pulls.mean(axis=0)

    def episodes_mean(self) -> float:
        return float(self.episodes.mean())

    # -- persistence ------------------------------------------------------------------------------------
    def to_dict(self, per_run: bool = False) -> dict[str, Any]:
        d = {"algorithm": self.algorithm, "env": self.env, "T": self.T, "runs": self.runs, "seed": self.seed,
             "block_runs": self.block_runs, "checkpoints": self.table(), "pulls_mean": self.pulls_mean().tolist(),
             "episodes_mean": self.episodes_mean()}
        if per_run:
            d.update(regret=self.regret.tolist(), pulls=self.pulls.tolist(), episodes=self.episodes.tolist())
        return d

    def save(self, path: str) -> None:
        """``.npz`` (arrays + JSON metadata) or ``.json`` (summary and per-run arrays).

        Atomic: written to a temporary file in the same directory, then renamed over ``path`` (os.replace),
        so an interrupted or failed write never leaves a partial file."""
        path = os.fspath(path)
        ext = os.path.splitext(path)[1].lower()  # FILE.NPZ as FILE.npz (the CLI checks --save that way, issue 17)
        if ext not in (".npz", ".json"):
            raise InputError("path", "a file name ending in .npz or .json", path)
        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".boundcalc-", suffix=".part")
        try:
            with os.fdopen(fd, "wb") as fh:
                if ext == ".npz":
                    meta = json.dumps({"algorithm": self.algorithm, "env": self.env, "T": self.T, "seed": self.seed,
                                       "block_runs": self.block_runs}, default=float)
                    np.savez_compressed(fh, checkpoints=self.checkpoints, regret=self.regret, pulls=self.pulls,
                                        episodes=self.episodes, meta=np.array(meta))
                else:
                    fh.write(json.dumps(self.to_dict(per_run=True), default=float).encode())
                fh.flush()
                os.fsync(fh.fileno())
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a saved result gets the usual file mode
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    @classmethod
    def load(cls, path: str) -> "Results":
        if str(path).lower().endswith(".npz"):
            with np.load(path) as z:
                meta = json.loads(str(z["meta"]))
                return cls(meta["algorithm"], meta["env"], meta["T"], meta["seed"], meta["block_runs"],
                           z["checkpoints"], z["regret"], z["pulls"], z["episodes"])
        with open(path) as fh:
            d = json.load(fh)
        return cls(d["algorithm"], d["env"], d["T"], d["seed"], d["block_runs"],
                   np.array([c["t"] for c in d["checkpoints"]]), np.array(d["regret"]), np.array(d["pulls"]),
                   np.array(d["episodes"]))


def _merge_extra(blocks) -> dict[str, Any]:
    out: dict[str, Any] = {}
    keys = set().union(*(b.extra.keys() for b in blocks)) if blocks else set()
    for k in keys:
        vals = [b.extra.get(k) for b in blocks]
        if all(isinstance(v, np.ndarray) and v.ndim >= 1 for v in vals):
            out[k] = np.concatenate(vals, axis=0)
        else:
            out[k] = vals
    return out


def _run_task(fn, args):
    """A task of mixed kind (one block: ``run_block``; a group: ``run_blocks``), picklable."""
    return fn(*args)


def run(algorithm, env, T, runs, seed: int = 0, checkpoints=None, block_runs: int = DEFAULT_BLOCK_RUNS,
        processes: int = 1, progress: bool = False, block_order=None, executor=None) -> Results:
    """Simulate ``runs`` independent runs of ``algorithm`` on ``env`` up to horizon ``T``.

    ``executor`` (boundcalc.montecarlo.executors; the caller keeps and closes it) says where the blocks run;
    without one, ``processes`` > 1 starts local worker processes for this call. ``block_order`` (a permutation
    of the block indices) only changes the order in which blocks are submitted (for tests of order-independence);
    the assembled result is always in block-index order.
    """
    return run_many([(algorithm, env)], T, runs, seed=seed, checkpoints=checkpoints, block_runs=block_runs,
                    processes=processes, progress=progress, block_order=block_order, executor=executor)[0]


def run_many(jobs, T, runs, seed: int = 0, checkpoints=None, block_runs: int = DEFAULT_BLOCK_RUNS,
             processes: int = 1, progress: bool = False, block_order=None, executor=None) -> list[Results]:
    """Several algorithms, each on its environment (``jobs``: [(algorithm, env), ...]), with the same T, runs,
    checkpoints and seeds: job j's block i draws from the same ``SeedSequence(seed).spawn(n_blocks)[i]`` as a
    ``run`` of that job alone, so each Results equals that run's, bit for bit. All blocks go to the executor at
    once (the workers stay busy across algorithms); the progress bar has one line per algorithm."""
    from . import executors as ex  # deferred: start-up of `worksheet list`

    jobs = list(jobs)
    if not jobs:
        raise InputError("jobs", "at least one (algorithm, environment) pair", jobs)
    T = validate.horizon("T", T)
    runs = validate.count("runs", runs)
    block_runs = validate.count("block_runs", block_runs)
    seed = validate.count("seed", seed, minimum=0)
    cps = clean_checkpoints(checkpoints, T)
    sizes = block_sizes(runs, block_runs)
    for _, env in jobs:
        check_memory(runs, cps.size, getattr(env, "K", 1) or 1)
    seeds = block_seeds(seed, len(sizes))
    order = list(range(len(sizes))) if block_order is None else [int(i) for i in block_order]
    if sorted(order) != list(range(len(sizes))):
        raise InputError("block_order", f"a permutation of 0..{len(sizes) - 1}", block_order)
    own = executor is None
    if own:
        used, _ = plan_processes(processes, len(jobs) * len(sizes))
        executor = ex.LocalProcesses(used) if used > 1 else ex.InProcess()
    elif validate.count("processes", processes, maximum=MAX_PROCESSES) != 1:
        raise InputError("processes", "1 when an executor is given (the executor decides where the blocks run)",
                         processes)
    # in this process: one task per block; elsewhere: blocks grouped (``_chunks``), each still on its own seed child
    groups = ([[i] for i in order] if getattr(executor, "kind", "") == "in-process"
              else _chunks(order, getattr(executor, "workers", 1)))
    tasks, where = [], []
    for j, (alg, env) in enumerate(jobs):
        for g in groups:
            if len(g) == 1:
                tasks.append((alg, env, T, sizes[g[0]], seeds[g[0]], cps))
            else:
                tasks.append((alg, env, T, [sizes[i] for i in g], [seeds[i] for i in g], cps))
            where.append((j, g))
    fns = [run_block if len(g) == 1 else run_blocks for _, g in where]
    results: list[dict[int, Any]] = [{} for _ in jobs]

    bar = None
    from ..progress import on_terminal  # deferred: start-up of `worksheet list`

    if progress and on_terminal():  # a bar only on a terminal: never drawn into a pipe (issue 17 §3)
        from rich.console import Console  # deferred: start-up of `simulate`
        # deferred: start-up of `simulate`
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("blocks"),
                       TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        bar.start()
        ids = [bar.add_task(str(getattr(alg, "name", "sim")), total=len(sizes)) for alg, _ in jobs]
    try:
        if all(f is run_block for f in fns):
            stream = executor.imap_unordered(run_block, tasks)
        else:
            stream = executor.imap_unordered(_run_task, [(f, t) for f, t in zip(fns, tasks)])
        for k, out in stream:
            j, g = where[k]
            for i, o in zip(g, out if len(g) > 1 else [out]):
                results[j][i] = o
            if bar:
                bar.advance(ids[j], len(g))
    finally:
        if bar:
            bar.stop()
        if own:
            executor.close()
    out = []
    for (alg, env), res in zip(jobs, results):
        blocks = [res[i] for i in range(len(sizes))]
        out.append(Results(
            algorithm=alg.describe() if hasattr(alg, "describe") else {"name": str(alg)},
            env=env.describe() if hasattr(env, "describe") else {"name": str(env)},
            T=T, seed=seed, block_runs=block_runs, checkpoints=cps,
            regret=np.concatenate([b.regret for b in blocks], axis=0),
            pulls=np.concatenate([b.pulls for b in blocks], axis=0),
            episodes=np.concatenate([b.episodes for b in blocks], axis=0),
            extra=_merge_extra(blocks),
        ))
    return out
