#!/usr/bin/env python3
"""Benchmark turbometrics.Evaluator against calling the functions directly.

On synthetic binary data (scores rounded to 3 decimals, as calibrated model
outputs usually are, and continuous scores) it times, in this one process,
the default metrics of ``Evaluator()`` (roc_auc, roc_auc_ci, average
precision, best F1, accuracy, precision, recall, F1, ECE):

* directly: one call of each in-memory function on the whole arrays (the
  predicted labels computed once);
* ``Evaluator().update(y, s).compute()`` on the whole arrays;
* the same fed in batches of ``--batch`` rows (streaming);
* with ``--groups`` groups (``groups=`` labels).

Medians of ``--repeats`` alternating calls; ratios are Evaluator / direct.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import turbometrics as tm
from timing import timed, timed_pair


def make_data(n: int, seed: int, decimals: int | None):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    scores = np.clip(rng.normal(0.4 + 0.2 * y, 0.25), 0.0, 1.0)
    return y, scores if decimals is None else np.round(scores, decimals)


def direct(y: np.ndarray, s: np.ndarray) -> dict:
    """The default metrics of an Evaluator, one function call each."""
    pred = (s >= 0.5).astype(np.int8)
    ci = tm.roc_auc_ci(y, s, method="delong")
    best = tm.best_threshold(y, s)
    return {
        "roc_auc": tm.roc_auc_score(y, s),
        "roc_auc_ci": [ci.lower, ci.upper],
        "average_precision": tm.average_precision_score(y, s),
        "best_f1": best.value,
        "best_f1_threshold": best.threshold,
        "accuracy": tm.accuracy_score(y, pred),
        "precision": tm.precision_score(y, pred, zero_division=0.0),
        "recall": tm.recall_score(y, pred, zero_division=0.0),
        "f1": tm.f1_score(y, pred, zero_division=0.0),
        "ece": tm.calibration_error(y, s),
    }


def batched(y: np.ndarray, s: np.ndarray, batch: int, groups: np.ndarray | None = None) -> dict:
    ev = tm.Evaluator()
    for start in range(0, y.shape[0], batch):
        ev.update(
            y[start : start + batch],
            s[start : start + batch],
            groups=None if groups is None else groups[start : start + batch],
        )
    return ev.compute()


def run(args: argparse.Namespace) -> None:
    print(
        f"turbometrics {tm.__version__}, numpy {np.__version__}, {os.cpu_count()} CPUs ({platform.processor()}), "
        f"{tm.get_num_threads()} threads; median of {args.repeats}; load average {os.getloadavg()[0]:.2f} at start"
    )
    print()
    print("| n | scores | Evaluator | time (s) | direct calls (s) | ratio |")
    print("|---|---|---|---|---|---|")
    for n in (int(float(size)) for size in args.sizes):
        for label, decimals in (("rounded (3 decimals)", 3), ("continuous", None)):
            y, s = make_data(n, args.seed, decimals)
            groups = np.random.default_rng(args.seed + 1).integers(0, args.groups, n)
            cases = (
                ("update(all rows).compute()", lambda: tm.Evaluator().update(y, s).compute()),
                (f"batches of {args.batch:,}", lambda: batched(y, s, args.batch)),
                (f"batches, {args.groups} groups", lambda: batched(y, s, args.batch, groups)),
            )
            for name, evaluate in cases:
                ours, reference = timed_pair(evaluate, lambda: direct(y, s), args.repeats)
                overall = ours["result"]["overall"]
                expected = reference["result"]
                assert all(overall[k] == expected[k] for k in expected if k != "ece"), name
                print(
                    f"| {n:,} | {label} | {name} | {ours['wall']:.3g} | {reference['wall']:.3g} | "
                    f"{ours['wall'] / reference['wall']:.3g} |"
                )
    one, _ = timed(lambda: tm.Evaluator().update(y, s), args.repeats)
    print()
    print(f"update alone, last data: {one:.3g} s; load average {os.getloadavg()[0]:.2f} at end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", default=["1e6", "1e7"], help="samples")
    parser.add_argument("--batch", type=int, default=1_000_000, help="rows per update when streaming")
    parser.add_argument("--groups", type=int, default=10, help="groups of the grouped case")
    parser.add_argument("--repeats", type=int, default=3, help="timed calls per operation")
    parser.add_argument("--seed", type=int, default=0)
    run(parser.parse_args())


if __name__ == "__main__":
    main()
