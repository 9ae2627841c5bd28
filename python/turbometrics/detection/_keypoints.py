"""Object keypoint similarity (OKS), with pycocotools' arithmetic.

For a ground truth g with keypoints (xg, yg, vg), area a and box (x, y, w, h),
and a detection with keypoints (xd, yd):

* if some vg > 0: dx = xd - xg, dy = yd - yg over the visible keypoints;
* else the distance to the box grown by its size on every side:
  dx = max(0, x - w - xd) + max(0, xd - (x + 2w)), likewise dy, over all;
* e = (dx^2 + dy^2) / (2 sigma)^2 / (a + spacing(1)) / 2, and
  OKS = sum(exp(-e)) / len(e).

NumPy evaluates it, vectorised over the detections of a block, so exp rounds
exactly as in pycocotools; the sum over keypoints repeats, column by column,
the order of NumPy's pairwise summation of one row (``np.sum`` along an axis
of a matrix would add in another order). As in pycocotools, there is
no OKS matrix when ``useCats`` is 0 (nothing matches) or when a block lacks
ground truths or detections.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ._blocks import Blocks
from ._columns import NUMBER_TYPES, Columns
from ._describe import describe


def _keypoint_rows(columns: Columns, members: np.ndarray, n_values: int, kind: str) -> np.ndarray:
    rows = [cast(list[dict], columns.annotations)[c].get("keypoints") for c in members]
    for c, row in zip(members, rows):
        if not isinstance(row, (list, tuple, np.ndarray)) or len(row) != n_values:
            ann = cast(list[dict], columns.annotations)[c]
            raise ValueError(
                f"{describe(kind, ann, int(c))}: 'keypoints' must hold {n_values} numbers (x, y, v per keypoint sigma)"
            )
    array = np.asarray(rows)
    if array.dtype.kind in "biuf":
        return array.astype(np.float64).reshape(len(rows), n_values)
    for c, row in zip(members, rows):  # pycocotools' arithmetic on None or a string raises TypeError
        bad = [value for value in row if not isinstance(value, NUMBER_TYPES)]
        if bad:
            raise TypeError(
                f"{describe(kind, cast(list[dict], columns.annotations)[c], int(c))}: 'keypoints' must hold numbers, "
                f"got {bad[0]!r}"
            )
    return array.astype(np.float64).reshape(len(rows), n_values)


_PAIRWISE_BLOCK = 128  # NumPy's PW_BLOCKSIZE


def pairwise_row_sums(x: np.ndarray) -> np.ndarray:
    """``[np.sum(row) for row in x]`` for a 2-D float64 array, vectorised
    over rows: NumPy sums a 1-D array sequentially below 8 values, with 8
    interleaved partial sums up to 128, and by halves (cut at a multiple of 8)
    above."""
    n = x.shape[1]
    if n < 8:
        total = np.zeros(x.shape[0])
        for i in range(n):
            total = total + x[:, i]
        return total
    if n <= _PAIRWISE_BLOCK:
        partial = [x[:, j] for j in range(8)]
        stop = n - n % 8
        for i in range(8, stop, 8):
            partial = [partial[j] + x[:, i + j] for j in range(8)]
        total = ((partial[0] + partial[1]) + (partial[2] + partial[3])) + (
            (partial[4] + partial[5]) + (partial[6] + partial[7])
        )
        for i in range(stop, n):
            total = total + x[:, i]
        return total
    half = n // 2
    half -= half % 8
    return pairwise_row_sums(x[:, :half]) + pairwise_row_sums(x[:, half:])


def _grown_box(gt: dict, index: int) -> tuple[Any, Any, Any, Any]:
    """``(x - w, x + 2w, y - h, y + 2h)`` of the ground truth's box, which
    pycocotools computes for every ground truth of a block (so a box value
    that is no number raises its TypeError even where it is not used)."""
    box = gt["bbox"]
    try:
        return box[0] - box[2], box[0] + box[2] * 2, box[1] - box[3], box[1] + box[3] * 2
    except TypeError as error:
        raise TypeError(
            f"{describe('ground-truth annotation', gt, index)}: 'bbox' must hold numbers, got {box!r}: {error}"
        ) from None


def keypoint_similarities(gts: Columns, dts: Columns, blocks: Blocks, p: Any) -> tuple[np.ndarray, np.ndarray]:
    """(values, offsets): per block, the OKS of its detections (input order)
    against its ground truths, at ``values[offsets[b]:]``; offset -1 where
    there is no matrix."""
    offsets = np.full(blocks.n_blocks, -1, dtype=np.int64)
    if not p.useCats:
        return np.zeros(0), offsets
    sigmas = np.asarray(p.kpt_oks_sigmas)
    variances = (sigmas * 2) ** 2
    n_values = 3 * len(sigmas)
    parts: list[np.ndarray] = []
    position = 0
    for b in range(blocks.n_blocks):
        g0, g1 = blocks.gt_offsets[b], blocks.gt_offsets[b + 1]
        d0, d1 = blocks.dt_offsets[b], blocks.dt_offsets[b + 1]
        if g0 == g1 or d0 == d1:
            continue
        detections = _keypoint_rows(dts, blocks.dt_members[d0:d1], n_values, "result")
        xd, yd = detections[:, 0::3], detections[:, 1::3]
        truths = _keypoint_rows(gts, blocks.gt_members[g0:g1], n_values, "ground-truth annotation")
        matrix = np.empty((d1 - d0, g1 - g0))
        for j, c in enumerate(blocks.gt_members[g0:g1]):
            gt = cast(list[dict], gts.annotations)[c]
            xg, yg, vg = truths[j, 0::3], truths[j, 1::3], truths[j, 2::3]
            x0, x1, y0, y1 = _grown_box(gt, int(c))
            visible = vg > 0
            if np.count_nonzero(visible) > 0:
                dx, dy = xd - xg, yd - yg
            else:
                dx = np.maximum(0.0, x0 - xd) + np.maximum(0.0, xd - x1)
                dy = np.maximum(0.0, y0 - yd) + np.maximum(0.0, yd - y1)
            e = (dx**2 + dy**2) / variances / (gt["area"] + np.spacing(1)) / 2
            if visible.any():
                e = e[:, visible]
            matrix[:, j] = pairwise_row_sums(np.exp(-e)) / e.shape[1]
        offsets[b] = position
        parts.append(matrix.ravel())
        position += matrix.size
    values = np.concatenate(parts) if parts else np.zeros(0)
    return values, offsets
