"""Ensemble stability and uncertainty.

Every function reads an array ``P`` of shape (n_models, n_samples) holding
each model's probability of the positive class (or, where stated, class
probabilities of shape (n_models, n_samples, K)), computes one statistic per
sample in a compiled kernel, and returns the mean over samples, or the
per-sample vector with ``per_sample=True``.

A model's label is ``P >= threshold`` (binary) or the argmax over classes,
ties going to the first maximum (class probabilities). Entropies are in bits
with 0 log 0 = 0. float64 and float32 are read in place (C-ordered rows
directly, any other layout block by block through a small buffer;
read-only arrays included); other dtypes are converted to float64 once.
Per-sample values depend only on that sample's column, and the mean is
NumPy's pairwise sum of them, so results are identical for every thread
count.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np

from .. import _core
from .._common.params import ARRAY_LIKE, BOOLEAN, NONE, Constraint, real_interval, str_options, validate_params
from .._common.threads import resolve_threads, threads_for
from .._common.validation import as_array, check_sample_weight, column_or_1d

__all__ = [
    "aleatoric_uncertainty",
    "epistemic_uncertainty",
    "iqr",
    "jitter",
    "label_stability",
    "selection_rate",
    "std",
]

Result = float | np.ndarray


def _ensemble(P: Any, *, allow_classes: bool, min_models: int, function: str) -> np.ndarray:
    array = as_array(P)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"P must hold probabilities, got dtype {array.dtype}.")
    dims = "(n_models, n_samples) or (n_models, n_samples, n_classes)" if allow_classes else "(n_models, n_samples)"
    if array.ndim not in ((2, 3) if allow_classes else (2,)):
        raise ValueError(f"{function} expects P of shape {dims}, got an array of shape {array.shape}.")
    if array.dtype not in (np.float64, np.float32) or not array.dtype.isnative or not array.flags.aligned:
        array = array.astype(np.float64)
    if array.shape[0] < min_models:
        raise ValueError(
            f"{function} compares models, so it needs at least {min_models} models (rows of P); got {array.shape[0]}."
        )
    if array.shape[0] < 1 or array.shape[1] < 1 or (array.ndim == 3 and array.shape[2] < 1):
        raise ValueError(f"P needs at least one model, one sample and one class, got shape {array.shape}.")
    return array


def _run(array: np.ndarray, statistic: str, threshold: float, per_sample: bool, n_threads: int | None) -> Result:
    threads = resolve_threads(n_threads)
    values, invalid = _core.stability.ensemble_per_sample(
        array, statistic, float(threshold), threads_for(threads, array.size)
    )
    # The kernel flags non-probabilities as it reads (no validation pass);
    # only then are they described.
    if invalid:
        if not np.isfinite(array).all():
            raise ValueError("P contains NaN or infinity.")
        raise ValueError(f"P must hold probabilities in [0, 1], got values in [{array.min()}, {array.max()}].")
    return values if per_sample else float(np.mean(values))


_THRESHOLD = [real_interval(0, 1, "both")]
_PER_SAMPLE = [BOOLEAN]


@validate_params({"P": [ARRAY_LIKE], "threshold": _THRESHOLD, "per_sample": _PER_SAMPLE}, bind_like_scikit_learn=False)
def label_stability(
    P: Any, *, threshold: float = 0.5, per_sample: bool = False, n_threads: int | None = None
) -> Result:
    """Agreement of the models' labels: ``|c1 - c0| / m`` per sample.

    ``c1`` and ``c0`` count the models whose label (``P >= threshold``) is
    1 and 0, ``m`` is the number of models: 1 when all agree, 0 for an even
    split. One model gives 1.

    Parameters
    ----------
    P : array-like of shape (n_models, n_samples)
        Probabilities of the positive class.
    threshold : float, default=0.5
    per_sample : bool, default=False
        Return the per-sample vector instead of its mean.
    n_threads : int, default=None
        Threads over blocks of samples; the result is identical for every
        thread count.

    Returns
    -------
    float or ndarray of float64, shape (n_samples,)

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics import stability
    >>> P = np.array([[0.9, 0.2, 0.6, 0.4],
    ...               [0.8, 0.3, 0.4, 0.5],
    ...               [0.7, 0.1, 0.7, 0.6]])
    >>> stability.label_stability(P)
    0.6666666666666667
    >>> stability.label_stability(P, per_sample=True).round(6)
    array([1.      , 1.      , 0.333333, 0.333333])
    """
    array = _ensemble(P, allow_classes=False, min_models=1, function="label_stability")
    return _run(array, "label_stability", threshold, per_sample, n_threads)


@validate_params({"P": [ARRAY_LIKE], "threshold": _THRESHOLD, "per_sample": _PER_SAMPLE}, bind_like_scikit_learn=False)
def jitter(P: Any, *, threshold: float = 0.5, per_sample: bool = False, n_threads: int | None = None) -> Result:
    """Mean pairwise churn: the fraction of model pairs whose labels differ.

    Averaged over the m(m-1)/2 pairs of models, the churn of a pair (the
    fraction of samples they label differently) equals the mean over
    samples of ``2 c1 c0 / (m (m - 1))``, which is what is computed, in
    O(n m). With class probabilities (labels by argmax) the per-sample value
    is ``(m^2 - sum_k c_k^2) / (m (m - 1))``.

    Parameters
    ----------
    P : array-like of shape (n_models, n_samples) or (n_models, n_samples, K)
        Each model's probability of the positive class, or its class
        probabilities. float64 and float32 are read in place.
    threshold : float, default=0.5
        Binary labels are ``P >= threshold`` (unused for class probabilities).
    per_sample : bool, default=False
        Return the per-sample vector instead of its mean.
    n_threads : int, default=None
        Threads over blocks of samples; the result is identical for every
        thread count.

    Returns
    -------
    float or ndarray of float64, shape (n_samples,)

    Raises
    ------
    ValueError
        With fewer than 2 models (there is no pair).

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics import stability
    >>> P = np.array([[0.9, 0.2, 0.6, 0.4],
    ...               [0.8, 0.3, 0.4, 0.5],
    ...               [0.7, 0.1, 0.7, 0.6]])
    >>> round(stability.jitter(P), 6)
    0.333333
    >>> stability.jitter(P, per_sample=True).round(6)
    array([0.      , 0.      , 0.666667, 0.666667])
    """
    array = _ensemble(P, allow_classes=True, min_models=2, function="jitter")
    return _run(array, "jitter", threshold, per_sample, n_threads)


@validate_params({"P": [ARRAY_LIKE], "per_sample": _PER_SAMPLE}, bind_like_scikit_learn=False)
def aleatoric_uncertainty(P: Any, *, per_sample: bool = False, n_threads: int | None = None) -> Result:
    """Expected entropy: the mean over models of each model's entropy, in bits.

    Binary: ``H(p) = -p log2 p - (1 - p) log2 (1 - p)``; class
    probabilities: ``-sum_k p_k log2 p_k``; 0 log 0 = 0.

    Parameters
    ----------
    P : array-like of shape (n_models, n_samples) or (n_models, n_samples, K)
        Each model's probability of the positive class, or its class
        probabilities. float64 and float32 are read in place.
    per_sample : bool, default=False
        Return the per-sample vector instead of its mean.
    n_threads : int, default=None
        Threads over blocks of samples; the result is identical for every
        thread count.

    Returns
    -------
    float or ndarray of float64, shape (n_samples,)

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics import stability
    >>> P = np.array([[0.9, 0.2, 0.6, 0.4],
    ...               [0.8, 0.3, 0.4, 0.5],
    ...               [0.7, 0.1, 0.7, 0.6]])
    >>> round(stability.aleatoric_uncertainty(P), 6)
    0.825794
    >>> stability.aleatoric_uncertainty([[0.5], [0.5]])   # a fair coin: 1 bit
    1.0
    """
    array = _ensemble(P, allow_classes=True, min_models=1, function="aleatoric_uncertainty")
    return _run(array, "aleatoric", 0.5, per_sample, n_threads)


@validate_params(
    {"P": [ARRAY_LIKE], "method": [str_options({"mutual_info", "variance"})], "per_sample": _PER_SAMPLE},
    bind_like_scikit_learn=False,
)
def epistemic_uncertainty(
    P: Any, *, method: str = "mutual_info", per_sample: bool = False, n_threads: int | None = None
) -> Result:
    """Disagreement between models.

    ``method="mutual_info"``: the entropy (bits) of the mean prediction
    minus the mean entropy of the predictions (the mutual information
    between the label and the model; it is not clipped, so rounding can
    leave values of order -1e-16 where the models agree). Accepts class
    probabilities. ``method="variance"``: the variance of ``P`` across
    models with ddof = 0 (2-D ``P`` only).

    Parameters
    ----------
    P : array-like of shape (n_models, n_samples) or (n_models, n_samples, K)
        Each model's probability of the positive class, or its class
        probabilities. float64 and float32 are read in place.
    method : {"mutual_info", "variance"}, default="mutual_info"
    per_sample : bool, default=False
        Return the per-sample vector instead of its mean.
    n_threads : int, default=None
        Threads over blocks of samples; the result is identical for every
        thread count.

    Returns
    -------
    float or ndarray of float64, shape (n_samples,)

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics import stability
    >>> P = np.array([[0.9, 0.2, 0.6, 0.4],
    ...               [0.8, 0.3, 0.4, 0.5],
    ...               [0.7, 0.1, 0.7, 0.6]])
    >>> round(stability.epistemic_uncertainty(P), 6)
    0.031955
    >>> round(stability.epistemic_uncertainty(P, method="variance"), 6)
    0.008889
    """
    array = _ensemble(P, allow_classes=method == "mutual_info", min_models=1, function="epistemic_uncertainty")
    return _run(array, "mutual_info" if method == "mutual_info" else "variance", 0.5, per_sample, n_threads)


@validate_params({"P": [ARRAY_LIKE], "per_sample": _PER_SAMPLE}, bind_like_scikit_learn=False)
def std(P: Any, *, per_sample: bool = False, n_threads: int | None = None) -> Result:
    """Standard deviation of ``P`` across models, with ddof = 1.

    Parameters
    ----------
    P : array-like of shape (n_models, n_samples)
        Each model's probability of the positive class.
    per_sample : bool, default=False
        Return the per-sample vector instead of its mean.
    n_threads : int, default=None
        Threads over blocks of samples; the result is identical for every
        thread count.

    Returns
    -------
    float or ndarray of float64, shape (n_samples,)

    Raises
    ------
    ValueError
        With fewer than 2 models.

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics import stability
    >>> P = np.array([[0.9, 0.2, 0.6, 0.4],
    ...               [0.8, 0.3, 0.4, 0.5],
    ...               [0.7, 0.1, 0.7, 0.6]])
    >>> stability.std(P, per_sample=True).round(6)
    array([0.1     , 0.1     , 0.152753, 0.1     ])
    """
    array = _ensemble(P, allow_classes=False, min_models=2, function="std")
    return _run(array, "std", 0.5, per_sample, n_threads)


@validate_params({"P": [ARRAY_LIKE], "per_sample": _PER_SAMPLE}, bind_like_scikit_learn=False)
def iqr(P: Any, *, per_sample: bool = False, n_threads: int | None = None) -> Result:
    """Interquartile range of ``P`` across models.

    ``q75 - q25`` with NumPy's default linear interpolation, computed as
    ``np.percentile(P, [75, 25], axis=0)`` computes it (neighbour
    differences in the dtype of ``P``, the rest in float64), so the
    per-sample values equal NumPy's bit for bit. One exception: where a
    sample holds both ``-0.0`` and ``+0.0``, a zero result may have the
    other sign than NumPy's (which follows the order its partition leaves
    equal values in); it is still equal to it.

    Parameters
    ----------
    P : array-like of shape (n_models, n_samples)
        Each model's probability of the positive class.
    per_sample : bool, default=False
        Return the per-sample vector instead of its mean.
    n_threads : int, default=None
        Threads over blocks of samples; the result is identical for every
        thread count.

    Returns
    -------
    float or ndarray of float64, shape (n_samples,)

    Examples
    --------
    >>> import numpy as np
    >>> from turbometrics import stability
    >>> P = np.array([[0.9, 0.2, 0.6, 0.4],
    ...               [0.8, 0.3, 0.4, 0.5],
    ...               [0.7, 0.1, 0.7, 0.6]])
    >>> stability.iqr(P, per_sample=True).round(6)
    array([0.1 , 0.1 , 0.15, 0.1 ])
    """
    array = _ensemble(P, allow_classes=False, min_models=1, function="iqr")
    return _run(array, "iqr", 0.5, per_sample, n_threads)


_POS_LABEL = Constraint(
    "an instance of 'float', 'int', 'str' or 'bool'", lambda value: isinstance(value, (Real, str, bool, np.bool_))
)


@validate_params(
    {"y_pred": [ARRAY_LIKE], "pos_label": [_POS_LABEL], "sample_weight": [ARRAY_LIKE, NONE]},
    bind_like_scikit_learn=False,
)
def selection_rate(
    y_pred: Any, *, pos_label: Any = 1, sample_weight: Any = None, n_threads: int | None = None
) -> Result:
    """Fraction of predictions equal to ``pos_label``.

    Parameters
    ----------
    y_pred : array-like of shape (n_samples,) or (n_models, n_samples)
        Predicted labels; a 2-D array gives one rate per model (row).
    pos_label : scalar, default=1
    sample_weight : array-like of shape (n_samples,), default=None
        A weighted fraction.
    n_threads : int, default=None
        Threads for the compiled count (numeric labels and pos_label); the
        result is identical for every thread count.

    Returns
    -------
    float, or ndarray of float64 of shape (n_models,) for 2-D input.

    Examples
    --------
    >>> from turbometrics import stability
    >>> stability.selection_rate([1, 0, 1, 1])
    0.75
    >>> stability.selection_rate(["yes", "no", "no", "no"], pos_label="yes")
    0.25
    >>> stability.selection_rate([1, 0, 1, 1], sample_weight=[1, 3, 1, 1])
    0.5
    """
    threads = resolve_threads(n_threads)
    labels = as_array(y_pred)
    if labels.ndim not in (1, 2) or labels.shape[-1] < 1:
        raise ValueError(f"y_pred must be 1-D or 2-D and non-empty, got shape {labels.shape}.")
    weights = None
    if sample_weight is not None:
        weights = check_sample_weight(column_or_1d(sample_weight), labels.shape[-1]).astype(np.float64)
    pos = _kernel_pos_label(labels, pos_label)
    if pos is not None:
        sums, total = _core.stability.selected_sums(labels, pos, weights, threads_for(threads, labels.size))
        rates = sums / total
    else:
        selected = labels == pos_label
        rates = np.mean(selected, axis=-1) if weights is None else (selected @ weights) / np.sum(weights)
    return float(rates[0] if np.ndim(rates) else rates) if labels.ndim == 1 else np.asarray(rates, dtype=np.float64)


def _kernel_pos_label(labels: np.ndarray, pos_label: Any) -> np.ndarray | None:
    """pos_label as a 0-d array of the labels' dtype when the compiled count
    compares exactly as ``labels == pos_label`` does (integer and bool labels
    with an integer or bool pos_label in their range, float labels with a
    real pos_label (NumPy compares in the labels' precision)); else None."""
    dtype = labels.dtype
    if not dtype.isnative or dtype.kind not in "biuf" or dtype.itemsize not in (1, 2, 4, 8):
        return None
    if isinstance(pos_label, (bool, np.bool_)):
        pos_label = int(pos_label)
    if dtype.kind in "biu":
        if not isinstance(pos_label, (int, np.integer)):
            return None
        value = int(pos_label)
        if dtype.kind == "b":
            # True == 1 and False == 0; no other integer equals a bool.
            return np.array(value == 1, dtype=np.bool_) if value in (0, 1) else None
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            return None
        return np.array(value, dtype=dtype)
    if isinstance(pos_label, (int, float, np.integer, np.floating)) and dtype.itemsize in (4, 8):
        if isinstance(pos_label, (np.floating, np.integer)) and np.result_type(pos_label, dtype) != dtype:
            return None  # a NumPy scalar of wider precision promotes the comparison
        if isinstance(pos_label, int) and abs(pos_label) > 2**53:
            return None
        return np.array(pos_label, dtype=dtype)
    return None
