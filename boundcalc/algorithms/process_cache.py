"""Per-process caches that the worker processes of one executor share (issue 24 item 9).

An algorithm may keep, per process, values that depend only on a key and are expensive to compute: GOPE's and
AdaC-GOPE's G-optimal designs (``linear.gope._DESIGNS``: a design depends only on the surviving action vectors and
the tolerance). Each worker process of ``--executor processes`` would compute the same ones again; a
:class:`ProcessCache` records the entries set in its own process (``fresh``), so that the executor
(boundcalc.montecarlo.executors.LocalProcesses) can bring them back with a task's result and hand them to the other
workers with their next tasks (``install``: an entry the process has is kept as it is).

Only a value that is a *deterministic function of its key* may be shared so: a worker then uses exactly the value it
would have computed itself, and the numbers stay bit-identical whatever ran the blocks (the engine's seeding
contract). ``prepare`` is applied to an installed value (an unpickled copy), e.g. to make its arrays read-only again.
"""

from __future__ import annotations

import os
import time
from collections import deque
from typing import Any, Callable

FRESH_LIMIT = 4096  # keys remembered in ``fresh`` at most (a process nobody drains forgets the oldest)

CACHES: dict[str, "ProcessCache"] = {}  # every ProcessCache of this process, by name

# Live sharing (``ProcessCache.obtain``): a directory that the worker processes of one executor share while their
# tasks run (set in each worker by LocalProcesses; None elsewhere: no live sharing). An entry computed by one worker
# is published there at once (one file per key, written whole then renamed into place); a worker about to compute a
# key first claims it (a ``.claim`` file created exclusively), so that two workers needing the same keys at the same
# time split them instead of both computing all of them, and each waits for the ones the other claimed.
SHARED_DIR: str | None = None
WAIT_SECONDS = 2.0  # the longest wait for a key claimed by another worker before computing it here (it may have died)
WAITED = 0.0  # seconds this process has spent waiting for keys claimed by another (benchmarks: the critical path)


class ProcessCache(dict):
    """A dict whose entries set in this process (``cache[key] = value``) are recorded in ``fresh`` until drained;
    ``install`` adds an entry computed elsewhere without recording it. ``limit``: at most this many entries (the
    oldest go first when an entry is installed into a full cache)."""

    def __init__(self, name: str, prepare: Callable[[Any], Any] | None = None, limit: int | None = None):
        super().__init__()
        self.name, self.prepare, self.limit = name, prepare, limit
        self.fresh: deque = deque(maxlen=FRESH_LIMIT)
        CACHES[name] = self

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.fresh.append(key)

    def install(self, key, value) -> bool:
        """Add an entry computed in another process; False when this process has it already."""
        if key in self:
            return False
        if self.limit is not None:
            while len(self) >= self.limit:
                self.pop(next(iter(self)))  # oldest first
        super().__setitem__(key, self.prepare(value) if self.prepare is not None else value)
        return True

    def _store(self, key, value) -> None:
        if self.limit is not None:
            while len(self) >= self.limit:
                self.pop(next(iter(self)))  # oldest first
        self[key] = value

    def _file(self, key) -> str:
        import hashlib
        import pickle

        digest = hashlib.blake2b(pickle.dumps((self.name, key), protocol=4), digest_size=16).hexdigest()
        return os.path.join(SHARED_DIR, digest)

    def _load(self, key) -> bool:
        """Install ``key``'s entry published by another worker, if there is one; False otherwise."""
        if SHARED_DIR is None:
            return False
        import pickle

        try:
            with open(self._file(key), "rb") as fh:
                value = pickle.load(fh)
        except (OSError, EOFError, pickle.UnpicklingError):
            return False
        self.install(key, value)
        return True

    def _claim(self, key) -> bool:
        """True when this process is to compute ``key`` (no live sharing, or its claim is the first)."""
        if SHARED_DIR is None:
            return True
        try:
            os.close(os.open(self._file(key) + ".claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        except OSError:  # the directory is gone (the executor closed): compute it here
            return True
        return True

    def _publish(self, key) -> None:
        if SHARED_DIR is None:
            return
        import pickle

        path = self._file(key)
        tmp = f"{path}.{os.getpid()}.part"
        try:
            with open(tmp, "wb") as fh:
                pickle.dump(dict.__getitem__(self, key), fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError:
            pass  # the others compute it themselves

    def obtain(self, items, compute: Callable[[Any], Any]) -> None:
        """Make sure every key of ``items`` ([(key, argument), ...]) has its entry here: already here, published by
        another worker (``SHARED_DIR``), or ``compute(argument)`` here (recorded in ``fresh`` and published) — a
        key claimed by another worker is left to it and awaited after the others (up to WAIT_SECONDS, then computed
        here). Without live sharing: the missing keys computed here, in order."""
        pending = []
        for key, arg in items:
            if key in self or self._load(key):
                continue
            if self._claim(key):
                self._store(key, compute(arg))
                self._publish(key)
            else:
                pending.append((key, arg))
        global WAITED
        for key, arg in pending:
            start = time.monotonic()
            deadline, nap = start + WAIT_SECONDS, 0.0002
            while not (key in self or self._load(key)):
                if time.monotonic() > deadline:
                    WAITED += time.monotonic() - start
                    self._store(key, compute(arg))
                    self._publish(key)
                    break
                time.sleep(nap)
                nap = min(2 * nap, 0.005)
            else:
                WAITED += time.monotonic() - start

    def drain(self) -> list[tuple[Any, Any]]:
        """The (key, value) entries set here since the last drain (still present), and forget them."""
        keys, self.fresh = self.fresh, deque(maxlen=FRESH_LIMIT)
        seen, out = set(), []
        for k in keys:
            if k not in seen and k in self:
                seen.add(k)
                out.append((k, dict.__getitem__(self, k)))
        return out


def drain_all() -> list[tuple[str, Any, Any]]:
    """(cache name, key, value) of every entry set in this process since the last drain, all caches."""
    return [(name, k, v) for name, c in CACHES.items() for k, v in c.drain()]


def install_all(entries) -> list[tuple[str, Any, Any]]:
    """Install (cache name, key, value) entries computed elsewhere; the ones that were new here."""
    new = []
    for name, k, v in entries:
        c = CACHES.get(name)
        if c is not None and c.install(k, v):
            new.append((name, k, v))
    return new
