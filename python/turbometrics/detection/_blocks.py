"""Grouping annotations into the evaluation's (category, image) blocks.

Block ``k * n_images + i`` holds category ``k`` of ``catIds`` (or every
category when ``useCats`` is 0, as the single block row ``k = 0``) on image
``i`` of ``imgIds``. Within a block, annotations keep the order pycocotools
gives them: file order, and with ``useCats = 0`` category by category in the
order of ``catIds`` (a category listed twice contributes its annotations
twice, as in pycocotools).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from ._columns import Columns


@dataclass
class Blocks:
    n_images: int
    n_categories: int  # block rows: len(catIds), or 1 when useCats is 0
    category_ids: list[Any]  # the block rows' category ids (-1 when useCats is 0)
    gt_offsets: np.ndarray
    gt_members: np.ndarray
    dt_offsets: np.ndarray
    dt_members: np.ndarray

    @property
    def n_blocks(self) -> int:
        return self.n_images * self.n_categories


def _positions(values: Sequence[Any], ids: Sequence[Any]) -> np.ndarray:
    """The position of each value in ``ids`` (which has no repeats), -1 where
    absent; vectorised when both are integers."""
    keys = np.asarray(ids)
    found = values if isinstance(values, np.ndarray) else np.asarray(values)
    if len(keys) and keys.dtype.kind in "iu" and found.dtype.kind in "iu" and found.ndim == 1:
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
        at = np.minimum(np.searchsorted(ordered, found), len(ordered) - 1)
        return np.where(ordered[at] == found, order[at], -1).astype(np.int64)
    index = {v: i for i, v in enumerate(ids)}
    return np.fromiter((index.get(v, -1) for v in values), dtype=np.int64, count=len(values))


def _group(columns: np.ndarray, keys: np.ndarray, n_keys: int, stride: int) -> tuple[np.ndarray, np.ndarray]:
    offsets, members = _core.detection.group_by_key(keys, n_keys)
    return np.ascontiguousarray(offsets[::stride]), columns[members]


def _side(side: Columns, p: Any) -> tuple[np.ndarray, np.ndarray]:
    n_images = len(p.imgIds)
    image_pos = _positions(side.image_id, p.imgIds)
    if p.useCats:
        category_pos = _positions(side.category_id, p.catIds)
        keys = np.where((image_pos >= 0) & (category_pos >= 0), category_pos * n_images + image_pos, -1)
        return _group(np.arange(len(side), dtype=np.int64), keys, len(p.catIds) * n_images, 1)
    # useCats = 0: one block per image, ordered by the categories' places in catIds
    places: dict[Any, list[int]] = {}
    for k, c in enumerate(p.catIds):
        places.setdefault(c, []).append(k)
    n_places = max(len(p.catIds), 1)
    if all(len(ks) == 1 for ks in places.values()):
        category_pos = _positions(side.category_id, list(places))
        keys = np.where((image_pos >= 0) & (category_pos >= 0), image_pos * n_places + category_pos, -1)
        return _group(np.arange(len(side), dtype=np.int64), keys, n_images * n_places, n_places)
    cols: list[int] = []
    keys_list: list[int] = []
    for col, (img, cat) in enumerate(zip(image_pos.tolist(), side.category_id)):
        if img < 0:
            continue
        for k in places.get(cat, ()):
            cols.append(col)
            keys_list.append(img * n_places + k)
    return _group(
        np.asarray(cols, dtype=np.int64), np.asarray(keys_list, dtype=np.int64), n_images * n_places, n_places
    )


def assign_blocks(gts: Columns, dts: Columns, p: Any) -> Blocks:
    """The blocks of an evaluation with parameters ``p`` (after evaluate()
    has made imgIds and catIds unique)."""
    gt_offsets, gt_members = _side(gts, p)
    dt_offsets, dt_members = _side(dts, p)
    category_ids = list(p.catIds) if p.useCats else [-1]
    return Blocks(len(p.imgIds), len(category_ids), category_ids, gt_offsets, gt_members, dt_offsets, dt_members)
