#!/usr/bin/env python3
"""Benchmark turbometrics.segmentation.confusion_matrix, side by side in one process.

For a batch of label maps (default 8 maps of 512 x 512, uint8, 150 classes,
as ADE20K) the script times (median of ``--repeats`` calls) turbometrics'
confusion counts at 1 thread, alternately with a read pass over both maps
(``t.sum() + p.sum()``), and at every core, alternately with NumPy's
``np.bincount(t * K + p)`` (the usual implementation, mmsegmentation's
arithmetic in NumPy), so that each pair sees the same machine state. Two
kinds of maps: ``random`` (every pixel drawn independently, the worst case
for the counting tables) and ``coherent`` (Voronoi regions of 40 seeds,
the prediction differing on 5 % of the pixels, as real maps are). It
reports nanoseconds per pixel (per core for the 1-thread column) and checks
that the counts equal NumPy's. The 1-minute load average is printed at the
start and the end: timings on a shared machine are noisy.

Usage: ``python benchmarks/bench_segmentation.py [--images 8] [--size 512]
[--classes 150] [--dtype uint8] [--repeats 7] [--quick]``. Markdown goes to
stdout, a JSON report to ``benchmarks/results/segmentation.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path

import numpy as np

import turbometrics as tm
from timing import timed_pair

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def maps(kind: str, images: int, size: int, classes: int, dtype: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    shape = (images, size, size)
    if kind == "random":
        return rng.integers(0, classes, shape).astype(dtype), rng.integers(0, classes, shape).astype(dtype)
    y_true = np.empty(shape, dtype=dtype)
    rows, columns = np.indices((size, size))
    for image in range(images):
        seeds = rng.integers(0, size, (40, 2))
        labels = rng.integers(0, classes, 40)
        best = np.full((size, size), np.inf)
        nearest = np.zeros((size, size), dtype=np.int64)
        for s, (r, c) in enumerate(seeds):
            distance = (rows - r) ** 2 + (columns - c) ** 2
            closer = distance < best
            best[closer], nearest[closer] = distance[closer], s
        y_true[image] = labels[nearest]
    y_pred = y_true.copy()
    changed = rng.random(shape) < 0.05
    y_pred[changed] = rng.integers(0, classes, int(changed.sum()))
    return y_true, y_pred


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=8)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--classes", type=int, default=150)
    parser.add_argument("--dtype", choices=["uint8", "uint16", "int32", "int64"], default="uint8")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="2 maps of 256 x 256, 3 repeats")
    args = parser.parse_args()
    images, size = (2, 256) if args.quick else (args.images, args.size)
    repeats = 3 if args.quick else args.repeats
    k, cores = args.classes, tm.get_num_threads()
    load_start = os.getloadavg()[0]
    rows = []
    for kind in ("random", "coherent"):
        y_true, y_pred = maps(kind, images, size, k, args.dtype)
        pixels = y_true.size

        def ours(threads: int) -> np.ndarray:
            return tm.segmentation.confusion_matrix(y_true, y_pred, num_classes=k, n_threads=threads)

        def by_numpy() -> np.ndarray:
            return np.bincount(y_true.astype(np.int64).ravel() * k + y_pred.ravel(), minlength=k * k).reshape(k, k)

        ours(cores)
        one, read = timed_pair(lambda: ours(1), lambda: int(y_true.sum()) + int(y_pred.sum()), repeats)
        every, numpy_run = timed_pair(lambda: ours(cores), by_numpy, repeats)
        numpy_s, expected = numpy_run["wall"], numpy_run["result"]
        agree = bool(np.array_equal(one["result"], expected) and np.array_equal(every["result"], expected))
        rows.append(
            {
                "maps": kind,
                "pixels": pixels,
                "one_thread_ns_per_pixel": one["wall"] / pixels * 1e9,
                "all_threads_ns_per_pixel": every["wall"] / pixels * 1e9,
                "numpy_bincount_ns_per_pixel": numpy_s / pixels * 1e9,
                "read_pass_ns_per_pixel": read["wall"] / pixels * 1e9,
                "speedup_vs_numpy": numpy_s / every["wall"],
                "agree": agree,
            }
        )
    print(
        f"{images} maps of {size} x {size} {args.dtype}, {k} classes; {cores} threads; load average (1 min) = "
        f"{load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end"
    )
    print()
    print(
        f"| maps | turbometrics, 1 thread (ns/px) | turbometrics, {cores} threads (ns/px) | "
        "NumPy bincount (ns/px) | read pass (ns/px) | speedup vs NumPy |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['maps']} | {r['one_thread_ns_per_pixel']:.2f} | {r['all_threads_ns_per_pixel']:.2f} | "
            f"{r['numpy_bincount_ns_per_pixel']:.2f} | {r['read_pass_ns_per_pixel']:.2f} | "
            f"{r['speedup_vs_numpy']:.1f}x{'' if r['agree'] else ' (MISMATCH)'} |"
        )
    RESULTS_DIR.mkdir(exist_ok=True)
    report = {
        "rows": rows,
        "threads": cores,
        "images": images,
        "size": size,
        "classes": k,
        "dtype": args.dtype,
        "machine": platform.processor() or platform.machine(),
        "load_average": [load_start, os.getloadavg()[0]],
        "versions": {"turbometrics": tm.__version__, "numpy": np.__version__},
    }
    (RESULTS_DIR / "segmentation.json").write_text(json.dumps(report, indent=2))
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
