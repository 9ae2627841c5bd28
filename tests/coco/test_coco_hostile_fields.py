"""Hostile field values (null, strings, bools, negatives, NaN, infinities)
in every field pycocotools 2.0.11 reads, through ``COCO`` + ``loadRes`` +
``COCOeval`` evaluate / accumulate / summarize: turbometrics raises the
exception type pycocotools raises (naming the field) and otherwise gives its
numbers bit for bit, with results passed as a list and read from a file, and
ground truths set as a dict and read from a file.

Each case is one row of the table: (iou type, side, where, field, value).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest

from coco_helpers import fixture, quiet

pytest.importorskip("pycocotools")

from pycocotools.coco import COCO as ReferenceCOCO
from pycocotools.cocoeval import COCOeval as ReferenceCOCOeval

from turbometrics.coco import COCO, COCOeval

NAN, INF = float("nan"), float("inf")
VALUES = [None, "1", True, False, -1, 0, 1.5, NAN, INF, -INF]
DELETE = object()  # the key is removed


def _subset(dataset: dict, results: list[dict], n_images: int) -> tuple[dict, list[dict]]:
    images = sorted({r["image_id"] for r in results})[:n_images]
    dataset = copy.deepcopy(dataset)
    dataset["images"] = [i for i in dataset["images"] if i["id"] in images]
    dataset["annotations"] = [a for a in dataset["annotations"] if a["image_id"] in images]
    return dataset, [r for r in results if r["image_id"] in images]


INSTANCES = fixture("instances_val2014_100.json")
SETS = {
    "bbox": _subset(INSTANCES, fixture("instances_val2014_fakebbox100_results.json"), 6),
    "segm": _subset(INSTANCES, fixture("instances_val2014_fakesegm100_results.json"), 4),
    "keypoints": (fixture("keypoints_gt.json"), fixture("keypoints_dt.json")),
}

# (iou type, side, table, row, field, index within the field or None)
FIELDS = [
    ("bbox", "dt", None, 2, "image_id", None),
    ("bbox", "dt", None, 2, "category_id", None),
    ("bbox", "dt", None, 2, "score", None),
    ("bbox", "dt", None, 2, "bbox", 2),
    ("bbox", "dt", None, 2, "bbox", 0),
    ("segm", "dt", None, 2, "score", None),
    ("keypoints", "dt", None, 2, "score", None),
    ("keypoints", "dt", None, 2, "keypoints", 0),
    ("keypoints", "dt", None, 2, "keypoints", 2),
    ("bbox", "gt", "annotations", 2, "id", None),
    ("bbox", "gt", "annotations", 2, "image_id", None),
    ("bbox", "gt", "annotations", 2, "category_id", None),
    ("bbox", "gt", "annotations", 2, "area", None),
    ("bbox", "gt", "annotations", 2, "iscrowd", None),
    ("bbox", "gt", "annotations", 2, "ignore", None),
    ("bbox", "gt", "annotations", 5, "bbox", 2),
    ("segm", "gt", "annotations", 2, "iscrowd", None),
    ("segm", "gt", "annotations", 2, "area", None),
    ("keypoints", "gt", "annotations", 2, "num_keypoints", None),
    ("keypoints", "gt", "annotations", 2, "area", None),
    ("keypoints", "gt", "annotations", 2, "iscrowd", None),
    ("keypoints", "gt", "annotations", 2, "keypoints", 0),
    ("keypoints", "gt", "annotations", 2, "bbox", 2),
    ("segm", "gt", "annotations", 2, "segmentation", None),
    ("segm", "dt", None, 2, "segmentation", None),
    ("segm", "dt", None, 2, "category_id", None),
    ("segm", "gt", "images", 0, "width", None),
    ("segm", "gt", "images", 0, "height", None),
    ("bbox", "gt", "images", 0, "id", None),
    ("bbox", "gt", "categories", 0, "id", None),
]

#: Fields whose errors turbometrics words itself: the message names them.
NAMED = {"score", "area", "iscrowd", "bbox", "keypoints", "width", "height", "image_id"}

#: pycocotools rasterises a polygon at width 0 into counts covering more
#: pixels than the mask has and reads past them; turbometrics refuses such
#: counts (ValueError "malformed RLE"), see test_polygon_on_an_image_of_width_0.
KNOWN_GAP = ("segm", "images", "width")


def _known_gap(iou_type: str, table: Any, field: Any, value: Any) -> bool:
    return (iou_type, table, field) == KNOWN_GAP and isinstance(value, int) and value == 0  # 0 and False


def _cases() -> list[Any]:
    cases = []
    for iou_type, side, table, row, field, index in FIELDS:
        for value in VALUES:
            if _known_gap(iou_type, table, field, value):
                continue
            where = f"{table}[{row}]" if table else f"results[{row}]"
            label = f"{iou_type}:{where}.{field}" + (f"[{index}]" if index is not None else "") + f"={value!r}"
            cases.append(pytest.param(iou_type, side, table, row, field, index, value, id=label))
    for iou_type in ("bbox", "segm", "keypoints"):
        for field in ("image_id", "category_id", "score"):
            cases.append(pytest.param(iou_type, "dt", None, 3, field, None, DELETE, id=f"{iou_type}:del dt.{field}"))
    for key in ("images", "annotations", "categories"):
        cases.append(pytest.param("bbox", "gt", key, None, None, None, DELETE, id=f"bbox:del gt[{key!r}]"))
    return cases


def _mutated(iou_type: str, side: str, table: Any, row: Any, field: Any, index: Any, value: Any) -> tuple[dict, list]:
    dataset, results = copy.deepcopy(SETS[iou_type][0]), copy.deepcopy(SETS[iou_type][1])
    if side == "gt" and row is None:
        del dataset[table]
        return dataset, results
    target = dataset[table][row] if side == "gt" else results[row]
    if value is DELETE:
        del target[field]
    elif index is None:
        target[field] = value
    else:
        target[field][index] = value
    return dataset, results


def _outcome(
    coco_class: Any, eval_class: Any, dataset: dict, results: Any, iou_type: str, gt_path: Any = None
) -> tuple:
    """("ok", precision, recall, scores, stats) or ("raise", exception)."""
    try:

        def run() -> Any:
            if gt_path is None:
                gt = coco_class()
                gt.dataset = copy.deepcopy(dataset)
                gt.createIndex()
            else:
                gt = coco_class(str(gt_path))
            dt = gt.loadRes(results if isinstance(results, str) else copy.deepcopy(results))
            evaluation = eval_class(gt, dt, iou_type)
            evaluation.evaluate()
            evaluation.accumulate()
            evaluation.summarize()
            return evaluation

        evaluation = quiet(run)
    except Exception as error:  # noqa: BLE001 - the exception is the outcome
        return ("raise", error)
    return (
        "ok",
        evaluation.eval["precision"],
        evaluation.eval["recall"],
        evaluation.eval["scores"],
        np.array(evaluation.stats),
    )


def _assert_same(reference: tuple, ours: tuple, path: str, field: Any) -> None:
    if reference[0] == "raise":
        assert ours[0] == "raise", f"{path}: pycocotools raises {reference[1]!r}, turbometrics computes"
        expected, got = type(reference[1]), type(ours[1])
        # NumPy's UFuncTypeError is a TypeError: compare the standard types
        assert issubclass(expected, got) or issubclass(got, expected), f"{path}: {reference[1]!r} vs {ours[1]!r}"
        if field in NAMED and got is not KeyError:
            assert repr(field) in str(ours[1]) or field in str(ours[1]), f"{path}: {ours[1]!r} does not name {field}"
        return
    assert ours[0] == "ok", f"{path}: pycocotools computes, turbometrics raises {ours[1]!r}"
    for a, b, name in zip(reference[1:], ours[1:], ("precision", "recall", "scores", "stats")):
        assert a.shape == b.shape and np.array_equal(a, b, equal_nan=True), f"{path}: {name} differs"


@pytest.mark.filterwarnings("ignore:.*mask of another size")
# a negative or huge keypoint area overflows OKS's exp in pycocotools and in
# turbometrics alike (the same NumPy expression); the outcome is compared
@pytest.mark.filterwarnings("ignore:overflow encountered in exp:RuntimeWarning")
@pytest.mark.parametrize("iou_type, side, table, row, field, index, value", _cases())
def test_hostile_field_as_pycocotools(tmp_path, iou_type, side, table, row, field, index, value):
    dataset, results = _mutated(iou_type, side, table, row, field, index, value)
    reference = _outcome(ReferenceCOCO, ReferenceCOCOeval, dataset, results, iou_type)
    _assert_same(reference, _outcome(COCO, COCOeval, dataset, results, iou_type), "list", field)
    if side == "dt":
        path = tmp_path / "results.json"
        path.write_text(json.dumps(results))  # NaN and Infinity as Python's json writes them
        _assert_same(reference, _outcome(COCO, COCOeval, dataset, str(path), iou_type), "file", field)
    else:
        path = tmp_path / "gt.json"
        path.write_text(json.dumps(dataset))
        _assert_same(reference, _outcome(COCO, COCOeval, dataset, results, iou_type, gt_path=path), "file", field)


@pytest.mark.filterwarnings("ignore:.*mask of another size")
def test_polygon_on_an_image_of_width_0():
    dataset, results = _mutated("segm", "gt", "images", 0, "width", None, 0)
    outcome = _outcome(COCO, COCOeval, dataset, results, "segm")
    assert outcome[0] == "raise" and isinstance(outcome[1], ValueError) and "malformed RLE" in str(outcome[1])


def test_nan_score_from_a_list_and_from_a_file_agree(tmp_path):
    dataset, results = _mutated("bbox", "dt", None, 2, "score", None, NAN)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(results))
    from_list = _outcome(COCO, COCOeval, dataset, results, "bbox")
    from_file = _outcome(COCO, COCOeval, dataset, str(path), "bbox")
    assert from_list[0] == from_file[0] == "ok"
    _assert_same(from_list, from_file, "file", "score")


@pytest.mark.parametrize("key", ["images", "categories"])
def test_ground_truth_without_a_list_load_res_reads_says_so(key):
    dataset, results = _mutated("bbox", "gt", key, None, None, None, DELETE)
    outcome = _outcome(COCO, COCOeval, dataset, results, "bbox")
    assert isinstance(outcome[1], KeyError) and str(outcome[1]) == f"the ground truth has no '{key}'"
