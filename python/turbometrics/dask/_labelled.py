"""Per-block RankingStates together with the labels each block holds.

A block does not know the data set's classes, yet the positive class may
depend on them (``roc_auc_score`` takes the greater of the two labels). Each
block therefore records its own labels and the label it counted as
positive; merging takes the union of the labels and, where a one-label block
counted the class that turns out to be negative as positive, swaps its two
columns (exact: that block only has one column filled).
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from ._graph import merge_balanced


class GreaterLabel:
    """``pos_label`` meaning "the greater of the two labels" (roc_auc_score);
    a class, so that it survives pickling to the workers."""


GREATER = GreaterLabel()


class LabelledState(NamedTuple):
    labels: np.ndarray  # sorted distinct labels of the rows merged so far
    positive_label: Any  # the label counted as positive (None: 1, sklearn's rule)
    state: Any  # turbometrics.states.RankingState


def _ranking_state_class() -> Any:
    from ..states import RankingState

    return RankingState


def empty_like(state: Any) -> Any:
    """An empty RankingState with the dtypes of ``state``."""
    return _ranking_state_class().from_table(state.scores[:0], state.positive[:0], state.negative[:0])


def block_state(
    y_true: np.ndarray,
    y_score: np.ndarray,
    sample_weight: np.ndarray | None = None,
    *,
    pos_label: Any,
    n_threads: int | None,
) -> LabelledState:
    """The LabelledState of one block of rows."""
    RankingState = _ranking_state_class()
    labels = np.unique(y_true)
    positive = pos_label
    if isinstance(pos_label, GreaterLabel):
        if labels.shape[0] > 2:
            raise ValueError(
                "multiclass format is not supported: turbometrics.dask ranking metrics take binary "
                f"y_true (this block holds the labels {labels.tolist()})"
            )
        positive = labels[-1] if labels.shape[0] else None
    if pos_label is None:
        # scikit-learn's rule (labels {0, 1} or {-1, 1}, 1 positive) is judged
        # on the union of every block's labels (a block may hold {0} and
        # another {-1}); until then count label 1 as positive
        positive = 1
    recorded = None if pos_label is None else positive
    if y_true.shape[0] == 0:
        column = np.zeros(0, np.float64 if sample_weight is not None else np.int64)
        return LabelledState(labels, recorded, RankingState.from_table(np.asarray(y_score)[:0], column, column))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # one-class blocks are normal; the data set is judged after merging
        state = RankingState.from_arrays(
            y_true, y_score, sample_weight=sample_weight, pos_label=positive, n_threads=n_threads
        )
    return LabelledState(labels, recorded, state)


def merge_labelled(*parts: LabelledState) -> LabelledState:
    """Merge LabelledStates (labels united; see the module docstring)."""
    labels = parts[0].labels
    for part in parts[1:]:
        labels = np.union1d(labels, part.labels)
    if labels.shape[0] > 2:
        raise ValueError(
            f"multiclass format is not supported: y_true holds the labels {labels.tolist()}, "
            "turbometrics.dask ranking metrics take binary y_true"
        )
    labelled = [p for p in parts if p.labels.shape[0]]
    positive = labelled[0].positive_label if labelled else parts[0].positive_label
    if any(p.positive_label != positive for p in labelled):
        positive = labels[-1]  # only the greater-label rule lets blocks disagree
    states = []
    for part in parts:
        state = part.state
        if part.labels.shape[0] and part.positive_label != positive:
            state = _ranking_state_class().from_table(state.scores, state.negative, state.positive)
        states.append(state)
    merged = merge_balanced(states)
    return LabelledState(labels, positive, merged)
