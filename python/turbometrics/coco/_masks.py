"""Masks for segm evaluations: every annotation's segmentation as a
compressed RLE (pycocotools' ``annToRLE``), handed to the evaluation kernel
as one block of text that it decodes in parallel."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Tuple

import numpy as np

from . import mask as mask_utils
from ._annotations import Columns
from ._describe import describe


def segmentation_to_rle(segmentation: Any, height: int, width: int) -> Dict[str, Any]:
    """pycocotools' ``annToRLE``: polygons are rasterised and merged into
    one mask, uncompressed RLE is compressed, compressed RLE is returned as
    it is."""
    if type(segmentation) == list:
        return mask_utils.merge(mask_utils.frPyObjects(segmentation, height, width))
    if type(segmentation["counts"]) == list:
        return mask_utils.frPyObjects(segmentation, height, width)
    return segmentation


def _side(columns: Columns, coco: Any, kind: str) -> Tuple[bytes, np.ndarray, np.ndarray]:
    images = coco.imgs
    texts: List[bytes] = []
    sizes = np.zeros((len(columns), 2), dtype=np.int64)
    for row, ann in enumerate(columns.annotations):
        what = describe(kind, ann, row)
        if "segmentation" not in ann:
            raise ValueError(f"{what} has no 'segmentation'")
        image = images.get(ann["image_id"])
        if image is None:
            raise ValueError(f"{what}: image {ann['image_id']!r} is not in the dataset")
        height, width = image["height"], image["width"]
        try:
            rle = segmentation_to_rle(ann["segmentation"], height, width)
            size, counts = rle["size"], rle["counts"]
        except Exception as error:  # pycocotools' own errors are bare Exceptions
            raise ValueError(f"{what}: malformed segmentation: {error}") from None
        if [int(size[0]), int(size[1])] != [height, width]:
            raise ValueError(f"{what}: the mask is {size[0]}x{size[1]} but its image is {height}x{width}")
        texts.append(counts if isinstance(counts, bytes) else str(counts).encode())
        sizes[row] = height, width
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in texts], out=offsets[1:])
    return b"".join(texts), offsets, sizes


def attach_masks(evaluation: Any, gts: Columns, dts: Columns, coco_gt: Any, coco_dt: Any, n_threads: int) -> None:
    """Give ``evaluation`` the masks of both sides."""
    dt_side = _side(dts, coco_dt, "result")
    gt_side = _side(gts, coco_gt, "ground-truth annotation")
    try:
        evaluation.use_masks(*dt_side, *gt_side, n_threads)
    except ValueError as error:
        found = re.match(r"(detection|ground-truth) masks: mask (\d+): (.*)", str(error), re.S)
        if not found:
            raise
        side, row = (dts, "result") if found.group(1) == "detection" else (gts, "ground-truth annotation")
        index = int(found.group(2))
        raise ValueError(f"{describe(row, side.annotations[index], index)}: malformed RLE: {found.group(3)}") from None
