"""Shared timing helper of the benchmark scripts."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def timed(function: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Call ``function`` ``repeats`` times; return the median wall time in
    seconds and the last result."""
    times, result = [], None
    for _ in range(repeats):
        result = None  # free the previous result before the next call
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def timed_pair(first: Callable[[], Any], second: Callable[[], Any], repeats: int) -> tuple[dict, dict]:
    """Call ``first`` and ``second`` alternately ``repeats`` times each, so
    that both see the same machine state (a shared machine's load drifts).
    Return, for each, the median wall time, the median CPU time of the whole
    process (all threads: ``time.process_time``) and the last result, as
    ``{"wall": s, "cpu": s, "result": value}``."""
    record = ([], [], [None]), ([], [], [None])
    for _ in range(repeats):
        for function, (walls, cpus, last) in zip((first, second), record):
            last[0] = None
            wall, cpu = time.perf_counter(), time.process_time()
            last[0] = function()
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
    return tuple(
        {"wall": statistics.median(w), "cpu": statistics.median(c), "result": r[0]}  # type: ignore
        for w, c, r in record
    )
