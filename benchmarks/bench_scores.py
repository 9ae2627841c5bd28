#!/usr/bin/env python3
"""Benchmark brier_score_loss, log_loss, smooth_calibration_error and
selection_rate, side by side in one process.

For each case the script times (median of ``--repeats`` calls) turbometrics,
the reference (scikit-learn 1.9.1 for the proper scores, ``relplot.smECE``
for the smooth calibration error when relplot is installed, NumPy's
``np.mean(y == pos_label)`` for the selection rate), and a read pass over
the probabilities (``proba.sum()``), called alternately with turbometrics.
It checks agreement (proper scores and selection rate ``rtol=1e-9``; smECE
within 1e-3, relplot's resolution) and prints the 1-minute load average at
the start and at the end.

Usage: ``python benchmarks/bench_scores.py [--n 1000000] [--k 10]
[--repeats 5] [--n-threads N] [--quick]``. Markdown goes to stdout, a JSON
report to ``benchmarks/results/scores.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path

import numpy as np
import sklearn.metrics as skm

import turbometrics as tm
from synthetic_probabilities import make_probabilities
from timing import timed, timed_pair
from turbometrics import stability as S

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--reference-repeats", type=int, default=3)
    parser.add_argument("--n-threads", type=int, default=None)
    parser.add_argument("--quick", action="store_true", help="n = 1e5, 3 repeats")
    args = parser.parse_args()
    n = int(1e5 if args.quick else args.n)
    repeats = 3 if args.quick else args.repeats
    threads = args.n_threads or tm.get_num_threads()
    rng, proba, y, p1, y1, w = make_probabilities(n, args.k)
    f = rng.beta(2, 2, n)
    yf = (rng.random(n) < np.clip(f + rng.normal(0, 0.1, n), 0, 1)).astype(np.int64)
    try:
        import relplot
    except ImportError:  # pragma: no cover - optional
        relplot = None
    cases = [
        (
            "brier_score_loss, binary 1-D",
            p1,
            lambda: tm.brier_score_loss(y1, p1, n_threads=threads),
            "scikit-learn",
            lambda: skm.brier_score_loss(y1, p1),
            1e-9,
        ),
        (
            f"brier_score_loss, K={args.k}",
            proba,
            lambda: tm.brier_score_loss(y, proba, n_threads=threads),
            "scikit-learn",
            lambda: skm.brier_score_loss(y, proba),
            1e-9,
        ),
        (
            "log_loss, binary 1-D",
            p1,
            lambda: tm.log_loss(y1, p1, n_threads=threads),
            "scikit-learn",
            lambda: skm.log_loss(y1, p1),
            1e-9,
        ),
        (
            f"log_loss, K={args.k}",
            proba,
            lambda: tm.log_loss(y, proba, n_threads=threads),
            "scikit-learn",
            lambda: skm.log_loss(y, proba),
            1e-9,
        ),
        (
            f"log_loss, K={args.k}, weighted",
            proba,
            lambda: tm.log_loss(y, proba, sample_weight=w, n_threads=threads),
            "scikit-learn",
            lambda: skm.log_loss(y, proba, sample_weight=w),
            1e-9,
        ),
        (
            "selection_rate, 1-D int64",
            y1.astype(np.float64),
            lambda: S.selection_rate(y1, n_threads=threads),
            "NumPy",
            lambda: float(np.mean(y1 == 1)),
            1e-12,
        ),
    ]
    if relplot is not None:
        cases.append(
            (
                "smooth_calibration_error (fixed point)",
                f,
                lambda: tm.smooth_calibration_error(yf, f, n_threads=threads),
                "relplot.smECE",
                lambda: float(relplot.smECE(f, yf)),
                None,
            )
        )
    cases.append(
        (
            "smooth_calibration_error, bandwidth=0.05",
            f,
            lambda: tm.smooth_calibration_error(yf, f, bandwidth=0.05, n_threads=threads),
            "relplot.smECE_sigma" if relplot is not None else "-",
            (lambda: float(relplot.smECE_sigma(f, yf, 0.05))) if relplot is not None else None,
            None,
        )
    )
    load_start = os.getloadavg()[0]
    rows = []
    for name, data, ours, ref_name, reference, rtol in cases:
        ours()  # warm-up
        t_ours, t_read = timed_pair(ours, lambda: data.sum(), repeats)
        t_ref, v_ref = timed(reference, args.reference_repeats) if reference is not None else (float("nan"), None)
        v_ours = t_ours["result"]
        if v_ref is None:
            agree = True
        elif rtol is None:
            agree = abs(v_ours - v_ref) < 1e-3
        else:
            agree = bool(np.isclose(v_ours, v_ref, rtol=rtol, atol=1e-15))
        rows.append(
            {
                "case": name,
                "turbometrics_s": t_ours["wall"],
                "turbometrics_cpu_s": t_ours["cpu"],
                "reference": ref_name,
                "reference_s": t_ref,
                "read_pass_s": t_read["wall"],
                "speedup": t_ref / t_ours["wall"],
                "ratio_to_read_pass": t_ours["wall"] / t_read["wall"],
                "agree": agree,
            }
        )
    print(
        f"N={n:.0e}, K={args.k}; threads={threads}; load average (1 min) = {load_start:.2f} at the start, "
        f"{os.getloadavg()[0]:.2f} at the end"
    )
    print()
    print("| case | turbometrics (CPU) | reference | reference time | speedup | read pass | time / read pass |")
    print("|---|---:|---|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['case']} | {r['turbometrics_s'] * 1e3:.1f} ms ({r['turbometrics_cpu_s'] * 1e3:.1f}) | "
            f"{r['reference']} | {r['reference_s'] * 1e3:.1f} ms | {r['speedup']:.1f}x | "
            f"{r['read_pass_s'] * 1e3:.1f} ms | {r['ratio_to_read_pass']:.1f}x{'' if r['agree'] else ' (MISMATCH)'} |"
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
    }
    (RESULTS_DIR / ("scores_quick.json" if args.quick else "scores.json")).write_text(json.dumps(report, indent=2))
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
