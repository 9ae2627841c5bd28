#!/usr/bin/env python3
"""Benchmark turbometrics.segmentation.confusion_matrix, side by side in one process.

For a batch of label maps (default 8 maps of 512 x 512, uint8, 150 classes,
as ADE20K; or ``--dataset cityscapes|ade20k|ct``, the issue's presets in
segmentation_maps.py: 2 maps of 1024 x 2048 with 19 classes, 8 of 512 x 512
with 150, one 300 x 512 x 512 CT volume with 14) the script times (median
of ``--repeats`` calls) turbometrics' confusion counts at 1 thread,
alternately with a read pass over both maps (``t.sum() + p.sum()``), and at
every core, alternately with NumPy's ``np.bincount(t * K + p)`` (the usual
implementation, mmsegmentation's arithmetic in NumPy), so that each pair
sees the same machine state. Two kinds of maps: ``random`` (every pixel
drawn independently, the worst case for the counting tables) and
``coherent`` (without ``--dataset``: Voronoi regions of 40 seeds, the
prediction differing on 5 % of the pixels; with it: the preset's blobs or
organs). It reports nanoseconds per pixel (per core for the 1-thread
column) and checks that the counts equal NumPy's. With ``--peak``, each
call's peak resident memory above the memory before it is measured in a
fresh child process (peak_memory.py). The 1-minute load average is printed
at the start and the end: timings on a shared machine are noisy.

Usage: ``python benchmarks/bench_segmentation.py [--dataset NAME] [--images 8]
[--size 512] [--classes 150] [--dtype uint8] [--repeats 7] [--slices N]
[--peak] [--quick]``. Markdown goes to stdout, a JSON report to
``benchmarks/results/segmentation[_NAME].json``.
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
from peak_memory import peak_mb_in_child
from segmentation_maps import DATASETS, dataset_maps, preset, random_maps, regions
from timing import timed_pair

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def maps(spec: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, int]:
    """The maps of one kind (``spec``: the command line's choices) and K."""
    if spec["dataset"]:
        dataset = preset(spec["dataset"], quick=spec["quick"], slices=spec["slices"])
        shape, k = (dataset.images, *dataset.map_shape), dataset.classes
        if spec["kind"] == "random":
            return *random_maps(shape, k, spec["dtype"]), k
        return *(m.astype(spec["dtype"]) for m in dataset_maps(dataset)), k
    images, size, k = spec["images"], spec["size"], spec["classes"]
    if spec["kind"] == "random":
        return *random_maps((images, size, size), k, spec["dtype"]), k
    pairs = [regions((size, size), k, seeds=40, shift=0.0, noise=0.05, seed=i) for i in range(images)]
    return *(np.stack([pair[i] for pair in pairs]).astype(spec["dtype"]) for i in (0, 1)), k


def calls(**spec: Any) -> dict[str, Any]:
    """The timed calls on the maps of ``spec`` (also the peak-memory children's)."""
    y_true, y_pred, k = maps(spec)
    cores = tm.get_num_threads()
    return {
        "turbometrics, 1 thread": lambda: tm.segmentation.confusion_matrix(y_true, y_pred, num_classes=k, n_threads=1),
        f"turbometrics, {cores} threads": lambda: tm.segmentation.confusion_matrix(
            y_true, y_pred, num_classes=k, n_threads=cores
        ),
        "NumPy bincount": lambda: np.bincount(
            y_true.astype(np.int64).ravel() * k + y_pred.ravel(), minlength=k * k
        ).reshape(k, k),
        "read pass": lambda: int(y_true.sum()) + int(y_pred.sum()),
        "pixels": y_true.size,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", choices=sorted(DATASETS), help="an issue preset (overrides the sizes)")
    parser.add_argument("--images", type=int, default=8)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument("--classes", type=int, default=150)
    parser.add_argument("--dtype", choices=["uint8", "uint16", "int32", "int64"], default="uint8")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--slices", type=int, help="with --dataset: the central N slices of each map's first axis")
    parser.add_argument("--peak", action="store_true", help="also measure each call's peak memory (child processes)")
    parser.add_argument("--quick", action="store_true", help="small maps (a preset's sides / 8), 3 repeats")
    args = parser.parse_args()
    images, size = (2, 256) if args.quick else (args.images, args.size)
    if args.dataset:
        described = preset(args.dataset, quick=args.quick, slices=args.slices).describe()
    else:
        described = f"{images} maps of {size} x {size}, {args.classes} classes"
    repeats = 3 if args.quick else args.repeats
    cores = tm.get_num_threads()
    load_start = os.getloadavg()[0]
    rows = []
    for kind in ("random", "coherent"):
        spec = {
            "kind": kind,
            "dataset": args.dataset,
            "quick": args.quick,
            "slices": args.slices,
            "images": images,
            "size": size,
            "classes": args.classes,
            "dtype": args.dtype,
        }
        run = calls(**spec)
        pixels = run.pop("pixels")
        ours_one, ours_all = run["turbometrics, 1 thread"], run[f"turbometrics, {cores} threads"]
        by_numpy = run["NumPy bincount"]
        ours_all()
        one, read = timed_pair(ours_one, run["read pass"], repeats)
        every, numpy_run = timed_pair(ours_all, by_numpy, repeats)
        numpy_s, expected = numpy_run["wall"], numpy_run["result"]
        agree = bool(np.array_equal(one["result"], expected) and np.array_equal(every["result"], expected))
        row = {
            "maps": kind,
            "pixels": pixels,
            "one_thread_ns_per_pixel": one["wall"] / pixels * 1e9,
            "all_threads_ns_per_pixel": every["wall"] / pixels * 1e9,
            "numpy_bincount_ns_per_pixel": numpy_s / pixels * 1e9,
            "read_pass_ns_per_pixel": read["wall"] / pixels * 1e9,
            "speedup_vs_numpy": numpy_s / every["wall"],
            "agree": agree,
        }
        del run, ours_one, ours_all, by_numpy, one, every, numpy_run, expected
        if args.peak:
            names = ("turbometrics, 1 thread", f"turbometrics, {cores} threads", "NumPy bincount")
            row["peak_mb"] = {name: peak_mb_in_child("bench_segmentation", "calls", spec, name) for name in names}
        rows.append(row)
    print(
        f"{described}, {args.dtype}; {cores} threads; load average (1 min) = "
        f"{load_start:.2f} at the start, {os.getloadavg()[0]:.2f} at the end"
    )
    print()
    peak_header = " peak MB: 1 thread / all / bincount |" if args.peak else ""
    print(
        f"| maps | turbometrics, 1 thread (ns/px) | turbometrics, {cores} threads (ns/px) | "
        f"NumPy bincount (ns/px) | read pass (ns/px) | speedup vs NumPy |{peak_header}"
    )
    print("|---|---:|---:|---:|---:|---:|" + ("---:|" if args.peak else ""))
    for r in rows:
        peaks = " " + " / ".join(f"{mb:.1f}" for mb in r["peak_mb"].values()) + " |" if args.peak else ""
        print(
            f"| {r['maps']} | {r['one_thread_ns_per_pixel']:.2f} | {r['all_threads_ns_per_pixel']:.2f} | "
            f"{r['numpy_bincount_ns_per_pixel']:.2f} | {r['read_pass_ns_per_pixel']:.2f} | "
            f"{r['speedup_vs_numpy']:.1f}x{'' if r['agree'] else ' (MISMATCH)'} |{peaks}"
        )
    RESULTS_DIR.mkdir(exist_ok=True)
    report = {
        "rows": rows,
        "threads": cores,
        "maps": described,
        "dataset": args.dataset,
        "dtype": args.dtype,
        "machine": platform.processor() or platform.machine(),
        "load_average": [load_start, os.getloadavg()[0]],
        "versions": {"turbometrics": tm.__version__, "numpy": np.__version__},
    }
    name = f"segmentation_{args.dataset}.json" if args.dataset else "segmentation.json"
    (RESULTS_DIR / name).write_text(json.dumps(report, indent=2))
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
