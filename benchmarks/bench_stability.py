#!/usr/bin/env python3
"""Benchmark turbometrics.stability, side by side in one process.

For P of shape (m, n) (default m = 50, n = 1e6, float64) the script times
(median of ``--repeats`` calls) every stability metric, a NumPy
implementation of the same definition, and ``P.sum()`` -- a single read
pass over P, called alternately with the metric so that both see the same
machine state. Besides the median wall time it reports the median CPU time
of the process (all threads), which a loaded machine inflates much less.
Target (2 cores): at most 2x the read pass. It checks that turbometrics and
NumPy agree (``rtol=1e-9``) and prints the 1-minute load average at the
start and at the end, since timings are noisy on a shared machine.

Usage: ``python benchmarks/bench_stability.py [--m 50] [--n 1000000]
[--repeats 5] [--n-threads N] [--quick]``. Markdown goes to stdout, a JSON
report to ``benchmarks/results/stability.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path

import numpy as np

import turbometrics as tm
from timing import timed, timed_pair
from turbometrics import stability as S

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def _entropy(p):
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(np.where(p > 0, p * np.log2(p), 0.0) + np.where(p < 1, (1 - p) * np.log2(1 - p), 0.0))
    return h


def numpy_versions(threshold=0.5):
    def label_stability(P):
        c1 = np.count_nonzero(P >= threshold, axis=0)
        return np.mean(np.abs(2 * c1 - P.shape[0]) / P.shape[0])

    def jitter(P):
        m = P.shape[0]
        c1 = np.count_nonzero(P >= threshold, axis=0)
        return np.mean(2.0 * c1 * (m - c1) / (m * (m - 1)))

    return {
        "label_stability": (lambda P: S.label_stability(P, n_threads=THREADS), label_stability),
        "jitter": (lambda P: S.jitter(P, n_threads=THREADS), jitter),
        "std (ddof=1)": (lambda P: S.std(P, n_threads=THREADS), lambda P: np.mean(np.std(P, axis=0, ddof=1))),
        "epistemic (variance)": (
            lambda P: S.epistemic_uncertainty(P, method="variance", n_threads=THREADS),
            lambda P: np.mean(np.var(P, axis=0)),
        ),
        "aleatoric": (
            lambda P: S.aleatoric_uncertainty(P, n_threads=THREADS),
            lambda P: np.mean(np.mean(_entropy(P), axis=0)),
        ),
        "epistemic (mutual_info)": (
            lambda P: S.epistemic_uncertainty(P, n_threads=THREADS),
            lambda P: np.mean(_entropy(P.mean(axis=0)) - np.mean(_entropy(P), axis=0)),
        ),
        "iqr": (
            lambda P: S.iqr(P, n_threads=THREADS),
            lambda P: np.mean(np.subtract(*np.percentile(P, [75, 25], axis=0))),
        ),
        "selection_rate (2-D int64 labels P >= 0.5)": (
            lambda P: S.selection_rate(LABELS, n_threads=THREADS),
            lambda P: np.mean(LABELS == 1, axis=-1),
        ),
    }


THREADS = None
LABELS = None


def main() -> int:
    global THREADS, LABELS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=50)
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--numpy-repeats", type=int, default=1)
    parser.add_argument("--n-threads", type=int, default=None)
    parser.add_argument("--dtype", choices=["float64", "float32"], default="float64")
    parser.add_argument("--quick", action="store_true", help="n = 1e5, 3 repeats")
    args = parser.parse_args()
    n = int(1e5 if args.quick else args.n)
    repeats = 3 if args.quick else args.repeats
    THREADS = args.n_threads or tm.get_num_threads()
    rng = np.random.default_rng(0)
    base = rng.random(n)
    P = np.clip(base + rng.normal(0, 0.15, (args.m, n)), 0, 1).astype(args.dtype)
    LABELS = (P >= 0.5).astype(np.int64)  # as large as P
    load_start = os.getloadavg()[0]
    rows = []
    for name, (ours, reference) in numpy_versions().items():
        ours(P)
        t_ours, t_read = timed_pair(lambda: ours(P), lambda: P.sum(), repeats)
        t_numpy, v_numpy = timed(lambda: reference(P), args.numpy_repeats)
        agree = bool(np.allclose(t_ours["result"], v_numpy, rtol=1e-9, atol=1e-12))
        rows.append(
            {
                "metric": name,
                "turbometrics_s": t_ours["wall"],
                "turbometrics_cpu_s": t_ours["cpu"],
                "numpy_s": t_numpy,
                "read_pass_s": t_read["wall"],
                "read_pass_cpu_s": t_read["cpu"],
                "speedup_vs_numpy": t_numpy / t_ours["wall"],
                "ratio_to_read_pass": t_ours["wall"] / t_read["wall"],
                "agree": agree,
            }
        )
    print(
        f"P: ({args.m}, {n}) {args.dtype}; threads={THREADS}; load average (1 min) = {load_start:.2f} at the start, "
        f"{os.getloadavg()[0]:.2f} at the end"
    )
    print()
    print(
        "| metric | turbometrics (CPU) | `P.sum()` (CPU) | NumPy (same definition) | speedup vs NumPy | "
        "time / read pass |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['metric']} | {r['turbometrics_s'] * 1e3:.1f} ms ({r['turbometrics_cpu_s'] * 1e3:.1f}) | "
            f"{r['read_pass_s'] * 1e3:.1f} ms ({r['read_pass_cpu_s'] * 1e3:.1f}) | {r['numpy_s'] * 1e3:.1f} ms | "
            f"{r['speedup_vs_numpy']:.1f}x | {r['ratio_to_read_pass']:.2f}x{'' if r['agree'] else ' (MISMATCH)'} |"
        )
    RESULTS_DIR.mkdir(exist_ok=True)
    report = {
        "rows": rows,
        "threads": THREADS,
        "load_average_start": load_start,
        "load_average": os.getloadavg(),
        "m": args.m,
        "n": n,
        "dtype": args.dtype,
        "machine": platform.platform(),
        "numpy": np.__version__,
    }
    name = "stability_quick.json" if args.quick else "stability.json"
    (RESULTS_DIR / name).write_text(json.dumps(report, indent=2))
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
