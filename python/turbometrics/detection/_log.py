"""pycocotools' progress messages, which one thread can silence without
touching ``sys.stdout`` (shared by every thread of the process)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

_local = threading.local()


def say(message: str) -> None:
    """Print ``message`` as pycocotools does, unless this thread is inside
    :func:`quiet`."""
    if not getattr(_local, "quiet", False):
        print(message)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Silence :func:`say` in this thread (other threads keep printing)."""
    previous = getattr(_local, "quiet", False)
    _local.quiet = True
    try:
        yield
    finally:
        _local.quiet = previous
