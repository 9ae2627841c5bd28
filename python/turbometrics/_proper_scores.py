"""Proper scoring rules with scikit-learn 1.9.1's signatures and semantics:
``brier_score_loss`` and ``log_loss``.

The validation reproduces scikit-learn's checks, errors and warnings in
scikit-learn's order; the arithmetic is the same NumPy expression
scikit-learn evaluates (so results agree to the last bit in the common
cases). These two are not compiled kernels: ``n_threads`` is accepted and
validated for a uniform API, and NumPy releases the GIL in its loops.
"""

from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple

import numpy as np

from ._params import (
    ARRAY_LIKE,
    BOOLEAN,
    NONE,
    REAL,
    STRING,
    Constraint,
    _is_array_like,
    bind_like_scikit_learn,
    str_options,
    validate,
)
from ._threads import resolve_threads
from ._validation import (
    as_array,
    assert_all_finite,
    check_consistent_length,
    check_pos_label_consistency,
    check_sample_weight,
    check_score_array,
    column_or_1d,
    type_of_target,
)

_POS_LABEL = [REAL, STRING, BOOLEAN, NONE]
# scikit-learn's Hidden(None): accepted, but not named in the error message.
_ARRAY_LIKE_OR_HIDDEN_NONE = Constraint("an array-like", lambda value: value is None or _is_array_like(value))


def _float_proba(y_proba: Any) -> np.ndarray:
    """check_array(y_proba, ensure_2d=False, dtype=(float64, float32, float16))."""
    array = check_score_array(y_proba)
    if array.dtype not in (np.float64, np.float32, np.float16):
        array = array.astype(np.float64)
    return array


def _average(values: np.ndarray, weights: Any, normalize: bool = True) -> float:
    """scikit-learn's ``_average``: a (weighted) mean or sum."""
    if weights is None:
        return float(np.mean(values) if normalize else np.sum(values))
    weights = np.asarray(weights)
    dtype = np.result_type(values.dtype, weights.dtype)
    if dtype.kind != "f":
        dtype = np.float64
    values = values.astype(dtype)
    weights = weights.astype(dtype)
    total = np.sum(np.multiply(values, weights))
    if not normalize:
        return float(total)
    scale = np.sum(weights)
    if scale == 0.0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return float(total / scale)


def _one_hot(y_true: Any, labels: Any) -> Tuple[np.ndarray, np.ndarray]:
    """LabelBinarizer's encoding of y_true (two columns for two classes)."""
    y = as_array(y_true)
    if labels is not None:
        classes = np.unique(as_array(labels))
        if classes.shape != np.shape(labels) or not np.all(classes == as_array(labels)):
            warnings.warn(
                f"Labels passed were {labels}. But this function assumes labels are ordered lexicographically. "
                f"Pass the ordered labels={classes.tolist()} and ensure that the columns of y_prob correspond "
                "to this ordering.",
                UserWarning,
            )
        if not np.all(np.isin(y, as_array(labels))):
            undeclared = set(y_true) - set(labels)
            raise ValueError(f"y_true contains values {undeclared} not belonging to the passed labels {labels}.")
    else:
        target = type_of_target(y, input_name="y")
        if target.kind.endswith("multioutput"):
            raise ValueError("Multioutput target data is not supported with label binarization")
        if target.kind == "multilabel-indicator":
            return y.astype(np.int64), np.arange(y.shape[1])
        classes = np.unique(y)
    if classes.shape[0] == 1:
        if labels is None:
            raise ValueError(
                f"y_true contains only one label ({classes[0]}). Please provide the list of all expected class "
                "labels explicitly through the labels argument."
            )
        raise ValueError(f"The labels array needs to contain at least two labels, got {classes}.")
    encoded = (column_or_1d(y)[:, None] == classes[None, :]).astype(np.int64)
    return encoded, classes


def _multiclass(y_true: Any, y_prob: np.ndarray, sample_weight: Any, labels: Any) -> Tuple[np.ndarray, np.ndarray]:
    """scikit-learn's ``_validate_multiclass_probabilistic_prediction``."""
    if np.max(y_prob) > 1:
        raise ValueError(f"y_prob contains values greater than 1: {np.max(y_prob)}")
    if np.min(y_prob) < 0:
        raise ValueError(f"y_prob contains values lower than 0: {np.min(y_prob)}")
    check_consistent_length(y_prob, y_true, sample_weight)
    if sample_weight is not None:
        check_sample_weight(sample_weight, y_prob.shape[0])
    encoded, classes = _one_hot(y_true, labels)
    if y_prob.ndim == 1:
        y_prob = y_prob[:, np.newaxis]
    if y_prob.shape[1] == 1:
        y_prob = np.concatenate([1 - y_prob, y_prob], axis=1)
    eps = np.finfo(y_prob.dtype).eps
    sums = np.sum(y_prob, axis=1)
    if not np.all(np.isclose(sums, np.asarray(1, dtype=sums.dtype), rtol=np.sqrt(eps))):
        warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.", UserWarning)
    if classes.shape[0] != y_prob.shape[1]:
        if labels is None:
            raise ValueError(
                "y_true and y_prob contain different number of classes: {0} vs {1}. Please provide the true "
                "labels explicitly through the labels argument. Classes found in y_true: {2}".format(
                    encoded.shape[1], y_prob.shape[1], classes)
            )
        raise ValueError(f"The number of classes in labels is different from that in y_prob. Classes found in "
                         f"labels: {classes}")
    return encoded, y_prob


def _binary(y_true: Any, y_prob: np.ndarray, sample_weight: Any, pos_label: Any) -> Tuple[np.ndarray, np.ndarray]:
    """scikit-learn's ``_validate_binary_probabilistic_prediction``."""
    y_true = column_or_1d(y_true)
    y_prob = column_or_1d(y_prob)
    assert_all_finite(y_true)
    assert_all_finite(y_prob)
    check_consistent_length(y_prob, y_true, sample_weight)
    if sample_weight is not None:
        check_sample_weight(sample_weight, y_prob.shape[0])
    kind = type_of_target(y_true, input_name="y_true").kind
    if kind != "binary":
        raise ValueError(f"The type of the target inferred from y_true is {kind} but should be binary according "
                         "to the shape of y_prob.")
    if np.max(y_prob) > 1:
        raise ValueError(f"y_prob contains values greater than 1: {np.max(y_prob)}")
    if np.min(y_prob) < 0:
        raise ValueError(f"y_prob contains values less than 0: {np.min(y_prob)}")
    if pos_label is None:
        classes = np.unique(y_true)
        try:
            pos_label = check_pos_label_consistency(None, classes)
        except ValueError:
            if classes.dtype.kind in "OUS":
                raise
            pos_label = classes[-1]
    positive = np.asarray(y_true == pos_label, dtype=np.int64)
    return np.stack((1 - positive, positive), axis=1), np.stack((1 - y_prob, y_prob), axis=1)


@bind_like_scikit_learn
def brier_score_loss(y_true: Any, y_proba: Any, *, sample_weight: Any = None, pos_label: Any = None,
                     labels: Any = None, scale_by_half: Any = "auto", n_threads: Optional[int] = None) -> float:
    """Brier score loss: mean squared difference of probabilities and outcomes.

    Same as :func:`sklearn.metrics.brier_score_loss` (scikit-learn 1.9.1).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probability of the positive class (1-D) or of each class, columns in
        sorted label order.
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : int, float, bool or str, default=None
        Positive class for 1-D ``y_proba``: 1 for {0, 1} or {-1, 1} labels,
        else the greater label (an error for string labels).
    labels : array-like of shape (n_classes,), default=None
        Class labels for 2-D ``y_proba`` (inferred from ``y_true`` if None).
    scale_by_half : bool or "auto", default="auto"
        Halve the score ("auto": only with at most two classes).
    n_threads : int, default=None
        Accepted and validated; the computation is NumPy's.

    Returns
    -------
    float
    """
    validate("brier_score_loss", {"y_true": y_true, "y_proba": y_proba, "sample_weight": sample_weight,
                                  "pos_label": pos_label, "labels": labels, "scale_by_half": scale_by_half},
             {"y_true": [ARRAY_LIKE], "y_proba": [ARRAY_LIKE], "sample_weight": [ARRAY_LIKE, NONE],
              "pos_label": _POS_LABEL, "labels": [ARRAY_LIKE, NONE],
              "scale_by_half": [BOOLEAN, str_options({"auto"})]})
    resolve_threads(n_threads)
    y_proba = _float_proba(y_proba)
    if y_proba.ndim == 1 or y_proba.shape[1] == 1:
        encoded, y_proba = _binary(y_true, y_proba, sample_weight, pos_label)
    else:
        encoded, y_proba = _multiclass(y_true, y_proba, sample_weight, labels)
    encoded = encoded.astype(y_proba.dtype, copy=False)
    score = _average(np.sum((encoded - y_proba) ** 2, axis=1), sample_weight)
    if scale_by_half == "auto":
        scale_by_half = y_proba.ndim == 1 or y_proba.shape[1] < 3
    if scale_by_half:
        score *= 0.5
    return float(score)


@bind_like_scikit_learn
def log_loss(y_true: Any, y_proba: Any = None, *, normalize: bool = True, sample_weight: Any = None,
             labels: Any = None, y_pred: Any = "deprecated", n_threads: Optional[int] = None) -> float:
    """Log loss (cross-entropy), natural logarithm.

    Same as :func:`sklearn.metrics.log_loss` (scikit-learn 1.9.1):
    probabilities are clipped to ``[eps, 1 - eps]`` with ``eps`` the machine
    epsilon of their dtype, a UserWarning is issued when rows do not sum to
    one, and ``y_pred`` is the deprecated name of ``y_proba``.

    Parameters
    ----------
    y_true : array-like
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
    normalize : bool, default=True
        Mean (True) or sum (False) of the per-sample losses.
    sample_weight : array-like of shape (n_samples,), default=None
    labels : array-like, default=None
    y_pred : array-like, deprecated
    n_threads : int, default=None
        Accepted and validated; the computation is NumPy's.

    Returns
    -------
    float
    """
    validate("log_loss", {"y_true": y_true, "y_proba": y_proba, "normalize": normalize,
                          "sample_weight": sample_weight, "labels": labels, "y_pred": y_pred},
             {"y_true": [ARRAY_LIKE], "y_proba": [_ARRAY_LIKE_OR_HIDDEN_NONE], "normalize": [BOOLEAN],
              "sample_weight": [ARRAY_LIKE, NONE], "labels": [ARRAY_LIKE, NONE], "y_pred": [ARRAY_LIKE, STRING]})
    resolve_threads(n_threads)
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError("Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use `y_proba` "
                             "instead.")
        warnings.warn("`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11. Use "
                      "`y_proba` instead.", FutureWarning, stacklevel=2)
        y_proba = y_pred
    y_proba = _float_proba(y_proba)
    encoded, y_proba = _multiclass(y_true, y_proba, sample_weight, labels)
    eps = np.finfo(y_proba.dtype).eps
    y_proba = np.clip(y_proba, eps, 1 - eps)
    encoded = encoded.astype(y_proba.dtype, copy=False)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = encoded * np.log(y_proba)
    terms = np.where(encoded == 0.0, np.asarray(0.0, dtype=terms.dtype), terms)
    return _average(-np.sum(terms, axis=1), sample_weight, normalize)
