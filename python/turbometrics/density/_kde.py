"""Kernel density estimation with scikit-learn's kernels and normalisation.

:func:`kde` evaluates ``sum_j w_j K_h(x - x_j) / sum_j w_j`` at query points,
with the kernels, bandwidth meaning and normalising constants of
:class:`sklearn.neighbors.KernelDensity`. The exact method is one compiled
kernel sum (``turbometrics._core.density.log_sums``); the binned method
(``turbometrics.density._binned``) convolves binned data on a grid with FFTs.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import _core
from .._common.params import ARRAY_LIKE, NONE, real_interval, str_options, validate_params
from .._common.threads import resolve_threads, threads_for
from .._common.validation import as_array, check_dimensions
from ._bandwidth import bandwidth_value
from ._binned import binned_density

KERNELS = ("gaussian", "tophat", "epanechnikov", "exponential", "linear", "cosine")

_KDE_CONSTRAINTS = {
    "bandwidth": [real_interval(0, math.inf, "neither"), str_options({"scott", "silverman", "isj"})],
    "kernel": [str_options({"gaussian", "tophat", "epanechnikov", "exponential", "linear", "cosine"})],
    "weights": [ARRAY_LIKE, NONE],
    "method": [str_options({"exact", "binned"})],
}


def _log_unit_ball_volume(d: int) -> float:
    """log V_d, V_d = pi^(d/2) / Gamma(d/2 + 1)."""
    return 0.5 * d * math.log(math.pi) - math.lgamma(0.5 * d + 1.0)


def _log_unit_sphere_area(d: int) -> float:
    """log of the area of the unit sphere in R^d, 2 pi^(d/2) / Gamma(d/2)."""
    return math.log(2.0) + 0.5 * d * math.log(math.pi) - math.lgamma(0.5 * d)


def _cosine_radial_factor(d: int) -> float:
    """scikit-learn's value for int_0^1 r^(d-1) cos(pi r / 2) dr.

    Integrating by parts, the integral is a sum of boundary terms; with
    ``c = 2 / pi`` the terms from the sine boundary are ``t_1 = c`` and
    ``t_(k+2) = -t_k (d - k) (d - k - 1) c^2`` for odd k <= d. scikit-learn
    adds only these, which is exact for odd d; for even d the terms from the
    cosine boundary are missing, so its cosine estimate does not integrate to
    1 (in 2-D it integrates to (4 - 8 / pi) / 4 ~ 0.363). turbometrics keeps
    scikit-learn's constant so that the two agree.
    """
    c = 2.0 / math.pi
    total, term = 0.0, c
    for k in range(1, d + 1, 2):
        total += term
        term *= -(d - k) * (d - k - 1) * c * c
    return total


def log_kernel_norm(kernel: str, d: int, h: float) -> float:
    """log of the constant that makes ``K(||u|| / h)`` integrate to 1 over R^d.

    These are scikit-learn's constants: with ``V_d`` the volume of the unit
    ball and ``A_d`` the area of the unit sphere in R^d, the integral of the
    profile over R^d is ``(2 pi)^(d/2)`` (gaussian), ``V_d`` (tophat),
    ``2 V_d / (d + 2)`` (epanechnikov), ``A_d Gamma(d)`` (exponential),
    ``V_d / (d + 1)`` (linear) and ``A_d int_0^1 r^(d-1) cos(pi r / 2) dr``
    (cosine; for even d scikit-learn's value of that integral is too large,
    see :func:`_cosine_radial_factor`), each times ``h^d``.
    """
    if kernel == "gaussian":
        log_integral = 0.5 * d * math.log(2.0 * math.pi)
    elif kernel == "tophat":
        log_integral = _log_unit_ball_volume(d)
    elif kernel == "epanechnikov":
        log_integral = _log_unit_ball_volume(d) + math.log(2.0 / (d + 2.0))
    elif kernel == "exponential":
        log_integral = _log_unit_sphere_area(d) + math.lgamma(d)
    elif kernel == "linear":
        log_integral = _log_unit_ball_volume(d) - math.log(d + 1.0)
    else:
        log_integral = _log_unit_sphere_area(d) + math.log(_cosine_radial_factor(d))
    return -log_integral - d * math.log(h)


def check_points_array(values: Any, name: str) -> np.ndarray:
    """A finite, non-empty float array of shape (count, d) from (count,) or (count, d) input."""
    array = as_array(values)
    if array.dtype.kind not in "biuf":
        if array.dtype.kind == "O":
            array = array.astype(np.float64)
        else:
            raise ValueError(f"{name} must be numeric, got dtype {array.dtype}.")
    check_dimensions(array)
    if array.ndim == 0:
        raise ValueError(f"{name} must be an array of shape (count,) or (count, d), got a scalar.")
    if array.ndim == 1:
        array = array.reshape(-1, 1)
    if array.shape[0] < 1 or array.shape[1] < 1:
        raise ValueError(f"{name} must hold at least one point of at least one coordinate; shape {array.shape}.")
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        raise ValueError(f"{name} contains NaN or infinity.")
    return array


def check_density_weights(weights: Any, n: int) -> np.ndarray | None:
    """Finite, non-negative float64 weights, one per data point, not all zero."""
    if weights is None:
        return None
    array = np.asarray(weights, dtype=np.float64)
    if array.ndim != 1 or array.shape[0] != n:
        raise ValueError(f"weights must have shape ({n},), one per data point; got shape {array.shape}.")
    if not np.isfinite(array).all():
        raise ValueError("weights contains NaN or infinity.")
    if (array < 0).any():
        raise ValueError("Negative values in data passed to weights.")
    if not array.sum() > 0:
        raise ValueError("weights must not all be zero.")
    return array


def float64_data(data: np.ndarray) -> np.ndarray:
    """The data as float64 (n, d): no copy for float64 input in any layout;
    the single conversion for other dtypes. The kernel reads it once into
    its own sorted copy."""
    return np.asarray(data, dtype=np.float64)


def rows_of(points: np.ndarray) -> np.ndarray:
    """Query points as C-ordered float64 rows (no copy when they already are)."""
    return np.ascontiguousarray(points, dtype=np.float64)


def log_sums(
    data: np.ndarray, weights: np.ndarray | None, points: np.ndarray, kernel: str, h: float, threads: int
) -> np.ndarray:
    """``log sum_j w_j K(||x_j - p_i|| / h)`` for every point: the compiled primitive.

    ``data`` is float64 (n, d) in any layout, ``points`` C-ordered float64 (m, d).
    """
    work = data.shape[0] * points.shape[0] * data.shape[1]
    return _core.density.log_sums(data, weights, points, kernel, float(h), threads_for(threads, work))


@validate_params(_KDE_CONSTRAINTS, bind_like_scikit_learn=False)
def kde(
    data: Any,
    points: Any,
    *,
    bandwidth: Any,
    kernel: str = "gaussian",
    weights: Any = None,
    method: str = "exact",
    n_threads: int | None = None,
) -> np.ndarray:
    """Kernel density estimate of ``data`` evaluated at ``points``.

    ``kde(X, P, bandwidth=h, kernel=k, weights=w)`` equals
    ``np.exp(KernelDensity(kernel=k, bandwidth=h, rtol=0).fit(X,
    sample_weight=w).score_samples(P))`` (scikit-learn's estimate computed
    without its approximation; its default ``rtol=1e-8`` allows relative
    errors up to 1e-8) to a relative tolerance of 1e-9:

    ``f(p) = sum_j w_j c_{k,d} h^-d K_k(||p - x_j|| / h) / sum_j w_j``

    with the profiles ``K`` exp(-u^2/2) (gaussian), 1 (tophat), 1 - u^2
    (epanechnikov), exp(-u) (exponential), 1 - u (linear) and cos(pi u / 2)
    (cosine), the compact ones zero for ``u >= 1``, and ``c_{k,d}`` the
    constant making ``K`` a density in R^d (see ``turbometrics.density._kde.log_kernel_norm``).

    Parameters
    ----------
    data : array-like of shape (n, d) or (n,)
        The sample. float64 arrays are read in place (any strides); other
        dtypes (float32, integers) are converted to float64 once. The kernel
        then makes its one working copy, sorted by the first coordinate.
    points : array-like of shape (m, d) or (m,)
        Where to evaluate the density; ``(m,)`` requires ``d == 1``.
    bandwidth : float > 0 or {"scott", "silverman", "isj"}
        The kernel's scale ``h``, or a rule: "scott" ``n ** (-1 / (d + 4))``
        and "silverman" ``(n * (d + 2) / 4) ** (-1 / (d + 4))`` as
        scikit-learn's ``KernelDensity`` (from the data's shape alone, not
        its spread; scipy's spread-scaled rule is
        :class:`turbometrics.gaussian_kde`'s), or "isj", the improved
        Sheather-Jones plug-in for 1-D data (see
        ``turbometrics.density._bandwidth``).
    kernel : {"gaussian", "tophat", "epanechnikov", "exponential", "linear", "cosine"}, default="gaussian"
    weights : array-like of shape (n,), default=None
        Non-negative weights, not all zero (None: all 1).
    method : {"exact", "binned"}, default="exact"
        "exact": the kernel sum over the data, vectorised and parallel over
        points. The data are sorted by their first coordinate and each
        point visits a window of them: for compact kernels the pairs within
        ``h`` in that coordinate; for the Gaussian and exponential kernels
        the pairs whose term can exceed ``2**-60 * w_min / W`` times the
        point's largest term (``W`` the total, ``w_min`` the smallest
        positive weight), so the skipped terms add up to less than 2**-60
        of the result, far below its rounding error.
        "binned" (gaussian kernel, d = 1 or 2): linear binning on a grid of
        16 nodes per bandwidth, FFT convolution with a second-order binning
        correction, cubic interpolation to the points. Stated bound:
        ``|binned - exact| <= 1e-3 * exact`` wherever ``exact >= 1e-3 *``
        the density's peak (see ``turbometrics.density._binned``).
    n_threads : int, default=None
        Threads (over evaluation points); None uses
        :func:`turbometrics.get_num_threads`. Results are bit-identical for
        every thread count.

    Returns
    -------
    density : ndarray of float64, shape (m,)
        The density at each point. The sum is formed in log space (each
        point's largest term is scaled to 1), so results keep full relative
        accuracy down to the smallest normal doubles; where the density is
        below ~1e-308 it underflows to 0 exactly as ``np.exp`` of
        scikit-learn's ``score_samples`` does. For compact kernels a point
        with no data within ``h`` has density 0.

    Raises
    ------
    InvalidParameterError
        For an unknown kernel, method or bandwidth rule, or a bandwidth
        that is not a positive number.
    ValueError
        For empty, non-finite or mismatched inputs, invalid weights, a
        bandwidth rule on data without spread, "isj" or "binned" on data
        of unsupported dimension.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> data = np.array([0.0, 1.0, 1.5, 4.0])
    >>> points = np.array([0.0, 1.0, 2.0])
    >>> tm.kde(data, points, bandwidth=0.5).round(6)
    array([0.228683, 0.347452, 0.148115])
    >>> tm.kde(data, points, bandwidth=1.0, kernel="epanechnikov").round(6)
    array([0.1875  , 0.328125, 0.140625])
    >>> tm.kde(data, [1.0], bandwidth="scott").round(6)  # KernelDensity(bandwidth="scott"): 0.292621
    array([0.292621])
    """
    threads = resolve_threads(n_threads)
    data_rows = check_points_array(data, "data")
    query = check_points_array(points, "points")
    n, d = data_rows.shape
    if query.shape[1] != d:
        raise ValueError(f"points have {query.shape[1]} coordinate(s) but the data have {d}.")
    w = check_density_weights(weights, n)
    h = bandwidth_value(bandwidth, data_rows, w)
    total_weight = float(n) if w is None else float(w.sum())
    data64 = float64_data(data_rows)

    def exact(at: np.ndarray) -> np.ndarray:
        log_density = log_sums(data64, w, rows_of(at), kernel, h, threads)
        log_density += log_kernel_norm(kernel, d, h)
        log_density -= math.log(total_weight)
        return np.exp(log_density)

    if method == "binned":
        return binned_density(data64, w, query, kernel, h, total_weight, exact, threads)
    return exact(query)
