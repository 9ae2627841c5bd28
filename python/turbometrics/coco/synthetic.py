"""A synthetic COCO detection set: the detection benchmarks' data and the
``turbometrics coco`` command's built-in example.

``make_coco_set`` builds, with a fixed seed:

* a ground-truth dataset of ``n_images`` images (640 to 480 pixels wide or
  high) and ``n_categories`` categories, with about ``gts_per_image``
  annotations per image (Poisson), about ``crowd_fraction`` of them crowd.
  Each annotation has a box, a quadrilateral polygon inside the box, and an
  ``area`` field of 50 to 95 % of the box (as real mask areas are);
* ``dets_per_image`` detections per image: for each ground truth a few
  jittered boxes (mostly of the right category), the rest random boxes in
  random categories, with scores rounded to 3 decimals (so there are many
  ties, within and across images).

``write_coco_set(directory, ...)`` writes ``gt.json`` and ``results.json``
and returns their paths.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np


def _box_polygon(box: np.ndarray) -> list[float]:
    x, y, w, h = (float(v) for v in box)
    return [x + 0.1 * w, y, x + w, y + 0.3 * h, x + 0.8 * w, y + h, x, y + 0.7 * h]


def _round(values: np.ndarray, decimals: int = 2) -> list[float]:
    return [round(float(v), decimals) for v in values]


def make_coco_set(
    n_images: int = 5000,
    n_categories: int = 80,
    gts_per_image: float = 7.0,
    crowd_fraction: float = 0.01,
    dets_per_image: int = 100,
    seed: int = 0,
) -> tuple[dict, list[dict]]:
    """Return ``(ground_truth_dataset, results)`` as JSON-ready objects."""
    rng = np.random.default_rng(seed)
    categories = [{"id": c + 1, "name": f"category{c + 1}", "supercategory": "thing"} for c in range(n_categories)]
    images, annotations, results = [], [], []
    next_id = 1
    for image_id in range(1, n_images + 1):
        width, height = (640, 480) if rng.random() < 0.5 else (480, 640)
        images.append({"id": image_id, "width": width, "height": height, "file_name": f"{image_id:012d}.jpg"})
        n_gts = rng.poisson(gts_per_image)
        sizes = np.exp(rng.uniform(np.log(4), np.log(400), size=(n_gts, 2)))
        w = np.minimum(sizes[:, 0], width - 1)
        h = np.minimum(sizes[:, 1], height - 1)
        x = rng.uniform(0, width - w)
        y = rng.uniform(0, height - h)
        gt_boxes = np.stack([x, y, w, h], axis=1)
        gt_cats = rng.integers(1, n_categories + 1, size=n_gts)
        crowd = rng.random(n_gts) < crowd_fraction
        for box, cat, is_crowd in zip(gt_boxes, gt_cats, crowd):
            box = np.round(box, 2)
            annotations.append(
                {
                    "id": next_id,
                    "image_id": image_id,
                    "category_id": int(cat),
                    "bbox": _round(box),
                    "area": round(float(box[2] * box[3] * rng.uniform(0.5, 0.95)), 2),
                    "iscrowd": int(is_crowd),
                    "segmentation": [_round(np.array(_box_polygon(box)))],
                }
            )
            next_id += 1
        # detections: 0-3 jittered copies of each gt, the rest random
        copies = rng.integers(0, 4, size=n_gts)
        boxes, cats = [], []
        for box, cat, n_copies in zip(gt_boxes, gt_cats, copies):
            for _ in range(n_copies):
                jitter = rng.normal(0, 0.1, size=4) * np.array([box[2], box[3], box[2], box[3]])
                boxes.append(np.maximum(box + jitter, [0, 0, 1, 1]))
                cats.append(int(cat) if rng.random() < 0.8 else int(rng.integers(1, n_categories + 1)))
        n_random = max(dets_per_image - len(boxes), 0)
        sizes = np.exp(rng.uniform(np.log(4), np.log(300), size=(n_random, 2)))
        rx = rng.uniform(0, width - np.minimum(sizes[:, 0], width - 1))
        ry = rng.uniform(0, height - np.minimum(sizes[:, 1], height - 1))
        for i in range(n_random):
            boxes.append(np.array([rx[i], ry[i], sizes[i, 0], sizes[i, 1]]))
            cats.append(int(rng.integers(1, n_categories + 1)))
        scores = np.round(rng.beta(2, 5, size=len(boxes)), 3)
        for box, cat, score in zip(boxes[:dets_per_image], cats, scores):
            results.append({"image_id": image_id, "category_id": cat, "bbox": _round(box), "score": float(score)})
    dataset = {
        "info": {"description": "turbometrics synthetic COCO set"},
        "images": images,
        "annotations": annotations,
        "categories": categories,
    }
    return dataset, results


def write_coco_set(directory: Path, **kwargs: Any) -> tuple[Path, Path]:
    """Write ``gt.json`` and ``results.json`` into ``directory``."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    dataset, results = make_coco_set(**kwargs)
    gt_path, results_path = directory / "gt.json", directory / "results.json"
    gt_path.write_text(json.dumps(dataset))
    results_path.write_text(json.dumps(results))
    return gt_path, results_path


def to_detection_batches(dataset: dict, results: list[dict]) -> tuple[list[dict], list[dict]]:
    """``make_coco_set``'s output as per-image ``(predictions, targets)`` in
    the layout of ``torchmetrics.detection.MeanAveragePrecision`` (boxes
    ``xyxy``), NumPy arrays (``torch.from_numpy`` makes tensors of them).

    predictions[i]: ``boxes`` (n, 4) float64, ``scores`` (n,), ``labels``
    (n,) int64; targets[i]: ``boxes``, ``labels``, ``iscrowd`` (m,) int64.
    """

    def xyxy(boxes: list[list[float]]) -> np.ndarray:
        array = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
        return np.concatenate([array[:, :2], array[:, :2] + array[:, 2:]], axis=1)

    index = {image["id"]: i for i, image in enumerate(dataset["images"])}
    grouped_gts: list[list[dict]] = [[] for _ in index]
    grouped_dts: list[list[dict]] = [[] for _ in index]
    for annotation in dataset["annotations"]:
        grouped_gts[index[annotation["image_id"]]].append(annotation)
    for result in results:
        grouped_dts[index[result["image_id"]]].append(result)
    predictions = [
        {
            "boxes": xyxy([d["bbox"] for d in dts]),
            "scores": np.asarray([d["score"] for d in dts], dtype=np.float64),
            "labels": np.asarray([d["category_id"] for d in dts], dtype=np.int64),
        }
        for dts in grouped_dts
    ]
    targets = [
        {
            "boxes": xyxy([g["bbox"] for g in gts]),
            "labels": np.asarray([g["category_id"] for g in gts], dtype=np.int64),
            "iscrowd": np.asarray([g["iscrowd"] for g in gts], dtype=np.int64),
        }
        for gts in grouped_gts
    ]
    return predictions, targets
