"""Calibration metrics: binned calibration error (ECE, RMSCE, MCE), the
reliability diagram, classwise calibration, mean maximum confidence and the
Hellinger distance between posterior matrices.

Every binned metric is one pass of the compiled kernel that fills the
per-bin table (weight, sum of weighted confidence, sum of weighted
correctness), followed by arithmetic on that small table.

Semantics
---------
* A 1-D ``y_prob`` is the probability of the positive class and is compared
  with the fraction of positives in each bin (``mode="binary"``).
* A 2-D ``y_prob`` of shape (N, K) uses the top label by default
  (``mode="top_label"``): confidence is the row maximum, and a sample is
  correct when its argmax (the first maximum on ties) equals ``y_true``,
  which holds class indices 0 .. K-1. ``mode="classwise"`` averages the
  binary calibration errors of the K columns (column k against ``y == k``).
* Bins are [a, b); the last bin is closed, so 1.0 falls in the last bin.
  Uniform edges are exactly ``np.linspace(0, 1, n_bins + 1)``; quantile
  edges are ``np.quantile(conf, np.linspace(0, 1, n_bins + 1))`` with the
  first edge set to 0 and the last to 1 (ties make empty bins). A sample
  goes to bin ``np.searchsorted(edges, conf, side="right") - 1``, clipped to
  the last bin. Bins with zero weight are skipped.
* Weights whose sums would overflow float64 (1e308 each) are first scaled
  by a power of two: every binned metric is a ratio of bin sums, which the
  exact scaling keeps, so they equal those of any scaled copy of the
  weights (and ``CalibrationState``'s exact sums, to rounding).
* Results are identical for every thread count: chunk tables are formed
  over a chunk count that depends only on the input size and are added in
  chunk order.
"""

from __future__ import annotations

import math
from numbers import Integral
from typing import Any, NamedTuple

import numpy as np

from .. import _core
from .._common.params import ARRAY_LIKE, BOOLEAN, NONE, REAL, STRING, Constraint, str_options, validate_params
from .._common.threads import resolve_threads, threads_for
from .._common.validation import check_consistent_length, check_sample_weight, column_or_1d
from ._input import (
    MODES,
    CalibrationInput,
    bin_edges,
    calibration_input,
    float_probabilities,
    raise_for_invalid_probabilities,
)

POSITIVE_INT = Constraint(
    "an int in the range [1, inf)",
    lambda value: isinstance(value, Integral) and not isinstance(value, (bool, np.bool_)) and int(value) >= 1,
)
_COMMON = {
    "y_true": [ARRAY_LIKE],
    "y_prob": [ARRAY_LIKE],
    "n_bins": [POSITIVE_INT],
    "strategy": [str_options({"uniform", "quantile"})],
    "mode": [str_options({"auto", "binary", "top_label", "classwise"})],
    "pos_label": [REAL, STRING, BOOLEAN, NONE],
    "sample_weight": [ARRAY_LIKE, NONE],
}
assert set(MODES) == {"auto", "binary", "top_label", "classwise"}
_SUM_EXPONENT = 1000  # bin sums stay below 2**1000 (see _summable)


class ReliabilityDiagram(NamedTuple):
    """Per-bin summary of a calibration problem.

    In classwise mode every field has a leading axis of length K (one row
    per class).

    Attributes
    ----------
    edges : ndarray of float64, shape (n_bins + 1,)
        Bin edges (per class, shape (K, n_bins + 1), in classwise mode).
    weight : ndarray of float64, shape (n_bins,)
        Each bin's share of the total sample weight (the sample fraction
        when unweighted); 0 for an empty bin.
    confidence : ndarray of float64, shape (n_bins,)
        Weighted mean confidence in each bin; NaN for an empty bin.
    accuracy : ndarray of float64, shape (n_bins,)
        Weighted fraction of positives (binary) or of correct predictions
        (top label); NaN for an empty bin.

    Examples
    --------
    >>> import turbometrics as tm
    >>> d = tm.reliability_diagram([0, 1, 1, 0], [0.2, 0.9, 0.7, 0.6], n_bins=2)
    >>> d.weight, d.confidence, d.accuracy
    (array([0.25, 0.75]), array([0.2       , 0.73333333]), array([0.        , 0.66666667]))
    """

    edges: np.ndarray
    weight: np.ndarray
    confidence: np.ndarray
    accuracy: np.ndarray


def _table(data: CalibrationInput, edges: np.ndarray, uniform: bool, n_threads: int) -> np.ndarray:
    """The bin table of ``data``, in weight units of an unknown power of two
    (see :func:`_summable`): only its ratios are meaningful."""
    threads = threads_for(n_threads, data.n_samples * (data.prob.shape[1] if data.prob.ndim == 2 else 1))
    table, invalid, invalid_label = _core.calibration.bin_table(
        data.prob, data.mode, data.labels, _summable(data.weights), edges, uniform, threads
    )
    raise_for_flags(data, invalid, invalid_label)
    return table


def _summable(weights: np.ndarray | None) -> np.ndarray | None:
    """``weights`` times a power of two that keeps their float64 sums (and
    the sums of weighted confidences, which are smaller) below 2**1000:
    weights of 1e308 would otherwise sum to inf and make every metric NaN
    or 0. The binned metrics are ratios of those sums, which exact scaling
    keeps; weights that fit are returned as they are (the same bits).
    Scaled down, a weight more than 2**1000 times smaller than the largest
    may lose digits or become zero, as it would in the sums anyway."""
    if weights is None or not weights.shape[0]:
        return weights
    # every weight is below 2**exponent, so their sum is below 2**(exponent + bits of n)
    exponent = math.frexp(float(weights.max()))[1] + weights.shape[0].bit_length()
    return weights if exponent <= _SUM_EXPONENT else np.ldexp(weights, _SUM_EXPONENT - exponent)


def raise_for_flags(data: CalibrationInput, invalid: bool, invalid_label: bool) -> None:
    """Describe what a bin-table kernel flagged as it read (class indices
    first, as a separate check would have raised before the kernel ran)."""
    if invalid_label and data.unchecked_labels is not None:
        data.raise_for_labels()
    if invalid:
        raise_for_invalid_probabilities(data.prob)


def _diagram_from_table(table: np.ndarray) -> tuple:
    weight = table[..., 0]
    total = weight.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = weight / total
        confidence = np.where(weight > 0, table[..., 1] / weight, np.nan)
        accuracy = np.where(weight > 0, table[..., 2] / weight, np.nan)
    return share, confidence, accuracy


def error_from_table(table: np.ndarray, norm: str) -> float:
    share, confidence, accuracy = _diagram_from_table(table)
    filled = share > 0
    gap = np.where(filled, np.abs(accuracy - confidence), 0.0)
    if norm == "l1":
        per_table = np.sum(share * gap, axis=-1)
    elif norm == "l2":
        per_table = np.sqrt(np.sum(share * gap * gap, axis=-1))
    else:
        per_table = np.max(gap, axis=-1)
    return float(np.mean(per_table))


@validate_params({**_COMMON, "norm": [str_options({"l1", "l2", "max"})]}, bind_like_scikit_learn=False)
def calibration_error(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 15,
    strategy: str = "uniform",
    norm: str = "l1",
    mode: str = "auto",
    pos_label: Any = None,
    sample_weight: Any = None,
    n_threads: int | None = None,
) -> float:
    """Binned calibration error: ECE (``norm="l1"``), RMSCE (``"l2"``) or
    MCE (``"max"``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels for a 1-D ``y_prob`` ({0, 1}, {-1, 1}, or any two
        values with ``pos_label``); class indices 0 .. K-1 for a 2-D one.
    y_prob : array-like of shape (n_samples,) or (n_samples, K)
        Probability of the positive class, or class probabilities. float64
        and float32 are read in place (strided views, no copy); other dtypes
        are converted to float64. Values must lie in [0, 1].
    n_bins : int, default=15
        Number of bins.
    strategy : {"uniform", "quantile"}, default="uniform"
        Uniform edges ``np.linspace(0, 1, n_bins + 1)`` or equal-mass edges
        ``np.quantile(conf, np.linspace(0, 1, n_bins + 1))`` (first edge 0,
        last edge 1; tied edges give empty bins, which are skipped).
    norm : {"l1", "l2", "max"}, default="l1"
        ``l1`` = ``sum_b w_b |acc_b - conf_b|`` (ECE); ``l2`` =
        sqrt(sum_b w_b (acc_b - conf_b)^2); ``max`` = the largest gap over
        non-empty bins (MCE). ``w_b`` is bin b's share of the total weight.
    mode : {"auto", "binary", "top_label", "classwise"}, default="auto"
        "auto" is "binary" for 1-D ``y_prob`` and "top_label" for 2-D.
        "classwise" averages the binary errors of the K columns (quantile
        edges are then computed per column). A 1-D ``y_prob`` with
        "top_label" or "classwise" is treated as the (N, 2) array
        ``[1 - p, p]`` (one explicit copy).
    pos_label : int, float, bool or str, default=None
        Positive class of binary labels (1 when None).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights. Bins whose weight is zero are empty.
    n_threads : int, default=None
        Threads for the kernel; None uses :func:`turbometrics.get_num_threads`.
        The result is identical for every thread count.

    Returns
    -------
    float
        The calibration error, in [0, 1].

    Raises
    ------
    ValueError
        For NaN or infinite probabilities, probabilities outside [0, 1],
        class indices outside [0, K), negative weights, or inconsistent
        lengths.

    Notes
    -----
    Differences from other libraries:

    * scikit-learn's ``calibration_curve`` puts a value lying on an inner
      edge in the lower bin (``np.searchsorted(edges[1:-1], p)``, bins
      (a, b]); here bins are [a, b). It supports binary input only, has no
      weights and returns only the non-empty bins.
    * torchmetrics bins with ``torch.bucketize(conf, edges, right=True) - 1``
      ([a, b)) against float32 ``linspace`` edges; in the versions we read a
      confidence of exactly 1.0 gets its own extra bucket instead of joining
      the last bin. Its binary task compares the positive-class probability
      with the fraction of positives, as ``mode="binary"`` does.
    * netcal bins with ``np.histogramdd`` ([a, b), last bin closed) after
      clipping every confidence to [eps, 1 - eps]; it treats a problem as
      binary whenever ``y`` has at most two distinct values, comparing the
      confidences with ``y`` itself, even for 2-D input.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 1, 1, 0, 1, 1])
    >>> y_prob = np.array([0.1, 0.9, 0.8, 0.3, 0.65, 0.95])
    >>> round(tm.calibration_error(y_true, y_prob, n_bins=5), 6)
    0.183333
    >>> round(tm.calibration_error(y_true, y_prob, n_bins=5, norm="max"), 6)
    0.35

    Top label: confidence is the row maximum, correct when the argmax is ``y_true``:

    >>> proba = np.array([[0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.3, 0.3, 0.4], [0.5, 0.4, 0.1]])
    >>> round(tm.calibration_error([0, 1, 1, 1], proba, n_bins=10), 6)
    0.2

    Bins are ``[a, b)`` and the last bin is closed, so 1.0 lands in the last bin:

    >>> tm.reliability_diagram([1, 1, 0], [1.0, 0.5, 0.0], n_bins=2).accuracy
    array([0., 1.])
    """
    threads = resolve_threads(n_threads)
    data = calibration_input(y_true, y_prob, mode, pos_label, sample_weight, kernel_checks_labels=True)
    edges, uniform = bin_edges(data, n_bins, strategy)
    return error_from_table(_table(data, edges, uniform, threads), norm)


@validate_params(_COMMON, bind_like_scikit_learn=False)
def reliability_diagram(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 15,
    strategy: str = "uniform",
    mode: str = "auto",
    pos_label: Any = None,
    sample_weight: Any = None,
    n_threads: int | None = None,
) -> ReliabilityDiagram:
    """Bin edges, per-bin weight share, mean confidence and accuracy.

    Same input and binning as :func:`calibration_error` (which is a sum over
    this diagram); every bin is returned, empty ones with weight 0 and NaN
    confidence and accuracy.

    Parameters
    ----------
    y_true, y_prob, n_bins, strategy, mode, pos_label, sample_weight, n_threads
        As in :func:`calibration_error`.

    Returns
    -------
    ReliabilityDiagram
        ``(edges, weight, confidence, accuracy)``; see its documentation.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> y_true = np.array([0, 1, 1, 0, 1, 1])
    >>> y_prob = np.array([0.1, 0.9, 0.8, 0.3, 0.65, 0.95])
    >>> d = tm.reliability_diagram(y_true, y_prob, n_bins=5)
    >>> d.edges
    array([0. , 0.2, 0.4, 0.6, 0.8, 1. ])
    >>> d.weight
    array([0.16666667, 0.16666667, 0.        , 0.16666667, 0.5       ])
    >>> d.accuracy
    array([ 0.,  0., nan,  1.,  1.])
    """
    threads = resolve_threads(n_threads)
    data = calibration_input(y_true, y_prob, mode, pos_label, sample_weight, kernel_checks_labels=True)
    edges, uniform = bin_edges(data, n_bins, strategy)
    return diagram_from_table(_table(data, edges, uniform, threads), edges, data.mode)


def diagram_from_table(table: np.ndarray, edges: np.ndarray, mode: str) -> ReliabilityDiagram:
    """The reliability diagram of a bin table (tables, n_bins, 3)."""
    share, confidence, accuracy = _diagram_from_table(table)
    if mode != "classwise":
        share, confidence, accuracy = share[0], confidence[0], accuracy[0]
    elif edges.ndim == 1:
        edges = np.broadcast_to(edges, (table.shape[0], edges.shape[0])).copy()
    return ReliabilityDiagram(edges, share, confidence, accuracy)


@validate_params({"y_prob": [ARRAY_LIKE], "sample_weight": [ARRAY_LIKE, NONE]}, bind_like_scikit_learn=False)
def mean_max_confidence(y_prob: Any, *, sample_weight: Any = None, n_threads: int | None = None) -> float:
    """Mean over samples of the largest class probability.

    Parameters
    ----------
    y_prob : array-like of shape (n_samples, K) or (n_samples,)
        Class probabilities; a 1-D array is the positive-class probability,
        whose top-label confidence is max(p, 1 - p).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights (a weighted mean).
    n_threads : int, default=None

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> tm.mean_max_confidence(np.array([[0.7, 0.2, 0.1], [0.5, 0.5, 0.0]]))
    0.6
    >>> round(tm.mean_max_confidence([0.1, 0.8]), 6)   # binary: max(p, 1 - p)
    0.85
    """
    threads = resolve_threads(n_threads)
    prob = float_probabilities(y_prob)
    if prob.ndim == 2 and prob.shape[1] == 1:
        prob = prob.reshape(-1)
    if prob.ndim == 1:
        prob = np.stack([1 - prob, prob], axis=1)
    weights = None
    if sample_weight is not None:
        check_consistent_length(prob, sample_weight)
        weights = check_sample_weight(column_or_1d(sample_weight), prob.shape[0]).astype(np.float64, copy=False)
        if np.any(weights < 0):
            raise ValueError("sample_weight must be non-negative for calibration metrics.")
    # The top-label bin table with one bin: its confidence sum over its weight.
    data = CalibrationInput(prob, "top_label", None, weights)
    table = _table(data, np.array([0.0, 1.0]), True, threads)
    return float(table[0, 0, 1] / table[0, 0, 0])


@validate_params({"p": [ARRAY_LIKE], "q": [ARRAY_LIKE]}, bind_like_scikit_learn=False)
def hellinger_distance(p: Any, q: Any, *, n_threads: int | None = None) -> float:
    """Hellinger distance between two distributions, or the mean over rows
    for two posterior matrices.

    ``H(p, q) = sqrt(1/2 * sum_k (sqrt(p_k) - sqrt(q_k))^2)``, in [0, 1] for
    probability vectors.

    Parameters
    ----------
    p, q : array-like of shape (K,) or (n_samples, K)
        Non-negative probabilities of the same shape. float32 stays float32
        when both are float32; mixed dtypes are compared in float64.
    n_threads : int, default=None

    Returns
    -------
    float
        The distance (1-D input) or the mean of the row distances (2-D).

    Examples
    --------
    >>> import turbometrics as tm
    >>> round(tm.hellinger_distance([0.5, 0.5], [0.9, 0.1]), 6)
    0.32492
    >>> tm.hellinger_distance([1.0, 0.0], [0.0, 1.0])
    1.0
    """
    threads = resolve_threads(n_threads)
    p_arr = float_probabilities(p, "p")
    q_arr = float_probabilities(q, "q")
    if p_arr.shape != q_arr.shape:
        raise ValueError(f"p and q must have the same shape, got {p_arr.shape} and {q_arr.shape}.")
    if p_arr.dtype != q_arr.dtype:
        p_arr, q_arr = p_arr.astype(np.float64), q_arr.astype(np.float64)
    for name, array in (("p", p_arr), ("q", q_arr)):
        if not np.all(np.isfinite(array)):
            raise ValueError(f"Input {name} contains NaN or infinity.")
        if np.any(array < 0):
            raise ValueError(f"{name} contains negative values.")
    rows = p_arr.reshape(1, -1) if p_arr.ndim == 1 else p_arr
    q_rows = q_arr.reshape(1, -1) if q_arr.ndim == 1 else q_arr
    distances = _core.calibration.hellinger_rows(rows, q_rows, threads_for(threads, rows.size))
    return float(distances[0]) if p_arr.ndim == 1 else float(np.mean(distances))
