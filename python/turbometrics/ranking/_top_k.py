"""Top-k accuracy with scikit-learn's tie rule, without sorting rows."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._common.exceptions import UndefinedMetricWarning
from .._common.params import ARRAY_LIKE, BOOLEAN, NONE, Constraint, validate_params
from .._common.sklearn_classes import scikit_learn_compatible
from .._common.validation import (
    assert_all_finite,
    check_consistent_length,
    check_dimensions,
    check_min_samples,
    check_score_array,
    column_or_1d,
    type_of_target,
)
from ._multiclass import check_labels_parameter, classes_and_codes, encode

_K = Constraint(
    "an int in the range [1, inf)",
    lambda value: isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 1,
)


def _rank_of_true_class(y_score: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Position of each row's true class when the row's classes are sorted by
    decreasing score, ties going to the higher class index (the order of
    scikit-learn's reversed stable argsort)."""
    true_score = y_score[np.arange(codes.shape[0]), codes][:, None]
    higher_index = np.arange(y_score.shape[1])[None, :] > codes[:, None]
    ahead = (y_score > true_score) | ((y_score == true_score) & higher_index)
    return ahead.sum(axis=1)


@validate_params(
    {
        "y_true": [ARRAY_LIKE],
        "y_score": [ARRAY_LIKE],
        "k": [_K],
        "normalize": [BOOLEAN],
        "sample_weight": [ARRAY_LIKE, NONE],
        "labels": [ARRAY_LIKE, NONE],
    }
)
def top_k_accuracy_score(
    y_true: Any,
    y_score: Any,
    *,
    k: int = 2,
    normalize: bool = True,
    sample_weight: Any = None,
    labels: Any = None,
    n_threads: int | None = None,
) -> float:
    """Fraction (or count) of samples whose true class is among the k best.

    Same as :func:`sklearn.metrics.top_k_accuracy_score`: a row's classes are
    ordered by decreasing score, and among equal scores the class with the
    higher index comes first. Binary input with ``k=1`` thresholds the
    scores at 0.5 (probabilities) or 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
    k : int >= 1, default=2
    normalize : bool, default=True
        Return the fraction of hits (else their (weighted) count).
    sample_weight : array-like of shape (n_samples,), default=None
    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the score columns.
    n_threads : int, default=None
        Accepted for a uniform API; this metric is a single vectorised pass.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_score = np.array([[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]])
    >>> tm.top_k_accuracy_score([0, 1, 2, 2], y_score, k=2)
    0.75
    """
    y_true = np.asarray(y_true) if not isinstance(y_true, np.ndarray) else y_true
    check_dimensions(y_true)
    assert_all_finite(y_true)
    check_min_samples(y_true)
    y_true = column_or_1d(y_true)
    kind = type_of_target(y_true, input_name="y_true").kind
    if kind == "binary" and labels is not None and len(labels) > 2:
        kind = "multiclass"
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"y type must be 'binary' or 'multiclass', got '{kind}' instead.")
    y_score = check_score_array(y_score)
    if kind == "binary":
        if y_score.ndim == 2 and y_score.shape[1] != 1:
            raise ValueError(
                f"`y_true` is binary while y_score is 2d with {y_score.shape[1]} classes. If `y_true` "
                "does not contain all the labels, `labels` must be provided."
            )
        y_score = column_or_1d(y_score)
    elif y_score.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains multiple "
            f"classes. Got `y_score.shape={y_score.shape}`."
        )
    check_consistent_length(y_true, y_score, sample_weight)
    n_score_classes = y_score.shape[1] if y_score.ndim == 2 else 2
    if labels is None:
        classes, codes = classes_and_codes(y_true)
        if classes.shape[0] != n_score_classes:
            raise ValueError(
                f"Number of classes in 'y_true' ({classes.shape[0]}) not equal to the number of classes "
                f"in 'y_score' ({n_score_classes}).You can provide a list of all known classes by "
                "assigning it to the `labels` parameter."
            )
    else:
        classes = check_labels_parameter(
            labels,
            n_score_classes,
            "Number of given labels ({0}) not equal to the number of classes in 'y_score' ({1}).",
            suffix=".",
        )
        codes = encode(y_true, classes, "'y_true' contains labels not in parameter 'labels'.")
    n_classes = classes.shape[0]
    if k >= n_classes:
        warnings.warn(
            f"'k' ({k}) greater than or equal to 'n_classes' ({n_classes}) will result in a perfect score "
            "and is therefore meaningless.",
            scikit_learn_compatible(UndefinedMetricWarning),
            stacklevel=2,
        )
    if kind == "binary":
        if k == 1:
            threshold = 0.5 if y_score.min() >= 0 and y_score.max() <= 1 else 0
            hits = (y_score > threshold).astype(np.int64) == codes
        else:
            hits = np.ones_like(y_score, dtype=np.bool_)
    else:
        hits = _rank_of_true_class(y_score, codes) < k
    if normalize:
        return float(np.average(hits, weights=sample_weight))
    if sample_weight is None:
        return float(np.sum(hits))
    return float(np.dot(hits, sample_weight))
