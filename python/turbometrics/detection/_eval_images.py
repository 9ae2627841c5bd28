"""``evalImgs`` and ``ious`` of an evaluation, built on access.

``COCOeval.evaluate()`` keeps only the match table; these sequences rebuild
pycocotools' per-block dicts and IoU matrices from the same C++ matching,
one (category, image) block at a time.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ._blocks import Blocks
from ._columns import Columns


class _BlockCache:
    """The last few blocks' full matchings (an evalImgs walk visits each
    block once per area range)."""

    def __init__(self, evaluation: Any, size: int = 64) -> None:
        self._evaluation = evaluation
        self._size = size
        self._blocks: OrderedDict[int, dict] = OrderedDict()

    def __call__(self, block: int) -> dict:
        found = self._blocks.get(block)
        if found is None:
            found = self._evaluation.block(block)
            self._blocks[block] = found
            if len(self._blocks) > self._size:
                self._blocks.popitem(last=False)
        else:
            self._blocks.move_to_end(block)
        return found


class EvaluatedImages(Sequence):
    """pycocotools' ``evalImgs``: one dict (or None) per (category, area
    range, image), category-major."""

    def __init__(self, evaluation: Any, blocks: Blocks, params: Any, gts: Columns, dts: Columns) -> None:
        self._evaluation = evaluation
        self._blocks = blocks
        self._params = params
        self._gts = gts
        self._dts = dts
        self._n_areas = len(params.areaRng)
        self._cache = _BlockCache(evaluation)

    def __len__(self) -> int:
        return self._blocks.n_categories * self._n_areas * self._blocks.n_images

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        index = int(index)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("list index out of range")
        n_images = self._blocks.n_images
        k, rest = divmod(index, self._n_areas * n_images)
        a, i = divmod(rest, n_images)
        block = k * n_images + i
        if not self._evaluation.block_present(block):
            return None
        return self._image(block, k, a, i)

    def __iter__(self) -> Iterator[Any]:
        for index in range(len(self)):
            yield self[index]

    def _image(self, block: int, k: int, a: int, i: int) -> dict:
        detail = self._cache(block)
        area = detail["areas"][a]
        p, gts, dts = self._params, self._gts, self._dts
        g0, g1 = self._blocks.gt_offsets[block], self._blocks.gt_offsets[block + 1]
        gt_cols = self._blocks.gt_members[g0:g1][area["gt_order"]]
        dt_cols = detail["detections"]
        matched, last = area["matched_gt"], area["last_dt"]
        dt_matches = np.where(matched >= 0, gts.id[gt_cols][np.maximum(matched, 0)] if len(gt_cols) else 0.0, 0.0)
        gt_matches = np.where(last >= 0, dts.id[dt_cols][np.maximum(last, 0)] if len(dt_cols) else 0.0, 0.0)
        n_gt = len(gt_cols)
        gt_ignore = (np.arange(n_gt) >= area["n_regular"]).astype(np.int64) if n_gt else np.array([])
        return {
            "image_id": p.imgIds[i],
            "category_id": self._blocks.category_ids[k],
            "aRng": p.areaRng[a],
            "maxDet": p.maxDets[-1],
            "dtIds": dts.ids_of(dt_cols),
            "gtIds": gts.ids_of(gt_cols),
            "dtMatches": dt_matches.astype(np.float64).reshape(matched.shape),
            "gtMatches": gt_matches.astype(np.float64).reshape(last.shape),
            "dtScores": dts.scores_of(dt_cols),
            "gtIgnore": gt_ignore,
            "dtIgnore": area["dt_ignored"],
        }


class IouMatrices(Mapping):
    """pycocotools' ``ious``: the IoU (or OKS) matrix of each (imgId, catId),
    detections (best first, cut to maxDets[-1]) by ground truths, or ``[]``
    where pycocotools has none."""

    def __init__(self, evaluation: Any, blocks: Blocks, params: Any) -> None:
        self._evaluation = evaluation
        self._blocks = blocks
        self._images = {img: i for i, img in enumerate(params.imgIds)}
        self._categories = {cat: k for k, cat in enumerate(blocks.category_ids)}
        self._image_ids = params.imgIds

    def __getitem__(self, key: tuple[Any, Any]) -> Any:
        img, cat = key
        if img not in self._images or cat not in self._categories:
            raise KeyError(key)
        block = self._categories[cat] * self._blocks.n_images + self._images[img]
        ious = self._evaluation.block(block)["ious"]
        return [] if ious is None else ious

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        return ((img, cat) for img in self._image_ids for cat in self._blocks.category_ids)

    def __len__(self) -> int:
        return len(self._image_ids) * len(self._blocks.category_ids)
