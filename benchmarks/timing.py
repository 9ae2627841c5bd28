"""Shared timing helper of the benchmark scripts."""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable, Tuple


def timed(function: Callable[[], Any], repeats: int) -> Tuple[float, Any]:
    """Call ``function`` ``repeats`` times; return the median wall time in
    seconds and the last result."""
    times, result = [], None
    for _ in range(repeats):
        result = None  # free the previous result before the next call
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result
