"""Uncertainty of ranking and decision metrics.

DeLong's variance of the ROC AUC is read off the score table: the
structural components of all positives (or negatives) at one distinct
score are equal, so the O(n log n) algorithm of Sun and Xu (2014) is one
pass over the table that the sort already built. Bootstrap intervals
resample the table in C++ (stratified by class) and sweep each replicate.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np

from .. import _core
from .._common.exceptions import UndefinedMetricWarning
from .._common.params import (
    ARRAY_LIKE,
    BOOLEAN,
    NONE,
    REAL,
    STRING,
    Constraint,
    real_interval,
    str_options,
    validate_params,
)
from .._common.sklearn_classes import scikit_learn_compatible
from .._common.threads import resolve_threads
from ._binary_input import BinaryInput, binary_input


class ConfidenceInterval(NamedTuple):
    """A metric's value and a two-sided confidence interval around it.

    Attributes
    ----------
    value : float
        The metric on the full data.
    lower, upper : float
        The interval's bounds (DeLong: clipped to [0, 1]; bootstrap: the
        ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` percentiles of
        the replicates).
    confidence : float
        The requested coverage, e.g. 0.95.
    method : str
        "delong" or "bootstrap".
    standard_error : float
        DeLong's standard error of the AUC; NaN for the bootstrap.

    Examples
    --------
    >>> import turbometrics as tm
    >>> ci = tm.roc_auc_ci([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> ci.value, ci.method
    (0.8888888888888888, 'delong')
    """

    value: float
    lower: float
    upper: float
    confidence: float
    method: str
    standard_error: float  # DeLong only; NaN for the bootstrap


class DeLongTest(NamedTuple):
    """DeLong's paired test of two correlated ROC AUCs.

    Attributes
    ----------
    auc_a, auc_b : float
        The ROC AUC of each score on the same labels.
    z : float
        ``(auc_a - auc_b) / sqrt(V)`` with DeLong's variance V of the
        difference.
    p_value : float
        Two-sided normal p-value of ``z``.

    Examples
    --------
    >>> import turbometrics as tm
    >>> test = tm.delong_test([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    >>> test.auc_a, test.auc_b
    (0.8888888888888888, 0.7777777777777777)
    """

    auc_a: float
    auc_b: float
    z: float
    p_value: float


_RANDOM_STATE = Constraint(
    "an int in the range [0, 18446744073709551615], an instance of 'numpy.random.Generator' or None",
    lambda value: (
        value is None
        or isinstance(value, np.random.Generator)
        or (isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value < 2**64)
    ),
)
_POSITIVE_INT = Constraint(
    "an int in the range [1, inf)",
    lambda value: isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 1,
)
_CONFIDENCE = real_interval(0.0, 1.0, "neither")


def _table(data: BinaryInput, n_threads: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct scores (float64, decreasing) and positive and negative
    counts at each."""
    scores, positive, negative = _core.ranking.score_table(*data.kernel_args(n_threads), 0, True)
    return scores.astype(np.float64, copy=False), positive, negative


def _seed(random_state: Any) -> int:
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**63))
    if random_state is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    return int(random_state)


def _percentile_interval(replicates: np.ndarray, confidence: float) -> tuple[float, float]:
    tail = (1.0 - confidence) / 2.0
    finite = replicates[np.isfinite(replicates)]
    if finite.size == 0:
        return math.nan, math.nan
    return float(np.quantile(finite, tail)), float(np.quantile(finite, 1.0 - tail))


def _both_classes(n_positive: float, n_negative: float, what: str) -> bool:
    if n_positive == 0 or n_negative == 0:
        warnings.warn(
            f"Only one class is present in y_true. {what} is not defined in that case.",
            scikit_learn_compatible(UndefinedMetricWarning),
            stacklevel=3,
        )
        return False
    return True


@validate_params(
    {
        "y_true": [ARRAY_LIKE],
        "y_score": [ARRAY_LIKE],
        "confidence": [_CONFIDENCE],
        "method": [str_options({"delong", "bootstrap"})],
        "n_bootstraps": [_POSITIVE_INT],
        "random_state": [_RANDOM_STATE],
        "pos_label": [REAL, STRING, BOOLEAN, NONE],
    }
)
def roc_auc_ci(
    y_true: Any,
    y_score: Any,
    *,
    confidence: float = 0.95,
    method: str = "delong",
    n_bootstraps: int = 2000,
    random_state: Any = None,
    pos_label: Any = None,
    n_threads: int | None = None,
) -> ConfidenceInterval:
    """ROC AUC with a confidence interval, by DeLong's method or bootstrap.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels ({0, 1} or {-1, 1} unless ``pos_label`` is given).
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    confidence : float in (0, 1), default=0.95
        Two-sided coverage of the interval.
    method : {'delong', 'bootstrap'}, default='delong'
        'delong': AUC +/- z * sqrt(V), with DeLong's variance V computed in
        O(n log n) from the score table (Sun and Xu, 2014) and z the normal
        quantile; the interval is clipped to [0, 1]. 'bootstrap': the
        percentile interval of ``n_bootstraps`` stratified bootstrap
        replicates (positives and negatives resampled separately).
    n_bootstraps : int >= 1, default=2000
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the bootstrap. For a given seed the replicates are identical
        whatever the thread count.
    pos_label : int, float, bool or str, default=None
    n_threads : int, default=None

    Returns
    -------
    ConfidenceInterval
        ``(value, lower, upper, confidence, method, standard_error)``. With
        one class present everything is NaN (UndefinedMetricWarning); with a
        single sample of a class DeLong's variance is NaN.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 2, 1000)
    >>> y_score = y_true + rng.normal(0, 1, 1000)
    >>> ci = tm.roc_auc_ci(y_true, y_score, confidence=0.95)
    >>> ci.method, round(ci.value, 4), round(ci.lower, 4), round(ci.upper, 4)
    ('delong', 0.7901, 0.7623, 0.8179)
    """
    threads = resolve_threads(n_threads)
    data = binary_input(y_true, y_score, pos_label, None)
    if method == "delong":
        scores, is_positive, _, kernel_threads = data.kernel_args(threads)
        return delong_interval(*_core.ranking.roc_auc_delong(scores, is_positive, kernel_threads), confidence)
    return bootstrap_auc_interval(*_table(data, threads), confidence, n_bootstraps, random_state, threads)


def delong_interval(
    auc: float, variance: float, n_positive: float, n_negative: float, confidence: float
) -> ConfidenceInterval:
    """DeLong's interval from a table's DeLong kernel result."""
    if not _both_classes(n_positive, n_negative, "ROC AUC"):
        return ConfidenceInterval(math.nan, math.nan, math.nan, confidence, "delong", math.nan)
    half_width = NormalDist().inv_cdf(0.5 + confidence / 2.0) * math.sqrt(variance)
    return ConfidenceInterval(
        auc, max(0.0, auc - half_width), min(1.0, auc + half_width), confidence, "delong", math.sqrt(variance)
    )


def bootstrap_auc_interval(
    scores: np.ndarray,
    positive: np.ndarray,
    negative: np.ndarray,
    confidence: float,
    n_bootstraps: int,
    random_state: Any,
    threads: int,
) -> ConfidenceInterval:
    """The bootstrap interval of the ROC AUC of the table given by float64
    scores (descending) and per-row counts."""
    method = "bootstrap"
    if not _both_classes(positive.sum(), negative.sum(), "ROC AUC"):
        return ConfidenceInterval(math.nan, math.nan, math.nan, confidence, method, math.nan)
    auc = _core.ranking.table_metric(scores, positive, negative, "roc_auc", 1.0, 0.5)
    replicates = _core.ranking.bootstrap_table_metric(
        scores, positive, negative, "roc_auc", 1.0, 0.5, n_bootstraps, _seed(random_state), threads
    )
    lower, upper = _percentile_interval(replicates, confidence)
    return ConfidenceInterval(auc, lower, upper, confidence, method, math.nan)


@validate_params(
    {
        "y_true": [ARRAY_LIKE],
        "y_score_a": [ARRAY_LIKE],
        "y_score_b": [ARRAY_LIKE],
        "pos_label": [REAL, STRING, BOOLEAN, NONE],
    }
)
def delong_test(
    y_true: Any, y_score_a: Any, y_score_b: Any, *, pos_label: Any = None, n_threads: int | None = None
) -> DeLongTest:
    """DeLong's test that two scores of the same samples have equal ROC AUC.

    The statistic is z = (AUC_a - AUC_b) / sqrt(Var(AUC_a - AUC_b)), with
    the variance of the difference from both scores' structural components
    and their covariance (DeLong, DeLong and Clarke-Pearson, 1988); the
    p-value is two-sided under the normal approximation.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score_a, y_score_b : array-like of shape (n_samples,)
        Two scores of the same samples.
    pos_label : int, float, bool or str, default=None
    n_threads : int, default=None

    Returns
    -------
    DeLongTest
        ``(auc_a, auc_b, z, p_value)``; z and p are NaN when the variance of
        the difference is zero or undefined.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 2, 1000)
    >>> good = y_true + rng.normal(0, 1, 1000)
    >>> worse = y_true + rng.normal(0, 2, 1000)
    >>> test = tm.delong_test(y_true, good, worse)
    >>> round(test.auc_a, 4), round(test.auc_b, 4), test.p_value < 0.001
    (0.7901, 0.6594, True)
    """
    threads = resolve_threads(n_threads)
    components = []
    for y_score in (y_score_a, y_score_b):
        data = binary_input(y_true, y_score, pos_label, None)
        scores, is_positive, _, kernel_threads = data.kernel_args(threads)
        scores, v10, v01, n_positive, n_negative = _core.ranking.delong_components(scores, is_positive, kernel_threads)
        if not _both_classes(n_positive, n_negative, "DeLong's test"):
            return DeLongTest(math.nan, math.nan, math.nan, math.nan)
        # Each sample's component: look up its score's row (rows decrease).
        sample_scores = data.scores.astype(np.float64)
        rows = scores.shape[0] - 1 - np.searchsorted(scores[::-1], sample_scores, side="left")
        components.append((data.is_positive, v10[rows], v01[rows]))
    is_positive = components[0][0].astype(bool)
    v10 = np.stack([c[1][is_positive] for c in components])
    v01 = np.stack([c[2][~is_positive] for c in components])
    auc_a, auc_b = v10.mean(axis=1)
    s10, s01 = np.cov(v10), np.cov(v01)
    contrast = np.array([1.0, -1.0])
    variance = contrast @ s10 @ contrast / v10.shape[1] + contrast @ s01 @ contrast / v01.shape[1]
    if not variance > 0:
        return DeLongTest(float(auc_a), float(auc_b), math.nan, math.nan)
    z = float((auc_a - auc_b) / math.sqrt(variance))
    return DeLongTest(float(auc_a), float(auc_b), z, math.erfc(abs(z) / math.sqrt(2.0)))


_BOOTSTRAP_METRICS = {
    "roc_auc_score": "roc_auc",
    "average_precision_score": "average_precision",
    "f1_score": "fbeta",
    "accuracy_score": "accuracy",
    "balanced_accuracy_score": "balanced_accuracy",
}


@validate_params(
    {
        "y_true": [ARRAY_LIKE],
        "y_pred_or_score": [ARRAY_LIKE],
        "confidence": [_CONFIDENCE],
        "n_bootstraps": [_POSITIVE_INT],
        "random_state": [_RANDOM_STATE],
        "pos_label": [REAL, STRING, BOOLEAN, NONE],
    }
)
def bootstrap_ci(
    metric: str | Callable[..., float],
    y_true: Any,
    y_pred_or_score: Any,
    *,
    confidence: float = 0.95,
    n_bootstraps: int = 2000,
    random_state: Any = None,
    pos_label: Any = None,
    n_threads: int | None = None,
) -> ConfidenceInterval:
    """Stratified bootstrap percentile interval of a binary metric.

    Parameters
    ----------
    metric : str or callable
        'roc_auc_score' or 'average_precision_score' (given scores), or
        'f1_score', 'accuracy_score' or 'balanced_accuracy_score' (given 0/1
        predictions; the positive class is ``pos_label``). The matching
        turbometrics or scikit-learn function is accepted too.
    y_true : array-like of shape (n_samples,)
    y_pred_or_score : array-like of shape (n_samples,)
    confidence : float in (0, 1), default=0.95
    n_bootstraps : int >= 1, default=2000
    random_state : int, numpy.random.Generator or None, default=None
        For a given seed the interval is identical whatever the thread count.
    pos_label : int, float, bool or str, default=None
    n_threads : int, default=None

    Returns
    -------
    ConfidenceInterval
        The metric on the full data and the percentile interval of the
        replicates, each of which resamples positives and negatives
        separately with replacement. Undefined ratios count as 0 (as
        scikit-learn's ``zero_division=0``).

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 2, 1000)
    >>> y_score = y_true + rng.normal(0, 1, 1000)
    >>> ci = tm.bootstrap_ci("roc_auc_score", y_true, y_score, n_bootstraps=200, random_state=0)
    >>> round(ci.value, 4), round(ci.lower, 4), round(ci.upper, 4)
    (0.7901, 0.7666, 0.817)

    The same seed gives the same interval for any thread count:

    >>> ci == tm.bootstrap_ci("roc_auc_score", y_true, y_score, n_bootstraps=200, random_state=0, n_threads=1)
    True
    """
    name = metric if isinstance(metric, str) else getattr(metric, "__name__", repr(metric))
    if name not in _BOOTSTRAP_METRICS:
        raise ValueError(f"bootstrap_ci supports {sorted(_BOOTSTRAP_METRICS)}; got {metric!r}")
    threads = resolve_threads(n_threads)
    kernel_metric = _BOOTSTRAP_METRICS[name]
    values = y_pred_or_score
    if kernel_metric not in ("roc_auc", "average_precision"):
        values = np.asarray(np.asarray(y_pred_or_score) == (1 if pos_label is None else pos_label), dtype=np.uint8)
    scores, positive, negative = _table(binary_input(y_true, values, pos_label, None), threads)
    if kernel_metric == "roc_auc" and not _both_classes(positive.sum(), negative.sum(), "ROC AUC"):
        return ConfidenceInterval(math.nan, math.nan, math.nan, confidence, "bootstrap", math.nan)
    value = _core.ranking.table_metric(scores, positive, negative, kernel_metric, 1.0, 0.5)
    replicates = _core.ranking.bootstrap_table_metric(
        scores, positive, negative, kernel_metric, 1.0, 0.5, n_bootstraps, _seed(random_state), threads
    )
    lower, upper = _percentile_interval(replicates, confidence)
    return ConfidenceInterval(float(value), lower, upper, confidence, "bootstrap", math.nan)
