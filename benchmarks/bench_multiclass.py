#!/usr/bin/env python3
"""Benchmark multiclass ROC AUC and the DeLong interval.

In one process, on the same arrays:

* 10-class ``roc_auc_score`` with ``multi_class='ovr'`` and ``'ovo'`` on
  2e6 rows, turbometrics against scikit-learn;
* ``turbometrics.roc_auc_ci(method='delong')`` against
  ``turbometrics.roc_auc_score`` on 1e7 samples (the interval should cost
  at most twice the score).

Prints a markdown table of median seconds and ratios and writes
``benchmarks/results/multiclass.json``. ``--quick`` uses small sizes.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from bench_ranking import RESULTS_DIR, _load_average, machine_info
from timing import timed


def multiclass_data(n: int, n_classes: int, seed: int = 0):
    """Labels and softmax probabilities of a moderately good classifier."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    logits = rng.normal(size=(n, n_classes))
    logits[np.arange(n), y] += 1.0
    proba = np.exp(logits)
    proba /= proba.sum(axis=1, keepdims=True)
    return y, proba


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    import sklearn.metrics as skm

    import turbometrics as tm

    rows: list[dict[str, Any]] = []
    y, proba = multiclass_data(args.multiclass_rows, 10)
    for multi_class in ("ovr", "ovo"):
        ours = tm.roc_auc_score(y, proba, multi_class=multi_class)
        theirs = skm.roc_auc_score(y, proba, multi_class=multi_class)
        tm_time, _ = timed(lambda: tm.roc_auc_score(y, proba, multi_class=multi_class), args.repeats)
        sk_time, _ = timed(lambda: skm.roc_auc_score(y, proba, multi_class=multi_class), args.sklearn_repeats)
        rows.append(
            {
                "case": f"roc_auc_score 10-class {multi_class}",
                "n": args.multiclass_rows,
                "turbometrics_s": tm_time,
                "reference": "scikit-learn",
                "reference_s": sk_time,
                "ratio": sk_time / tm_time,
                "agree": bool(np.isclose(ours, theirs, rtol=1e-9)),
            }
        )
    rng = np.random.default_rng(1)
    y_binary = rng.random(args.binary_rows) < 0.3
    scores = rng.random(args.binary_rows) + 0.3 * y_binary
    auc_time, _ = timed(lambda: tm.roc_auc_score(y_binary, scores), args.repeats)
    ci_time, _ = timed(lambda: tm.roc_auc_ci(y_binary, scores), args.repeats)
    rows.append(
        {
            "case": "roc_auc_ci(delong) / roc_auc_score",
            "n": args.binary_rows,
            "turbometrics_s": ci_time,
            "reference": "turbometrics.roc_auc_score",
            "reference_s": auc_time,
            "ratio": ci_time / auc_time,
            "agree": tm.roc_auc_ci(y_binary, scores).value == tm.roc_auc_score(y_binary, scores),
        }
    )
    return rows


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    lines = [
        "| case | n | turbometrics (s) | reference | reference (s) | ratio | agree |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['case']} | {row['n']:.0e} | {row['turbometrics_s']:.3f} | {row['reference']} | "
            f"{row['reference_s']:.3f} | {row['ratio']:.1f}x | {'yes' if row['agree'] else 'NO'} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one repeat (smoke test)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sklearn-repeats", type=int, default=3)
    args = parser.parse_args(argv)
    args.multiclass_rows, args.binary_rows = (20_000, 100_000) if args.quick else (2_000_000, 10_000_000)
    if args.quick:
        args.repeats = args.sklearn_repeats = 1
    load_before = _load_average()
    rows = run(args)
    print(markdown(rows))
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    out = RESULTS_DIR / ("multiclass_quick.json" if args.quick else "multiclass.json")
    out.write_text(
        json.dumps({"machine": machine_info(), "load_average": [load_before, _load_average()], "rows": rows}, indent=2)
    )
    return 0 if all(row["agree"] for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
