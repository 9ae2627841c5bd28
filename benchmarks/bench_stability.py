#!/usr/bin/env python3
"""Benchmark turbometrics.stability, side by side in one process.

For P of shape (m, n) (default m = 50, n = 1e6, float64) the script times
(median of ``--repeats`` calls) every stability metric, a NumPy
implementation of the same definition, and ``P.sum()`` -- a single read
pass over P. Target (2 cores): at most 2x the read pass. It checks that
turbometrics and NumPy agree (``rtol=1e-9``) and prints the 1-minute load
average, since timings are noisy on a shared machine.

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

from timing import timed

import turbometrics as tm
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
        "epistemic (variance)": (lambda P: S.epistemic_uncertainty(P, method="variance", n_threads=THREADS),
                                 lambda P: np.mean(np.var(P, axis=0))),
        "aleatoric": (lambda P: S.aleatoric_uncertainty(P, n_threads=THREADS),
                      lambda P: np.mean(np.mean(_entropy(P), axis=0))),
        "epistemic (mutual_info)": (lambda P: S.epistemic_uncertainty(P, n_threads=THREADS),
                                    lambda P: np.mean(_entropy(P.mean(axis=0)) - np.mean(_entropy(P), axis=0))),
        "iqr": (lambda P: S.iqr(P, n_threads=THREADS),
                lambda P: np.mean(np.subtract(*np.percentile(P, [75, 25], axis=0)))),
    }


THREADS = None




def main() -> int:
    global THREADS
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
    t_read, _ = timed(lambda: P.sum(), repeats)
    rows = []
    for name, (ours, reference) in numpy_versions().items():
        ours(P)
        t_ours, v_ours = timed(lambda: ours(P), repeats)
        t_numpy, v_numpy = timed(lambda: reference(P), args.numpy_repeats)
        agree = bool(np.isclose(v_ours, v_numpy, rtol=1e-9, atol=1e-12))
        rows.append({"metric": name, "turbometrics_s": t_ours, "numpy_s": t_numpy, "read_pass_s": t_read,
                     "speedup_vs_numpy": t_numpy / t_ours, "ratio_to_read_pass": t_ours / t_read, "agree": agree})
    print(f"P: ({args.m}, {n}) {args.dtype}; threads={THREADS}; load average (1 min) = {os.getloadavg()[0]:.2f}; "
          f"P.sum() = {t_read * 1e3:.1f} ms")
    print()
    print("| metric | turbometrics | NumPy (same definition) | speedup vs NumPy | time / read pass |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['metric']} | {r['turbometrics_s'] * 1e3:.1f} ms | {r['numpy_s'] * 1e3:.1f} ms | "
              f"{r['speedup_vs_numpy']:.1f}x | {r['ratio_to_read_pass']:.2f}x{'' if r['agree'] else ' (MISMATCH)'} |")
    RESULTS_DIR.mkdir(exist_ok=True)
    report = {"rows": rows, "threads": THREADS, "load_average": os.getloadavg(), "m": args.m, "n": n,
              "dtype": args.dtype, "machine": platform.platform(), "numpy": np.__version__}
    name = "stability_quick.json" if args.quick else "stability.json"
    (RESULTS_DIR / name).write_text(json.dumps(report, indent=2))
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
