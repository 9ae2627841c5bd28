"""The exact ranking program on tensors: scikit-learn 1.9.1's binary ROC and
precision-recall curves, ROC AUC and average precision, bit for bit, with
tensor operations that run on the tensors' device.

Each step reproduces one of scikit-learn's (``confusion_matrix_at_thresholds``,
``roc_curve``, ``precision_recall_curve``, ``auc`` with scipy's
``trapezoid``, ``average_precision_score``):

- a stable sort by decreasing score, of the scores plus ``+0.0`` (so that
  -0.0 and 0.0 are one score whatever the device's sort does with the sign
  bit); thresholds are read from the original scores, so their signs are
  scikit-learn's (the last sample of each tie in the stable order);
- the distinct-score boundaries (``x[i] != x[i + 1]``, which for finite
  scores is scikit-learn's ``np.diff(x) != 0``);
- the counts at each threshold as int64 cumulative sums (unweighted:
  positives, and ``1 + index - tps`` negatives; weighted: the integer
  weights of either class): exact, so equal to scikit-learn's float64
  cumulative sums of integers below 2**53;
- ``drop_intermediate`` on those integers (scikit-learn's second differences
  of integer-valued float64 are exact);
- element-wise float64 operations in scikit-learn's order, each one tensor
  operation, correctly rounded: rates ``fps / fps[-1]``, precision
  ``tps / (tps + fps)``, the trapezoids ``(x[1:] - x[:-1]) * (y[1:] + y[:-1])
  / 2.0``, average precision's ``diff(recall) * precision[:-1]``;
- sums in NumPy's pairwise order (:mod:`._program_sum`).

Assumptions for accelerators: eager execution (no ``torch.compile`` or
other fusion, which could contract a multiplication and an addition into
one fused multiply-add); IEEE float64 division and addition, as CUDA's
double-precision operators are. Divisors are device tensors, never Python
numbers: CUDA divides by a host scalar through its reciprocal.

Peak memory beyond the inputs, counted from the tensors the program
allocates (n samples, all scores distinct, so that the curves have about n
points; ties make the curve phase smaller): ``roc_auc_score`` 37 bytes per
sample with float32 scores (42 with float64), ``average_precision_score`` 44
(49), ``roc_curve`` 45 (50), ``precision_recall_curve`` 68 (73, a third of
it the result); integer weights add up to 17. The sort phase (key, sorted
values, int64 order: 21 bytes with float32 scores) stays below these on a
CUDA card if the radix sort's scratch is under about 16 bytes per sample.
By this count ``roc_auc_score`` of float32 scores and bool labels (5 bytes
per sample) fits about 1.8e9 samples in 80 GB; ``benchmarks/gpu_check.py``
measures the peak on a card.
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from ._program_sum import pairwise_sum


class RankedCounts(NamedTuple):
    """The cumulative counts at each distinct score, by decreasing score."""

    tps: torch.Tensor  # int64: positives (or their weight) scoring >= each threshold
    fps: torch.Tensor  # int64: negatives (or their weight) scoring >= each threshold
    order: torch.Tensor  # int64: the sample whose score is each threshold


def ranked_counts(
    scores: torch.Tensor, positive: torch.Tensor, weights: torch.Tensor | None, thresholds: bool = True
) -> RankedCounts:
    """scikit-learn's ``confusion_matrix_at_thresholds`` (its tps and fps)
    of 1-D finite ``scores``, a bool ``positive`` mask and optional positive
    int64 ``weights`` (zero weights already removed), all on one device;
    ``order`` is empty unless ``thresholds``."""
    key = scores + 0 if scores.is_floating_point() else scores
    values, order = torch.sort(key, stable=True, descending=True)
    del key
    last = torch.ones(1, dtype=torch.bool, device=scores.device)
    boundaries = torch.nonzero(torch.cat((values[1:] != values[:-1], last))).flatten()
    del values
    ranked = positive[order]
    samples = order[boundaries] if thresholds else torch.empty(0, dtype=torch.int64, device=order.device)
    ranked_weights = None if weights is None else weights[order]
    del order
    if ranked_weights is None:
        tps = torch.cumsum(ranked, 0, dtype=torch.int64)[boundaries]
        fps = boundaries.add_(1).sub_(tps)
    else:
        zero = torch.zeros((), dtype=torch.int64, device=scores.device)
        tps = torch.cumsum(torch.where(ranked, ranked_weights, zero), 0)[boundaries]
        fps = torch.cumsum(torch.where(ranked, zero, ranked_weights), 0)[boundaries]
    return RankedCounts(tps, fps, samples)


def _where_kept(keep_inside: torch.Tensor) -> torch.Tensor:
    """The positions kept: the first, those where ``keep_inside`` is true
    (one per inner point) and the last."""
    true = torch.ones(1, dtype=torch.bool, device=keep_inside.device)
    return torch.nonzero(torch.cat((true, keep_inside, true))).flatten()


def _kept(counts: RankedCounts, kept: torch.Tensor) -> RankedCounts:
    """The counts (and thresholds' samples, where present) at ``kept``."""
    order = counts.order[kept] if counts.order.numel() else counts.order
    return RankedCounts(counts.tps[kept], counts.fps[kept], order)


def _with_zero(values: torch.Tensor) -> torch.Tensor:
    """0.0 followed by ``values`` as float64 (exact: counts are below 2**53)."""
    result = torch.empty(values.numel() + 1, dtype=torch.float64, device=values.device)
    result[0] = 0.0
    result[1:] = values
    return result


def roc_points(counts: RankedCounts, drop_intermediate: bool) -> RankedCounts:
    """The thresholds ``roc_curve`` keeps: all, or with ``drop_intermediate``
    those where the second difference of fps or of tps is not zero, and the
    ends."""
    if not drop_intermediate or counts.fps.numel() <= 2:
        return counts
    step = counts.fps.diff()
    corner = step[1:] != step[:-1]
    step = counts.tps.diff()
    corner |= step[1:] != step[:-1]
    del step
    return _kept(counts, _where_kept(corner))


def rates(counts: RankedCounts) -> tuple[torch.Tensor, torch.Tensor]:
    """``roc_curve``'s fpr and tpr (both classes present): the counts with a
    leading 0, each divided by its last."""
    fps = _with_zero(counts.fps)
    tps = _with_zero(counts.tps)
    return fps.div_(fps[-1:].clone()), tps.div_(tps[-1:].clone())


def roc_thresholds(scores: torch.Tensor, counts: RankedCounts) -> torch.Tensor:
    """``roc_curve``'s thresholds: ``inf``, then the scores as float64."""
    inf = torch.full((1,), float("inf"), dtype=torch.float64, device=scores.device)
    return torch.cat((inf, scores[counts.order].to(torch.float64)))


def area_under_curve(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``auc(x, y)`` of an increasing ``x``: scipy's
    ``sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0)``."""
    two = torch.full((1,), 2.0, dtype=torch.float64, device=x.device)
    terms = x[1:] - x[:-1]
    terms.mul_(y[1:] + y[:-1]).div_(two)
    return pairwise_sum(terms)


def precision_recall_points(counts: RankedCounts, drop_intermediate: bool) -> RankedCounts:
    """The thresholds ``precision_recall_curve`` keeps: all, or with
    ``drop_intermediate`` those where tps changes on either side, and the
    ends."""
    if not drop_intermediate or counts.fps.numel() <= 2:
        return counts
    tps = counts.tps
    step = tps[1:] != tps[:-1]
    return _kept(counts, _where_kept(step[:-1] | step[1:]))


def precision_recall(counts: RankedCounts) -> tuple[torch.Tensor, torch.Tensor]:
    """``precision_recall_curve``'s precision and recall (some positive
    weight), by decreasing threshold, without the final point (1, 0)."""
    tps = counts.tps.to(torch.float64)
    precision = (counts.tps + counts.fps).to(torch.float64)
    torch.div(tps, precision, out=precision)
    return precision, tps.div_(tps[-1:].clone())


def with_final_point(precision: torch.Tensor, recall: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Precision and recall by increasing threshold, ending with (1, 0)."""
    one = torch.ones(1, dtype=torch.float64, device=precision.device)
    return torch.cat((precision.flip(0), one)), torch.cat((recall.flip(0), one - one))


def average_precision(counts: RankedCounts) -> torch.Tensor:
    """``max(0.0, -sum(diff(recall) * precision[:-1]))`` over the
    precision-recall curve of all thresholds (by increasing threshold,
    ending with (1, 0)), from the curve by decreasing threshold without the
    reversed copies: the term of threshold ``j`` is ``(recall[j - 1] -
    recall[j]) * precision[j]``, with 0.0 for ``recall[-1]``."""
    precision, recall = precision_recall(counts)
    terms = torch.cat((torch.zeros(1, dtype=torch.float64, device=recall.device), recall[:-1]))
    terms.sub_(recall).mul_(precision)
    del recall, precision
    area = -pairwise_sum(terms.flip(0))
    return torch.where(area > 0, area, torch.zeros_like(area))
