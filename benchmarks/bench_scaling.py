#!/usr/bin/env python3
"""Thread scaling: wall time of a few kernels at 1, 2, 4, ... threads.

On ``--n`` samples (``y = integers(0, 2, n)``, ``s = random(n) + 0.3 * y``,
the data of ``bench_ranking.py``; the calibration call uses ``n / 10`` rows
of 10 classes) each call runs ``--repeats`` times per thread count and the
median wall time is printed as a Markdown table, with whether every thread
count returned the same bits as one thread. Run it on an otherwise idle
machine: the numbers in docs/guide/threads.md came from a 16-core one.

Example::

    python benchmarks/bench_scaling.py --n 1e8 --threads 1,2,4,8,16
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import turbometrics as tm


def calls(n: int) -> dict[str, Callable[[int], Any]]:
    """The timed calls, each taking its thread count."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    s = rng.random(n) + 0.3 * y
    predicted = (s > 0.6).astype(np.int64)
    k = 10
    y_classes = rng.integers(0, k, n // 10)
    p = rng.random((n // 10, k))
    p /= p.sum(axis=1, keepdims=True)
    return {
        "roc_auc_score": lambda t: tm.roc_auc_score(y, s, n_threads=t),
        "average_precision_score": lambda t: tm.average_precision_score(y, s, n_threads=t),
        "confusion_matrix": lambda t: tm.confusion_matrix(y, predicted, n_threads=t),
        f"calibration_error (n/10 x {k})": lambda t: tm.calibration_error(y_classes, p, n_threads=t),
    }


def median_time(call: Callable[[int], Any], threads: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call(threads)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=lambda text: int(float(text)), default=10**7)
    parser.add_argument("--threads", type=lambda text: [int(t) for t in text.split(",")], default=[1, 2, 4, 8, 16])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"n = {args.n:.0e}; wall ms, median of {args.repeats}")
    print("| call | " + " | ".join(f"{t} thr" for t in args.threads) + " | last vs first | same bits |")
    print("|---" * (len(args.threads) + 3) + "|")
    for name, call in calls(args.n).items():
        reference = np.asarray(call(args.threads[0]))
        same = all(np.array_equal(np.asarray(call(t)), reference) for t in args.threads)
        medians = [median_time(call, t, args.repeats) for t in args.threads]
        cells = " | ".join(f"{m * 1e3:.0f}" for m in medians)
        print(f"| {name} | {cells} | {medians[0] / medians[-1]:.1f}x | {same} |", flush=True)


if __name__ == "__main__":
    main()
