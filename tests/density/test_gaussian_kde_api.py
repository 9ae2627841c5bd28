"""turbometrics.gaussian_kde's integrals, marginals, subclassing hooks and
long double support, differentially against scipy.stats.gaussian_kde (scipy
1.17). scipy's own test module runs against the class too:
``.ci/scipy_kde_suite``."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as scipy_stats

import turbometrics as tm

# Asserts bits or tolerances: re-run under other CPU personalities by .ci/cpu_personalities.
pytestmark = pytest.mark.bits

RTOL = 1e-12


def _pair(data, **kwargs):
    return tm.gaussian_kde(data, **kwargs), scipy_stats.gaussian_kde(data, **kwargs)


@pytest.fixture(params=[1, 2, 3], ids=lambda d: f"d={d}")
def data(request):
    rng = np.random.default_rng(request.param)
    return rng.normal(size=(request.param, 40)) * np.arange(1, request.param + 1)[:, None]


@pytest.mark.parametrize("weighted", [False, True])
def test_integrate_gaussian_and_kde_match_scipy(data, weighted):
    weights = np.random.default_rng(5).random(data.shape[1]) if weighted else None
    ours, theirs = _pair(data, weights=weights)
    d = data.shape[0]
    mean, cov = np.full(d, 0.3), np.eye(d) * 0.7 + 0.1
    np.testing.assert_allclose(ours.integrate_gaussian(mean, cov), theirs.integrate_gaussian(mean, cov), rtol=RTOL)
    other_data = data[:, :17] + 0.25
    ours_other, theirs_other = _pair(other_data, bw_method=0.4)
    for a, b in [(ours, ours_other), (ours_other, ours)]:
        expected = (theirs if a is ours else theirs_other).integrate_kde(theirs_other if a is ours else theirs)
        np.testing.assert_allclose(a.integrate_kde(b), expected, rtol=RTOL)
    with pytest.raises(ValueError, match=f"mean does not have dimension {d}"):
        ours.integrate_gaussian(np.zeros(d + 1), cov)
    with pytest.raises(ValueError, match=f"covariance does not have dimension {d}"):
        ours.integrate_gaussian(mean, np.eye(d + 1))
    with pytest.raises(np.linalg.LinAlgError):
        ours.integrate_gaussian(mean, -10 * np.eye(d) - ours.covariance)
    with pytest.raises(ValueError, match="KDEs are not the same dimensionality"):
        ours.integrate_kde(tm.gaussian_kde(np.random.default_rng(0).normal(size=(d + 1, 30))))


def test_integrate_box_1d_and_box_match_scipy():
    data = np.random.default_rng(3).normal(size=60)
    weights = np.random.default_rng(4).random(60)
    ours, theirs = _pair(data, weights=weights)
    for low, high in [(-np.inf, 0.2), (-1.0, 1.5), (0.3, np.inf), (2.0, -2.0), (-np.inf, np.inf)]:
        assert ours.integrate_box_1d(low, high) == theirs.integrate_box_1d(low, high)
        np.testing.assert_allclose(
            ours.integrate_box(low, high), theirs.integrate_box(low, high), rtol=1e-13, atol=1e-15
        )
    two_d, two_d_theirs = _pair(np.random.default_rng(5).normal(size=(2, 30)))
    with pytest.raises(ValueError, match="only handles 1D pdfs"):
        two_d.integrate_box_1d(0.0, 1.0)
    low, high = [-1.0, -0.5], [0.5, 2.0]
    np.testing.assert_allclose(
        two_d.integrate_box(low, high, rng=np.random.default_rng(0)),
        two_d_theirs.integrate_box(low, high, rng=np.random.default_rng(0)),
        rtol=1e-12,
    )


def test_normal_cdf_without_scipy_matches_ndtr(monkeypatch):
    import sys

    from scipy.special import ndtr

    from turbometrics.density._gaussian_kde import _normal_cdf

    x = np.concatenate([np.linspace(-40, 40, 2001), [-np.inf, np.inf, 0.0, -0.0, 0.7071, -0.7072]])
    monkeypatch.setitem(sys.modules, "scipy.special", None)  # import scipy.special raises ImportError
    np.testing.assert_allclose(_normal_cdf(x), ndtr(x), rtol=1e-13, atol=1e-300)  # Cephes flushes deep tails to 0


def test_marginal_matches_scipy():
    data = np.random.default_rng(6).normal(size=(4, 50))
    weights = np.random.default_rng(7).random(50)
    ours, theirs = _pair(data, weights=weights, bw_method="silverman")
    points = np.random.default_rng(8).normal(size=(4, 5))
    for dims in ([1, 3], 2, [-1, 0], np.array([0, 1, 2, 3])):
        marginal = ours.marginal(dims)
        assert type(marginal) is tm.gaussian_kde
        selected = points[np.atleast_1d(dims)]
        np.testing.assert_allclose(marginal(selected), theirs.marginal(dims)(selected), rtol=1e-9)
        assert marginal.factor == theirs.marginal(dims).factor
    for dims, message in [
        ([1, 2.5], "must be integers"),
        ([1, 2, 2], "must be unique"),
        ([1, -5, 6], r"Dimensions \[-5  6\] are invalid for a distribution in 4"),
    ]:
        with pytest.raises(ValueError, match=message):
            ours.marginal(dims)


def test_subclassing_hooks_without_init():
    """scipy's users set dataset, d and n and call _compute_covariance()
    themselves (scipy's test_gaussian_kde_subclassing)."""

    class Subclass(tm.gaussian_kde):
        def __init__(self, dataset):
            self.dataset = np.atleast_2d(dataset)
            self.d, self.n = self.dataset.shape
            self.covariance_factor = self.scotts_factor
            self._compute_covariance()

    x = np.array([-7, -5, 1, 4, 5], dtype=float)
    points = np.linspace(-10, 10, 50)
    np.testing.assert_allclose(Subclass(x)(points), tm.gaussian_kde(x)(points), rtol=1e-14)
    np.testing.assert_allclose(Subclass(x).logpdf(points), scipy_stats.gaussian_kde(x).logpdf(points), rtol=1e-12)


@pytest.mark.parametrize("data_dtype", [np.float64, np.longdouble, np.int64])
@pytest.mark.parametrize("points_dtype", [np.float64, np.longdouble])
@pytest.mark.parametrize("bw", ["scott", np.longdouble(0.5), 0.5])
def test_long_double_output_dtype_and_values(data_dtype, points_dtype, bw):
    data = np.array([0.0, 1.0, 1.5, 4.0, 4.5, 7.0]).astype(data_dtype)
    weights = np.arange(1, 7, dtype=data_dtype)
    points = np.linspace(-3, 10, 9).astype(points_dtype)
    ours, theirs = _pair(data, bw_method=bw, weights=weights)
    got, expected = ours(points), theirs(points)
    assert got.dtype == expected.dtype == np.result_type(data, points, np.float64(weights), theirs.factor)
    np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=1e-12)
    log_got, log_expected = ours.logpdf(points), theirs.logpdf(points)
    assert log_got.dtype == log_expected.dtype
    np.testing.assert_allclose(log_got.astype(np.float64), log_expected.astype(np.float64), rtol=1e-12)
