"""Ranking metrics over dask collections: ROC AUC, average precision, the
ROC and precision-recall curves and the best decision threshold.

Two plans, chosen by ``partitions``:

* ``partitions=1`` (the simple plan): every block's RankingState is
  tree-merged into one, whose methods give the result. The last merge holds
  every distinct score of the data in one task.
* ``partitions=k > 1`` (the range plan, ``_range``): the score space is cut
  into ``k`` ranges from a sample of the scores; no task holds more than one
  range's distinct scores. ``"auto"`` uses the range plan with one range per
  block (at most 64) when there is more than one block.

Both give the in-memory result: unweighted AUC and AP bit for bit (the
per-range parts are exact integers), weighted within rounding.
"""

from __future__ import annotations

from functools import partial
from numbers import Integral
from typing import Any

import dask
import numpy as np

from .._common.exceptions import UndefinedMetricWarning
from .._common.sklearn_classes import scikit_learn_compatible
from .._common.validation import check_pos_label_consistency
from . import _range
from ._graph import block_states, check_split_every, tree_reduce
from ._labelled import GREATER, LabelledState, block_state, merge_labelled
from ._results import Warned, finish, recorded
from ._signature import mirroring

MAX_AUTO_PARTITIONS = 64


def _n_partitions(partitions: str | int, n_blocks: int) -> int:
    if partitions == "auto":
        return min(n_blocks, MAX_AUTO_PARTITIONS) if n_blocks > 1 else 1
    if isinstance(partitions, bool) or not isinstance(partitions, Integral) or partitions < 1:
        raise ValueError(f"partitions must be 'auto' or an int >= 1, got {partitions!r}")
    return int(partitions)


def _blocks(y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any, n_threads: int | None) -> list[Any]:
    build = partial(block_state, pos_label=pos_label, n_threads=n_threads)
    return block_states(build, y_true=y_true, y_score=y_score, sample_weight=sample_weight)


def _one_class_messages(positive: Any, negative: Any) -> list[tuple[str, type]]:
    messages = []
    if negative <= 0:
        messages.append(
            (
                "No negative samples in y_true, false positive value should be meaningless",
                scikit_learn_compatible(UndefinedMetricWarning),
            )
        )
    if positive <= 0:
        messages.append(
            (
                "No positive samples in y_true, true positive value should be meaningless",
                scikit_learn_compatible(UndefinedMetricWarning),
            )
        )
    return messages


def _check_curve_labels(labelled: LabelledState, pos_label: Any) -> None:
    """scikit-learn's ``_check_pos_label_consistency`` on the union of labels."""
    check_pos_label_consistency(pos_label, labelled.labels)


def _without_rows(name: str, labelled: LabelledState, weighted: bool, **kwargs: Any) -> Warned:
    """The in-memory result for data whose every weight is zero (or that is
    empty): the same as on one zero-weight sample of each label present."""
    import turbometrics

    labels = labelled.labels
    zeros = np.zeros(labels.shape[0])
    return recorded(getattr(turbometrics, name), labels, zeros, sample_weight=zeros if weighted else None, **kwargs)


# -- ROC AUC ---------------------------------------------------------------------------------
def _auc_from_parts(labelled: LabelledState, totals: tuple, weighted: bool, *parts: Any) -> Warned:
    if labelled.labels.shape[0] == 2 and totals[2] == 0:
        return _without_rows("roc_auc_score", labelled, weighted)
    if labelled.labels.shape[0] != 2:
        return Warned(
            np.nan,
            [
                (
                    "Only one class is present in y_true. ROC AUC score is not defined in that case.",
                    scikit_learn_compatible(UndefinedMetricWarning),
                )
            ],
        )
    positive, negative, _ = totals
    if positive <= 0 or negative <= 0:
        return Warned(np.nan, _one_class_messages(positive, negative))
    return Warned(sum(parts) / (2 * positive * negative), [])


def _auc_of_state(labelled: LabelledState, max_fpr: float | None) -> Warned:
    if labelled.labels.shape[0] != 2:
        return Warned(
            np.nan,
            [
                (
                    "Only one class is present in y_true. ROC AUC score is not defined in that case.",
                    scikit_learn_compatible(UndefinedMetricWarning),
                )
            ],
        )
    return recorded(labelled.state.roc_auc, max_fpr=max_fpr)


@mirroring("roc_auc_score", "compute", "split_every", "partitions")
def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None,
    sample_weight: Any,
    max_fpr: float | None,
    multi_class: str,
    labels: Any,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
    partitions: str | int,
) -> Any:
    """Area under the ROC curve of binary dask data; as
    :func:`turbometrics.roc_auc_score` (the greater label is positive).

    ``average``, ``multi_class`` and ``labels`` only matter for multiclass
    and multilabel input, which is not supported here (ValueError). With
    ``max_fpr`` the simple plan is used. See :mod:`turbometrics.dask` for
    ``n_threads``, ``compute``, ``split_every`` and ``partitions``.
    """
    every = check_split_every(split_every)
    blocks = _blocks(y_true, y_score, sample_weight, GREATER, n_threads)
    n = _n_partitions(partitions, len(blocks))
    if n == 1 or (max_fpr is not None and max_fpr != 1):
        merged = tree_reduce(blocks, every, merge_labelled)
        fpr_limit = None if max_fpr is None or max_fpr == 1 else max_fpr
        return finish(dask.delayed(_auc_of_state, pure=True)(merged, fpr_limit), compute)
    plan = _range.range_partition(blocks, n, every)
    parts = _range.per_bucket(_range.auc_part, plan)
    weighted = sample_weight is not None
    return finish(dask.delayed(_auc_from_parts, pure=True)(plan.labels, plan.totals, weighted, *parts), compute)


# -- average precision -------------------------------------------------------------------------
def _check_ap_labels(labelled: LabelledState, pos_label: Any) -> None:
    present = labelled.labels
    if present.shape[0] == 2 and pos_label not in present:
        raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one of {present}")


_NO_POSITIVE = ("No positive class found in y_true, recall is set to one for all thresholds.", UserWarning)


def _ap_from_parts(labelled: LabelledState, totals: tuple, pos_label: Any, weighted: bool, *parts: int) -> Warned:
    from ..states import AP_SCALE

    _check_ap_labels(labelled, pos_label)
    if totals[2] == 0:
        return _without_rows("average_precision_score", labelled, weighted, pos_label=pos_label)
    if totals[0] == 0:
        return Warned(0.0, [_NO_POSITIVE])
    return Warned(max(0.0, sum(parts) / (1 << AP_SCALE)), [])


def _ap_of_state(labelled: LabelledState, pos_label: Any) -> Warned:
    _check_ap_labels(labelled, pos_label)
    return recorded(labelled.state.average_precision)


@mirroring("average_precision_score", "compute", "split_every", "partitions")
def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None,
    pos_label: Any,
    sample_weight: Any,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
    partitions: str | int,
) -> Any:
    """Average precision of binary dask data; as
    :func:`turbometrics.average_precision_score` (``average`` only matters
    for multilabel input, which is not supported here)."""
    every = check_split_every(split_every)
    blocks = _blocks(y_true, y_score, sample_weight, pos_label, n_threads)
    n = _n_partitions(partitions, len(blocks))
    if n == 1:
        merged = tree_reduce(blocks, every, merge_labelled)
        return finish(dask.delayed(_ap_of_state, pure=True)(merged, pos_label), compute)
    plan = _range.range_partition(blocks, n, every)
    parts = _range.per_bucket(_range.ap_part, plan, plan.totals[0])
    return finish(
        dask.delayed(_ap_from_parts, pure=True)(plan.labels, plan.totals, pos_label, sample_weight is not None, *parts),
        compute,
    )


# -- curves and thresholds ----------------------------------------------------------------------
def _curve_of_state(labelled: LabelledState, pos_label: Any, method: str, drop_intermediate: bool) -> Warned:
    _check_curve_labels(labelled, pos_label)
    return recorded(getattr(labelled.state, method), drop_intermediate=drop_intermediate)


def _roc_from_pieces(labelled: LabelledState, totals: tuple, pos_label: Any, weighted: bool, *pieces: Any) -> Warned:
    _check_curve_labels(labelled, pos_label)
    if totals[2] == 0:
        return _without_rows("roc_curve", labelled, weighted, pos_label=pos_label)
    return Warned(_range.concatenate_roc(*pieces), _one_class_messages(totals[0], totals[1]))


def _pr_from_pieces(labelled: LabelledState, totals: tuple, pos_label: Any, weighted: bool, *pieces: Any) -> Warned:
    _check_curve_labels(labelled, pos_label)
    if totals[2] == 0:
        return _without_rows("precision_recall_curve", labelled, weighted, pos_label=pos_label)
    return Warned(_range.concatenate_pr(*pieces), [_NO_POSITIVE] if totals[0] == 0 else [])


def _curve(
    method: str,
    piece: Any,
    combine: Any,
    y_true: Any,
    y_score: Any,
    pos_label: Any,
    sample_weight: Any,
    drop_intermediate: bool,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
    partitions: str | int,
) -> Any:
    every = check_split_every(split_every)
    blocks = _blocks(y_true, y_score, sample_weight, pos_label, n_threads)
    n = _n_partitions(partitions, len(blocks))
    if n == 1:
        merged = tree_reduce(blocks, every, merge_labelled)
        return finish(dask.delayed(_curve_of_state, pure=True)(merged, pos_label, method, drop_intermediate), compute)
    plan = _range.range_partition(blocks, n, every)
    pieces = _range.per_bucket(piece, plan, bool(drop_intermediate))
    return finish(
        dask.delayed(combine, pure=True)(plan.labels, plan.totals, pos_label, sample_weight is not None, *pieces),
        compute,
    )


@mirroring("roc_curve", "compute", "split_every", "partitions")
def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any,
    sample_weight: Any,
    drop_intermediate: bool,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
    partitions: str | int,
) -> Any:
    """ROC curve of binary dask data; as :func:`turbometrics.roc_curve`.

    The curve (one point per kept distinct score) is returned to the caller,
    so it must fit in the client's memory; with the range plan no worker
    holds more than one range of it."""
    return _curve(
        "roc_curve",
        _range.roc_piece,
        _roc_from_pieces,
        y_true,
        y_score,
        pos_label,
        sample_weight,
        drop_intermediate,
        n_threads,
        compute,
        split_every,
        partitions,
    )


@mirroring("precision_recall_curve", "compute", "split_every", "partitions")
def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any,
    sample_weight: Any,
    drop_intermediate: bool,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
    partitions: str | int,
) -> Any:
    """Precision-recall curve of binary dask data; as
    :func:`turbometrics.precision_recall_curve`."""
    return _curve(
        "precision_recall_curve",
        _range.pr_piece,
        _pr_from_pieces,
        y_true,
        y_score,
        pos_label,
        sample_weight,
        drop_intermediate,
        n_threads,
        compute,
        split_every,
        partitions,
    )


def _best_of_state(labelled: LabelledState, pos_label: Any, metric: str, beta: float) -> Warned:
    _check_curve_labels(labelled, pos_label)
    return recorded(labelled.state.best_threshold, metric, beta=beta)


def _best_from_pieces(
    labelled: LabelledState, totals: tuple, pos_label: Any, weighted: bool, metric: str, beta: float, *pieces: Any
) -> Warned:
    _check_curve_labels(labelled, pos_label)
    if totals[2] == 0:
        return _without_rows("best_threshold", labelled, weighted, pos_label=pos_label, metric=metric, beta=beta)
    return Warned(_range.best_of(*pieces), [])


@mirroring("best_threshold", "compute", "split_every", "partitions")
def best_threshold(
    y_true: Any,
    y_score: Any,
    *,
    metric: str,
    beta: float,
    sample_weight: Any,
    pos_label: Any,
    n_threads: int | None,
    compute: bool,
    split_every: int | None,
    partitions: str | int,
) -> Any:
    """The score threshold maximising a decision metric over dask data; as
    :func:`turbometrics.best_threshold` (ties: the highest threshold)."""
    every = check_split_every(split_every)
    blocks = _blocks(y_true, y_score, sample_weight, pos_label, n_threads)
    n = _n_partitions(partitions, len(blocks))
    if n == 1:
        merged = tree_reduce(blocks, every, merge_labelled)
        return finish(dask.delayed(_best_of_state, pure=True)(merged, pos_label, metric, beta), compute)
    plan = _range.range_partition(blocks, n, every)
    pieces = _range.per_bucket(_range.best_piece, plan, metric, beta)
    return finish(
        dask.delayed(_best_from_pieces, pure=True)(
            plan.labels, plan.totals, pos_label, sample_weight is not None, metric, beta, *pieces
        ),
        compute,
    )
