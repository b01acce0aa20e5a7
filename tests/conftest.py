"""Shared test fixtures."""

import signal

import pytest


def pytest_configure(config):
    """Under pytest-xdist (``-n 2``, ``-n auto``) send the tests of one ``xdist_group`` to one worker: plain ``-n N``
    hands out test by test ("load"), so a module whose tests share an expensive module-scoped fixture (the five
    worksheets run twice, every claim of the verifier, local process pools and Dask clusters) would build it once per
    worker, twice the work and twice the processes on a 2-core machine. Without xdist nothing changes."""
    if getattr(config.option, "dist", None) == "load":
        config.option.dist = "loadgroup"


# the longest group (the worksheets: ~4 minutes on one worker) first, so the other worker runs the rest meanwhile
# instead of idling at the end; the order is the same in every worker (xdist needs that)
FIRST = ("test_worksheets.py",)


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda it: it.path.name not in FIRST)  # stable: the order within each part is kept


def _as_from_a_shell():
    """In a child process: SIGINT at its default and no blocked signals, as a shell starts a command (an exec'd child
    keeps an inherited "ignore", and the test process may have one)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


@pytest.fixture
def shell_like():
    """``preexec_fn`` for subprocesses that must react to Ctrl-C as a command typed in a terminal does."""
    return _as_from_a_shell
