"""Ctrl-C for the suite's subprocesses.

A process started with SIGINT ignored (a background job of a
non-interactive shell, as a CI runner may start the suite) passes the
ignored signal on to every process it starts, and Python then installs no
KeyboardInterrupt handler: a test that sends SIGINT to such a child sees
nothing happen. pytest-xdist's workers also inherit it, and a worker that
ran pyspark's tests holds pyspark's handler instead, so such a test then
passes or fails by which worker it lands on.
"""

from __future__ import annotations

import signal


def live_sigint() -> None:
    """``preexec_fn`` for a subprocess that must take SIGINT as a terminal
    delivers it: SIGINT's default disposition, unblocked, whatever the
    test process inherited."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
