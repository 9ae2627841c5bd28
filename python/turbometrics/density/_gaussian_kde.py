"""A drop-in for :class:`scipy.stats.gaussian_kde` on turbometrics' kernel sum.

The density is ``sum_j w_j N(x; x_j, C)`` with ``C = factor**2 * Sigma``
(``Sigma`` the weighted data covariance). With ``L`` the lower Cholesky
factor of ``C``, the Mahalanobis form ``(x - x_j)' C^-1 (x - x_j)`` is the
squared Euclidean distance between the whitened points ``L^-1 x`` and
``L^-1 x_j``, so the estimate is the area's one Gaussian kernel sum
(bandwidth 1) on whitened data, times ``(2 pi)^(-d/2) / det L``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from numbers import Integral
from typing import Any, cast

import numpy as np

from .._common.threads import resolve_threads
from ._kde import log_sums

_SINGULAR = (
    "The data appears to lie in a lower-dimensional subspace of the space in which it is expressed. This has "
    "resulted in a singular data covariance matrix, which cannot be treated using the algorithms implemented in "
    "`gaussian_kde`. Consider performing principal component analysis / dimensionality reduction and using "
    "`gaussian_kde` with the transformed data."
)
_MORE_DIMENSIONS = (
    "Number of dimensions is greater than number of samples. This results in a singular data covariance matrix, "
    "which cannot be treated using the algorithms implemented in `gaussian_kde`. Note that `gaussian_kde` "
    "interprets each *column* of `dataset` to be a point; consider transposing the input to `dataset`."
)

_NOT_FINITE = (
    "array must not contain infs or NaNs: the weighted data covariance is not finite (`dataset` or `weights` "
    "holds NaN or infinity, or the weights sum to 0)."
)

BandwidthMethod = str | float | Callable[["gaussian_kde"], float] | None


def _whiten(lower: np.ndarray, values: np.ndarray, dtype: Any = np.float64) -> np.ndarray:
    """``L^-1 values`` for values of shape (d, count), by forward substitution in ``dtype``."""
    d = lower.shape[0]
    lower = lower.astype(dtype, copy=False)
    out = np.empty(values.shape, dtype=dtype)
    for k in range(d):
        row = values[k].astype(dtype, copy=True)
        if k:
            row -= lower[k, :k] @ out[:k]
        out[k] = row / lower[k, k]
    return out


def _factor_value(factor: Any) -> float | None:
    """The bandwidth factor as a float; None for what is no real number."""
    if np.iscomplexobj(factor):
        return None
    try:
        return float(factor)
    except (TypeError, ValueError):
        return None


def _usable_factor(factor: Any) -> bool:
    """Whether the bandwidth factor is a finite positive real number."""
    value = _factor_value(factor)
    return value is not None and value > 0 and math.isfinite(value)


def _check_factor(factor: Any) -> None:
    """Refuse a bandwidth factor that defines no density, as scipy's
    evaluation does: 0 makes the kernel covariance singular
    (``numpy.linalg.LinAlgError``), NaN or infinity makes it non-finite
    (ValueError). A negative factor (scipy returns densities of the wrong
    sign for odd d and a NaN log-density) and one that is no real number
    are refused with ValueError too."""
    if _usable_factor(factor):
        return
    value = _factor_value(factor)
    problem = f"the bandwidth factor is {factor!r}; `bw_method` must give a finite positive factor."
    if value == 0.0:
        raise np.linalg.LinAlgError(f"singular matrix: {problem}")
    if value is not None and not math.isfinite(value):
        raise ValueError(f"array must not contain infs or NaNs: {problem}")
    raise ValueError(problem[0].upper() + problem[1:])


def _random_state(seed: Any) -> np.random.RandomState | np.random.Generator:
    """scipy's ``check_random_state``: None is NumPy's global RandomState."""
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, (Integral, np.integer)):
        return np.random.RandomState(int(seed))
    if isinstance(seed, (np.random.RandomState, np.random.Generator)):
        return seed
    raise ValueError(f"'{seed}' cannot be used to seed a numpy.random.RandomState instance")


def _normal_cdf(x: np.ndarray) -> np.ndarray:
    """The standard normal CDF: ``scipy.special.ndtr`` when scipy is
    installed, else Cephes' formula with :mod:`math`'s ``erf``/``erfc``
    (``1/2 + erf(x/sqrt 2)/2`` near 0, the ``erfc`` tails beyond)."""
    try:
        from scipy.special import ndtr
    except ImportError:

        def scalar(value: float) -> float:
            z = value * math.sqrt(0.5)
            if abs(z) < math.sqrt(0.5):
                return 0.5 + 0.5 * math.erf(z)
            return 1.0 - 0.5 * math.erfc(z) if z > 0 else 0.5 * math.erfc(-z)

        return np.array([scalar(float(value)) for value in np.ravel(x)]).reshape(np.shape(x))
    return ndtr(x)


class gaussian_kde:  # noqa: N801 - scipy's name
    """Gaussian kernel density estimate, a drop-in for ``scipy.stats.gaussian_kde``.

    Same constructor, attributes and methods as scipy's class; values match
    scipy's to a relative tolerance of 1e-9 (d = 1 and d > 1, with and
    without weights), computed by turbometrics' parallel kernel sum.

    Parameters
    ----------
    dataset : array-like of shape (d, n) or (n,)
        Data points, one per column (scipy's convention).
    bw_method : {"scott", "silverman"}, scalar or callable, default=None
        How ``factor`` is computed: Scott's ``neff ** (-1 / (d + 4))``
        (the default), Silverman's ``(neff * (d + 2) / 4) ** (-1 / (d + 4))``,
        a constant, or ``bw_method(self)``.
    weights : array-like of shape (n,), default=None
        Weights of the data points, normalised to sum to 1.

    Attributes
    ----------
    dataset : ndarray of shape (d, n)
    d, n : int
        Dimension and number of data points.
    weights : ndarray of shape (n,)
        Normalised weights (``1 / n`` each without weights).
    neff : float
        Effective sample size ``1 / sum(weights**2)``.
    factor : float
        Bandwidth factor; the kernel covariance is ``factor**2`` times the
        weighted data covariance.
    covariance : ndarray of shape (d, d)
        Kernel covariance.
    cho_cov : ndarray of shape (d, d)
        Its lower Cholesky factor.
    log_det : float
        ``log det(2 pi covariance)``.

    Notes
    -----
    :meth:`evaluate` is ``exp(logpdf)``: every point's sum is formed with
    its largest term scaled to 1. scipy adds ``exp(-r2 / 2)`` terms
    directly, so where every term underflows (squared Mahalanobis distance
    above ~1416 from every data point) scipy returns 0 or a subnormal while
    this returns the correctly rounded density; elsewhere they agree to
    1e-9. Far from the data both underflow to 0. :meth:`logpdf` matches
    scipy (which uses log-sum-exp) everywhere.

    Examples
    --------
    >>> import numpy as np
    >>> import turbometrics as tm
    >>> data = np.array([0.0, 1.0, 1.5, 4.0, 4.5])
    >>> estimate = tm.gaussian_kde(data)
    >>> estimate.d, estimate.n, round(estimate.factor, 6)
    (1, 5, 0.72478)
    >>> estimate([1.0, 3.0]).round(6)
    array([0.161735, 0.134998])
    >>> estimate.logpdf([1.0, 3.0]).round(6)
    array([-1.821798, -2.002498])
    >>> estimate.resample(3, seed=0).shape
    (1, 3)
    """

    def __init__(self, dataset: Any, bw_method: BandwidthMethod = None, weights: Any = None) -> None:
        self.dataset = np.atleast_2d(np.asarray(dataset))
        if not self.dataset.size > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        self.d, self.n = self.dataset.shape
        self._weighted = weights is not None
        if weights is not None:
            self._weights = np.atleast_1d(weights).astype(float)
            self._weights /= np.sum(self._weights)
            if self._weights.ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if len(self._weights) != self.n:
                raise ValueError("`weights` input should be of length n")
            self._neff = 1.0 / np.dot(self._weights, self._weights)
        if self.d > self.n:
            raise ValueError(_MORE_DIMENSIONS)
        try:
            self.set_bandwidth(bw_method=bw_method)
        except np.linalg.LinAlgError as error:
            raise np.linalg.LinAlgError(_SINGULAR) from error

    # -- bandwidth ---------------------------------------------------------
    def scotts_factor(self) -> float:
        """Scott's factor, ``neff ** (-1 / (d + 4))``."""
        return float(np.power(self.neff, -1.0 / (self.d + 4)))

    def silverman_factor(self) -> float:
        """Silverman's factor, ``(neff * (d + 2) / 4) ** (-1 / (d + 4))``."""
        return float(np.power(self.neff * (self.d + 2.0) / 4.0, -1.0 / (self.d + 4)))

    covariance_factor = scotts_factor

    def set_bandwidth(self, bw_method: BandwidthMethod = None) -> None:
        """Set the factor rule ("scott", "silverman", a scalar or a callable
        taking this object); None keeps the current rule. Recomputes
        ``factor``, ``covariance``, ``cho_cov`` and ``log_det``."""
        if bw_method is None:
            pass
        # As scipy does, the instance's covariance_factor replaces the method.
        elif isinstance(bw_method, str) and bw_method == "scott":
            self.covariance_factor = self.scotts_factor  # type: ignore[method-assign]
        elif isinstance(bw_method, str) and bw_method == "silverman":
            self.covariance_factor = self.silverman_factor  # type: ignore[method-assign]
        elif np.isscalar(bw_method) and not isinstance(bw_method, str):
            self._bw_method: Any = "use constant"
            self.covariance_factor = lambda: cast(float, bw_method)  # type: ignore[method-assign]
        elif callable(bw_method):
            self._bw_method = bw_method
            self.covariance_factor = lambda: self._bw_method(self)  # type: ignore[method-assign]
        else:
            raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar or a callable.")
        self._compute_covariance()

    def _compute_covariance(self) -> None:
        self.factor = self.covariance_factor()
        if not hasattr(self, "_data_cho_cov"):
            self._data_covariance = np.atleast_2d(np.cov(self.dataset, rowvar=True, bias=False, aweights=self.weights))
            if not np.isfinite(self._data_covariance).all():
                raise ValueError(_NOT_FINITE)
            # LAPACK (as scipy's) factors long double data's covariance in float64.
            self._data_cho_cov = np.linalg.cholesky(self._data_covariance.astype(np.float64, copy=False))
        self.covariance = self._data_covariance * self.factor**2
        self.cho_cov = (self._data_cho_cov * self.factor).astype(np.float64)
        self.log_det = float(2.0 * np.log(np.diag(self.cho_cov * np.sqrt(2.0 * np.pi))).sum())
        # The whitened data (n, d), a transposed view the kernel reads in
        # place; None for a factor that defines no density (refused when
        # evaluating, as scipy does).
        self._white_data = _whiten(self.cho_cov, self.dataset).T if _usable_factor(self.factor) else None

    @property
    def weights(self) -> np.ndarray:
        """Normalised weights of the data points (``1 / n`` each without weights)."""
        try:
            return self._weights
        except AttributeError:
            self._weights = np.ones(self.n) / self.n
            return self._weights

    @property
    def neff(self) -> float:
        """Effective number of data points, ``1 / sum(weights**2)``."""
        try:
            return self._neff
        except AttributeError:
            self._neff = 1.0 / np.dot(self.weights, self.weights)
            return self._neff

    @property
    def inv_cov(self) -> np.ndarray:
        """Inverse of the kernel covariance."""
        return np.linalg.inv(self._data_covariance) / self.factor**2

    # -- evaluation --------------------------------------------------------
    def _points(self, x: Any) -> np.ndarray:
        """Points (d, m), checked in scipy's order: dimension, bandwidth factor, finiteness."""
        points = np.atleast_2d(np.asarray(x))
        d, m = points.shape
        if d != self.d:
            if d == 1 and m == self.d:
                points = np.reshape(points, (self.d, 1))
            else:
                raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        _check_factor(self.factor)
        if points.dtype.kind in "fc" and not np.isfinite(points).all():
            raise ValueError("array must not contain infs or NaNs: the points hold NaN or infinity.")
        return points

    def logpdf(self, x: Any, *, n_threads: int | None = None) -> np.ndarray:
        """Log of the estimated density at the points ``x``.

        Computed as a log-sum-exp, so it stays finite far from the data.

        Parameters
        ----------
        x : array-like of shape (d, m), or (d,) for one point
        n_threads : int, default=None
            Threads over the points; the result is identical for every count.

        Returns
        -------
        ndarray of float64, shape (m,)

        Raises
        ------
        ValueError
            If the points' dimension differs from the data's (scipy's
            message), the points hold NaN or infinity, or the bandwidth
            factor is NaN, infinite, negative or no real number.
        numpy.linalg.LinAlgError
            If the bandwidth factor is 0 (singular kernel covariance).
        """
        points = self._points(x)
        if points.dtype == np.longdouble or self.covariance.dtype == np.longdouble:
            return self._long_double_log_density(points)
        threads = resolve_threads(n_threads)
        white_points = np.ascontiguousarray(_whiten(self.cho_cov, points).T)
        if getattr(self, "_weighted", True):  # set by __init__; a subclass that skips it has ``weights``
            log_sum = log_sums(
                cast(np.ndarray, self._white_data), self._weights, white_points, "gaussian", 1.0, threads
            )
        else:  # equal weights 1 / n: sum with unit weights, then divide by n
            log_sum = log_sums(
                cast(np.ndarray, self._white_data), None, white_points, "gaussian", 1.0, threads
            ) - math.log(self.n)
        return log_sum - 0.5 * self.log_det

    def _long_double_log_density(self, points: np.ndarray) -> np.ndarray:
        """:meth:`logpdf` in long double, for long double data, points or
        factor (scipy's output dtype is then long double). NumPy, in blocks
        of about 2**20 (point, datum) pairs; the whitening factor is the
        float64 ``cho_cov``, as in scipy."""
        dtype = np.longdouble
        white_data = _whiten(self.cho_cov, self.dataset, dtype)
        white_points = _whiten(self.cho_cov, points, dtype)
        log_weights = np.log(self.weights.astype(dtype))[:, None]
        log_norm = -(self.d / 2) * np.log(dtype(2) * np.pi, dtype=dtype) - np.log(np.diag(self.cho_cov)).sum(
            dtype=dtype
        )
        out = np.empty(white_points.shape[1], dtype=dtype)
        block = max(1, (1 << 20) // max(1, self.n * self.d))
        for start in range(0, out.shape[0], block):
            chunk = white_points[:, start : start + block]
            exponent = log_weights - 0.5 * ((white_data[:, :, None] - chunk[:, None, :]) ** 2).sum(axis=0)
            top = exponent.max(axis=0)
            out[start : start + block] = top + np.log(np.exp(exponent - top).sum(axis=0))
        return out + log_norm

    def evaluate(self, points: Any, *, n_threads: int | None = None) -> np.ndarray:
        """Estimated density at ``points`` of shape (d, m) (or (d,) for one point).

        ``exp(logpdf(points))``; ``n_threads`` as in :meth:`logpdf`.

        Returns
        -------
        ndarray of float64, shape (m,)
        """
        return np.exp(self.logpdf(points, n_threads=n_threads))

    __call__ = evaluate

    def pdf(self, x: Any, *, n_threads: int | None = None) -> np.ndarray:
        """Same as :meth:`evaluate`."""
        return self.evaluate(x, n_threads=n_threads)

    # -- integrals and marginals ---------------------------------------------
    def _log_overlaps(self, centres: np.ndarray, covariance: np.ndarray, n_threads: int | None) -> Any:
        """``(log sum_j w_j exp(-(x_j - c)' S^-1 (x_j - c) / 2), log c_S)`` for
        each centre ``c`` (columns of ``centres``), ``S = covariance``, and
        ``c_S = (2 pi)^(d/2) sqrt(det S)``: the kernel sum on data and centres
        whitened by S's Cholesky factor (numpy.linalg.LinAlgError if S is
        not positive definite, as scipy's ``cho_factor``)."""
        lower = np.linalg.cholesky(covariance.astype(np.float64, copy=False))
        white_data = _whiten(lower, self.dataset).T
        white_centres = np.ascontiguousarray(_whiten(lower, centres).T)
        log_sum = log_sums(white_data, self.weights, white_centres, "gaussian", 1.0, resolve_threads(n_threads))
        log_norm = (self.d / 2) * math.log(2 * math.pi) + float(np.log(np.diag(lower)).sum())
        return log_sum, log_norm

    def integrate_gaussian(self, mean: Any, cov: Any, *, n_threads: int | None = None) -> float:
        """Integral of the estimate times the normal density N(mean, cov).

        ``sum_j w_j N(x_j; mean, covariance + cov)``: the kernel sum of
        turbometrics (parallel; ``n_threads`` as in :meth:`logpdf`), equal
        to scipy's to rounding.

        Raises
        ------
        ValueError
            If ``mean`` or ``cov`` is not of the data's dimension (scipy's
            messages).
        numpy.linalg.LinAlgError
            If ``covariance + cov`` is not positive definite.
        """
        mean = np.atleast_1d(np.squeeze(mean))
        cov = np.atleast_2d(cov)
        if mean.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if cov.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        log_sum, log_norm = self._log_overlaps(mean[:, None], self.covariance + cov, n_threads)
        return np.float64(math.exp(float(log_sum[0]) - log_norm))

    def integrate_kde(self, other: gaussian_kde, *, n_threads: int | None = None) -> float:
        """Integral of the product of this estimate and ``other``.

        ``sum_i sum_j v_i w_j N(y_i; x_j, covariance + other.covariance)``,
        as one kernel sum over the larger data set at the smaller one's
        points (parallel over them).

        Raises
        ------
        ValueError
            If the estimates differ in dimension ("KDEs are not the same
            dimensionality").
        """
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        small, large = (other, self) if other.n < self.n else (self, other)
        log_sum, log_norm = large._log_overlaps(small.dataset, small.covariance + large.covariance, n_threads)
        return np.float64(np.dot(np.exp(log_sum - log_norm), small.weights))

    def integrate_box_1d(self, low: float, high: float) -> float:
        """Integral of a one-dimensional estimate from ``low`` to ``high``:
        ``sum_j w_j (Phi((high - x_j) / s) - Phi((low - x_j) / s))`` with
        ``s`` the kernel's standard deviation and ``Phi`` the normal CDF
        (scipy.special.ndtr when scipy is installed, else the same
        function from :func:`math.erf` / :func:`math.erfc`).

        Raises
        ------
        ValueError
            If the estimate is not one-dimensional.
        """
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        stdev = np.ravel(np.sqrt(self.covariance))[0]
        normalized_low = np.ravel((low - self.dataset) / stdev)
        normalized_high = np.ravel((high - self.dataset) / stdev)
        return np.dot(self.weights, _normal_cdf(normalized_high) - _normal_cdf(normalized_low))

    def integrate_box(self, low_bounds: Any, high_bounds: Any, maxpts: int | None = None, *, rng: Any = None) -> float:
        """Integral of the estimate over the box [low_bounds, high_bounds].

        One dimension: :meth:`integrate_box_1d`'s exact sum. More: the
        weighted sum of multivariate normal probabilities of the box, by
        ``scipy.stats.multivariate_normal.cdf`` (quasi-Monte Carlo, with
        ``maxpts`` and ``rng`` as there), so d > 1 needs scipy.

        Raises
        ------
        ImportError
            For d > 1 without scipy.
        """
        if self.d == 1:
            return self.integrate_box_1d(np.ravel(low_bounds)[0], np.ravel(high_bounds)[0])
        try:
            from scipy.stats import multivariate_normal
        except ImportError:
            raise ImportError(
                "gaussian_kde.integrate_box on data of more than one dimension needs scipy (pip install scipy)"
            ) from None
        low, high = low_bounds - self.dataset.T, high_bounds - self.dataset.T
        values = multivariate_normal.cdf(high, lower_limit=low, cov=self.covariance, maxpts=maxpts, rng=rng)
        return np.dot(np.atleast_1d(values), self.weights)

    def marginal(self, dimensions: Any) -> gaussian_kde:
        """The estimate of the coordinates ``dimensions`` (an int or 1-D
        ints, negative ones counting from the end), the others integrated
        out: a new :class:`gaussian_kde` of those rows of the data, with
        this estimate's weights and factor.

        Raises
        ------
        ValueError
            For non-integer, repeated or out-of-range dimensions (scipy's
            messages).
        """
        dims = np.atleast_1d(dimensions)
        if not np.issubdtype(dims.dtype, np.integer):
            raise ValueError(
                "Elements of `dimensions` must be integers - the indices of the marginal variables being retained."
            )
        n = len(self.dataset)
        original = dims.copy()
        dims = np.where(dims < 0, n + dims, dims)
        if len(np.unique(dims)) != len(dims):
            raise ValueError("All elements of `dimensions` must be unique.")
        invalid = (dims < 0) | (dims >= n)
        if np.any(invalid):
            raise ValueError(f"Dimensions {original[invalid]} are invalid for a distribution in {n} dimensions.")
        return gaussian_kde(self.dataset[dims], bw_method=self.covariance_factor(), weights=self.weights)

    def resample(self, size: int | None = None, seed: Any = None) -> np.ndarray:
        """Draw ``size`` points (default ``int(neff)``) from the estimate.

        Uses the same random draws as scipy in the same order, so a given
        seed gives scipy's sample.

        Parameters
        ----------
        size : int, default=None
            Number of points; ``int(neff)`` when None.
        seed : None, int, numpy.random.Generator or RandomState, default=None
            As scipy's ``seed``.

        Returns
        -------
        ndarray of shape (d, size)
        """
        if size is None:
            size = int(self.neff)
        random_state = _random_state(seed)
        noise = np.transpose(random_state.multivariate_normal(np.zeros((self.d,), float), self.covariance, size=size))
        indices = random_state.choice(self.n, size=size, p=self.weights)
        return self.dataset[:, indices] + noise
