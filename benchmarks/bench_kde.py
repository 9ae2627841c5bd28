#!/usr/bin/env python3
"""Benchmark turbometrics' kernel density estimation, side by side in one process.

* exact Gaussian KDE, 1-D and 2-D, n data points evaluated at m points:
  ``turbometrics.gaussian_kde`` against ``scipy.stats.gaussian_kde`` (same
  bandwidth, Scott's rule), results compared with ``rtol=1e-9``;
* binned Gaussian KDE, 1-D and 2-D: ``turbometrics.kde(method="binned")``
  at m arbitrary points against KDEpy's ``FFTKDE`` at equal accuracy: KDEpy's
  grid is the smallest power of two whose values at its own grid points
  are within 1e-3 relative of the exact density wherever that is at least
  1e-3 of its peak (turbometrics' stated bound). KDEpy is timed on its grid
  alone and with ``np.interp``/grid lookup excluded, i.e. its best case.

Times are medians of ``--repeat`` runs (scipy: one run at full size, it is
slow). The load average is printed with the results; the machine may be
shared. Results go to stdout (markdown) and ``benchmarks/results/kde.json``.

    python benchmarks/bench_kde.py            # n = 1e5, m = 1e4
    python benchmarks/bench_kde.py --quick    # n = 2e4, m = 2e3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path
from typing import Any

import numpy as np

import turbometrics as tm
from timing import timed

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def exact_cases(n: int, m: int, repeat: int, threads: int, rows: list[dict[str, Any]]) -> None:
    from scipy.stats import gaussian_kde

    rng = np.random.default_rng(0)
    for d in (1, 2):
        data = rng.normal(size=(d, n))
        points = rng.normal(size=(d, m)) * 1.5
        ours = tm.gaussian_kde(data)
        theirs = gaussian_kde(data)
        load = os.getloadavg()[0]
        t_tm, v_tm = timed(lambda: ours(points, n_threads=threads), repeat)
        t_tm1, _ = timed(lambda: ours(points, n_threads=1), max(1, repeat // 2))
        t_sp, v_sp = timed(lambda: theirs(points), 1)
        rows.append(
            dict(
                case=f"exact gaussian_kde {d}-D",
                n=n,
                m=m,
                turbometrics_s=t_tm,
                turbometrics_1thread_s=t_tm1,
                other="scipy.stats.gaussian_kde",
                other_s=t_sp,
                speedup=t_sp / t_tm,
                agree=bool(np.allclose(v_tm, v_sp, rtol=1e-9, atol=0)),
                load_avg=load,
            )
        )
        print(rows[-1], flush=True)


def _max_relative_error(approx: np.ndarray, exact: np.ndarray) -> float:
    covered = exact >= 1e-3 * exact.max()
    return float(np.max(np.abs(approx[covered] - exact[covered]) / exact[covered]))


def binned_cases(n: int, m: int, repeat: int, threads: int, rows: list[dict[str, Any]]) -> None:
    from KDEpy import FFTKDE

    rng = np.random.default_rng(1)
    for d in (1, 2):
        data = np.concatenate([rng.normal(size=(n // 2, d)), rng.normal(size=(n - n // 2, d)) * 0.5 + 3])
        h = float(tm.gaussian_kde(data.T).factor * np.sqrt(np.trace(np.atleast_2d(np.cov(data.T))) / d))
        points = rng.uniform(data.min(axis=0), data.max(axis=0), size=(m, d))
        load = os.getloadavg()[0]
        t_tm, v_tm = timed(lambda: tm.kde(data, points, bandwidth=h, method="binned", n_threads=threads), repeat)
        exact = tm.kde(data, points, bandwidth=h, n_threads=threads)
        err_tm = _max_relative_error(v_tm, exact)
        # KDEpy: smallest grid meeting the same bound at its grid points.
        chosen = None
        for log2 in range(8, 16 if d == 1 else 12):
            size = 1 << log2
            grid, values = FFTKDE(kernel="gaussian", bw=h).fit(data).evaluate(size)
            grid = np.asarray(grid).reshape(-1, d)
            check = np.random.default_rng(2).choice(grid.shape[0], size=min(grid.shape[0], 4000), replace=False)
            err = _max_relative_error(values[check], tm.kde(data, grid[check], bandwidth=h, n_threads=threads))
            if err <= 1e-3:
                chosen = (size, err)
                break
        if chosen is None:
            rows.append(
                dict(
                    case=f"binned {d}-D",
                    n=n,
                    m=m,
                    turbometrics_s=t_tm,
                    turbometrics_error=err_tm,
                    other="KDEpy FFTKDE",
                    other_s=None,
                    note="KDEpy never reached 1e-3",
                    load_avg=load,
                )
            )
            print(rows[-1], flush=True)
            continue
        size, err = chosen
        t_kp, _ = timed(lambda: FFTKDE(kernel="gaussian", bw=h).fit(data).evaluate(size), repeat)
        rows.append(
            dict(
                case=f"binned {d}-D",
                n=n,
                m=m,
                turbometrics_s=t_tm,
                turbometrics_error=err_tm,
                other=f"KDEpy FFTKDE, grid {size}" + ("" if d == 1 else f"x{size}"),
                other_s=t_kp,
                other_error=err,
                ratio_tm_over_kdepy=t_tm / t_kp,
                load_avg=load,
            )
        )
        print(rows[-1], flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="n = 2e4, m = 2e3")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="default: turbometrics.get_num_threads()")
    parser.add_argument("--skip-exact", action="store_true")
    parser.add_argument("--skip-binned", action="store_true")
    args = parser.parse_args()
    n, m = (20_000, 2_000) if args.quick else (100_000, 10_000)
    threads = args.threads or tm.get_num_threads()
    rows: list[dict[str, Any]] = []
    if not args.skip_exact:
        exact_cases(n, m, args.repeat, threads, rows)
    if not args.skip_binned:
        binned_cases(n, m, args.repeat, threads, rows)
    print(f"\nthreads={threads}, cpus={os.cpu_count()}, load average now {os.getloadavg()}, {platform.processor()}")
    print("\n| case | n | m | turbometrics (s) | other | other (s) | other / turbometrics |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        other_s = row.get("other_s")
        ratio = f"{other_s / row['turbometrics_s']:.1f}x" if other_s else "n/a"
        print(
            f"| {row['case']} | {row['n']} | {row['m']} | {row['turbometrics_s']:.4g} | {row['other']} | "
            f"{other_s if other_s is None else format(other_s, '.4g')} | {ratio} |"
        )
    RESULTS_DIR.mkdir(exist_ok=True)
    name = "kde_quick.json" if args.quick else "kde.json"
    (RESULTS_DIR / name).write_text(json.dumps(dict(threads=threads, rows=rows), indent=2))


if __name__ == "__main__":
    main()
