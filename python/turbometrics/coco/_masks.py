"""Masks for segm evaluations: every annotation's segmentation as a
compressed RLE (pycocotools' ``annToRLE``), handed to the evaluation kernel
as one block of text that it decodes in parallel."""

from __future__ import annotations

import re
import warnings
from typing import Any, cast

import numpy as np

from ..detection import Columns, MissingFieldError, describe
from . import mask as mask_utils


def segmentation_to_rle(segmentation: Any, height: int, width: int) -> dict[str, Any]:
    """pycocotools' ``annToRLE``: polygons are rasterised and merged into
    one mask, uncompressed RLE is compressed, compressed RLE is returned as
    it is."""
    if type(segmentation) is list:
        return mask_utils.merge(cast(list[dict[str, Any]], mask_utils.frPyObjects(segmentation, height, width)))
    if type(segmentation["counts"]) is list:
        return cast(dict[str, Any], mask_utils.frPyObjects(segmentation, height, width))
    return segmentation


def _rasterised(segmentation: Any) -> bool:
    """Whether ``annToRLE`` needs the image's size (polygons, uncompressed
    RLE); compressed RLE keeps its own."""
    return type(segmentation) is list or (isinstance(segmentation, dict) and type(segmentation.get("counts")) is list)


def _image_size(image: dict, what: str) -> tuple[int, int]:
    """The image's ``(height, width)`` as pycocotools' mask functions take
    them, raising their error (TypeError for a string or None, ValueError
    for NaN, OverflowError for a negative or infinite value) with the field
    named."""
    size = []
    for key in ("height", "width"):
        value = image[key]
        try:
            size.append(mask_utils._siz(value))
        except (TypeError, ValueError, OverflowError) as error:
            raise type(error)(f"{what}: its image {image.get('id')!r} has {key} {value!r}: {error}") from None
    return size[0], size[1]


def _other_size(size: tuple[int, int], image: dict) -> bool:
    try:
        return _image_size(image, "") != size
    except (TypeError, ValueError, OverflowError, KeyError):
        return True


def _warn_sizes(kind: str, mismatched: list[str]) -> None:
    if mismatched:
        many = len(mismatched) > 1
        warnings.warn(
            f"{len(mismatched)} {kind}{'s have' if many else ' has'} a mask of another size than "
            f"{'their' if many else 'its'} image (first: "
            f"{mismatched[0]}); as in pycocotools, such masks are evaluated, the IoU of two overlapping "
            f"masks of different sizes being -1",
            stacklevel=6,
        )


def _side(columns: Columns, coco: Any, kind: str) -> tuple[bytes, np.ndarray, np.ndarray]:
    """Every annotation's compressed RLE counts, concatenated, their offsets
    and the masks' own sizes. As in pycocotools, a compressed RLE keeps its
    size even where its image has another (one warning per side)."""
    images = coco.imgs
    texts: list[bytes] = []
    sizes = np.zeros((len(columns), 2), dtype=np.int64)
    mismatched: list[str] = []
    for row, ann in enumerate(cast(list[dict], columns.annotations)):
        what = describe(kind, ann, row)
        if "segmentation" not in ann:
            raise MissingFieldError(f"{what} has no 'segmentation'")
        image = images.get(ann["image_id"])
        if image is None:
            raise ValueError(f"{what}: image {ann['image_id']!r} is not in the dataset")
        segmentation = ann["segmentation"]
        if _rasterised(segmentation):
            height, width = _image_size(image, what)
        else:
            height, width = image["height"], image["width"]
        try:
            rle = segmentation_to_rle(segmentation, height, width)
            size, counts = rle["size"], rle["counts"]
            size = (mask_utils._siz(size[0]), mask_utils._siz(size[1]))
        except TypeError as error:  # not a list or dict: pycocotools raises TypeError too
            raise TypeError(f"{what}: malformed segmentation: {error}") from None
        except Exception as error:  # pycocotools' own errors are bare Exceptions
            raise ValueError(f"{what}: malformed segmentation: {error}") from None
        if not _rasterised(segmentation) and _other_size(size, image):
            mismatched.append(
                f"{what}: the mask is {size[0]}x{size[1]} but its image {image.get('id')!r} is "
                f"{image.get('height')!r}x{image.get('width')!r}"
            )
        texts.append(counts if isinstance(counts, bytes) else str(counts).encode())
        sizes[row] = size
    _warn_sizes(kind, mismatched)
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
        raise ValueError(
            f"{describe(row, cast(list[dict], side.annotations)[index], index)}: malformed RLE: {found.group(3)}"
        ) from None
