#!/usr/bin/env python3
"""Benchmark reading a COCO detection results JSON file, in one process.

Times (medians) ``turbometrics.coco._results_reader.read_results_file`` on
the synthetic results file of ``turbometrics.coco.synthetic`` (500,000 detections,
about 47 MB), the standard library's ``json.load`` of the same file, the
list path ``results_from_dicts`` on the loaded objects, and pycocotools'
``COCO(gt)`` followed by ``loadRes(path)`` when pycocotools is installed.
It checks that the file reader and the list path give the same columns.

Usage: ``python benchmarks/bench_coco_json.py [--directory /tmp/cocojson]
[--repeats 5] [--pycocotools-repeats 3]``. The files are written when
missing. Markdown goes to stdout, a JSON report to
``benchmarks/results/coco_json.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
from pathlib import Path

import numpy as np

from timing import timed
from turbometrics.coco._results_reader import read_results_file, results_from_dicts
from turbometrics.coco.synthetic import write_coco_set

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def same_columns(a, b) -> bool:
    for name in a.__dataclass_fields__:
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            if x.dtype != y.dtype or x.shape != y.shape or x.tobytes() != y.tobytes():
                return False
        elif x != y:
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--directory", default="/tmp/cocojson")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pycocotools-repeats", type=int, default=3)
    args = parser.parse_args()

    directory = Path(args.directory)
    gt_path, results_path = directory / "gt.json", directory / "results.json"
    if not (gt_path.exists() and results_path.exists()):
        gt_path, results_path = write_coco_set(directory)
    size_mb = results_path.stat().st_size / 1e6

    rows = []
    t_reader, columns = timed(lambda: read_results_file(results_path), args.repeats)
    rows.append(("turbometrics read_results_file(path)", t_reader))

    def load():
        with open(results_path) as f:
            return json.load(f)

    t_json, loaded = timed(load, args.repeats)
    rows.append(("json.load(open(path))", t_json))
    t_dicts, from_dicts = timed(lambda data=loaded: results_from_dicts(data), args.repeats)
    rows.append(("turbometrics results_from_dicts(loaded list)", t_dicts))
    agree = same_columns(columns, from_dicts)
    del loaded, from_dicts

    try:
        from pycocotools.coco import COCO
    except ImportError:
        COCO = None
    if COCO is not None:

        def coco_gt():
            with contextlib.redirect_stdout(io.StringIO()):
                return COCO(str(gt_path))

        def coco_gt_and_results():
            with contextlib.redirect_stdout(io.StringIO()):
                gt = COCO(str(gt_path))
                return gt.loadRes(str(results_path))

        t_gt, _ = timed(coco_gt, args.pycocotools_repeats)
        rows.append(("pycocotools COCO(gt)", t_gt))
        t_coco, _ = timed(coco_gt_and_results, args.pycocotools_repeats)
        rows.append(("pycocotools COCO(gt) + loadRes(path)", t_coco))

    print(
        f"results file: {results_path} ({size_mb:.1f} MB, {columns.n_rows} rows); "
        f"load average {os.getloadavg()[0]:.2f}\n"
    )
    print("| what | median (s) | vs read_results_file |")
    print("| --- | ---: | ---: |")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.3f} | {seconds / t_reader:.1f}x |")
    print(f"\nfile reader and list path agree: {agree}")

    RESULTS_DIR.mkdir(exist_ok=True)
    report = {
        "file": str(results_path),
        "megabytes": size_mb,
        "rows": columns.n_rows,
        "timings": {name: seconds for name, seconds in rows},
        "agree": agree,
        "repeats": args.repeats,
        "pycocotools_repeats": args.pycocotools_repeats,
        "machine": platform.platform(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "load_average": os.getloadavg()[0],
    }
    (RESULTS_DIR / "coco_json.json").write_text(json.dumps(report, indent=2))
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
