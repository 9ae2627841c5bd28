"""Progress bars for long runs: tqdm (an optional extra) when installed."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any


def progress_callback(
    enabled: bool, description: str, unit: str = "block", warn: bool = True
) -> Callable[[int, int], None] | None:
    """A ``callback(done, total)`` that draws a tqdm bar counting ``unit``
    (scaled with k/M/G prefixes unless it is "block"), or None when
    ``enabled`` is false. Without tqdm it returns None, after a warning
    when ``warn`` is true."""
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        if not warn:
            return None
        warnings.warn(
            "progress=True needs tqdm (pip install 'turbometrics[progress]'); running without a bar",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    bar: Any = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, desc=description, unit=unit, unit_scale=unit != "block")
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update
