#!/usr/bin/env python3
"""Benchmark turbometrics' classification metrics against scikit-learn.

Both libraries run in this one process on the same arrays. For each
(function, data kind) the script reports the best wall time of each over
``--repeat`` runs (scikit-learn gets ``--sk-repeat`` runs, it is slow), the
speedup ``sklearn / turbometrics`` and whether the results agree
(``np.allclose``, rtol 1e-9). It prints a markdown table, the load average
before and after, and writes ``benchmarks/results/classification.json``.

Data kinds (``--n`` samples, default 10**7):

* ``binary``: int64 labels in {0, 1}, 80 % of predictions correct;
* ``multiclass``: int64 labels in [0, 10);
* ``weighted``: the multiclass labels with float64 sample weights.

Example::

    python benchmarks/bench_classification.py --n 10000000 --threads 2
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results" / "classification.json"
TARGETS = ("f1_score", "confusion_matrix", "cohen_kappa_score", "accuracy_score")
OTHERS = (
    "precision_recall_fscore_support",
    "matthews_corrcoef",
    "balanced_accuracy_score",
    "jaccard_score",
    "multilabel_confusion_matrix",
)


def make_data(kind: str, n: int, seed: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    k = 2 if kind == "binary" else 10
    y_true = rng.integers(0, k, size=n)
    y_pred = np.where(rng.random(n) < 0.8, y_true, rng.integers(0, k, size=n))
    weight = rng.random(n) if kind == "weighted" else None
    return {"y_true": y_true, "y_pred": y_pred, "sample_weight": weight}


def kwargs_for(name: str, kind: str) -> dict[str, Any]:
    if name in ("f1_score", "jaccard_score"):
        return {"average": "binary" if kind == "binary" else "macro"}
    if name == "precision_recall_fscore_support":
        return {"average": "weighted"}
    return {}


def best_time(function: Callable[[], Any], repeat: int) -> tuple:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def agree(a: Any, b: Any) -> bool:
    if isinstance(a, tuple):
        return all(agree(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a is b
    return bool(np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True))


def run(functions: list[str], kinds: list[str], n: int, threads: int, repeat: int, sk_repeat: int) -> list[dict]:
    import sklearn.metrics as skm

    import turbometrics as tm

    rows = []
    for kind in kinds:
        data = make_data(kind, n)
        for name in functions:
            arguments = dict(data)
            if arguments["sample_weight"] is None:
                del arguments["sample_weight"]
            if name == "cohen_kappa_score":
                arguments = {"y1": arguments.pop("y_true"), "y2": arguments.pop("y_pred"), **arguments}
            extra = kwargs_for(name, kind)
            tm_function = getattr(tm, name)
            sk_function = getattr(skm, name)
            tm_time, tm_result = best_time(lambda: tm_function(**arguments, **extra, n_threads=threads), repeat)
            sk_time, sk_result = best_time(lambda: sk_function(**arguments, **extra), sk_repeat)
            rows.append(
                {
                    "function": name,
                    "kind": kind,
                    "n": n,
                    "threads": threads,
                    "turbometrics_s": tm_time,
                    "sklearn_s": sk_time,
                    "speedup": sk_time / tm_time,
                    "agree": agree(sk_result, tm_result),
                }
            )
            print(
                f"{name:32s} {kind:10s} tm {tm_time * 1e3:9.1f} ms  sklearn {sk_time * 1e3:9.1f} ms  "
                f"x{sk_time / tm_time:6.1f}  agree={rows[-1]['agree']}",
                flush=True,
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sk-repeat", type=int, default=2)
    parser.add_argument("--kinds", default="binary,multiclass,weighted")
    parser.add_argument("--functions", default=",".join(TARGETS + OTHERS))
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    rows = run(args.functions.split(","), args.kinds.split(","), args.n, args.threads, args.repeat, args.sk_repeat)
    load_after = os.getloadavg()
    print(
        f"\nload average before {load_before}, after {load_after}; {os.cpu_count()} CPUs; "
        f"{platform.processor() or platform.machine()}\n"
    )
    print("| function | data | turbometrics (ms) | scikit-learn (ms) | speedup |")
    print("|---|---|---:|---:|---:|")
    for row in rows:
        print(
            f"| `{row['function']}` | {row['kind']} | {row['turbometrics_s'] * 1e3:.1f} | "
            f"{row['sklearn_s'] * 1e3:.0f} | {row['speedup']:.0f}x |"
        )
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(
        json.dumps(
            {"rows": rows, "load_before": load_before, "load_after": load_after, "n": args.n, "threads": args.threads},
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
