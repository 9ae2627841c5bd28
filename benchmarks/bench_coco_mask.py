#!/usr/bin/env python3
"""Benchmark turbometrics.coco.mask against pycocotools.mask on the COCO fixtures.

Data: the 100-image val2014 fixture (839 ground truths: polygons and crowd
RLEs) and its 734 fake segmentation results (tests/data/coco). For the
all-pairs IoU every mask is padded into a common 640 x 640 canvas, so that
every pair has the same size and overlapping pairs are walked run by run.

Cases (median of ``--repeats`` calls, same inputs, results checked equal):

* ``frPyObjects`` of every ground-truth polygon list, one call per
  annotation (what ``COCO.annToRLE`` does), then ``merge`` per annotation;
* ``encode`` and ``decode`` of 200 canvas masks (640 x 640 x 200 uint8);
* ``area`` and ``toBbox`` of the 1573 canvas RLEs;
* ``iou`` per image with crowd flags (what ``COCOeval.computeIoU`` does);
* ``iou`` of all 734 x 839 canvas RLE pairs, and of their 734 x 839 boxes.

Usage: ``python benchmarks/bench_coco_mask.py [--repeats 5] [--n-threads N]``.
Markdown goes to stdout, a JSON report to ``benchmarks/results/coco_mask.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from pathlib import Path

import numpy as np
from pycocotools import mask as P

import turbometrics as tm
from timing import timed
from turbometrics.coco import mask as T

ROOT = Path(__file__).resolve().parent.parent
DATA = [ROOT / "tests" / "data" / "coco", ROOT.parent / "shared" / "data" / "coco"]
RESULTS_DIR = Path(__file__).resolve().parent / "results"
CANVAS = 640


def load(name):
    for directory in DATA:
        if (directory / name).exists():
            return json.loads((directory / name).read_text())
    raise SystemExit(f"{name} not found in {DATA}")


def same(a, b):
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    return a == b


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--n-threads", type=int, default=None)
    args = parser.parse_args()
    threads = args.n_threads or tm.get_num_threads()

    gt = load("instances_val2014_100.json")
    dt = load("instances_val2014_fakesegm100_results.json")
    images = {image["id"]: image for image in gt["images"]}
    polygons = [
        (a["segmentation"], images[a["image_id"]]["height"], images[a["image_id"]]["width"])
        for a in gt["annotations"]
        if isinstance(a["segmentation"], list)
    ]

    def gt_rle(a):
        image = images[a["image_id"]]
        segm = a["segmentation"]
        if isinstance(segm, list):
            return P.merge(P.frPyObjects(segm, image["height"], image["width"]))
        return P.frPyObjects(segm, image["height"], image["width"])

    gt_rles = {a["id"]: gt_rle(a) for a in gt["annotations"]}
    per_image = {}
    for a in gt["annotations"]:
        entry = per_image.setdefault(a["image_id"], ([], [], []))
        entry[1].append(gt_rles[a["id"]])
        entry[2].append(a["iscrowd"])
    for d in dt:
        per_image.setdefault(d["image_id"], ([], [], []))[0].append(d["segmentation"])
    per_image = [v for v in per_image.values() if v[0] and v[1]]

    def canvas(rle):
        mask = P.decode(rle)
        out = np.zeros((CANVAS, CANVAS), np.uint8, order="F")
        out[: mask.shape[0], : mask.shape[1]] = mask[:CANVAS, :CANVAS]
        return P.encode(out)

    canvas_gt = [canvas(r) for r in gt_rles.values()]
    canvas_dt = [canvas(d["segmentation"]) for d in dt]
    crowd_all = [a["iscrowd"] for a in gt["annotations"]]
    stack = np.asfortranarray(np.stack([P.decode(r) for r in canvas_gt[:200]], axis=2))
    stack_rles = P.encode(stack)
    all_rles = canvas_dt + canvas_gt
    dt_boxes, gt_boxes = P.toBbox(canvas_dt), P.toBbox(canvas_gt)

    def area_in_chunks(rles):  # pycocotools' area fails for more than 255 RLEs with NumPy 2
        return np.concatenate([P.area(rles[i : i + 255]) for i in range(0, len(rles), 255)])

    def iou_per_image(M, **kw):
        return [M.iou(d, g, c, **kw) for d, g, c in per_image]

    cases = [
        (
            "frPyObjects + merge, 839 annotations",
            lambda: [P.merge(P.frPyObjects(s, h, w)) for s, h, w in polygons],
            lambda: [T.merge(T.frPyObjects(s, h, w)) for s, h, w in polygons],
        ),
        ("encode 640x640x200", lambda: P.encode(stack), lambda: T.encode(stack, n_threads=threads)),
        ("decode 200 of 640x640", lambda: P.decode(stack_rles), lambda: T.decode(stack_rles, n_threads=threads)),
        ("area, 1573 RLEs", lambda: area_in_chunks(all_rles), lambda: T.area(all_rles)),
        ("toBbox, 1573 RLEs", lambda: P.toBbox(all_rles), lambda: T.toBbox(all_rles)),
        (
            f"iou per image ({len(per_image)} images), 1 thread",
            lambda: iou_per_image(P),
            lambda: iou_per_image(T, n_threads=1),
        ),
        (
            "iou RLE 734x839 (640x640), 1 thread",
            lambda: P.iou(canvas_dt, canvas_gt, crowd_all),
            lambda: T.iou(canvas_dt, canvas_gt, crowd_all, n_threads=1),
        ),
        (
            f"iou RLE 734x839 (640x640), {threads} threads",
            lambda: P.iou(canvas_dt, canvas_gt, crowd_all),
            lambda: T.iou(canvas_dt, canvas_gt, crowd_all, n_threads=threads),
        ),
        (
            "iou boxes 734x839, 1 thread",
            lambda: P.iou(dt_boxes, gt_boxes, crowd_all),
            lambda: T.iou(dt_boxes, gt_boxes, crowd_all, n_threads=1),
        ),
    ]
    rows = []
    for name, reference, ours in cases:
        ours()  # warm-up
        t_ours, v_ours = timed(ours, args.repeats)
        t_ref, v_ref = timed(reference, args.repeats)
        if isinstance(v_ref, list) and v_ref and isinstance(v_ref[0], np.ndarray):
            agree = all(same(a, b) for a, b in zip(v_ref, v_ours))
        else:
            agree = same(v_ref, v_ours)
        rows.append(
            {
                "case": name,
                "pycocotools_s": t_ref,
                "turbometrics_s": t_ours,
                "speedup": t_ref / t_ours,
                "agree": bool(agree),
            }
        )
    load_average = os.getloadavg()[0]
    print(
        f"threads={threads}, load average (1 min) = {load_average:.2f}, cpus={os.cpu_count()}, repeats={args.repeats}"
    )
    print()
    print("| case | pycocotools 2.0.11 | turbometrics | speedup |")
    print("|---|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['case']} | {r['pycocotools_s'] * 1e3:.2f} ms | {r['turbometrics_s'] * 1e3:.2f} ms | "
            f"{r['speedup']:.1f}x{'' if r['agree'] else ' (MISMATCH)'} |"
        )
    RESULTS_DIR.mkdir(exist_ok=True)
    report = {
        "rows": rows,
        "threads": threads,
        "load_average": os.getloadavg(),
        "machine": platform.platform(),
        "numpy": np.__version__,
        "turbometrics": tm.__version__,
    }
    (RESULTS_DIR / "coco_mask.json").write_text(json.dumps(report, indent=2))
    return 0 if all(r["agree"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
