"""``COCO.loadRes``: reading detection results and completing them as
pycocotools does (ids 1..N, area, box or segmentation, iscrowd)."""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..detection import MissingFieldError, check_box, describe
from . import _json

if TYPE_CHECKING:  # pragma: no cover
    from ._coco import COCO


def ground_truth_list(gt: COCO, key: str) -> list[dict]:
    """``gt.dataset[key]``; MissingFieldError (a KeyError, as pycocotools
    raises) saying so when the ground truth has no such list."""
    try:
        return gt.dataset[key]
    except KeyError:
        raise MissingFieldError(f"the ground truth has no '{key}'") from None


_WHITESPACE = re.compile(r"[ \t\n\r]*")  # what JSON allows between tokens (json.decoder's own)


def _after_space(text: str, index: int) -> int:
    """The index of the first character at or after ``index`` that is not JSON whitespace."""
    match = _WHITESPACE.match(text, index)
    return index if match is None else match.end()


def loads_results(data: bytes) -> Any:
    """``json.loads(data)`` for a results file, interruptible.

    The standard library parses a whole text in C without checking for
    signals: Ctrl-C waited seconds on a large file (about 5 s for 190 MB of
    masks). Here a JSON array is parsed one element at a time, by the same
    decoder, so Ctrl-C (KeyboardInterrupt) stops it between two results.
    The objects are those of ``json.loads``; for malformed text the error
    is ``json.loads``' own (the whole text is parsed again to raise it).
    With orjson installed, orjson parses the whole text (several times
    faster, so the wait is shorter too).
    """
    if _has_orjson() or not isinstance(data, (bytes, bytearray)):
        return _json.loads(data)
    text = data.decode(json.detect_encoding(data), "surrogatepass")
    index = _after_space(text, 0)
    if not text.startswith("[", index):
        return json.loads(text)
    decoder = json.JSONDecoder()
    values: list[Any] = []
    try:
        index = _after_space(text, index + 1)
        end = text.startswith("]", index)
        while not end:
            value, index = decoder.raw_decode(text, index)
            values.append(value)
            index = _after_space(text, index)
            end = text.startswith("]", index)
            if not end and not text.startswith(",", index):
                raise ValueError("neither ',' nor ']'")
            index = _after_space(text, index + 1) if not end else index
        if _after_space(text, index + 1) != len(text):
            raise ValueError("extra data")
    except ValueError:  # malformed (JSONDecodeError included): json.loads' error for the whole text
        return json.loads(text)
    return values


def _has_orjson() -> bool:
    try:
        import orjson  # noqa: F401
    except ImportError:
        return False
    return True


def _read(gt: COCO, resFile: Any) -> list[dict]:
    if isinstance(resFile, bytes):
        return loads_results(resFile)
    if type(resFile) is np.ndarray:
        return gt.loadNumpyAnnotations(resFile)
    return resFile


def _check_images(gt: COCO, anns: list[dict]) -> None:
    images = gt.imgs
    for index, ann in enumerate(anns):
        if type(ann) is not dict:
            raise ValueError(f"result {index} is not an object: {ann!r}")
        if "image_id" not in ann:
            raise MissingFieldError(f"{describe('result', ann, index)} has no 'image_id'")
        try:
            known = ann["image_id"] in images
        except TypeError:  # unhashable: a list or an object
            raise TypeError(
                f"{describe('result', ann, index)}: 'image_id' must be an image id (a number), got {ann['image_id']!r}"
            ) from None
        if not known:
            raise AssertionError(
                "Results do not correspond to current coco set: "
                f"{describe('result', ann, index)} has image_id {ann['image_id']!r}, "
                "which is not an image of the ground truth"
            )


def _require(ann: dict, index: int, key: str) -> Any:
    if key not in ann:
        raise MissingFieldError(f"{describe('result', ann, index)} has no '{key}'")
    return ann[key]


def _complete_boxes(anns: list[dict]) -> None:
    for index, ann in enumerate(anns):
        box = _require(ann, index, "bbox")
        check_box(box, describe("result", ann, index))
        _require(ann, index, "category_id")
        x1, x2, y1, y2 = box[0], box[0] + box[2], box[1], box[1] + box[3]
        if "segmentation" not in ann:
            ann["segmentation"] = [[x1, y1, x1, y2, x2, y2, x2, y1]]
        ann["area"] = box[2] * box[3]
        ann["id"] = index + 1
        ann["iscrowd"] = 0


def _complete_masks(anns: list[dict]) -> None:
    from . import mask as mask_utils

    for index, ann in enumerate(anns):
        segmentation = _require(ann, index, "segmentation")
        _require(ann, index, "category_id")
        try:
            ann["area"] = mask_utils.area(segmentation)
            if "bbox" not in ann:
                ann["bbox"] = mask_utils.toBbox(segmentation)
        except TypeError as error:  # pycocotools raises TypeError too
            raise TypeError(f"{describe('result', ann, index)}: malformed segmentation: {error}") from None
        except (ValueError, KeyError) as error:
            raise ValueError(f"{describe('result', ann, index)}: malformed segmentation: {error}") from None
        ann["id"] = index + 1
        ann["iscrowd"] = 0


def _complete_keypoints(anns: list[dict]) -> None:
    for index, ann in enumerate(anns):
        points = _require(ann, index, "keypoints")
        _require(ann, index, "category_id")
        if not isinstance(points, list) or len(points) < 3:
            raise ValueError(f"{describe('result', ann, index)}: 'keypoints' must be a list of x, y, v triples")
        x, y = points[0::3], points[1::3]
        x0, x1, y0, y1 = np.min(x), np.max(x), np.min(y), np.max(y)
        ann["area"] = (x1 - x0) * (y1 - y0)
        ann["id"] = index + 1
        ann["bbox"] = [x0, y0, x1 - x0, y1 - y0]


def _first_missing(columns: Any, bit: int) -> int:
    return int(np.flatnonzero((columns.present & bit) == 0)[0])


def _columnar_boxes(gt: COCO, res: COCO, data: bytes) -> bool:
    """Load box results straight from the file's columns, leaving the dicts
    to be built when asked for. Returns False (nothing done) when the file
    is not a plain list of box results the columns hold exactly."""
    from . import _results_reader as reader

    try:
        columns = reader.read_results_file(data)
    except ValueError:
        return False  # malformed JSON, or a bbox the columns cannot hold: the general reader tells which
    n = columns.n_rows
    if n == 0 or (columns.present & reader.PRESENT_UNSTORED).any():
        return False
    first = int(columns.present[0])
    if first & reader.PRESENT_EXTRA_KEY or not first & reader.PRESENT_BBOX or first & reader.PRESENT_BBOX_EMPTY:
        return False  # captions, segmentation or keypoint results: the dict path
    for bit, key in (
        (reader.PRESENT_IMAGE_ID, "image_id"),
        (reader.PRESENT_BBOX, "bbox"),
        (reader.PRESENT_CATEGORY_ID, "category_id"),
    ):
        if not (columns.present & bit).all():
            raise MissingFieldError(f"result {_first_missing(columns, bit)} has no '{key}'")
    image_ids = (
        np.fromiter(gt.imgs.keys(), dtype=np.int64, count=len(gt.imgs))
        if all(type(i) is int for i in gt.imgs)
        else None
    )
    if image_ids is None:
        return False
    unknown = np.flatnonzero(~np.isin(columns.image_id, image_ids))
    if len(unknown):
        row = int(unknown[0])
        raise AssertionError(
            "Results do not correspond to current coco set: "
            f"result {row} has image_id {int(columns.image_id[row])}, which is not an image of the ground truth"
        )
    boxes = columns.bbox
    empty = np.flatnonzero((columns.present & reader.PRESENT_BBOX_EMPTY) != 0)
    if len(empty):
        raise ValueError(f"result {int(empty[0])}: 'bbox' must be a list of 4 numbers [x, y, w, h], got []")
    res._dataset["categories"] = copy.deepcopy(ground_truth_list(gt, "categories"))
    res._columns = ResultColumns(columns, boxes[:, 2] * boxes[:, 3])

    def materialize() -> list[dict]:
        anns = loads_results(data)
        _complete_boxes(anns)
        return anns

    res._materialize = materialize
    res._dataset["annotations"] = []
    res.createIndex()
    return True


class ResultColumns:
    """Box results held as columns (ids 1..N, area w * h, iscrowd 0)."""

    def __init__(self, columns: Any, area: np.ndarray) -> None:
        self.columns = columns
        self.area = area

    def __len__(self) -> int:
        return self.columns.n_rows


def load_results(gt: COCO, res: COCO, resFile: Any) -> None:
    """Fill the empty results dataset ``res`` (whose ``images`` are set)
    from ``resFile``, with pycocotools' semantics. A file of box results is
    read into columns by the compiled reader; its dicts are built only when
    asked for."""
    if isinstance(resFile, (str, os.PathLike)):
        data = Path(resFile).read_bytes()
        if _columnar_boxes(gt, res, data):
            return
        resFile = data
    anns = _read(gt, resFile)
    assert type(anns) is list, "results in not an array of objects"
    _check_images(gt, anns)
    dataset = res._dataset
    if anns:
        first = anns[0]
        if "caption" in first:
            with_captions = {ann["image_id"] for ann in anns}
            dataset["images"] = [img for img in dataset["images"] if img["id"] in with_captions]
            for index, ann in enumerate(anns):
                ann["id"] = index + 1
        else:
            dataset["categories"] = copy.deepcopy(ground_truth_list(gt, "categories"))
            if "bbox" in first and first["bbox"] != []:
                _complete_boxes(anns)
            elif "segmentation" in first:
                _complete_masks(anns)
            elif "keypoints" in first:
                _complete_keypoints(anns)
    else:
        dataset["categories"] = copy.deepcopy(gt.dataset.get("categories", []))
    dataset["annotations"] = anns
    res.createIndex()
