#!/usr/bin/env python3
"""Benchmark turbometrics' calibration metrics, side by side in one process.

For each case the script times (median of ``--repeats`` calls):

* ``turbometrics`` -- ``calibration_error`` / ``reliability_diagram``;
* ``numpy`` -- a vectorised NumPy implementation of the same definition
  (``max``/``argmax``, ``searchsorted`` on the exact edges, three
  ``bincount`` calls, the sum over the table);
* ``read pass`` -- ``proba.sum()``, a single read of the input.

turbometrics and the read pass are called alternately, so that both see the
same machine state; besides the median wall time the script reports the
median CPU time of the process (all threads), which a loaded machine
inflates much less. It checks that turbometrics and the NumPy
implementation agree (``rtol=1e-9``). Targets (2 cores, N = 1e6, K = 10):
at least 10x faster than NumPy, at most 2x the read pass. Timings are noisy
on a shared machine, so the 1-minute load average is reported with them
(at the start and at the end).

Usage: ``python benchmarks/bench_calibration.py [--n 1000000] [--k 10]
[--repeats 7] [--n-threads N] [--quick]``. Markdown goes to stdout, a JSON
report to ``benchmarks/results/calibration.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path

import numpy as np

import turbometrics as tm
from synthetic_probabilities import make_probabilities
from timing import timed, timed_pair

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def numpy_calibration_error(y, proba, n_bins=15, mode="top_label", sample_weight=None):
    """The definition, vectorised with NumPy (uniform edges, l1 norm)."""
    edges = np.linspace(0, 1, n_bins + 1)
    w = np.ones(proba.shape[0]) if sample_weight is None else sample_weight

    def one(conf, correct):
        idx = np.clip(np.searchsorted(edges, conf, side="right") - 1, 0, n_bins - 1)
        weight = np.bincount(idx, w, minlength=n_bins)
        sconf = np.bincount(idx, w * conf, minlength=n_bins)
        scorr = np.bincount(idx, w * correct, minlength=n_bins)
        filled = weight > 0
        return np.sum(np.abs(scorr[filled] - sconf[filled])) / weight.sum()

    if proba.ndim == 1:
        return one(proba, y == 1)
    if mode == "top_label":
        return one(proba.max(axis=1), proba.argmax(axis=1) == y)
    return float(np.mean([one(proba[:, k], y == k) for k in range(proba.shape[1])]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--numpy-repeats", type=int, default=3)
    parser.add_argument("--n-threads", type=int, default=None)
    parser.add_argument("--quick", action="store_true", help="n = 1e5, 3 repeats")
    args = parser.parse_args()
    n = int(1e5 if args.quick else args.n)
    repeats = 3 if args.quick else args.repeats
    threads = args.n_threads or tm.get_num_threads()
    _rng, proba, y, p1, y1, w = make_probabilities(n, args.k)
    proba32 = proba.astype(np.float32)
    cases = [
        (
            f"top-label, float64 (N={n:.0e}, K={args.k})",
            proba,
            lambda: tm.calibration_error(y, proba, n_threads=threads),
            lambda: numpy_calibration_error(y, proba),
        ),
        (
            f"top-label, float32 (N={n:.0e}, K={args.k})",
            proba32,
            lambda: tm.calibration_error(y, proba32, n_threads=threads),
            lambda: numpy_calibration_error(y, proba32),
        ),
        (
            f"top-label, weighted (N={n:.0e}, K={args.k})",
            proba,
            lambda: tm.calibration_error(y, proba, sample_weight=w, n_threads=threads),
            lambda: numpy_calibration_error(y, proba, sample_weight=w),
        ),
        (
            f"classwise (N={n:.0e}, K={args.k})",
            proba,
            lambda: tm.calibration_error(y, proba, mode="classwise", n_threads=threads),
            lambda: numpy_calibration_error(y, proba, mode="classwise"),
        ),
        (
            f"binary 1-D (N={n:.0e})",
            p1,
            lambda: tm.calibration_error(y1, p1, n_threads=threads),
            lambda: numpy_calibration_error(y1, p1),
        ),
    ]
    rows = []
    load_start = os.getloadavg()[0]
    for name, data, ours, reference in cases:
        ours()  # warm-up
        t_ours, t_read = timed_pair(ours, lambda: data.sum(), repeats)
        t_numpy, v_numpy = timed(reference, args.numpy_repeats)
        agree = bool(np.isclose(t_ours["result"], v_numpy, rtol=1e-9, atol=1e-15))
        rows.append(
            {
                "case": name,
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
    load = os.getloadavg()[0]
    print(
        f"threads={threads}, load average (1 min) = {load_start:.2f} at the start, {load:.2f} at the end, "
        f"cpus={os.cpu_count()}"
    )
    print()
    print(
        "| case | turbometrics (CPU) | NumPy (same definition) | `proba.sum()` (CPU) | speedup vs NumPy | "
        "time / read pass |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['case']} | {r['turbometrics_s'] * 1e3:.1f} ms ({r['turbometrics_cpu_s'] * 1e3:.1f}) | "
            f"{r['numpy_s'] * 1e3:.1f} ms | {r['read_pass_s'] * 1e3:.1f} ms ({r['read_pass_cpu_s'] * 1e3:.1f}) | "
            f"{r['speedup_vs_numpy']:.1f}x | {r['ratio_to_read_pass']:.2f}x{'' if r['agree'] else ' (MISMATCH)'} |"
        )
    RESULTS_DIR.mkdir(exist_ok=True)
    report = {
        "rows": rows,
        "threads": threads,
        "load_average_start": load_start,
        "load_average": os.getloadavg(),
        "n": n,
        "k": args.k,
        "machine": platform.platform(),
        "numpy": np.__version__,
        "turbometrics": tm.__version__,
    }
    (RESULTS_DIR / ("calibration_quick.json" if args.quick else "calibration.json")).write_text(
        json.dumps(report, indent=2)
    )
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
