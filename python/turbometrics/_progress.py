"""Progress bars for long runs: tqdm (an optional extra) when installed."""

from __future__ import annotations

import warnings
from typing import Any, Callable, Optional


def progress_callback(enabled: bool, description: str) -> Optional[Callable[[int, int], None]]:
    """A ``callback(done, total)`` that draws a tqdm bar, or None when
    ``enabled`` is false. Without tqdm it warns once and returns None."""
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        warnings.warn("progress=True needs tqdm (pip install 'turbometrics[progress]'); running without a bar",
                      RuntimeWarning, stacklevel=3)
        return None
    bar: Any = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, desc=description, unit="block")
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update
