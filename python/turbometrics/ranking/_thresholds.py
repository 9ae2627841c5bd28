"""Choosing a decision threshold: one sweep over the score table.

Predicting "positive" for every score at or above a threshold gives, at
each distinct score, the confusion counts tp, fp, tn, fn. These functions
evaluate decision metrics at all of them at once.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import _core
from .._common.params import ARRAY_LIKE, BOOLEAN, NONE, REAL, STRING, Constraint, str_options, validate_params
from .._common.threads import resolve_threads
from ._binary_input import binary_input

_POSITIVE_REAL = Constraint(
    "a float in the range (0.0, inf)",
    lambda value: (
        isinstance(value, (int, float, np.floating, np.integer))
        and not isinstance(value, bool)
        and value > 0
        and np.isfinite(value)
    ),
)
_COMMON = {
    "y_true": [ARRAY_LIKE],
    "y_score": [ARRAY_LIKE],
    "metric": [str_options({"f1", "fbeta", "youden", "accuracy", "balanced_accuracy", "mcc"})],  # best_threshold's
    "beta": [_POSITIVE_REAL],
    "sample_weight": [ARRAY_LIKE, NONE],
    "pos_label": [REAL, STRING, BOOLEAN, NONE],
}


class BestThreshold(NamedTuple):
    """The threshold that maximises a decision metric, and the rates at it.

    Attributes
    ----------
    threshold : float
        Predict positive when ``y_score >= threshold``; +inf when predicting
        no positive at all is best.
    value : float
        The metric at that threshold.
    precision, recall, tpr, fpr : float
        The rates at that threshold (``tpr == recall``); a ratio with a zero
        denominator is 0.

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.best_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    BestThreshold(threshold=0.35, value=0.8, precision=0.6666666666666666, recall=1.0, tpr=1.0, fpr=0.5)
    """

    threshold: float
    value: float
    precision: float
    recall: float
    tpr: float
    fpr: float


@validate_params(_COMMON)
def best_threshold(
    y_true: Any,
    y_score: Any,
    *,
    metric: str = "f1",
    beta: float = 1.0,
    sample_weight: Any = None,
    pos_label: Any = None,
    n_threads: int | None = None,
) -> BestThreshold:
    """The score threshold that maximises a decision metric, in one sweep.

    Samples with ``y_score >= threshold`` are predicted positive. Every
    distinct score is a candidate, and so is +inf (predict nothing
    positive).

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`turbometrics.roc_curve` (binary labels; without
        ``pos_label`` they must be {0, 1} or {-1, 1}).
    metric : {'f1', 'fbeta', 'youden', 'accuracy', 'balanced_accuracy', 'mcc'}, default='f1'
        'f1' and 'fbeta' are (1+b^2)tp / ((1+b^2)tp + b^2 fn + fp); 'youden'
        is TPR - FPR; 'accuracy' is (tp+tn)/total; 'balanced_accuracy' is
        (TPR + TNR)/2; 'mcc' is Matthews' correlation coefficient. A ratio
        with a zero denominator counts as 0.
    beta : float > 0, default=1.0
        The F-beta weight of recall; used by 'fbeta' only.
    n_threads : int, default=None
        Threads for the sort and the sweep; the result does not depend on it.

    Returns
    -------
    BestThreshold
        ``(threshold, value, precision, recall, tpr, fpr)``. On ties the
        highest threshold wins.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 0, 1, 1])
    >>> y_score = np.array([0.1, 0.4, 0.35, 0.8])
    >>> best = tm.best_threshold(y_true, y_score, metric="f1")
    >>> best.threshold, round(best.value, 6)
    (0.35, 0.8)

    Youden's J is 0.5 at both 0.8 and 0.35; on ties the highest threshold wins:

    >>> tm.best_threshold(y_true, y_score, metric="youden").threshold
    0.8
    """
    threads = resolve_threads(n_threads)
    data = binary_input(y_true, y_score, pos_label, sample_weight)
    kernel_metric = "fbeta" if metric == "f1" else metric
    kernel_beta = 1.0 if metric == "f1" else float(beta)
    scores, is_positive, weights, kernel_threads = data.kernel_args(threads)
    best = _core.ranking.best_threshold(scores, is_positive, weights, kernel_metric, kernel_beta, kernel_threads)
    return BestThreshold(best["threshold"], best["value"], best["precision"], best["recall"], best["tpr"], best["fpr"])


@validate_params(_COMMON)
def metrics_at_thresholds(
    y_true: Any,
    y_score: Any,
    *,
    beta: float = 1.0,
    sample_weight: Any = None,
    pos_label: Any = None,
    n_threads: int | None = None,
) -> dict[str, np.ndarray]:
    """Confusion counts and rates at every distinct score threshold.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`turbometrics.roc_curve`.
    beta : float > 0, default=1.0
        Weight of recall in the returned F-beta.
    n_threads : int, default=None
        Threads for the sort and the sweep; the result does not depend on it.

    Returns
    -------
    dict of ndarray (float64), each of length n_thresholds
        'thresholds' (distinct scores, decreasing), 'tp', 'fp', 'tn', 'fn'
        (weighted counts when predicting positive at or above the
        threshold), 'precision', 'recall' (= TPR), 'fbeta', 'tpr', 'fpr'.
        Ratios with a zero denominator are 0.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 0, 1, 1])
    >>> y_score = np.array([0.1, 0.4, 0.35, 0.8])
    >>> table = tm.metrics_at_thresholds(y_true, y_score)
    >>> sorted(table)
    ['fbeta', 'fn', 'fp', 'fpr', 'precision', 'recall', 'thresholds', 'tn', 'tp', 'tpr']
    >>> table["thresholds"]
    array([0.8 , 0.4 , 0.35, 0.1 ])
    >>> table["tp"]
    array([1., 1., 2., 2.])
    """
    threads = resolve_threads(n_threads)
    data = binary_input(y_true, y_score, pos_label, sample_weight)
    scores, is_positive, weights, kernel_threads = data.kernel_args(threads)
    columns = _core.ranking.metrics_at_thresholds(scores, is_positive, weights, float(beta), kernel_threads)
    columns["tpr"] = columns["recall"]
    return columns
