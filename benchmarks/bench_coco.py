#!/usr/bin/env python3
"""Benchmark COCO evaluation: turbometrics.coco vs faster-coco-eval vs
pycocotools, in one process on the same files.

The data is ``turbometrics.coco.synthetic.make_coco_set``: by default 5,000 images, 80
categories, about 7 ground truths per image (1 % crowd) and 100 box
detections per image (500,000, scores rounded to 3 decimals), written once
to ``--data-dir``.

Timed (median of ``--repeats``; pycocotools once, it takes a minute):

* ``load``: ``COCO(gt)`` + ``loadRes(results.json)``;
* ``eval``: ``evaluate()`` + ``accumulate()`` + ``summarize()``.

turbometrics' ``eval['precision']``, ``eval['recall']``, ``eval['scores']``
and ``stats`` are checked for exact equality with pycocotools' (exit code 1
otherwise). Peak memory: each library loads and evaluates in a fresh
process, which reports its peak resident set size (``--no-memory`` skips).

Usage: ``python benchmarks/bench_coco.py [--images 5000] [--repeats 3]
[--skip-pycocotools] [--iou-type bbox] [--n-threads N] [--quick]``.
Markdown goes to stdout, JSON to ``benchmarks/results/coco.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from timing import timed
from turbometrics.coco.synthetic import write_coco_set

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def _quiet(function: Callable[[], Any]) -> Any:
    with contextlib.redirect_stdout(io.StringIO()):
        return function()


def _libraries() -> dict[str, tuple[Any, Any]]:
    """name -> (COCO class, COCOeval class), for the installed libraries."""
    found: dict[str, tuple[Any, Any]] = {}
    from turbometrics.coco import COCO, COCOeval

    found["turbometrics"] = (COCO, COCOeval)
    try:
        from faster_coco_eval import COCO as FasterCOCO, COCOeval_faster

        found["faster-coco-eval"] = (FasterCOCO, COCOeval_faster)
    except ImportError:
        pass
    try:
        from pycocotools.coco import COCO as ReferenceCOCO
        from pycocotools.cocoeval import COCOeval as ReferenceCOCOeval

        found["pycocotools"] = (ReferenceCOCO, ReferenceCOCOeval)
    except ImportError:
        pass
    return found


def _load(coco_class: Any, gt: Path, results: Path) -> tuple[Any, Any]:
    def run() -> tuple[Any, Any]:
        ground_truth = coco_class(str(gt))
        return ground_truth, ground_truth.loadRes(str(results))

    return _quiet(run)


def _evaluate(eval_class: Any, ground_truth: Any, detections: Any, iou_type: str, n_threads: int | None) -> Any:
    kwargs = {"n_threads": n_threads} if n_threads is not None and "turbometrics" in eval_class.__module__ else {}
    evaluation = eval_class(ground_truth, detections, iou_type, **kwargs)

    def run() -> Any:
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
        return evaluation

    return _quiet(run)


def _peak_rss_mib() -> float:
    """This process's peak resident set size (VmHWM: unlike ru_maxrss it
    does not carry the parent's size across fork and exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory_probe(library: str, gt: Path, results: Path, iou_type: str) -> None:
    """Run in a child process: load and evaluate with one library, print the
    peak RSS in MiB (and the RSS after imports, the baseline)."""
    coco_class, eval_class = _libraries()[library]
    baseline = _peak_rss_mib()
    ground_truth, detections = _load(coco_class, gt, results)
    _evaluate(eval_class, ground_truth, detections, iou_type, None)
    print(json.dumps({"baseline_mib": baseline, "peak_mib": _peak_rss_mib()}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=int, default=5000)
    parser.add_argument("--dets-per-image", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--iou-type", default="bbox", choices=["bbox", "segm"])
    parser.add_argument("--n-threads", type=int, default=None)
    parser.add_argument("--skip-pycocotools", action="store_true")
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--quick", action="store_true", help="500 images, one repeat, no memory probe")
    parser.add_argument("--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "turbometrics-coco-bench")
    parser.add_argument("--memory-probe", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.images, args.repeats, args.no_memory = 500, 1, True

    data_dir = args.data_dir / f"{args.images}x{args.dets_per_image}"
    gt, results = data_dir / "gt.json", data_dir / "results.json"
    if args.memory_probe:
        memory_probe(args.memory_probe, gt, results, args.iou_type)
        return 0
    if not results.exists():
        print(f"writing the synthetic set to {data_dir} ...", file=sys.stderr)
        write_coco_set(data_dir, n_images=args.images, dets_per_image=args.dets_per_image)

    libraries = _libraries()
    if args.skip_pycocotools:
        libraries.pop("pycocotools", None)
    report: dict[str, Any] = {
        "images": args.images,
        "detections_file_mib": results.stat().st_size / 2**20,
        "iou_type": args.iou_type,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "load_average": os.getloadavg()[0],
        "libraries": {},
    }
    evaluations: dict[str, Any] = {}
    for name, (coco_class, eval_class) in libraries.items():
        repeats = 1 if name == "pycocotools" else args.repeats
        print(f"{name}: load ...", file=sys.stderr)
        load_time, (ground_truth, detections) = timed(lambda: _load(coco_class, gt, results), repeats)
        print(f"{name}: evaluate ...", file=sys.stderr)
        eval_time, evaluation = timed(
            lambda: _evaluate(eval_class, ground_truth, detections, args.iou_type, args.n_threads), repeats
        )
        evaluations[name] = evaluation
        report["libraries"][name] = {
            "load_s": load_time,
            "eval_s": eval_time,
            "stats": list(map(float, evaluation.stats)),
        }

    identical = None
    if "pycocotools" in evaluations:
        a, b = evaluations["pycocotools"], evaluations["turbometrics"]
        identical = all(np.array_equal(a.eval[k], b.eval[k]) for k in ("precision", "recall", "scores")) and list(
            a.stats
        ) == list(b.stats)
        report["bit_identical_to_pycocotools"] = identical

    if not args.no_memory:
        for name in libraries:
            probe = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--memory-probe",
                    name,
                    "--images",
                    str(args.images),
                    "--dets-per-image",
                    str(args.dets_per_image),
                    "--iou-type",
                    args.iou_type,
                    "--data-dir",
                    str(args.data_dir),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            report["libraries"][name].update(json.loads(probe.stdout.strip().splitlines()[-1]))

    ours = report["libraries"]["turbometrics"]
    print(
        f"\n{args.images} images, {args.images * args.dets_per_image} detections ({args.iou_type}), "
        f"load average {report['load_average']:.1f}\n"
    )
    print("| library | load (s) | evaluate+accumulate+summarize (s) | eval speedup of turbometrics | peak RSS (MiB) |")
    print("|---|---|---|---|---|")
    for name, row in report["libraries"].items():
        peak = f"{row['peak_mib']:.0f}" if "peak_mib" in row else "-"
        print(
            f"| {name} | {row['load_s']:.2f} | {row['eval_s']:.3f} | {row['eval_s'] / ours['eval_s']:.1f}x | {peak} |"
        )
    if identical is not None:
        print(f"\nturbometrics bit-identical to pycocotools (precision, recall, scores, stats): {identical}")
    RESULTS_DIR.mkdir(exist_ok=True)
    name = "coco_quick.json" if args.quick else "coco.json"
    (RESULTS_DIR / name).write_text(json.dumps(report, indent=2))
    return 0 if identical in (None, True) else 1


if __name__ == "__main__":
    sys.exit(main())
