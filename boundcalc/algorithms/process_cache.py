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

from collections import deque
from typing import Any, Callable

FRESH_LIMIT = 4096  # keys remembered in ``fresh`` at most (a process nobody drains forgets the oldest)

CACHES: dict[str, "ProcessCache"] = {}  # every ProcessCache of this process, by name


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
