"""Shared test fixtures."""

import signal

import pytest


def _as_from_a_shell():
    """In a child process: SIGINT at its default and no blocked signals, as a shell starts a command (an exec'd child
    keeps an inherited "ignore", and the test process may have one)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


@pytest.fixture
def shell_like():
    """``preexec_fn`` for subprocesses that must react to Ctrl-C as a command typed in a terminal does."""
    return _as_from_a_shell
