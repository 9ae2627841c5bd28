"""Ranking metrics: scikit-learn 1.9.1's signatures and results, computed
by one sort-and-sweep over the table of distinct scores.

Every function here validates its input as scikit-learn does, builds the
score table in C++ (a parallel radix sort, without holding the GIL) and runs
one sweep over it: the ROC curve, the precision-recall curve, the DET curve,
the table itself, the area under the ROC curve or the average precision.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial
from typing import Any, cast, overload

import numpy as np

from .. import _core
from .._common.device_routes import routes_device_tensors
from .._common.exceptions import UndefinedMetricWarning
from .._common.params import (
    ARRAY_LIKE,
    BOOLEAN,
    NONE,
    REAL,
    STRING,
    keyword_only_since,
    real_interval,
    str_options,
    validate_params,
)
from .._common.sklearn_classes import scikit_learn_compatible
from .._common.threads import resolve_threads
from .._common.validation import (
    Target,
    as_array,
    assert_all_finite,
    check_dimensions,
    check_min_samples,
    check_orderable,
    check_score_array,
    column_or_1d,
    type_of_target,
)
from ._averaging import average_over_labels
from ._binary_input import binary_input, prepare_binary
from ._multiclass import check_labels_parameter, classes_and_codes, encode, one_vs_one, one_vs_rest

_POS_LABEL = [REAL, STRING, BOOLEAN, NONE]
_CURVE_CONSTRAINTS = {
    "y_true": [ARRAY_LIKE],
    "y_score": [ARRAY_LIKE],
    "pos_label": _POS_LABEL,
    "sample_weight": [ARRAY_LIKE, NONE],
    "drop_intermediate": [BOOLEAN],
}


@keyword_only_since("1.11", ["y_true", "y_score", "pos_label", "sample_weight"])
@validate_params(_CURVE_CONSTRAINTS)
def confusion_matrix_at_thresholds(
    y_true: Any, y_score: Any, *, pos_label: Any = None, sample_weight: Any = None, n_threads: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Binary confusion matrix entries at every distinct score threshold.

    Same as :func:`sklearn.metrics.confusion_matrix_at_thresholds`: the
    table of distinct scores (descending) with, for "predict positive when
    score >= threshold", the true negatives, false positives, false negatives
    and true positives at each.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; without ``pos_label`` they must be {0, 1} or {-1, 1}.
    y_score : array-like of shape (n_samples,)
        Scores; float64, float32, integer and bool dtypes are read in place.
    pos_label : int, float, bool or str, default=None
        The positive class (1 when None).
    sample_weight : array-like of shape (n_samples,), default=None
        Zero-weight samples are dropped before thresholds are formed.
    n_threads : int, default=None
        Threads for the sort; None uses :func:`turbometrics.get_num_threads`.
        The result is identical for every thread count.

    Returns
    -------
    tns, fps, fns, tps : ndarray of float64, shape (n_thresholds,)
        Weighted counts at each threshold (exact integers when unweighted).
    thresholds : ndarray of shape (n_thresholds,)
        Distinct scores in decreasing order, in the dtype of ``y_score``.
        -0.0 and 0.0 are one score, reported as 0.0.

    Raises
    ------
    ValueError
        With scikit-learn's messages: NaN or infinite scores, inconsistent
        lengths, a target that is not binary, labels other than {0, 1} or
        {-1, 1} without ``pos_label``.
    InvalidParameterError
        For a parameter of the wrong type or value (scikit-learn's message).

    Notes
    -----
    Tied scores form one threshold; -0.0 and 0.0 are one score. Zero-weight
    samples are dropped before thresholds are formed. Cumulative weights are
    summed in the stable sorted order, as scikit-learn's ``cumsum``, so
    ``drop_intermediate`` keeps the same points.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 0, 1, 1])
    >>> y_score = np.array([0.1, 0.4, 0.35, 0.8])
    >>> tns, fps, fns, tps, thresholds = tm.confusion_matrix_at_thresholds(y_true, y_score)
    >>> thresholds
    array([0.8 , 0.4 , 0.35, 0.1 ])
    >>> tps
    array([1., 1., 2., 2.])
    >>> fps
    array([0., 1., 1., 2.])
    """
    threads = resolve_threads(n_threads)
    data = binary_input(y_true, y_score, pos_label, sample_weight, kernel_checks=True)
    with data.raising_value_errors():
        scores, positives, negatives = _core.ranking.score_table(*data.kernel_args(threads), data.check_values)
    tps = positives.astype(np.float64, copy=False)
    fps = negatives.astype(np.float64, copy=False)
    return fps[-1] - fps, fps, tps[-1] - tps, tps, data.thresholds_in_caller_dtype(scores)


@routes_device_tensors
@validate_params(_CURVE_CONSTRAINTS)
def roc_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = True,
    n_threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Receiver operating characteristic (ROC) curve of a binary problem.

    Same as :func:`sklearn.metrics.roc_curve`.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_threads
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=True
        Drop thresholds whose point is collinear with its neighbours (it
        changes neither the curve's shape nor its area).

    Returns
    -------
    fpr, tpr : ndarray of float64
        False and true positive rates, starting at (0, 0). A rate whose total
        weight is not positive is all NaN, with an UndefinedMetricWarning.
    thresholds : ndarray of float64
        Decreasing thresholds; ``thresholds[0]`` is ``inf``.

    Raises
    ------
    ValueError
        With scikit-learn's messages: NaN or infinite scores, inconsistent
        lengths, a target that is not binary, labels other than {0, 1} or
        {-1, 1} without ``pos_label``.
    InvalidParameterError
        For a parameter of the wrong type or value (scikit-learn's message).

    Notes
    -----
    Tied scores form one threshold; -0.0 and 0.0 are one score. Zero-weight
    samples are dropped before thresholds are formed. Cumulative weights are
    summed in the stable sorted order, as scikit-learn's ``cumsum``, so
    ``drop_intermediate`` keeps the same points.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 0, 1, 1])
    >>> y_score = np.array([0.1, 0.4, 0.35, 0.8])
    >>> fpr, tpr, thresholds = tm.roc_curve(y_true, y_score)
    >>> fpr
    array([0. , 0. , 0.5, 0.5, 1. ])
    >>> tpr
    array([0. , 0.5, 0.5, 1. , 1. ])
    >>> thresholds
    array([ inf, 0.8 , 0.4 , 0.35, 0.1 ])
    """
    threads = resolve_threads(n_threads)
    data = binary_input(y_true, y_score, pos_label, sample_weight, kernel_checks=True)
    scores, is_positive, weights, kernel_threads = data.kernel_args(threads)
    with data.raising_value_errors():
        curve = _core.ranking.roc_curve(
            scores, is_positive, weights, bool(drop_intermediate), kernel_threads, data.check_values
        )
    fpr, tpr, thresholds, positives, negatives = _with_signed_zeros(curve, scores, is_positive, weights)
    _warn_if_one_class(positives, negatives)
    return fpr, tpr, thresholds


def _with_signed_zeros(curve: tuple, scores: np.ndarray, is_positive: np.ndarray, weights: np.ndarray | None) -> tuple:
    """A roc_curve kernel's result with scikit-learn's signs of zero.

    scikit-learn's rates are cumulative sums of ``(1 - y) * w`` (false
    positives) and ``y * w`` (true positives) over the samples by decreasing
    score. A sample of the other class with a negative weight adds -0.0, so
    a rate stays -0.0 at every threshold above the highest score of a sample
    that adds anything else (one of its class, or of the other class with a
    positive weight); the kernel's zeros are +0.0. Only negative weights
    make -0.0, so other input is returned as it is; the rates are changed in
    place.
    """
    if weights is None or not (weights < 0).any():
        return curve
    fpr, tpr, thresholds = curve[:3]
    positive = is_positive.astype(bool)
    for rate, own in ((fpr, ~positive), (tpr, positive)):
        adds_more = (weights != 0) & (own | (weights > 0))
        above = thresholds[1:] > float(scores[adds_more].max()) if adds_more.any() else True
        rate[1:][above & (rate[1:] == 0)] = -0.0
    return curve


def _warn_if_one_class(positives: float, negatives: float) -> None:
    if negatives <= 0:
        warnings.warn(
            "No negative samples in y_true, false positive value should be meaningless",
            scikit_learn_compatible(UndefinedMetricWarning),
            stacklevel=3,
        )
    if positives <= 0:
        warnings.warn(
            "No positive samples in y_true, true positive value should be meaningless",
            scikit_learn_compatible(UndefinedMetricWarning),
            stacklevel=3,
        )


@routes_device_tensors
@validate_params(_CURVE_CONSTRAINTS)
def precision_recall_curve(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
    n_threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall pairs for every distinct threshold.

    Same as :func:`sklearn.metrics.precision_recall_curve`.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_threads
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=False
        Drop thresholds where recall does not change on either side.

    Returns
    -------
    precision, recall : ndarray of float64, shape (n_thresholds + 1,)
        In increasing-threshold order, ending with the point (1, 0).
        Precision is 0 where nothing is predicted positive. With no positive
        weight, recall is 1 everywhere and a UserWarning is issued.
    thresholds : ndarray of shape (n_thresholds,)
        Increasing thresholds in the dtype of ``y_score`` (float32 stays
        float32, integers stay integers).

    Raises
    ------
    ValueError
        With scikit-learn's messages: NaN or infinite scores, inconsistent
        lengths, a target that is not binary, labels other than {0, 1} or
        {-1, 1} without ``pos_label``.
    InvalidParameterError
        For a parameter of the wrong type or value (scikit-learn's message).

    Notes
    -----
    Tied scores form one threshold; -0.0 and 0.0 are one score. Zero-weight
    samples are dropped before thresholds are formed. Cumulative weights are
    summed in the stable sorted order, as scikit-learn's ``cumsum``, so
    ``drop_intermediate`` keeps the same points.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 0, 1, 1])
    >>> y_score = np.array([0.1, 0.4, 0.35, 0.8])
    >>> precision, recall, thresholds = tm.precision_recall_curve(y_true, y_score)
    >>> precision
    array([0.5       , 0.66666667, 0.5       , 1.        , 1.        ])
    >>> recall
    array([1. , 1. , 0.5, 0.5, 0. ])
    >>> thresholds
    array([0.1 , 0.35, 0.4 , 0.8 ])

    Thresholds keep the scores' dtype:

    >>> tm.precision_recall_curve(y_true, y_score.astype(np.float32))[2].dtype
    dtype('float32')
    """
    threads = resolve_threads(n_threads)
    data = binary_input(y_true, y_score, pos_label, sample_weight, kernel_checks=True)
    scores, is_positive, weights, kernel_threads = data.kernel_args(threads)
    with data.raising_value_errors():
        precision, recall, thresholds, positives, _ = _core.ranking.precision_recall_curve(
            scores, is_positive, weights, bool(drop_intermediate), kernel_threads, data.check_values
        )
    _warn_if_no_positive(positives)
    return precision, recall, data.thresholds_in_caller_dtype(thresholds)


def _warn_if_no_positive(positives: float) -> None:
    if positives == 0:
        warnings.warn("No positive class found in y_true, recall is set to one for all thresholds.", stacklevel=3)


@validate_params(_CURVE_CONSTRAINTS)
def det_curve(
    y_true: Any,
    y_score: Any,
    pos_label: Any = None,
    sample_weight: Any = None,
    drop_intermediate: bool = False,
    *,
    n_threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Detection error tradeoff (DET) curve of a binary problem.

    Same as :func:`sklearn.metrics.det_curve`, including the threshold at
    infinity (fpr 0, fnr 1) unless fpr 0 is reached at a finite threshold.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, n_threads
        As in :func:`confusion_matrix_at_thresholds`.
    drop_intermediate : bool, default=False
        Drop thresholds where the true positive weight does not change on
        either side.

    Returns
    -------
    fpr, fnr : ndarray of float64
        False positive and false negative rates, by increasing threshold.
    thresholds : ndarray of float64
        Increasing thresholds.

    Raises
    ------
    ValueError
        If only one class is present in ``y_true``.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 0, 1, 1])
    >>> y_score = np.array([0.1, 0.4, 0.35, 0.8])
    >>> fpr, fnr, thresholds = tm.det_curve(y_true, y_score)
    >>> fpr
    array([0.5, 0.5, 0. ])
    >>> fnr
    array([0. , 0.5, 0.5])
    >>> thresholds
    array([0.35, 0.4 , 0.8 ])
    """
    threads = resolve_threads(n_threads)
    target = type_of_target(y_true, input_name="y_true")
    data = prepare_binary(target, y_score, pos_label, sample_weight, kernel_checks=True)
    scores, is_positive, weights, kernel_threads = data.kernel_args(threads)
    with data.raising_value_errors():
        fps, tps, thresholds = _core.ranking.det_curve(
            scores, is_positive, weights, bool(drop_intermediate), kernel_threads, data.check_values
        )
    classes = target.classes if target.classes is not None else np.unique(target.array)
    if classes.shape[0] != 2:
        raise ValueError(
            "Only one class is present in y_true. Detection error tradeoff curve is not defined in that case."
        )
    fns = tps[-1] - tps
    first = np.searchsorted(fps, fps[0], side="right")
    keep = slice(first - 1 if first > 0 else None, np.searchsorted(tps, tps[-1]) + 1)
    return fps[keep][::-1] / fps[-1], fns[keep][::-1] / tps[-1], thresholds[keep][::-1]


def _binary_roc_auc(
    target: Target, y_score: np.ndarray, sample_weight: np.ndarray | None, max_fpr: float | None, n_threads: int
) -> float:
    """scikit-learn's ``_binary_roc_auc_score`` on a 0/1 target."""
    if target.classes is None or target.classes.shape[0] != 2:
        warnings.warn(
            "Only one class is present in y_true. ROC AUC score is not defined in that case.",
            scikit_learn_compatible(UndefinedMetricWarning),
            stacklevel=4,
        )
        return np.nan
    data = prepare_binary(target, y_score, None, sample_weight, scores_checked=True, kernel_checks=True)
    partial_fpr = None if max_fpr is None or max_fpr == 1 else float(max_fpr)
    scores, is_positive, weights, kernel_threads = data.kernel_args(n_threads)
    with data.raising_value_errors():
        area, positives, negatives = _core.ranking.roc_auc(
            scores, is_positive, weights, partial_fpr, kernel_threads, data.check_values
        )
    return roc_auc_from_area(
        area,
        positives,
        negatives,
        partial_fpr,
        lambda: _with_signed_zeros(
            _core.ranking.roc_curve(scores, is_positive, weights, True, kernel_threads), scores, is_positive, weights
        ),
        signed=weights is not None and bool((weights < 0).any()),
    )


def roc_auc_from_area(
    area: float,
    positives: float,
    negatives: float,
    partial_fpr: float | None,
    roc_curve_kernel: Callable[[], tuple],
    *,
    signed: bool = False,
) -> float:
    """The ROC AUC from a table's area sweep: the area itself, or McClish's
    standardised partial area when ``partial_fpr`` is set.

    scikit-learn's arithmetic is followed on the curve instead
    (``roc_curve_kernel()``, a roc_curve kernel's result with
    drop_intermediate), warnings and errors included, when a class has zero
    or negative total weight (NaN rates) or when ``signed`` (some weight is
    negative): the false positive rate may then decrease somewhere, and
    scikit-learn's ``auc`` raises "x is neither increasing nor decreasing";
    where it does not, the area is the trapezoids' sum, whatever the true
    positive rate does."""
    if signed or positives <= 0 or negatives <= 0:
        fpr, tpr, _, _, _ = roc_curve_kernel()
        _warn_if_one_class(positives, negatives)
        return _area_from_curve(fpr, tpr, partial_fpr)
    if partial_fpr is None:
        return float(area)
    return _mcclish(area, partial_fpr)


def _mcclish(partial_area: float, max_fpr: float) -> float:
    """Standardise a partial AUC: 0.5 for chance, 1 for a perfect ranking."""
    min_area = 0.5 * max_fpr**2
    return 0.5 * (1 + (partial_area - min_area) / (max_fpr - min_area))


def _area_from_curve(fpr: np.ndarray, tpr: np.ndarray, max_fpr: float | None) -> float:
    """scikit-learn's area computation on an ROC curve, step for step; only
    used when some weight is negative or a class has no positive total
    weight (NaN rates)."""
    if max_fpr is not None:
        stop = np.searchsorted(fpr, max_fpr, "right")
        x_interp = [fpr[stop - 1], fpr[stop]]
        y_interp = [tpr[stop - 1], tpr[stop]]
        tpr = np.append(tpr[:stop], np.interp(max_fpr, x_interp, y_interp))
        fpr = np.append(fpr[:stop], max_fpr)
    if fpr.shape[0] < 2:
        raise ValueError(f"At least 2 points are needed to compute area under curve, but x.shape = {fpr.shape[0]}")
    steps = np.diff(fpr)
    direction = 1
    if np.any(steps < 0):
        if not np.all(steps <= 0):
            raise ValueError(f"x is neither increasing nor decreasing : {fpr}.")
        direction = -1
    area = float(direction * np.trapezoid(tpr, fpr))
    return area if max_fpr is None else _mcclish(area, max_fpr)


def _indicator_column_roc_auc(
    y_true: np.ndarray, y_score: np.ndarray, sample_weight: np.ndarray | None, max_fpr: float | None, n_threads: int
) -> float:
    """ROC AUC of one column (or the raveled cells) of a label indicator."""
    return _binary_roc_auc(type_of_target(y_true), as_array(y_score), sample_weight, max_fpr, n_threads)


def check_probability_rows(scores: np.ndarray) -> None:
    """scikit-learn's check that multiclass scores are probabilities: every
    row of ``scores`` (n, K) sums to 1 (``np.allclose``).

    Raises
    ------
    ValueError
        scikit-learn's message, otherwise.
    """
    if not np.allclose(1, scores.sum(axis=1)):
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. they should sum up to 1.0 over classes"
        )


def _multiclass_roc_auc(
    y_true: np.ndarray,
    scores: np.ndarray,
    labels: Any,
    multi_class: str,
    average: str | None,
    sample_weight: np.ndarray | None,
    n_threads: int,
) -> float | np.ndarray:
    """scikit-learn's ``_multiclass_roc_auc_score``: one-vs-rest or
    one-vs-one (Hand and Till) over class probabilities."""
    if scores.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains multiple "
            f"classes. Got `y_score.shape={scores.shape}`."
        )
    check_probability_rows(scores)
    average_options: tuple = ("macro", "weighted", None)
    if multi_class == "ovr":
        average_options = ("micro",) + average_options
    if average not in average_options:
        raise ValueError(f"average must be one of {average_options} for multiclass problems")
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    y_true = y_true.reshape(-1)
    if labels is not None:
        classes = check_labels_parameter(
            labels, scores.shape[1], "Number of given labels, {0}, not equal to the number of columns in 'y_score', {1}"
        )
        codes = encode(y_true, classes, "'y_true' contains labels not in parameter 'labels'")
    else:
        classes, codes = classes_and_codes(y_true)
        if classes.shape[0] != scores.shape[1]:
            raise ValueError("Number of classes in y_true not equal to the number of columns in 'y_score'")
    if multi_class == "ovo":
        if sample_weight is not None:
            raise ValueError(
                "sample_weight is not supported for multiclass one-vs-one ROC AUC, 'sample_weight' must "
                "be None in this case."
            )
        return one_vs_one(partial(_binary_roc_auc, max_fpr=None, n_threads=n_threads), codes, scores, average)
    column_metric = partial(_indicator_column_roc_auc, max_fpr=None, n_threads=n_threads)
    return one_vs_rest(column_metric, codes, classes.shape[0], scores, average, sample_weight)


@overload
def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str = ...,
    sample_weight: Any = ...,
    max_fpr: float | None = ...,
    multi_class: str = ...,
    labels: Any = ...,
    n_threads: int | None = ...,
) -> float: ...


@overload
def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = ...,
    sample_weight: Any = ...,
    max_fpr: float | None = ...,
    multi_class: str = ...,
    labels: Any = ...,
    n_threads: int | None = ...,
) -> float | np.ndarray: ...


@routes_device_tensors
@validate_params(
    {
        "y_true": [ARRAY_LIKE],
        "y_score": [ARRAY_LIKE],
        "average": [str_options({"micro", "macro", "samples", "weighted"}), NONE],
        "sample_weight": [ARRAY_LIKE, NONE],
        "max_fpr": [real_interval(0.0, 1, "right"), NONE],
        "multi_class": [str_options({"raise", "ovr", "ovo"})],
        "labels": [ARRAY_LIKE, NONE],
    }
)
def roc_auc_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    sample_weight: Any = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: Any = None,
    n_threads: int | None = None,
) -> float | np.ndarray:
    """Area under the ROC curve, computed from the sorted score table.

    Same as :func:`sklearn.metrics.roc_auc_score` for binary, multiclass
    and multilabel-indicator targets. The area is the rank-sum (Mann-Whitney)
    statistic with ties counted one half, accumulated exactly in integers
    when unweighted.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        Binary labels (the greater label is positive) or a label indicator.
    y_score : array-like of shape (n_samples,) or (n_samples, n_labels)
        Scores of the positive class.
    average : {'micro', 'macro', 'samples', 'weighted'} or None, default='macro'
        Averaging over labels for multilabel input (ignored when binary).
    sample_weight : array-like of shape (n_samples,), default=None
    max_fpr : float in (0, 1], default=None
        If set, the standardised partial AUC over fpr in [0, max_fpr]
        (McClish correction): 0.5 for a random ranking, 1 for a perfect one.
    multi_class : {'raise', 'ovr', 'ovo'}, default='raise'
        For multiclass targets (``y_score`` of shape (n_samples, n_classes),
        rows summing to 1): 'ovr' scores each class against the rest
        (average micro/macro/weighted/None); 'ovo' is Hand and Till's
        pairwise average (macro/weighted, no sample_weight); 'raise' raises.
    labels : array-like, default=None
        Multiclass only: the classes, in the order of the score columns.
    n_threads : int, default=None
        Threads for the sort; the result is identical for every count.

    Returns
    -------
    auc : float, or ndarray of float64 when ``average=None`` (multilabel)
        NaN, with an UndefinedMetricWarning, when y_true has one class.

    Raises
    ------
    ValueError
        With scikit-learn's messages: NaN or infinite scores, inconsistent
        lengths, an unsupported target type, multiclass input without
        ``multi_class``, ``max_fpr`` with multiclass input, scores of a wrong
        shape or rows not summing to 1 (multiclass).
    InvalidParameterError
        For a parameter of the wrong type or value.

    Notes
    -----
    Unweighted, the area is accumulated exactly in 128-bit integers and divided
    once; weighted, it is a compensated sum of trapezoids. Tied scores count
    one half; -0.0 and 0.0 are one score.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 0, 1, 1])
    >>> y_score = np.array([0.1, 0.4, 0.35, 0.8])
    >>> tm.roc_auc_score(y_true, y_score)
    0.75

    Tied scores count one half; ``max_fpr`` gives McClish's standardised partial AUC:

    >>> tm.roc_auc_score([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9])
    0.875
    >>> round(tm.roc_auc_score(y_true, y_score, max_fpr=0.5), 6)
    0.666667

    Multiclass, one-vs-rest over class probabilities:

    >>> proba = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.3, 0.4, 0.3]])
    >>> round(tm.roc_auc_score([0, 1, 2, 1], proba, multi_class="ovr"), 6)
    1.0
    """
    threads = resolve_threads(n_threads)
    target = type_of_target(y_true, input_name="y_true")
    y_true_array = target.array
    check_dimensions(y_true_array)
    assert_all_finite(y_true_array)
    check_min_samples(y_true_array)
    scores = check_score_array(y_score)
    if sample_weight is not None:
        sample_weight = column_or_1d(sample_weight)
    if target.kind == "multiclass" or (target.kind == "binary" and scores.ndim == 2 and scores.shape[1] > 2):
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError(
                "Partial AUC computation not available in multiclass setting, 'max_fpr' must be set to "
                f"`None`, received `max_fpr={max_fpr}` instead"
            )
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr')")
        return _multiclass_roc_auc(y_true_array, scores, labels, multi_class, average, sample_weight, threads)
    if target.kind == "binary":
        # label_binarize: the greater of two labels is the positive class.
        classes = cast(np.ndarray, target.classes)  # a binary target carries its two classes
        if classes.dtype.kind in "biu" and np.array_equal(classes, [0, 1]):
            binarized = target  # already 0/1 or False/True: read in place
        elif classes.shape[0] == 2:
            binarized = Target("binary", y_true_array == classes[-1], np.array([False, True]))
        else:
            binarized = Target("binary", np.zeros(y_true_array.shape, bool), np.array([False]))
        return _binary_roc_auc(binarized, scores, sample_weight, max_fpr, threads)
    if target.kind != "multilabel-indicator":
        raise ValueError(f"{target.kind} format is not supported")
    metric = partial(_indicator_column_roc_auc, max_fpr=max_fpr, n_threads=threads)
    return average_over_labels(metric, y_true_array, scores, average, sample_weight)


def _binary_average_precision(
    y_true: np.ndarray,
    y_score: np.ndarray,
    sample_weight: np.ndarray | None,
    pos_label: Any,
    n_threads: int,
    target: Target | None = None,
) -> float:
    """Average precision of binary input; ``target`` is
    ``type_of_target(y_true)`` when the caller has it."""
    if target is None:
        target = type_of_target(y_true, input_name="y_true")
    data = prepare_binary(target, y_score, pos_label, sample_weight, kernel_checks=True)
    with data.raising_value_errors():
        value, positives, _ = _core.ranking.average_precision(*data.kernel_args(n_threads), data.check_values)
    _warn_if_no_positive(positives)
    return float(value)


@overload
def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str = ...,
    pos_label: Any = ...,
    sample_weight: Any = ...,
    n_threads: int | None = ...,
) -> float: ...


@overload
def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = ...,
    pos_label: Any = ...,
    sample_weight: Any = ...,
    n_threads: int | None = ...,
) -> float | np.ndarray: ...


@routes_device_tensors
@validate_params(
    {
        "y_true": [ARRAY_LIKE],
        "y_score": [ARRAY_LIKE],
        "average": [str_options({"micro", "samples", "weighted", "macro"}), NONE],
        "pos_label": [REAL, STRING, BOOLEAN],
        "sample_weight": [ARRAY_LIKE, NONE],
    }
)
def average_precision_score(
    y_true: Any,
    y_score: Any,
    *,
    average: str | None = "macro",
    pos_label: Any = 1,
    sample_weight: Any = None,
    n_threads: int | None = None,
) -> float | np.ndarray:
    """Average precision: the step-wise area under the precision-recall curve.

    Same as :func:`sklearn.metrics.average_precision_score`:
    ``AP = sum_n (R_n - R_{n-1}) P_n`` over distinct thresholds, without
    interpolation, for binary and multilabel-indicator targets.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
    y_score : array-like of shape (n_samples,) or (n_samples, n_labels)
    average : {'micro', 'samples', 'weighted', 'macro'} or None, default='macro'
        Averaging over labels for multilabel input (ignored when binary).
    pos_label : int, float, bool or str, default=1
        The positive class of binary input; must be 1 for multilabel input.
    sample_weight : array-like of shape (n_samples,), default=None
    n_threads : int, default=None
        Threads for the sort; the result is identical for every count.

    Returns
    -------
    average_precision : float, or ndarray when ``average=None`` (multilabel)
        0.0 with a UserWarning when there is no positive sample.

    Raises
    ------
    ValueError
        With scikit-learn's messages: NaN or infinite scores, inconsistent
        lengths, an unsupported target type, a ``pos_label`` that is not a
        label, ``pos_label != 1`` for multilabel or multiclass input.
    InvalidParameterError
        For a parameter of the wrong type or value.

    Notes
    -----
    Tied scores form one threshold (no interpolation between them); -0.0 and
    0.0 are one score. Zero-weight samples are dropped.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 0, 1, 1])
    >>> y_score = np.array([0.1, 0.4, 0.35, 0.8])
    >>> round(tm.average_precision_score(y_true, y_score), 6)
    0.833333
    >>> tm.average_precision_score(["no", "yes", "yes"], [0.2, 0.9, 0.6], pos_label="yes")
    1.0
    """
    threads = resolve_threads(n_threads)
    if sample_weight is not None:
        sample_weight = column_or_1d(sample_weight)
    target = type_of_target(y_true, input_name="y_true")
    check_orderable(target.array)  # scikit-learn takes the present labels before checking the type
    if target.kind == "binary":
        present = target.classes if target.classes is not None else np.unique(target.array)
        if present.shape[0] == 2 and pos_label not in present:
            raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one of {present}")
    elif target.kind == "multilabel-indicator" and pos_label != 1:
        raise ValueError(
            "Parameter pos_label is fixed to 1 for multilabel-indicator y_true. Do not set pos_label "
            "or set pos_label to 1."
        )
    metric = partial(_binary_average_precision, pos_label=pos_label, n_threads=threads)
    if target.kind == "multiclass":
        if pos_label != 1:
            raise ValueError(
                "Parameter pos_label is fixed to 1 for multiclass y_true. Do not set pos_label or set pos_label to 1."
            )
        classes, codes = classes_and_codes(target.array.reshape(-1))
        scores = as_array(y_score)
        if scores.shape != (codes.shape[0], classes.shape[0]):
            raise ValueError(
                "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
                f"multiple classes. Got `y_score.shape={scores.shape}`."
            )
        return one_vs_rest(metric, codes, classes.shape[0], scores, average, sample_weight)
    if target.kind == "binary":
        return metric(target.array, y_score, sample_weight, target=target)
    if target.kind != "multilabel-indicator":
        raise ValueError(f"{target.kind} format is not supported")
    return average_over_labels(metric, target.array, y_score, average, sample_weight)
