"""Exact ranking metrics over a range partition of the score space.

Bucket edges are distinct scores sampled from every block's table (evenly
spaced ranks of its distinct scores, so buckets hold similar numbers of
distinct scores); each block's RankingState is split by the edges
(``state.split(edges)``), bucket ``b``'s pieces are tree-merged across
blocks, and each bucket's contribution is computed where it lives, knowing
only the weight above it and the totals. No worker ever holds more than one
bucket's distinct scores.

Curves and threshold searches reuse the state's own sweeps on an augmented
bucket table: a first row carrying the weight above the bucket (at the
previous bucket's lowest score), the bucket's rows, the next bucket's first
row and a last row carrying the remaining weight (at the lowest score of
the data). Every row of the bucket then has its global cumulative counts,
totals and neighbours, so ``drop_intermediate`` decides as on the whole
table; the points of the bucket's own thresholds are kept.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple, cast

import dask
import numpy as np

from ._graph import tree_reduce
from ._labelled import LabelledState, empty_like, merge_labelled

# Sampled distinct scores per block and bucket.
SAMPLES_PER_BUCKET = 16


class BucketSummary(NamedTuple):
    rows: int
    positive: Any
    negative: Any
    first: tuple | None  # (score, positive, negative) of the highest row
    last_score: Any


class BucketLayout(NamedTuple):
    above_positive: Any
    above_negative: Any
    previous_score: Any  # lowest score of the previous non-empty bucket (None: first)
    next_row: tuple | None  # first row of the next non-empty bucket (None: last)
    rest: tuple | None  # (positive, negative) below next_row
    lowest_score: Any  # lowest score of the whole data set


def _exact(value: Any) -> Any:
    return int(value) if isinstance(value, (int, np.integer)) else float(value)


def _sample(part: LabelledState, per_block: int) -> tuple:
    scores = part.state.scores
    if scores.shape[0] == 0:
        return scores, 0.0
    ranks = np.unique(np.linspace(0, scores.shape[0] - 1, min(per_block, scores.shape[0])).astype(np.int64))
    return scores[ranks], scores.shape[0] / ranks.shape[0]


def _edges(n_buckets: int, *samples: tuple) -> np.ndarray:
    """At most ``n_buckets - 1`` distinct sampled scores, descending, that
    cut the sampled distinct scores into groups of similar size."""
    values = [s for s, w in samples if s.shape[0]]
    if not values:
        return np.zeros(0)
    scores = np.concatenate(values)
    weights = np.concatenate([np.full(s.shape[0], w) for s, w in samples if s.shape[0]])
    order = np.argsort(-scores.astype(np.float64), kind="stable")
    scores, cumulative = scores[order], np.cumsum(weights[order])
    levels = cumulative[-1] * np.arange(1, n_buckets) / n_buckets
    picked = scores[np.minimum(np.searchsorted(cumulative, levels), scores.shape[0] - 1)]
    distinct = picked[np.r_[True, picked[1:] != picked[:-1]]] if picked.shape[0] else picked
    return distinct


def _split(part: LabelledState, edges: np.ndarray, n_buckets: int) -> tuple:
    pieces = list(part.state.split(edges)) if edges.shape[0] else [part.state]
    pieces += [empty_like(part.state)] * (n_buckets - len(pieces))
    return tuple(LabelledState(part.labels, part.positive_label, piece) for piece in pieces)


def _summary(part: LabelledState) -> BucketSummary:
    s = part.state
    if len(s) == 0:
        return BucketSummary(0, 0, 0, None, None)
    return BucketSummary(
        len(s),
        _exact(s.total_positive),
        _exact(s.total_negative),
        (s.scores[0], _exact(s.positive[0]), _exact(s.negative[0])),
        s.scores[-1],
    )


def _layouts(*summaries: BucketSummary) -> list[BucketLayout | None]:
    filled = [i for i, s in enumerate(summaries) if s.rows]
    lowest = summaries[filled[-1]].last_score if filled else None
    layouts: list[BucketLayout | None] = [None] * len(summaries)
    above_positive = above_negative = 0
    for k, i in enumerate(filled):
        s = summaries[i]
        previous = summaries[filled[k - 1]].last_score if k else None
        next_row: Any = None
        rest: Any = None
        if k + 1 < len(filled):
            following = [summaries[j] for j in filled[k + 1 :]]
            next_row = following[0].first
            rest = (sum(f.positive for f in following) - next_row[1], sum(f.negative for f in following) - next_row[2])
        layouts[i] = BucketLayout(above_positive, above_negative, previous, next_row, rest, lowest)
        above_positive += s.positive
        above_negative += s.negative
    return layouts


class RangePartition(NamedTuple):
    buckets: list[Any]  # Delayed LabelledState per bucket, in descending score order
    layouts: Any  # Delayed list of BucketLayout (None for an empty bucket)
    labels: Any  # Delayed LabelledState of the whole data with an empty table (labels and positive label)
    totals: Any  # Delayed (total positive, total negative, distinct rows)


def _labels_only(*parts: LabelledState) -> LabelledState:
    """The merged labels of ``parts`` (their tables left out)."""
    return merge_labelled(*(LabelledState(p.labels, p.positive_label, empty_like(p.state)) for p in parts))


def _totals(*summaries: BucketSummary) -> tuple:
    return (sum(s.positive for s in summaries), sum(s.negative for s in summaries), sum(s.rows for s in summaries))


def range_partition(blocks: list[Any], n_buckets: int, split_every: int) -> RangePartition:
    """The bucket graph of Delayed per-block LabelledStates."""
    samples = [dask.delayed(_sample, pure=True)(b, SAMPLES_PER_BUCKET * n_buckets) for b in blocks]
    edges = dask.delayed(_edges, pure=True)(n_buckets, *samples)
    pieces = [dask.delayed(_split, pure=True, nout=n_buckets)(b, edges, n_buckets) for b in blocks]
    buckets = [tree_reduce([p[i] for p in pieces], split_every, merge_labelled) for i in range(n_buckets)]
    summaries = [dask.delayed(_summary, pure=True)(b) for b in buckets]
    layouts = dask.delayed(_layouts, pure=True)(*summaries)
    labels = tree_reduce([dask.delayed(_labels_only, pure=True)(b) for b in buckets], split_every, _labels_only)
    totals = dask.delayed(_totals, pure=True)(*summaries)
    return RangePartition(buckets, layouts, labels, totals)


# -- per-bucket work ----------------------------------------------------------------------
def auc_part(part: LabelledState, layouts: list[BucketLayout | None], index: int) -> Any:
    layout = layouts[index]
    if layout is None:
        return 0
    return part.state.roc_auc_part(layout.above_positive, layout.above_negative)


def ap_part(part: LabelledState, layouts: list[BucketLayout | None], index: int, total_positive: Any) -> Any:
    layout = layouts[index]
    if layout is None or not total_positive:
        return 0
    return part.state.average_precision_part(layout.above_positive, layout.above_negative, total_positive)


def _augmented(state: Any, layout: BucketLayout, with_next_row: bool) -> Any:
    """The bucket's table between rows carrying the weight around it."""
    scores, positive, negative = [state.scores], [state.positive], [state.negative]
    kind = state.positive.dtype

    def row(score: Any, pos: Any, neg: Any, at_end: bool) -> None:
        where = len(scores) if at_end else 0
        scores.insert(where, np.asarray([score], dtype=state.scores.dtype))
        positive.insert(where, np.asarray([pos], dtype=kind))
        negative.insert(where, np.asarray([neg], dtype=kind))

    if layout.previous_score is not None:
        row(layout.previous_score, layout.above_positive, layout.above_negative, at_end=False)
    if layout.next_row is not None:
        rest_positive, rest_negative = cast(tuple, layout.rest)  # set with next_row
        if with_next_row:
            score, pos, neg = layout.next_row
            row(score, pos, neg, at_end=True)
        else:
            rest_positive += layout.next_row[1]
            rest_negative += layout.next_row[2]
        if rest_positive or rest_negative or not with_next_row:
            row(layout.lowest_score, rest_positive, rest_negative, at_end=True)
    return type(state).from_table(np.concatenate(scores), np.concatenate(positive), np.concatenate(negative))


def _own_points(thresholds: np.ndarray, state: Any) -> np.ndarray:
    return (thresholds <= state.scores[0]) & (thresholds >= state.scores[-1])


def _framed_curve(part: LabelledState, layout: BucketLayout, method: str, drop_intermediate: bool) -> tuple:
    """The state's curve ``method`` over the framed bucket table."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warned once for the whole data set
        return getattr(_augmented(part.state, layout, True), method)(drop_intermediate=drop_intermediate)


def roc_piece(
    part: LabelledState, layouts: list[BucketLayout | None], index: int, drop_intermediate: bool
) -> tuple | None:
    """The bucket's ROC points, and the curve's starting point."""
    if layouts[index] is None:
        return None
    fpr, tpr, thresholds = _framed_curve(part, cast(BucketLayout, layouts[index]), "roc_curve", drop_intermediate)
    keep = _own_points(thresholds, part.state)
    return fpr[keep], tpr[keep], thresholds[keep], (fpr[:1], tpr[:1], thresholds[:1])


def pr_piece(
    part: LabelledState, layouts: list[BucketLayout | None], index: int, drop_intermediate: bool
) -> tuple | None:
    """The bucket's precision-recall points, and the curve's end point."""
    if layouts[index] is None:
        return None
    precision, recall, thresholds = _framed_curve(
        part, cast(BucketLayout, layouts[index]), "precision_recall_curve", drop_intermediate
    )
    keep = _own_points(thresholds, part.state)
    return precision[:-1][keep], recall[:-1][keep], thresholds[keep], (precision[-1:], recall[-1:])


def best_piece(part: LabelledState, layouts: list[BucketLayout | None], index: int, metric: str, beta: float) -> Any:
    layout = layouts[index]
    if layout is None:
        return None
    return _augmented(part.state, layout, False).best_threshold(metric, beta=beta)


def per_bucket(function: Any, partition: RangePartition, *args: Any) -> list[Any]:
    """One Delayed ``function(bucket, layouts, index, *args)`` per bucket."""
    return [
        dask.delayed(function, pure=True)(bucket, partition.layouts, i, *args)
        for i, bucket in enumerate(partition.buckets)
    ]


def concatenate_roc(*pieces: tuple | None) -> tuple:
    """The ROC curve from its per-bucket pieces (descending thresholds)."""
    filled = [p for p in pieces if p is not None]
    start = filled[0][3]
    return tuple(np.concatenate([start[i]] + [p[i] for p in filled]) for i in range(3))


def concatenate_pr(*pieces: tuple | None) -> tuple:
    """The precision-recall curve from its per-bucket pieces (increasing
    thresholds, ending with the point (1, 0))."""
    filled = [p for p in pieces if p is not None][::-1]
    end = filled[0][3]
    precision = np.concatenate([p[0] for p in filled] + [end[0]])
    recall = np.concatenate([p[1] for p in filled] + [end[1]])
    return precision, recall, np.concatenate([p[2] for p in filled])


def best_of(*candidates: Any) -> Any:
    """The best value; on ties the highest threshold."""
    filled = [c for c in candidates if c is not None]
    return max(filled, key=lambda c: (c.value, c.threshold))
