"""Annotations selected for an evaluation, as NumPy columns.

pycocotools' ``COCOeval._prepare`` takes the ground truths and detections of
``params.imgIds`` (image by image in that order, each image's annotations in
file order), of ``params.catIds`` when ``useCats`` is set, through
``loadAnns(getAnnIds(...))`` (so a repeated id yields its last annotation).
``select`` does the same with sets and dict lookups; ``columns`` turns the
selection into arrays, checking the fields the evaluation reads and naming
the offending annotation when one is missing or malformed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..detection import NUMBER_TYPES, Columns, MissingFieldError, check_box, describe
from ._results_reader import PRESENT_SCORE


def select(coco: Any, img_ids: Sequence, cat_ids: Sequence | None) -> list[dict]:
    """The annotations of ``img_ids`` (and of ``cat_ids`` unless None), in
    pycocotools' order."""
    img_to_anns = coco.imgToAnns
    table = coco.anns
    if len(img_ids) == 0:
        selected = list(coco.dataset["annotations"])
    else:
        selected = []
        for img_id in img_ids:
            anns = img_to_anns.get(img_id)
            if anns:
                selected.extend(anns)
    if cat_ids is not None and len(cat_ids) != 0:
        wanted = set(cat_ids)
        selected = [ann for ann in selected if ann["category_id"] in wanted]
    return [table[ann["id"]] for ann in selected]


def _values(anns: list[dict], key: str, kind: str) -> list[Any]:
    try:
        return [ann[key] for ann in anns]
    except (KeyError, TypeError):
        for index, ann in enumerate(anns):
            if not isinstance(ann, dict) or key not in ann:
                raise MissingFieldError(f"{describe(kind, ann, index)} has no '{key}'") from None
        raise


def _floats(anns: list[dict], values: list[Any], key: str, kind: str) -> np.ndarray:
    try:
        array = np.asarray(values, dtype=np.float64)
        if array.ndim == 1:
            return array
    except (TypeError, ValueError):
        pass
    for index, value in enumerate(values):
        try:
            float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{describe(kind, anns[index], index)}: '{key}' must be a number, got {value!r}") from None
    raise ValueError(f"'{key}' values must be numbers")


def numbers(anns: list[dict], values: list[Any], key: str, kind: str) -> np.ndarray:
    """``values`` as float64, bools as 0 and 1. A value of another type
    (None, a string) raises TypeError naming the annotation, as
    pycocotools' arithmetic on it does (``-score``, ``area < bound``)."""
    if not set(map(type, values)).issubset((int, float)):
        for index, value in enumerate(values):
            if not isinstance(value, NUMBER_TYPES):
                raise TypeError(f"{describe(kind, anns[index], index)}: '{key}' must be a number, got {value!r}")
    return np.asarray(values, dtype=np.float64).reshape(len(values))


def _crowd_flags(anns: list[dict], values: list[Any], kind: str, iou_type: str) -> np.ndarray:
    """``int(iscrowd)`` of each ground truth, raising what ``int`` raises
    (TypeError, ValueError, OverflowError) with the annotation named; box and
    mask evaluations also need it to fit a uint8, as pycocotools' IoU does
    (OverflowError)."""
    flags = np.empty(len(values), dtype=np.int64)
    for index, value in enumerate(values):
        try:
            flags[index] = int(value)
        except (TypeError, ValueError, OverflowError) as error:
            raise type(error)(f"{describe(kind, anns[index], index)}: 'iscrowd' {value!r}: {error}") from None
    if iou_type != "keypoints":
        outside = np.flatnonzero((flags < 0) | (flags > 255))
        if len(outside):
            index = int(outside[0])
            raise OverflowError(
                f"{describe(kind, anns[index], index)}: 'iscrowd' {values[index]!r} is out of bounds for uint8"
            )
    return flags


def detection_columns(coco: Any, p: Any, cat_ids: Sequence | None) -> Columns:
    """The results to evaluate: straight from the columns of results that
    ``loadRes`` read from a file (box evaluations), else from the dicts."""
    held = getattr(coco, "_columns", None)
    if held is None or p.iouType != "bbox":
        return columns(select(coco, p.imgIds, cat_ids), ground_truth=False, iou_type=p.iouType)
    table = held.columns
    missing = np.flatnonzero((table.present & PRESENT_SCORE) == 0)  # a NaN score is a score, as in a list
    if len(missing):
        raise MissingFieldError(f"result {int(missing[0])} has no 'score'")
    n = table.n_rows
    return Columns(
        None,
        table.image_id,
        table.category_id,
        np.arange(1, n + 1, dtype=np.float64),
        held.area,
        score=table.score,
        boxes=table.bbox,
    )


def columns(anns: list[dict], *, ground_truth: bool, iou_type: str) -> Columns:
    """Columns of ``anns`` for an evaluation of ``iou_type``."""
    kind = "ground-truth annotation" if ground_truth else "result"
    image_id = _values(anns, "image_id", kind)
    category_id = _values(anns, "category_id", kind)
    ids = _floats(anns, _values(anns, "id", kind), "id", kind)
    area = numbers(anns, _values(anns, "area", kind), "area", kind)
    out = Columns(anns, image_id, category_id, ids, area)
    if ground_truth:
        crowd_values = _values(anns, "iscrowd", kind)
        out.crowd = (_crowd_flags(anns, crowd_values, kind, iou_type) != 0).astype(np.uint8)
        ignore = np.array([bool(c) for c in crowd_values], dtype=bool)
        if iou_type == "keypoints":
            ignore |= np.array([n == 0 for n in _values(anns, "num_keypoints", kind)], dtype=bool)
        out.ignore = ignore.astype(np.uint8)
    else:
        scores = _values(anns, "score", kind)
        out.score = numbers(anns, scores, "score", kind)
        out.bool_scores = not {bool, np.bool_}.isdisjoint(map(type, scores))
    if iou_type == "bbox":
        boxes = _values(anns, "bbox", kind)
        try:  # as pycocotools' IoU converts them: None is NaN, a numeric string its number
            array = np.asarray(boxes, dtype=np.float64)
            ok = array.shape == (len(anns), 4)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            for index, box in enumerate(boxes):
                check_box(box, describe(kind, anns[index], index))
        out.boxes = array.reshape(len(anns), 4)
    return out
