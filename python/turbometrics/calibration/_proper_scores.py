"""Proper scoring rules with scikit-learn 1.9.1's signatures and semantics:
``brier_score_loss`` and ``log_loss``.

The validation reproduces scikit-learn's checks, errors and warnings in
scikit-learn's order. For float64 probabilities the heavy passes are
compiled (GIL released, ``n_threads``): one pass gives every fact the
validation needs (NaN or infinity, minimum, maximum, whether the rows sum to
one), and one pass computes the score from the class of each sample (no
one-hot matrix, no clipped copy; the log loss takes one logarithm per
sample, of the true class's probability, by the loop ``np.log`` runs on
this processor). Integer and bool labels are encoded in that pass; other
labels are encoded by NumPy first. Results are scikit-learn's bits: the
sums are NumPy's (pairwise, or ``np.dot`` for a weighted sum, as
scikit-learn's ``_average`` computes them).
float32 and float16 probabilities, whose arithmetic scikit-learn does in
that precision, and multilabel-indicator targets take scikit-learn's NumPy
expressions.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from .. import _core
from .._common.params import (
    ARRAY_LIKE,
    BOOLEAN,
    NONE,
    REAL,
    STRING,
    Constraint,
    _is_array_like,
    str_options,
    validate_params,
)
from .._common.serial import ints_from_limbs
from .._common.threads import resolve_threads, threads_for
from .._common.validation import (
    Target,
    as_array,
    assert_all_finite,
    check_consistent_length,
    check_orderable,
    check_pos_label_consistency,
    check_sample_weight,
    check_score_array,
    column_or_1d,
    num_samples,
    type_of_target,
)
from ..ranking import positive_mask

_POS_LABEL = [REAL, STRING, BOOLEAN, NONE]
# scikit-learn's Hidden(None): accepted, but not named in the error message.
_ARRAY_LIKE_OR_HIDDEN_NONE = Constraint("an array-like", lambda value: value is None or _is_array_like(value))


class _Facts(NamedTuple):
    """What one compiled pass over float64 probabilities found."""

    status: int  # 0 finite, 1 some NaN, 2 some infinity (and no NaN)
    low: float
    high: float
    rows_sum_to_one: bool  # np.isclose(row sums, 1, rtol=sqrt(eps)) for every row


def _kernel_ready(array: np.ndarray) -> bool:
    return (
        array.dtype == np.float64
        and array.dtype.isnative
        and array.flags.aligned
        and array.ndim in (1, 2)
        and array.size > 0
    )


def _facts(array: np.ndarray, threads: int) -> _Facts:
    # A column (n, 1) becomes the pair (1 - p, p) in _multiclass, as 1-D input does.
    flat = array.reshape(-1) if array.ndim == 2 and array.shape[1] == 1 else array
    eps = np.finfo(np.float64).eps
    return _Facts(
        *_core.calibration.probability_facts(flat, True, float(np.sqrt(eps)), 1e-8, threads_for(threads, array.size))
    )


def _float_proba(y_proba: Any, threads: int) -> tuple[np.ndarray, _Facts | None]:
    """check_array(y_proba, ensure_2d=False, dtype=(float64, float32, float16)),
    and for float64 input the facts of one compiled pass (its finiteness
    check is scikit-learn's)."""
    array = np.asarray(y_proba)
    if array.dtype.kind in "US":
        # scikit-learn converts strings, with NumPy's error for one that is no number
        array = np.asarray(y_proba, dtype=np.float64)
    elif array.ndim == 0 and array.dtype.kind in "biu":
        num_samples(array.astype(np.float64))  # scikit-learn's TypeError shows the converted scalar
    facts = None
    if _kernel_ready(array):
        facts = _facts(array, threads)
        array = check_score_array(array, status=facts.status)
    else:
        array = check_score_array(y_proba)
    if array.dtype not in (np.float64, np.float32, np.float16):
        array = array.astype(np.float64)
    return array, facts


_LOW_PRECISION = (np.dtype(np.float32), np.dtype(np.float16))  # computed in their dtype, as scikit-learn


def _average(values: np.ndarray, weights: Any, normalize: bool = True) -> Any:
    """scikit-learn's ``_average`` on NumPy arrays: ``np.average`` (a
    weighted mean), ``np.sum``, or, for a weighted sum, ``np.dot`` (BLAS's
    summation order, which depends on the BLAS build and processor: called,
    not reproduced). The NumPy scalar, in the values' dtype when unweighted,
    as scikit-learn's: ``brier_score_loss`` halves it in that dtype (a
    float32 mean in the subnormal range loses bits there)."""
    if normalize:
        return np.average(values, weights=weights)
    return np.sum(values) if weights is None else np.dot(values, weights)


class _Target(NamedTuple):
    """y_true as scikit-learn's LabelBinarizer sees it: 1-D labels and their
    sorted classes, or (multilabel) the indicator matrix itself."""

    labels: np.ndarray
    classes: np.ndarray
    indicator: bool

    def one_hot(self) -> np.ndarray:
        """The one-hot matrix scikit-learn builds (the NumPy path)."""
        if self.indicator:
            return self.labels
        return (self.labels[:, None] == self.classes[None, :]).astype(np.int64)


def _distinct(y: np.ndarray, known: np.ndarray | None, threads: int) -> np.ndarray:
    """np.unique(y): the scan's classes when it found at most two, a compiled
    pass for integer and bool labels, else NumPy."""
    if known is not None:
        return known
    if y.ndim == 1 and y.dtype.kind in "biu" and y.dtype.isnative:
        return _core.classification.label_values(y, threads_for(threads, y.shape[0]))
    return np.unique(y)


def _check_label_type(values: Any) -> Target:
    """LabelBinarizer's check of the values it is fitted on: binary,
    multiclass or multilabel-indicator targets (an object array of numbers
    or continuous values raise scikit-learn's "Unknown label type")."""
    target = type_of_target(as_array(values), input_name="y")
    if target.kind.endswith("multioutput"):
        raise ValueError("Multioutput target data is not supported with label binarization")
    check_orderable(values)
    if target.kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"Unknown label type: {(values,)!r}")
    return target


def _one_hot(y_true: Any, labels: Any, threads: int = 1) -> _Target:
    """LabelBinarizer's encoding of y_true (two columns for two classes),
    without the one-hot matrix."""
    y = as_array(y_true)
    if labels is not None:
        _check_label_type(labels)
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
        target = _check_label_type(y_true)
        if target.kind == "multilabel-indicator":
            return _Target(y.astype(np.int64), np.arange(y.shape[1]), True)
        classes = _distinct(target.array, target.classes, threads)
    if classes.shape[0] == 1:
        if labels is None:
            raise ValueError(
                f"y_true contains only one label ({classes[0]}). Please provide the list of all expected class "
                "labels explicitly through the labels argument."
            )
        raise ValueError(f"The labels array needs to contain at least two labels, got {classes}.")
    return _Target(column_or_1d(y), classes, False)


def _multiclass(
    y_true: Any, y_prob: np.ndarray, sample_weight: Any, labels: Any, facts: _Facts | None = None, threads: int = 1
) -> tuple[_Target, np.ndarray]:
    """scikit-learn's ``_validate_multiclass_probabilistic_prediction``
    (with ``facts``, its passes over y_prob come from the compiled one)."""
    high = facts.high if facts is not None else np.max(y_prob)
    if high > 1:
        raise ValueError(f"y_prob contains values greater than 1: {high}")
    low = facts.low if facts is not None else np.min(y_prob)
    if low < 0:
        raise ValueError(f"y_prob contains values lower than 0: {low}")
    check_consistent_length(y_prob, y_true, sample_weight)
    if sample_weight is not None:
        check_sample_weight(sample_weight, y_prob.shape[0])
    target = _one_hot(y_true, labels, threads)
    if y_prob.ndim == 1:
        y_prob = y_prob[:, np.newaxis]
    if y_prob.shape[1] == 1:
        # Keep the column itself for the kernel, which reads (1 - p, p).
        y_prob = y_prob if facts is not None else np.concatenate([1 - y_prob, y_prob], axis=1)
    rows_sum_to_one = facts.rows_sum_to_one if facts is not None else _rows_sum_to_one(y_prob)
    if not rows_sum_to_one:
        warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.", UserWarning)
    columns = 2 if y_prob.shape[1] == 1 else y_prob.shape[1]
    if target.classes.shape[0] != columns:
        if labels is None:
            found = target.classes.shape[0] if not target.indicator else target.labels.shape[1]
            raise ValueError(
                f"y_true and y_prob contain different number of classes: {found} vs {columns}. Please provide the "
                f"true labels explicitly through the labels argument. Classes found in y_true: {target.classes}"
            )
        raise ValueError(
            f"The number of classes in labels is different from that in y_prob. Classes found in "
            f"labels: {target.classes}"
        )
    return target, y_prob


def _rows_sum_to_one(y_prob: np.ndarray) -> bool:
    """scikit-learn's check that the rows of ``y_prob`` (n, K) sum to one:
    ``np.isclose`` in their dtype, rtol the square root of its epsilon."""
    eps = np.finfo(y_prob.dtype).eps
    sums = np.sum(y_prob, axis=1)
    return bool(np.all(np.isclose(sums, np.asarray(1, dtype=sums.dtype), rtol=np.sqrt(eps))))


def _kernel_labels(target: _Target) -> tuple[np.ndarray, np.ndarray] | None:
    """(labels, classes) of one integer dtype for the score kernel: integer
    and bool labels as they are, others as their class index; None for
    indicator targets."""
    if target.indicator:
        return None
    y, classes = target.labels, target.classes
    if y.dtype.kind in "biu" and y.dtype.isnative:
        if classes.dtype == y.dtype:
            return y, classes
        if classes.dtype.kind in "biu":
            cast = classes.astype(y.dtype)
            if np.array_equal(cast.astype(classes.dtype), classes):  # exact, so still sorted and distinct
                return y, cast
    # Class indices; a label equal to no class (NaN) gets -1, an all-zero row
    # as in scikit-learn's one-hot matrix.
    codes = np.searchsorted(classes, y)
    inside = codes < classes.shape[0]
    matched = np.zeros(y.shape[0], dtype=bool)
    matched[inside] = classes[codes[inside]] == y[inside]
    codes = np.where(matched, codes, -1).astype(np.int64)
    return codes, np.arange(classes.shape[0], dtype=np.int64)


def _kernel_weights(sample_weight: Any) -> np.ndarray | None:
    if sample_weight is None:
        return None
    return np.ascontiguousarray(np.asarray(sample_weight), dtype=np.float64).reshape(-1)


def _kernel_score(
    y_prob: np.ndarray,
    kernel_labels: tuple[np.ndarray, np.ndarray],
    sample_weight: Any,
    score: str,
    threads: int,
    normalize: bool = True,
) -> float:
    """scikit-learn's _average of the per-row losses, from one compiled pass
    (a weighted sum: np.dot of the compiled per-row losses and the weights,
    as scikit-learn computes it)."""
    prob = y_prob.reshape(-1) if y_prob.ndim == 2 and y_prob.shape[1] == 1 else y_prob
    labels, classes = kernel_labels
    eps = float(np.finfo(np.float64).eps)
    if not normalize and sample_weight is not None:
        terms, _ = _core.calibration.score_terms(prob, labels, classes, score, eps, threads_for(threads, prob.size))
        return float(_average(terms, sample_weight, normalize=False))
    total, weight, _ = _core.calibration.score_sums(
        prob, labels, classes, _kernel_weights(sample_weight), score, eps, threads_for(threads, prob.size)
    )
    if not normalize:
        return float(total)
    weights = None if sample_weight is None else np.asarray(sample_weight)
    if weights is not None and weights.dtype != np.float64:
        # np.average sums weights of another dtype as float64 in NumPy's
        # buffered blocks, an order of its own: NumPy's sum keeps it.
        weight = float(weights.sum(dtype=np.float64))
    if sample_weight is not None and weight == 0.0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return float(total / weight)


def _binary(
    y_true: Any, y_prob: np.ndarray, sample_weight: Any, pos_label: Any, facts: _Facts | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's ``_validate_binary_probabilistic_prediction``: the
    mask of the positive class and the 1-D probabilities (with ``facts``,
    its passes over y_prob come from the compiled one)."""
    y_true = column_or_1d(y_true)
    y_prob = column_or_1d(y_prob)
    assert_all_finite(y_true)
    assert_all_finite(y_prob, status=facts.status if facts is not None else None)
    check_consistent_length(y_prob, y_true, sample_weight)
    if sample_weight is not None:
        check_sample_weight(sample_weight, y_prob.shape[0])
    target = type_of_target(y_true, input_name="y_true")
    if target.kind != "binary":
        raise ValueError(
            f"The type of the target inferred from y_true is {target.kind} but should be binary according "
            "to the shape of y_prob."
        )
    high = facts.high if facts is not None else np.max(y_prob)
    if high > 1:
        raise ValueError(f"y_prob contains values greater than 1: {high}")
    low = facts.low if facts is not None else np.min(y_prob)
    if low < 0:
        raise ValueError(f"y_prob contains values less than 0: {low}")
    if pos_label is None:
        classes = target.classes if target.classes is not None else np.unique(y_true)
        try:
            pos_label = check_pos_label_consistency(None, classes)
        except ValueError:
            if classes.dtype.kind in "OUS":
                raise
            pos_label = classes[-1]
    return positive_mask(target.array, pos_label, target.classes), y_prob


@validate_params(
    {
        "y_true": [ARRAY_LIKE],
        "y_proba": [ARRAY_LIKE],
        "sample_weight": [ARRAY_LIKE, NONE],
        "pos_label": _POS_LABEL,
        "labels": [ARRAY_LIKE, NONE],
        "scale_by_half": [BOOLEAN, str_options({"auto"})],
    }
)
def brier_score_loss(
    y_true: Any,
    y_proba: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    labels: Any = None,
    scale_by_half: Any = "auto",
    n_threads: int | None = None,
) -> float:
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
        Threads for the compiled passes (float64 probabilities); the result
        is identical for every thread count.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 1, 1, 0])
    >>> y_proba = np.array([0.1, 0.9, 0.8, 0.3])
    >>> round(tm.brier_score_loss(y_true, y_proba), 6)
    0.0375
    >>> round(tm.brier_score_loss(["spam", "ham", "ham", "spam"], y_proba, pos_label="ham"), 6)
    0.0375
    """
    threads = resolve_threads(n_threads)
    y_proba, facts = _float_proba(y_proba, threads)
    if y_proba.ndim == 1 or y_proba.shape[1] == 1:
        positive, y_prob = _binary(y_true, y_proba, sample_weight, pos_label, facts)
        columns = 2
        if facts is not None:
            mask = positive.view(np.uint8) if positive.dtype == np.bool_ else positive
            score = _kernel_score(y_prob, (mask, np.array([0, 1], dtype=mask.dtype)), sample_weight, "brier", threads)
        else:
            positive = np.asarray(positive, dtype=np.int64)
            encoded = np.stack((1 - positive, positive), axis=1).astype(y_prob.dtype, copy=False)
            score = _average(_brier_terms(encoded, np.stack((1 - y_prob, y_prob), axis=1)), sample_weight)
    else:
        target, y_proba = _multiclass(y_true, y_proba, sample_weight, labels, facts, threads)
        columns = 2 if y_proba.shape[1] == 1 else y_proba.shape[1]
        kernel_labels = _kernel_labels(target) if facts is not None else None
        if kernel_labels is not None:
            score = _kernel_score(y_proba, kernel_labels, sample_weight, "brier", threads)
        else:
            if y_proba.shape[1] == 1:
                y_proba = np.concatenate([1 - y_proba, y_proba], axis=1)
            encoded = target.one_hot().astype(y_proba.dtype, copy=False)
            score = _average(_brier_terms(encoded, y_proba), sample_weight)
    if scale_by_half == "auto":
        scale_by_half = columns < 3
    if scale_by_half:
        score *= 0.5
    return float(score)


@validate_params(
    {
        "y_true": [ARRAY_LIKE],
        "y_proba": [_ARRAY_LIKE_OR_HIDDEN_NONE],
        "normalize": [BOOLEAN],
        "sample_weight": [ARRAY_LIKE, NONE],
        "labels": [ARRAY_LIKE, NONE],
        "y_pred": [ARRAY_LIKE, STRING],
    }
)
def log_loss(
    y_true: Any,
    y_proba: Any = None,
    *,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
    y_pred: Any = "deprecated",
    n_threads: int | None = None,
) -> float:
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
        Threads for the compiled passes (float64 probabilities); the result
        is identical for every thread count.

    Returns
    -------
    float

    Examples
    --------
    >>> import turbometrics as tm
    >>> round(tm.log_loss(["spam", "ham", "ham", "spam"], [[0.1, 0.9], [0.9, 0.1], [0.8, 0.2], [0.35, 0.65]]), 6)
    0.216162
    """
    threads = resolve_threads(n_threads)
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError("Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use `y_proba` instead.")
        warnings.warn(
            "`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11. Use `y_proba` instead.",
            FutureWarning,
            stacklevel=2,
        )
        y_proba = y_pred
    y_proba, facts = _float_proba(y_proba, threads)
    target, y_proba = _multiclass(y_true, y_proba, sample_weight, labels, facts, threads)
    kernel_labels = _kernel_labels(target) if facts is not None else None
    if kernel_labels is not None:
        return _kernel_score(y_proba, kernel_labels, sample_weight, "log", threads, normalize)
    if y_proba.shape[1] == 1:
        y_proba = np.concatenate([1 - y_proba, y_proba], axis=1)
    return float(_average(_log_terms(target.one_hot(), y_proba), sample_weight, normalize))


def _brier_terms(encoded: np.ndarray, y_proba: np.ndarray) -> np.ndarray:
    """scikit-learn's per-row Brier terms in the probabilities' dtype: the
    squared distance of each row of ``y_proba`` (n, K) from its one-hot row
    ``encoded`` (already in that dtype)."""
    return np.sum((encoded - y_proba) ** 2, axis=1)


def _log_terms(encoded: np.ndarray, y_proba: np.ndarray) -> np.ndarray:
    """scikit-learn's per-row log losses in the probabilities' dtype:
    ``y_proba`` (n, K) clipped to [eps, 1 - eps] (the machine epsilon of
    its dtype), the one-hot rows ``encoded`` times its logarithm."""
    eps = np.finfo(y_proba.dtype).eps
    y_proba = np.clip(y_proba, eps, 1 - eps)
    encoded = encoded.astype(y_proba.dtype, copy=False)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = encoded * np.log(y_proba)
    terms = np.where(encoded == 0.0, np.asarray(0.0, dtype=terms.dtype), terms)
    return -np.sum(terms, axis=1)


def checked_probabilities(y_prob: np.ndarray, n_threads: int | None = None) -> bool:
    """Check probabilities (1-D, or (n, K) rows) as :func:`log_loss`
    checks them, in one compiled pass; returns whether every row sums to one
    (1-D: always), as :func:`log_loss` judges it before its warning (for
    float32 and float16 rows, summed in their dtype, within the square root
    of its epsilon).

    Raises
    ------
    ValueError
        For NaN or infinity (scikit-learn's message) and for values above
        1 or below 0 (:func:`log_loss`'s messages).
    """
    if y_prob.size == 0:
        return True
    facts = _facts(np.ascontiguousarray(y_prob, dtype=np.float64), resolve_threads(n_threads))
    assert_all_finite(y_prob, status=facts.status)
    if facts.high > 1:
        raise ValueError(f"y_prob contains values greater than 1: {facts.high}")
    if facts.low < 0:
        raise ValueError(f"y_prob contains values lower than 0: {facts.low}")
    if y_prob.ndim == 1:
        return True
    if y_prob.dtype in _LOW_PRECISION:
        return _rows_sum_to_one(y_prob)
    return facts.rows_sum_to_one


def exact_score_sums(
    y_index: np.ndarray, y_prob: np.ndarray, sample_weight: np.ndarray | None, score: str, n_threads: int | None = None
) -> tuple[int, int]:
    """The Brier score's (``score="brier"``) or the log loss's (``"log"``)
    sums as exact fixed-point ints (worth ``2**-1100`` per unit): the sum
    over rows of ``w * loss``, each term computed as :func:`brier_score_loss`
    and :func:`log_loss` compute it, and the sum of the weights (0 when
    ``sample_weight`` is None). Sums of batches add up to the sums of their
    concatenation, whatever the split.

    Parameters
    ----------
    y_index : ndarray of int
        Class indices 0 .. K-1 (binary: 0 or 1).
    y_prob : ndarray of float64, checked by :func:`checked_probabilities`
        1-D: the probability of class 1; (n, K): one column per class.
    sample_weight : ndarray of float64 or None

    float32 and float16 probabilities take the functions' NumPy expressions
    in their dtype (the float32 clip at its epsilon and logarithm), each
    term then multiplied by its weight in float64 as the functions'
    weighted mean does; the sums are exact as for float64.
    """
    if y_prob.dtype in _LOW_PRECISION:
        return _exact_low_precision_sums(y_index, y_prob, sample_weight, score)
    prob = np.ascontiguousarray(y_prob, dtype=np.float64)
    labels = y_index if y_index.dtype.kind in "biu" and y_index.dtype.isnative else y_index.astype(np.int64)
    classes = np.arange(2 if prob.ndim == 1 else prob.shape[1], dtype=labels.dtype)
    threads = threads_for(resolve_threads(n_threads), prob.size)
    eps = float(np.finfo(np.float64).eps)
    limbs, _ = _core.calibration.exact_score_sums(
        prob, labels, classes, _kernel_weights(sample_weight), score, eps, threads
    )
    total, weight = ints_from_limbs(limbs)
    return total, weight


def _exact_low_precision_sums(
    y_index: np.ndarray, y_prob: np.ndarray, sample_weight: np.ndarray | None, score: str
) -> tuple[int, int]:
    """:func:`exact_score_sums` of float32 or float16 probabilities: the
    functions' per-row terms (:func:`_brier_terms`, :func:`_log_terms`) over
    the one-hot rows of the class indices, summed exactly."""
    columns = np.stack((1 - y_prob, y_prob), axis=1) if y_prob.ndim == 1 else y_prob
    encoded = np.zeros(columns.shape, dtype=y_prob.dtype)
    encoded[np.arange(columns.shape[0]), y_index.astype(np.intp, copy=False)] = 1
    terms = (_brier_terms if score == "brier" else _log_terms)(encoded, columns).astype(np.float64)
    if sample_weight is None:
        return _core.exact_sums.exact_sum(terms)[1], 0
    weights = np.ascontiguousarray(sample_weight, dtype=np.float64).reshape(-1)
    return _core.exact_sums.exact_sum(terms * weights)[1], _core.exact_sums.exact_sum(weights)[1]
