#!/usr/bin/env python3
"""Weighted count scores: turbometrics against scikit-learn, interleaved.

For ``confusion_matrix``, ``f1_score(average="macro")`` and
``accuracy_score`` on ``--n`` multiclass samples (int64 labels in [0, 5),
70 % of predictions right) with integer weights (int64 in [1, 5)) and with
fractional weights (``rng.random(n) * 3``), each round times turbometrics
then scikit-learn on the same arrays; the medians over ``--repeat`` rounds
are printed, with whether the results are bit-identical (``==``).

Run it with another checkout's interpreter to compare two versions of
turbometrics on the same machine (alternate the runs: the host is shared).

Example::

    python benchmarks/bench_weighted_counts.py --n 1000000 --repeat 7 --threads 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

CASES = (("confusion_matrix", {}), ("f1_score", {"average": "macro"}), ("accuracy_score", {}))


def identical(a: Any, b: Any) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and bool(np.all(a == b))


def timed(function: Callable[[], Any]) -> tuple:
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--no-sklearn", action="store_true", help="time turbometrics only")
    args = parser.parse_args(argv)

    import sklearn.metrics as skm

    import turbometrics as tm

    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 5, args.n)
    y_pred = np.where(rng.random(args.n) < 0.7, y_true, rng.integers(0, 5, args.n))
    weights = {"integer": rng.integers(1, 5, args.n), "fractional": rng.random(args.n) * 3}
    print(
        f"n = {args.n}, threads = {args.threads}, medians of {args.repeat} interleaved rounds, "
        f"load average {os.getloadavg()}"
    )
    for kind, weight in weights.items():
        for name, extra in CASES:
            ours_times, theirs_times, same = [], [], True
            for _ in range(args.repeat):
                spent, ours = timed(
                    lambda: getattr(tm, name)(y_true, y_pred, sample_weight=weight, n_threads=args.threads, **extra)
                )
                ours_times.append(spent)
                if not args.no_sklearn:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        spent, theirs = timed(lambda: getattr(skm, name)(y_true, y_pred, sample_weight=weight, **extra))
                    theirs_times.append(spent)
                    same = same and identical(ours, theirs)
            line = f"{name:18s} {kind:10s} turbometrics {statistics.median(ours_times) * 1e3:8.2f} ms"
            if theirs_times:
                theirs_ms = statistics.median(theirs_times) * 1e3
                line += (
                    f"  scikit-learn {theirs_ms:8.1f} ms  x{theirs_ms / (statistics.median(ours_times) * 1e3):5.0f}"
                    f"  identical={same}"
                )
            print(line, flush=True)


if __name__ == "__main__":
    main()
