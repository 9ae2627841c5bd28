"""Writing the program's output to stdout, with a failed write (a full
disk, ``/dev/full``, an I/O error) told apart from unusable input."""

from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["OutputError", "flush", "write"]


class OutputError(Exception):
    """stdout could not be written; the message is the system's reason
    (e.g. "No space left on device"). A reader that closed the pipe is
    not this error: ``BrokenPipeError`` passes through unchanged."""


def write(text: str, end: str = "\n") -> None:
    """Write ``text`` and ``end`` to stdout.

    Raises
    ------
    OutputError
        When the write fails for another reason than a closed pipe.
    """
    _guarded(lambda: sys.stdout.write(text + end))


def flush() -> None:
    """Flush stdout (where a buffered write's failure shows).

    Raises
    ------
    OutputError
        When the flush fails for another reason than a closed pipe.
    """
    _guarded(sys.stdout.flush)


def _guarded(action: Callable[[], object]) -> None:
    try:
        action()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(exc.strerror or type(exc).__name__) from None
