"""Precision, recall, F-scores and the Jaccard index.

All of them come from the per-label one-vs-rest counts of one confusion
table (``_confusion.one_vs_rest``), then follow scikit-learn 1.9.1's rules
for label selection, ``zero_division``, warnings and averaging.
"""

from __future__ import annotations

import warnings
from typing import Any, overload

import numpy as np

from .._common.exceptions import UndefinedMetricWarning
from .._common.params import validate_params
from .._common.sklearn_classes import scikit_learn_compatible
from .._common.threads import resolve_threads
from .._common.validation import check_consistent_length, check_orderable, check_sample_weight, num_samples
from ._confusion import TargetCounts, chosen_columns, one_vs_rest, stacked_one_vs_rest
from ._params import (
    AVERAGE,
    BETA,
    JACCARD_ZERO_DIVISION,
    LABELS,
    POS_LABEL,
    WARN_FOR,
    WEIGHTS,
    ZERO_DIVISION,
)
from ._targets import check_targets

Score = float | np.ndarray
_AVERAGES = (None, "micro", "macro", "weighted", "samples")


def zero_division_value(zero_division: Any) -> float:
    """The value an undefined ratio takes: 0 for "warn", 0 or 1, else NaN."""
    if isinstance(zero_division, str) and zero_division == "warn":
        return np.float64(0.0)
    if isinstance(zero_division, (int, float)) and zero_division in [0, 1]:
        return np.float64(zero_division)
    return np.nan


def _float_dtype(*arrays: np.ndarray) -> np.dtype:
    floats = [array.dtype for array in arrays if array.dtype.kind == "f"]
    return np.result_type(*floats) if floats else np.dtype(np.float64)


def divide(
    numerator: np.ndarray,
    denominator: np.ndarray,
    metric: str,
    modifier: str,
    average: str | None,
    warn_for: Any,
    zero_division: Any,
    size: int | None = None,
) -> np.ndarray:
    """Ratio with zero denominators set to ``zero_division`` (and warned
    about with scikit-learn's message when it is "warn"). ``size`` is the
    number of ratios the warning speaks of (default: the array's length;
    the number of samples for groups of samples)."""
    numerator, denominator = np.asarray(numerator), np.asarray(denominator)
    dtype = _float_dtype(numerator, denominator)
    zero = denominator == 0
    safe = np.array(denominator, dtype=dtype, copy=True)
    safe[zero] = 1
    result = np.asarray(numerator, dtype=dtype) / safe
    if not np.any(zero):
        return result
    result[zero] = zero_division_value(zero_division)
    if zero_division != "warn" or metric not in warn_for:
        return result
    _warn_undefined(average, modifier, f"{metric.capitalize()} is", result.shape[0] if size is None else size)
    return result


def _warn_undefined(average: str | None, modifier: str, start: str, size: int) -> None:
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if size == 1 else f"in {axis1}s with"
    warnings.warn(
        f"{start} ill-defined and being set to 0.0 {where} no {modifier} {axis0}s. Use `zero_division` "
        "parameter to control this behavior.",
        scikit_learn_compatible(UndefinedMetricWarning),
        stacklevel=5,
    )


def set_wise_labels(counts: Any, average: str | None, labels: Any, pos_label: Any) -> Any:
    """scikit-learn's ``_check_set_wise_labels`` on already checked targets
    (``counts`` is a ``TargetCounts`` or a ``ConfusionState``)."""
    if average not in _AVERAGES and average != "binary":
        raise ValueError("average has to be one of " + str(_AVERAGES))
    present = counts.labels
    if average == "binary":
        if counts.kind == "binary":
            if pos_label not in present and len(present) >= 2:
                raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one of {present}")
            return [pos_label]
        options = [option for option in _AVERAGES if not (counts.kind == "multiclass" and option == "samples")]
        raise ValueError(
            f"Target is {counts.kind} but average='binary'. Please choose another average setting, one of {options!r}."
        )
    if pos_label not in (None, 1):
        warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' (got "
            f"{average!r}). You may use labels=[pos_label] to specify a single positive class.",
            UserWarning,
            stacklevel=5,
        )
    return labels


def set_wise_input(
    y_true: Any, y_pred: Any, labels: Any, pos_label: Any, average: str | None, sample_weight: Any, threads: int
) -> tuple[TargetCounts, Any]:
    """Checked targets and labels, in scikit-learn's order of checks
    (``_check_set_wise_labels`` before the weights)."""
    check_orderable(y_true, y_pred)
    targets = check_targets(y_true, y_pred, threads=threads)
    counts = TargetCounts(targets, threads)
    labels = set_wise_labels(counts, average, labels, pos_label)
    check_consistent_length(y_true, y_pred, sample_weight)
    if sample_weight is not None:
        targets.sample_weight = check_sample_weight(sample_weight, num_samples(y_true), force_float=False)
    return counts, labels


class SetWiseSums:
    """Per-label (or per group of samples) true positives, predicted and
    true sums, and how to average them over samples.

    Attributes
    ----------
    tp, pred, true : ndarray
    fp, fn : ndarray
        The false positives and negatives, as the one-vs-rest tables hold
        them (``pred`` is ``tp + fp``, ``true`` is ``tp + fn``).
    n_ratios : int or None
        The number of ratios warnings speak of (samples), None for labels.
    weights, fallback : ndarray or None
        'samples' average: the weight of each group, and its number of
        samples (used when the weights sum to zero).
    """

    def __init__(
        self,
        tp: np.ndarray,
        fp: np.ndarray,
        fn: np.ndarray,
        n_ratios: int | None = None,
        weights: np.ndarray | None = None,
        fallback: np.ndarray | None = None,
    ) -> None:
        self.tp, self.fp, self.fn = tp, fp, fn
        self.pred, self.true = tp + fp, tp + fn
        self.n_ratios, self.weights, self.fallback = n_ratios, weights, fallback


def set_wise_sums(counts: Any, labels: Any, average: str | None) -> SetWiseSums:
    """The sums behind precision, recall, F and Jaccard: per label from
    the one-vs-rest 2 x 2 tables, or per group of samples that share their
    (tp, predicted, true) counts for ``average="samples"`` of a state;
    per sample for in-memory input, as scikit-learn averages them."""
    if average != "samples":
        stacked = stacked_one_vs_rest(counts, labels, False)
        return SetWiseSums(stacked[:, 1, 1], stacked[:, 0, 1], stacked[:, 1, 0])
    if counts.kind != "multilabel-indicator":
        one_vs_rest(counts, labels, True)  # raises scikit-learn's error, after its label checks
    columns = chosen_columns(counts, labels)
    if isinstance(counts, TargetCounts):
        tp, fp, fn, _ = counts.samplewise(columns)
        return SetWiseSums(tp, fp, fn, counts.n_samples, counts.targets.sample_weight)
    groups = counts.sample_groups(columns)
    tp, pred, true = groups.triples()
    weights = groups.weight if groups.weight is not None else groups.count
    return SetWiseSums(tp, pred - tp, true - tp, counts.n_samples, weights, groups.count)


def nan_average(values: np.ndarray, weights: np.ndarray | None = None, fallback: np.ndarray | None = None) -> float:
    """Weighted mean ignoring NaN (NaN when nothing is left); all-zero
    weights fall back to the mean weighted by ``fallback`` (None: plain)."""
    if values.shape[0] == 0:
        return np.nan
    missing = np.isnan(values)
    if np.all(missing):
        return np.nan
    if weights is None:
        return np.nanmean(values)
    values, weights = values[~missing], np.asarray(weights)[~missing]
    try:
        return np.average(values, weights=weights)
    except ZeroDivisionError:
        return np.average(values, weights=None if fallback is None else fallback[~missing])


def _prfs(
    y_true: Any,
    y_pred: Any,
    beta: float,
    labels: Any,
    pos_label: Any,
    average: str | None,
    warn_for: Any,
    sample_weight: Any,
    zero_division: Any,
    threads: int,
) -> tuple:
    counts, labels = set_wise_input(y_true, y_pred, labels, pos_label, average, sample_weight, threads)
    return prfs_from_counts(counts, beta, labels, average, warn_for, zero_division)


def prfs_from_counts(
    counts: Any, beta: float, labels: Any, average: str | None, warn_for: Any, zero_division: Any
) -> tuple:
    """Precision, recall, F-beta and support from checked counts (labels
    already through :func:`set_wise_labels`)."""
    sums = set_wise_sums(counts, labels, average)
    tp_sum, pred_sum, true_sum, size = sums.tp, sums.pred, sums.true, sums.n_ratios
    if average == "micro":
        tp_sum = np.reshape(np.sum(tp_sum), (1,))
        pred_sum = np.reshape(np.sum(pred_sum), (1,))
        true_sum = np.reshape(np.sum(true_sum), (1,))
    beta2 = beta**2
    precision = divide(tp_sum, pred_sum, "precision", "predicted", average, warn_for, zero_division, size)
    recall = divide(tp_sum, true_sum, "recall", "true", average, warn_for, zero_division, size)
    if np.isposinf(beta):
        f_score = recall
    elif beta == 0:
        f_score = precision
    else:
        denominator = beta2 * true_sum.astype(np.float64) + pred_sum.astype(np.float64)
        f_score = divide(
            (1 + beta2) * tp_sum.astype(np.float64),
            denominator,
            "f-score",
            "true nor predicted",
            average,
            warn_for,
            zero_division,
            size,
        )
    if average is None:
        return precision, recall, f_score, true_sum
    weights = true_sum if average == "weighted" else sums.weights
    return (
        float(nan_average(precision, weights, sums.fallback)),
        float(nan_average(recall, weights, sums.fallback)),
        float(nan_average(f_score, weights, sums.fallback)),
        None,
    )


def jaccard_from_counts(counts: Any, labels: Any, average: str | None, zero_division: Any) -> Score:
    """The Jaccard index from checked counts (labels already through
    :func:`set_wise_labels`)."""
    sums = set_wise_sums(counts, labels, average)
    numerator = sums.tp
    denominator = sums.tp + sums.fp + sums.fn
    if average == "micro":
        numerator = np.sum(numerator, keepdims=True)
        denominator = np.sum(denominator, keepdims=True)
    jaccard = divide(
        numerator, denominator, "jaccard", "true or predicted", average, ("jaccard",), zero_division, sums.n_ratios
    )
    if average is None:
        return jaccard
    weights = None
    if average == "weighted":
        weights = sums.true
        if not np.any(weights):
            weights = None
    elif average == "samples":
        weights = sums.weights
    return float(np.average(jaccard, weights=weights))


PRFS_CONSTRAINTS = {
    "y_true": LABELS,
    "y_pred": LABELS,
    "beta": BETA,
    "labels": WEIGHTS,
    "pos_label": POS_LABEL,
    "average": AVERAGE,
    "warn_for": WARN_FOR,
    "sample_weight": WEIGHTS,
    "zero_division": ZERO_DIVISION,
}


JACCARD_CONSTRAINTS = {**PRFS_CONSTRAINTS, "zero_division": JACCARD_ZERO_DIVISION}


@validate_params(PRFS_CONSTRAINTS)
def precision_recall_fscore_support(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = None,
    warn_for: Any = ("precision", "recall", "f-score"),
    sample_weight: Any = None,
    zero_division: Any = "warn",
    n_threads: int | None = None,
) -> tuple:
    """Precision, recall, F-beta score and support for each class.

    Same as :func:`sklearn.metrics.precision_recall_fscore_support`; all
    four come from one pass over the labels.

    Parameters
    ----------
    y_true, y_pred : array-like or label indicator array
        True and predicted labels (1-D, any label type), or two
        multilabel indicator matrices of shape (n_samples, n_labels).
    beta : float, default=1.0
        Weight of recall against precision in the F-score.
    labels : array-like, default=None
        The labels to report, in this order (default: every label present,
        sorted). Labels absent from the data get 0 support.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average='binary'`` and the data is binary.
    average : {'binary', 'micro', 'macro', 'samples', 'weighted'} or None, default=None
        None returns per-label arrays; 'micro' pools the counts, 'macro' is
        the unweighted mean over labels, 'weighted' weights by support,
        'samples' averages per sample (multilabel only).
    warn_for : list, tuple or set
        Which of "precision", "recall", "f-score" warn when ill-defined.
    sample_weight : array-like of shape (n_samples,), default=None
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a ratio whose denominator is 0; "warn" uses 0 and issues
        an :class:`UndefinedMetricWarning`.
    n_threads : int, default=None
        Threads for the counting pass; the result is identical for every
        thread count.

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray of float64
        Floats when averaged, per-label arrays when ``average=None``.
    support : None or ndarray of int64
        The number of true samples of each label; None when averaged.

    Raises
    ------
    ValueError
        With scikit-learn's messages: mixed or unsupported target types,
        ``average='binary'`` on multiclass data, a ``pos_label`` that is not
        a label, inconsistent lengths.

    Examples
    --------
    >>> import turbometrics as tm
    >>> y_true = ["cat", "dog", "pig", "cat", "dog", "pig"]
    >>> y_pred = ["cat", "pig", "dog", "cat", "cat", "dog"]
    >>> precision, recall, f1, support = tm.precision_recall_fscore_support(y_true, y_pred)
    >>> precision
    array([0.66666667, 0.        , 0.        ])
    >>> support
    array([2, 2, 2])
    >>> [round(v, 6) for v in tm.precision_recall_fscore_support(y_true, y_pred, average="macro")[:3]]
    [0.222222, 0.333333, 0.266667]
    """
    return _prfs(
        y_true,
        y_pred,
        beta,
        labels,
        pos_label,
        average,
        warn_for,
        sample_weight,
        zero_division,
        resolve_threads(n_threads),
    )


def _one_score(
    which: int,
    warn_for: tuple,
    y_true: Any,
    y_pred: Any,
    beta: float,
    labels: Any,
    pos_label: Any,
    average: str | None,
    sample_weight: Any,
    zero_division: Any,
    n_threads: int | None,
) -> Score:
    return _prfs(
        y_true,
        y_pred,
        beta,
        labels,
        pos_label,
        average,
        warn_for,
        sample_weight,
        zero_division,
        resolve_threads(n_threads),
    )[which]


@overload
def precision_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> float: ...


@overload
def precision_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: None,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> np.ndarray: ...


@overload
def precision_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str | None = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> Score: ...


@validate_params(PRFS_CONSTRAINTS)
def precision_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    n_threads: int | None = None,
) -> Score:
    """Precision tp / (tp + fp), as :func:`sklearn.metrics.precision_score`.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, sample_weight, zero_division, n_threads
        As in :func:`precision_recall_fscore_support`.
    average : {'binary', 'micro', 'macro', 'samples', 'weighted'} or None, default='binary'
        'binary' reports ``pos_label`` only; None returns one value per label.

    Returns
    -------
    precision : float, or ndarray of float64 when ``average=None``

    Raises
    ------
    ValueError
        As :func:`precision_recall_fscore_support`.

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.precision_score([0, 1, 1, 0], [1, 1, 1, 0])
    0.6666666666666666
    >>> tm.precision_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average=None)
    array([0.66666667, 0.        , 0.        ])
    """
    return _one_score(
        0, ("precision",), y_true, y_pred, 1.0, labels, pos_label, average, sample_weight, zero_division, n_threads
    )


@overload
def recall_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> float: ...


@overload
def recall_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: None,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> np.ndarray: ...


@overload
def recall_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str | None = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> Score: ...


@validate_params(PRFS_CONSTRAINTS)
def recall_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    n_threads: int | None = None,
) -> Score:
    """Recall tp / (tp + fn), as :func:`sklearn.metrics.recall_score`.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, sample_weight, zero_division, n_threads
        As in :func:`precision_recall_fscore_support`.
    average : {'binary', 'micro', 'macro', 'samples', 'weighted'} or None, default='binary'
        'binary' reports ``pos_label`` only; None returns one value per label.

    Returns
    -------
    recall : float, or ndarray of float64 when ``average=None``

    Raises
    ------
    ValueError
        As :func:`precision_recall_fscore_support`.

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> tm.recall_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average="macro")
    0.3333333333333333
    """
    return _one_score(
        1, ("recall",), y_true, y_pred, 1.0, labels, pos_label, average, sample_weight, zero_division, n_threads
    )


@overload
def fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> float: ...


@overload
def fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = ...,
    pos_label: Any = ...,
    average: None,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> np.ndarray: ...


@overload
def fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str | None = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> Score: ...


@validate_params(PRFS_CONSTRAINTS)
def fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    n_threads: int | None = None,
) -> Score:
    """F-beta score (1 + beta²)·P·R / (beta²·P + R), as :func:`sklearn.metrics.fbeta_score`.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, sample_weight, zero_division, n_threads
        As in :func:`precision_recall_fscore_support`.
    beta : float
        Recall is beta times as important as precision.
    average : {'binary', 'micro', 'macro', 'samples', 'weighted'} or None, default='binary'
        'binary' reports ``pos_label`` only; None returns one value per label.

    Returns
    -------
    fbeta : float, or ndarray of float64 when ``average=None``

    Raises
    ------
    ValueError
        As :func:`precision_recall_fscore_support`.

    Examples
    --------
    >>> import turbometrics as tm
    >>> round(tm.fbeta_score([0, 1, 1, 0, 1], [1, 1, 0, 0, 1], beta=2.0), 6)
    0.666667
    """
    return _one_score(
        2, ("f-score",), y_true, y_pred, beta, labels, pos_label, average, sample_weight, zero_division, n_threads
    )


@overload
def f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> float: ...


@overload
def f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: None,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> np.ndarray: ...


@overload
def f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str | None = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> Score: ...


@validate_params(PRFS_CONSTRAINTS)
def f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    n_threads: int | None = None,
) -> Score:
    """F1 score, the harmonic mean of precision and recall, as :func:`sklearn.metrics.f1_score`.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, sample_weight, zero_division, n_threads
        As in :func:`precision_recall_fscore_support`.
    average : {'binary', 'micro', 'macro', 'samples', 'weighted'} or None, default='binary'
        'binary' reports ``pos_label`` only; None returns one value per label.

    Returns
    -------
    f1 : float, or ndarray of float64 when ``average=None``

    Raises
    ------
    ValueError
        As :func:`precision_recall_fscore_support`.

    Examples
    --------
    >>> import turbometrics as tm
    >>> tm.f1_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> round(tm.f1_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average="weighted"), 6)
    0.266667
    """
    return _one_score(
        2, ("f-score",), y_true, y_pred, 1, labels, pos_label, average, sample_weight, zero_division, n_threads
    )


@overload
def jaccard_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> float: ...


@overload
def jaccard_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: None,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> np.ndarray: ...


@overload
def jaccard_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = ...,
    pos_label: Any = ...,
    average: str | None = ...,
    sample_weight: Any = ...,
    zero_division: Any = ...,
    n_threads: int | None = ...,
) -> Score: ...


@validate_params(JACCARD_CONSTRAINTS)
def jaccard_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    n_threads: int | None = None,
) -> Score:
    """Jaccard similarity coefficient, as :func:`sklearn.metrics.jaccard_score`.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, n_threads
        As in :func:`precision_recall_fscore_support`.
    zero_division : {"warn", 0, 1}, default="warn"

    Returns
    -------
    float, or ndarray of float64 when ``average`` is None.

    Examples
    --------
    >>> import turbometrics as tm
    >>> round(tm.jaccard_score([0, 1, 1, 0, 1], [1, 1, 0, 0, 1]), 6)
    0.5
    """
    counts, labels = set_wise_input(
        y_true, y_pred, labels, pos_label, average, sample_weight, resolve_threads(n_threads)
    )
    return jaccard_from_counts(counts, labels, average, zero_division)
