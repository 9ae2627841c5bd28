"""Differential tests of turbometrics.kde against scikit-learn's KernelDensity
and of turbometrics.gaussian_kde against scipy.stats.gaussian_kde.

scikit-learn is run with ``rtol=0`` (its default 1e-8 lets its tree
traversal stop early, so it is itself only accurate to 1e-8). Every result
is also compared with an exact NumPy reference (log-sum-exp), which is what
decides in the far tails, where scikit-learn's traversal is not accurate
(see ``assert_matches`` and test_sklearn_breadth_first_weighted_tail).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st
from hypothesis.extra import numpy as hnp

import turbometrics as tm

# Asserts bits or tolerances: re-run under other CPU personalities by .ci/cpu_personalities.
pytestmark = pytest.mark.bits

scipy_stats = pytest.importorskip("scipy.stats")
scipy_special = pytest.importorskip("scipy.special")
from sklearn.neighbors import KernelDensity  # noqa: E402

KERNELS = ["gaussian", "tophat", "epanechnikov", "exponential", "linear", "cosine"]
COMPACT = {"tophat", "epanechnikov", "linear", "cosine"}
RTOL = 1e-9

_coordinate = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


@st.composite
def samples(draw, min_n=1, max_n=30, dims=(1, 2, 3)):
    """(data (n, d), points (m, d), weights or None); duplicates, far points."""
    d = draw(st.sampled_from(dims))
    n = draw(st.integers(min_n, max_n))
    if draw(st.booleans()):  # few distinct values: many duplicate points
        values = draw(st.lists(_coordinate, min_size=1, max_size=3))
        data = np.array(draw(st.lists(st.sampled_from(values), min_size=n * d, max_size=n * d))).reshape(n, d)
    else:
        data = draw(hnp.arrays(np.float64, (n, d), elements=_coordinate))
    m = draw(st.integers(1, 8))
    points = draw(hnp.arrays(np.float64, (m, d), elements=_coordinate))
    if draw(st.booleans()):  # far outside the data
        points = np.vstack([points, draw(st.sampled_from([30.0, 1e3, -1e5])) * np.ones((1, d))])
    weights = None
    if draw(st.booleans()):
        weights = draw(hnp.arrays(np.float64, n, elements=st.sampled_from([0.0, 0.5, 1.0, 2.5, 7.0])))
        assume(weights.sum() > 0)
    return data, points, weights


def sklearn_density(data, points, h, kernel, weights):
    model = KernelDensity(kernel=kernel, bandwidth=h, rtol=0).fit(data, sample_weight=weights)
    with np.errstate(divide="ignore"):  # log(0) inside scikit-learn for empty supports
        return np.exp(model.score_samples(points))


def _log_ball(d):
    return 0.5 * d * math.log(math.pi) - math.lgamma(0.5 * d + 1)


def _log_sphere(d):
    return math.log(2.0) + 0.5 * d * math.log(math.pi) - math.lgamma(0.5 * d)


# scikit-learn's value of int_0^1 r^(d-1) cos(pi r / 2) dr (the true value for
# odd d; too large for even d, where its cosine estimate integrates to < 1).
_SKLEARN_COSINE_RADIAL = {1: 2 / math.pi, 2: 2 / math.pi, 3: 2 / math.pi - 16 / math.pi**3}


def reference_density(data, points, h, kernel, weights):
    """Exact estimate in NumPy: log-sum-exp for the unbounded kernels."""
    n, d = data.shape
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    log_integral = {
        "gaussian": 0.5 * d * math.log(2 * math.pi),
        "tophat": _log_ball(d),
        "epanechnikov": _log_ball(d) + math.log(2 / (d + 2)),
        "exponential": _log_sphere(d) + math.lgamma(d),
        "linear": _log_ball(d) - math.log(d + 1),
        "cosine": _log_sphere(d) + math.log(_SKLEARN_COSINE_RADIAL.get(d, 1.0)),
    }[kernel] + d * math.log(h)
    dist = np.sqrt(((points[:, None, :] - data[None, :, :]) ** 2).sum(axis=2))
    if kernel in ("gaussian", "exponential"):
        log_k = -0.5 * (dist / h) ** 2 if kernel == "gaussian" else -dist / h
        log_sum = scipy_special.logsumexp(log_k, b=w, axis=1)
    else:
        u = dist / h
        profile = {
            "tophat": np.ones_like(u),
            "epanechnikov": 1 - u * u,
            "linear": 1 - u,
            "cosine": np.cos(0.5 * math.pi * u),
        }[kernel]
        with np.errstate(divide="ignore"):
            log_sum = np.log(np.where(dist < h, profile, 0.0) @ w)
    return np.exp(log_sum - log_integral - math.log(w.sum()))


def assert_matches(got, data, points, h, kernel, weights):
    """Equal to the exact NumPy reference everywhere, and to scikit-learn
    wherever its (rtol=0) tree traversal is itself accurate: in the far
    tails (below 1e-10 of the largest value) it was found off by up to 4e-7
    relative depth-first, and by orders of magnitude breadth-first with
    weights, while leaving round-off of ~1e-16 of the peak where a compact
    kernel's density is exactly 0."""
    exact = reference_density(data, points, h, kernel, weights)
    np.testing.assert_allclose(got, exact, rtol=RTOL, atol=0)
    expected = sklearn_density(data, points, h, kernel, weights)
    bulk = exact >= 1e-10 * exact.max()
    np.testing.assert_allclose(got[bulk], expected[bulk], rtol=RTOL)
    assert np.all(np.abs(got - expected) <= 1e-9 * max(exact.max(), 1e-300))


@given(samples(), st.sampled_from(KERNELS), st.floats(0.05, 5.0))
def test_kde_matches_scikit_learn(sample, kernel, h):
    data, points, weights = sample
    got = tm.kde(data, points, bandwidth=h, kernel=kernel, weights=weights)
    assert_matches(got, data, points, h, kernel, weights)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("d", [1, 2, 3])
def test_kde_every_kernel_and_dimension(kernel, d):
    rng = np.random.default_rng(d)
    data = rng.normal(size=(200, d))
    points = np.vstack([rng.normal(size=(40, d)) * 2, np.full((1, d), 6.0)])
    weights = rng.random(200)
    for w in (None, weights):
        got = tm.kde(data, points, bandwidth=0.6, kernel=kernel, weights=w)
        assert_matches(got, data, points, 0.6, kernel, w)


def test_sklearn_breadth_first_weighted_tail():
    """Documents the scikit-learn discrepancy the helper above avoids."""
    rng = np.random.default_rng(3)
    data = rng.normal(size=(200, 3))
    rng.normal(size=(40, 3))
    weights = rng.random(200)
    point = np.full((1, 3), 6.0)
    r2 = ((data - point) ** 2).sum(axis=1)
    exact = (weights * np.exp(-0.5 * r2 / 0.36)).sum() / weights.sum() / (2 * math.pi * 0.36) ** 1.5
    np.testing.assert_allclose(tm.kde(data, point, bandwidth=0.6, weights=weights), [exact], rtol=RTOL)
    np.testing.assert_allclose(reference_density(data, point, 0.6, "gaussian", weights), [exact], rtol=RTOL)
    sklearn_value = sklearn_density(data, point, 0.6, "gaussian", weights)[0]
    assert sklearn_value > 1e4 * exact  # scikit-learn 1.9.1 (breadth-first, weighted): 5.9e-38


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("d", [1, 2, 3])
def test_kde_many_blocks_with_pruning(kernel, d):
    """Thousands of points (many blocks and stripes), small and large
    bandwidths: the pruned sums equal the full NumPy sums."""
    rng = np.random.default_rng(10 + d)
    data = np.concatenate([rng.normal(size=(3000, d)), rng.uniform(-6, 6, size=(2000, d))])
    weights = rng.random(5000) * (rng.random(5000) > 0.1)  # some zero weights
    points = np.vstack([rng.normal(size=(30, d)) * 3, np.full((1, d), 40.0)])
    for h in (0.05, 0.4, 3.0):
        for w in (None, weights):
            got = tm.kde(data, points, bandwidth=h, kernel=kernel, weights=w)
            np.testing.assert_allclose(got, reference_density(data, points, h, kernel, w), rtol=RTOL, atol=0)


def test_kde_one_dimensional_shapes_and_single_sample():
    got = tm.kde([0.5], [0.5, 1.5, 100.0], bandwidth=0.5)
    x = np.array([0.0, 1.0, 99.5]) / 0.5
    np.testing.assert_allclose(got, np.exp(-0.5 * x**2) / (0.5 * math.sqrt(2 * math.pi)), rtol=RTOL)
    assert got[2] == 0.0  # underflows, as exp(score_samples) does
    np.testing.assert_array_equal(tm.kde(np.array([[0.5]]), np.array([[0.5], [1.5]]), bandwidth=0.5), got[:2])


def test_kde_far_points_log_space_accuracy():
    # exp(-700) is far below any single unscaled term's precision; the
    # shifted sum keeps full accuracy.
    data = np.array([[0.0], [1.0]])
    points = np.array([[1.0 + math.sqrt(2 * 700)]])
    got = tm.kde(data, points, bandwidth=1.0)
    expected = reference_density(data, points, 1.0, "gaussian", None)
    assert expected[0] > 0
    np.testing.assert_allclose(got, expected, rtol=RTOL)


def test_kde_float32_and_integer_input_are_converted_once():
    rng = np.random.default_rng(0)
    data = rng.normal(size=(100, 2)).astype(np.float32)
    points = rng.normal(size=(10, 2)).astype(np.float32)
    np.testing.assert_array_equal(
        tm.kde(data, points, bandwidth=0.5), tm.kde(data.astype(np.float64), points.astype(np.float64), bandwidth=0.5)
    )
    ints = np.arange(10).reshape(5, 2)
    np.testing.assert_array_equal(tm.kde(ints, ints, bandwidth=2), tm.kde(ints * 1.0, ints * 1.0, bandwidth=2.0))


@pytest.mark.parametrize("kernel", ["gaussian", "epanechnikov", "exponential"])
@pytest.mark.parametrize("d", [1, 2])
def test_kde_bit_identical_for_every_thread_count(kernel, d):
    rng = np.random.default_rng(3)
    data = rng.normal(size=(3000, d))
    points = rng.normal(size=(150, d))
    weights = rng.random(3000)
    runs = [tm.kde(data, points, bandwidth=0.3, kernel=kernel, weights=weights, n_threads=t) for t in (1, 2, 3)]
    for run in runs[1:]:
        np.testing.assert_array_equal(run, runs[0])


def test_kde_integrates_to_one():
    data = np.array([[0.0], [2.0]])
    grid = np.linspace(-20, 22, 42001)[:, None]
    for kernel in KERNELS:
        density = tm.kde(data, grid, bandwidth=1.3, kernel=kernel)
        assert abs(density.sum() * (grid[1, 0] - grid[0, 0]) - 1.0) < 1e-3


# --------------------------------------------------------------------------
# bandwidth rules


@given(samples(min_n=1, dims=(1, 2, 3)), st.sampled_from(["scott", "silverman"]))
def test_bandwidth_rules_are_kernel_densitys(sample, rule):
    """ "scott" and "silverman" are scikit-learn KernelDensity's rules (from
    the data's shape only, sample weights aside): its ``bandwidth_`` bit
    for bit, and its density."""
    data, points, weights = sample
    estimator = KernelDensity(bandwidth=rule, rtol=0).fit(data, sample_weight=weights)
    got = tm.kde(data, points, bandwidth=rule, weights=weights)
    assert tm.kde(data, points, bandwidth=estimator.bandwidth_, weights=weights).tobytes() == got.tobytes()
    expected = np.exp(estimator.score_samples(points))
    keep = expected > 1e-290
    np.testing.assert_allclose(got[keep], expected[keep], rtol=RTOL)


def test_bandwidth_rules_ignore_the_spread():
    """The issue's example: data of spread 3 gets KernelDensity's bandwidth,
    not scipy's spread-scaled one (those differed by a factor of up to 41)."""
    rng = np.random.default_rng(1)
    data = rng.normal(size=(500, 2)) * 3.0
    for rule, h in [("scott", 500 ** (-1 / 6)), ("silverman", (500 * 4 / 4) ** (-1 / 6))]:
        assert KernelDensity(bandwidth=rule).fit(data).bandwidth_ == h
        np.testing.assert_array_equal(tm.kde(data, data[:5], bandwidth=rule), tm.kde(data, data[:5], bandwidth=h))


def test_isj_bandwidth():
    from turbometrics.density._bandwidth import isj_bandwidth

    rng = np.random.default_rng(0)
    normal = rng.normal(size=10000)
    # On normal data the plug-in converges to the normal-reference bandwidth.
    reference = (4 / 3) ** 0.2 * normal.std(ddof=1) * normal.size ** (-0.2)
    assert abs(isj_bandwidth(normal, None) / reference - 1) < 0.1
    # Bimodal data with a narrow mode: much smaller than the normal reference.
    data = np.concatenate([rng.normal(-3, 0.5, 3000), rng.normal(2, 1.0, 3000)])
    h = isj_bandwidth(data, None)
    assert 0.05 < h < 0.5 * (4 / 3) ** 0.2 * data.std() * data.size ** (-0.2)
    # Weights are relative: equal weights are no weights.
    small = rng.normal(size=400)
    np.testing.assert_allclose(isj_bandwidth(small, np.full(400, 2.0)), isj_bandwidth(small, None), rtol=1e-12)
    grid = np.linspace(-6, 6, 5)
    np.testing.assert_allclose(tm.kde(data, grid, bandwidth="isj"), tm.kde(data, grid, bandwidth=h), rtol=1e-12)


# --------------------------------------------------------------------------
# errors


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(bandwidth=0.0),
        dict(bandwidth=-1.0),
        dict(bandwidth="wide"),
        dict(bandwidth=1.0, kernel="box"),
        dict(bandwidth=1.0, method="fast"),
    ],
)
def test_kde_invalid_parameters(kwargs):
    with pytest.raises(tm.InvalidParameterError):
        tm.kde([0.0, 1.0], [0.5], **kwargs)


@pytest.mark.parametrize(
    "data, points, kwargs, message",
    [
        ([[0.0, 1.0]], [0.5], dict(bandwidth=1.0), "coordinate"),
        ([], [0.5], dict(bandwidth=1.0), "at least one point"),
        ([0.0, np.nan], [0.5], dict(bandwidth=1.0), "NaN"),
        ([0.0, 1.0], [np.inf], dict(bandwidth=1.0), "NaN or infinity"),
        ([0.0, 1.0], [0.5], dict(bandwidth=1.0, weights=[1.0]), "shape"),
        ([0.0, 1.0], [0.5], dict(bandwidth=1.0, weights=[1.0, -1.0]), "Negative"),
        ([0.0, 1.0], [0.5], dict(bandwidth=1.0, weights=[0.0, 0.0]), "zero"),
        ([1.0, 1.0], [0.5], dict(bandwidth="isj"), "spread"),
        ([[0.0, 1.0], [1.0, 0.0]], [[0.5, 0.5]], dict(bandwidth="isj"), "one-dimensional"),
    ],
)
def test_kde_invalid_inputs(data, points, kwargs, message):
    with pytest.raises(ValueError, match=message):
        tm.kde(data, points, **kwargs)


# --------------------------------------------------------------------------
# gaussian_kde


@st.composite
def scipy_datasets(draw):
    d = draw(st.sampled_from([1, 2, 3]))
    n = draw(st.integers(d + 2, 30))
    data = draw(hnp.arrays(np.float64, (d, n), elements=_coordinate))
    if draw(st.booleans()):  # a duplicated point
        data[:, -1] = data[:, 0]
    m = draw(st.integers(1, 6))
    points = draw(hnp.arrays(np.float64, (d, m), elements=_coordinate))
    if draw(st.booleans()):
        points = np.hstack([points, np.full((d, 1), draw(st.sampled_from([40.0, 1e4])))])
    weights = None
    if draw(st.booleans()):
        weights = draw(hnp.arrays(np.float64, n, elements=st.floats(0.1, 5.0)))
    bw = draw(st.sampled_from([None, "scott", "silverman", 0.3, 1.5]))
    return data, points, weights, bw


def _well_conditioned(data, weights):
    cov = np.atleast_2d(np.cov(data, aweights=weights))
    eig = np.linalg.eigvalsh(cov)
    scale = 1.0 + np.abs(data).max()
    return eig.min() > 1e-6 * max(eig.max(), 1e-300) and eig.min() > 1e-10 * scale * scale


@given(scipy_datasets())
def test_gaussian_kde_matches_scipy(case):
    data, points, weights, bw = case
    assume(_well_conditioned(data, weights))
    ours = tm.gaussian_kde(data, bw_method=bw, weights=weights)
    theirs = scipy_stats.gaussian_kde(data, bw_method=bw, weights=weights)
    assert (ours.d, ours.n) == (theirs.d, theirs.n)
    np.testing.assert_allclose(ours.neff, theirs.neff, rtol=1e-12)
    np.testing.assert_allclose(ours.factor, theirs.factor, rtol=1e-12)
    np.testing.assert_allclose(ours.covariance, theirs.covariance, rtol=1e-12, atol=0)
    np.testing.assert_allclose(ours.logpdf(points), theirs.logpdf(points), rtol=RTOL)
    expected = theirs.evaluate(points)
    keep = expected > 1e-290  # below, scipy's unscaled sum loses precision (see the class notes)
    for got in (ours.evaluate(points), ours(points), ours.pdf(points)):
        np.testing.assert_allclose(got[keep], expected[keep], rtol=RTOL)
        assert np.all(got[~keep] < 1e-280)


def test_gaussian_kde_bandwidth_methods_and_set_bandwidth():
    rng = np.random.default_rng(5)
    data = rng.normal(size=(2, 300))
    weights = rng.random(300)
    points = rng.normal(size=(2, 20))
    for bw in ["scott", "silverman", 0.2, lambda kde: kde.neff**-0.3]:
        ours = tm.gaussian_kde(data, bw_method=bw, weights=weights)
        theirs = scipy_stats.gaussian_kde(data, bw_method=bw, weights=weights)
        np.testing.assert_allclose(ours(points), theirs(points), rtol=RTOL)
        ours.set_bandwidth("silverman")
        theirs.set_bandwidth("silverman")
        np.testing.assert_allclose(ours(points), theirs(points), rtol=RTOL)
        ours.set_bandwidth(0.7)
        theirs.set_bandwidth(0.7)
        np.testing.assert_allclose(ours.factor, 0.7)
        np.testing.assert_allclose(ours(points), theirs(points), rtol=RTOL)
    with pytest.raises(ValueError, match="bw_method"):
        ours.set_bandwidth([1, 2])


def test_gaussian_kde_single_point_and_1d_input():
    data = np.array([0.0, 1.0, 3.0, 7.0])
    ours, theirs = tm.gaussian_kde(data), scipy_stats.gaussian_kde(data)
    np.testing.assert_allclose(ours(2.0), theirs(2.0), rtol=RTOL)
    np.testing.assert_allclose(ours([1.0, 2.0, 50.0]), theirs([1.0, 2.0, 50.0]), rtol=RTOL)
    data2 = np.random.default_rng(0).normal(size=(3, 10))
    ours, theirs = tm.gaussian_kde(data2), scipy_stats.gaussian_kde(data2)
    np.testing.assert_allclose(ours([0.1, 0.2, 0.3]), theirs([0.1, 0.2, 0.3]), rtol=RTOL)
    with pytest.raises(ValueError, match="dimension"):
        ours(np.zeros((2, 4)))


def test_gaussian_kde_resample_matches_scipy():
    rng = np.random.default_rng(2)
    data = rng.normal(size=(2, 50))
    weights = rng.random(50)
    ours = tm.gaussian_kde(data, weights=weights)
    theirs = scipy_stats.gaussian_kde(data, weights=weights)
    np.testing.assert_array_equal(ours.resample(seed=4), theirs.resample(seed=4))
    np.testing.assert_array_equal(
        ours.resample(7, seed=np.random.default_rng(1)), theirs.resample(7, seed=np.random.default_rng(1))
    )
    assert ours.resample(3).shape == (2, 3)


def test_gaussian_kde_errors_like_scipy():
    with pytest.raises(ValueError, match="multiple elements"):
        tm.gaussian_kde([1.0])
    with pytest.raises(ValueError, match="greater than number of samples"):
        tm.gaussian_kde(np.zeros((3, 2)))
    with pytest.raises(np.linalg.LinAlgError, match="lower-dimensional subspace"):
        tm.gaussian_kde(np.array([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]))
    with pytest.raises(ValueError, match="length n"):
        tm.gaussian_kde([0.0, 1.0, 2.0], weights=[1.0, 1.0])


def _with_value(values, index, value):
    out = np.array(values, dtype=np.float64)
    out[index] = value
    return out


_GOOD = np.random.default_rng(17).normal(size=(2, 40))


def _set_bandwidth(value):
    def build(kde_class):
        estimate = kde_class(_GOOD)
        estimate.set_bandwidth(value)
        return estimate

    return build


# Bad input, each as build(kde_class) -> estimate; scipy and turbometrics
# must refuse it with the same exception type (at construction, or when
# evaluating: scipy refuses a bad bandwidth factor only then).
_BAD_GAUSSIAN_KDE = {
    "nan in dataset": lambda K: K(_with_value(_GOOD, (0, 3), np.nan)),
    "inf in dataset": lambda K: K(_with_value(_GOOD, (1, 5), np.inf)),
    "-inf in 1-d dataset": lambda K: K(_with_value(_GOOD[0], 7, -np.inf)),
    "bw_method 0": lambda K: K(_GOOD, bw_method=0),
    "bw_method 0.0": lambda K: K(_GOOD, bw_method=0.0),
    "bw_method nan": lambda K: K(_GOOD, bw_method=np.nan),
    "bw_method inf": lambda K: K(_GOOD, bw_method=np.inf),
    "callable giving 0": lambda K: K(_GOOD, bw_method=lambda kde: 0.0),
    "callable giving nan": lambda K: K(_GOOD, bw_method=lambda kde: np.nan),
    "callable giving inf": lambda K: K(_GOOD, bw_method=lambda kde: np.inf),
    "set_bandwidth 0": _set_bandwidth(0),
    "set_bandwidth nan": _set_bandwidth(np.nan),
    "set_bandwidth inf": _set_bandwidth(np.inf),
    "nan weight": lambda K: K(_GOOD, weights=_with_value(np.ones(40), 2, np.nan)),
    "inf weight": lambda K: K(_GOOD, weights=_with_value(np.ones(40), 2, np.inf)),
    "negative weight": lambda K: K(_GOOD, weights=_with_value(np.ones(40), 2, -1.0)),
    "all weights zero": lambda K: K(_GOOD, weights=np.zeros(40)),
    "singular covariance": lambda K: K(np.vstack([_GOOD[0], 2.0 * _GOOD[0]])),
    "constant 1-d data": lambda K: K(np.ones(10)),
}


def _outcome(build, kde_class, evaluate):
    """The exception type raised building the estimate and evaluating it, or None."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            estimate = build(kde_class)
            evaluate(estimate, np.array([[0.1, np.nan], [0.2, 0.3]])[:, :1])
    except Exception as error:  # noqa: BLE001 - the type is what is compared
        return type(error)
    return None


@pytest.mark.parametrize("case", sorted(_BAD_GAUSSIAN_KDE))
@pytest.mark.parametrize("method", ["evaluate", "logpdf", "pdf"])
def test_gaussian_kde_bad_input_raises_like_scipy(case, method):
    build = _BAD_GAUSSIAN_KDE[case]
    evaluate = lambda estimate, points: getattr(estimate, method)(points)  # noqa: E731
    reference = _outcome(build, scipy_stats.gaussian_kde, evaluate)
    assert reference is not None
    assert _outcome(build, tm.gaussian_kde, evaluate) is reference


@pytest.mark.parametrize("points", [[[np.nan], [0.0]], [[0.0], [np.inf]], [[-np.inf], [np.nan]]])
def test_gaussian_kde_non_finite_points_raise_like_scipy(points):
    with pytest.raises(ValueError, match="infs or NaNs"):
        scipy_stats.gaussian_kde(_GOOD)(points)
    with pytest.raises(ValueError, match="infs or NaNs"):
        tm.gaussian_kde(_GOOD)(points)
    with pytest.raises(ValueError, match="infs or NaNs"):
        tm.gaussian_kde(_GOOD).logpdf(points)


@pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::numpy.exceptions.ComplexWarning")  # scipy's too
@pytest.mark.parametrize("bw_method", [-1.0, lambda kde: -0.5, 1j])
def test_gaussian_kde_negative_or_complex_factor_is_refused(bw_method):
    # For a negative factor scipy returns densities of the wrong sign (odd d)
    # and NaN log-densities; a complex one fails inside scipy (ValueError from
    # evaluate, LinAlgError from logpdf). turbometrics refuses both with
    # ValueError.
    estimate = tm.gaussian_kde(_GOOD[0], bw_method=bw_method)
    with pytest.raises(ValueError, match="finite positive factor"):
        estimate([0.0])
    estimate.set_bandwidth(1.0)
    assert np.isfinite(estimate([0.0])).all()


def test_gaussian_kde_bad_factor_leaves_other_methods_as_scipy():
    # scipy refuses a factor of 0 only when evaluating; construction and
    # resample behave as scipy's.
    with np.errstate(divide="ignore"):
        ours = tm.gaussian_kde(_GOOD, bw_method=0.0)
        theirs = scipy_stats.gaussian_kde(_GOOD, bw_method=0.0)
    assert ours.factor == theirs.factor == 0.0
    np.testing.assert_array_equal(ours.resample(5, seed=1), theirs.resample(5, seed=1))


@pytest.mark.parametrize(
    "data, points, weights, bandwidth",
    [
        ([0.0, np.nan, 1.0], [0.5], None, 1.0),
        ([0.0, np.inf, 1.0], [0.5], None, 1.0),
        ([[0.0, 1.0], [-np.inf, 2.0]], [[0.5, 0.5]], None, 1.0),
        ([0.0, 1.0, 2.0], [np.nan], None, 1.0),
        ([0.0, 1.0, 2.0], [0.5], [1.0, np.nan, 1.0], 1.0),
        ([0.0, 1.0, 2.0], [0.5], [1.0, np.inf, 1.0], 1.0),
        ([0.0, 1.0, 2.0], [0.5], None, np.nan),
        ([0.0, 1.0, 2.0], [0.5], None, np.inf),
    ],
)
def test_kde_non_finite_input_raises_like_scikit_learn(data, points, weights, bandwidth):
    as_2d = lambda values: np.array(values, dtype=np.float64).reshape(len(values), -1)  # noqa: E731
    with pytest.raises(ValueError):
        KernelDensity(bandwidth=bandwidth).fit(as_2d(data), sample_weight=weights).score_samples(as_2d(points))
    with pytest.raises(ValueError):
        tm.kde(data, points, bandwidth=bandwidth, weights=weights)


def test_gaussian_kde_thread_counts_bit_identical():
    rng = np.random.default_rng(9)
    kde = tm.gaussian_kde(rng.normal(size=(2, 4000)))
    points = rng.normal(size=(2, 100))
    reference = kde.evaluate(points, n_threads=1)
    for threads in (2, 3):
        np.testing.assert_array_equal(kde.evaluate(points, n_threads=threads), reference)


# --------------------------------------------------------------------------
# binned


@given(samples(min_n=1, max_n=40, dims=(1, 2)), st.sampled_from([0.05, 0.3, 1.0, 4.0]))
def test_binned_error_bound(sample, h):
    """|binned - exact| <= 1e-3 exact wherever exact >= 1e-3 of the largest value."""
    data, points, weights = sample
    rng = np.random.default_rng(0)
    extra = rng.uniform(data.min(axis=0) - 3 * h, data.max(axis=0) + 3 * h, size=(200, data.shape[1]))
    points = np.vstack([points, extra, data])
    exact = tm.kde(data, points, bandwidth=h, weights=weights)
    binned = tm.kde(data, points, bandwidth=h, weights=weights, method="binned")
    covered = exact >= 1e-3 * exact.max()
    np.testing.assert_allclose(binned[covered], exact[covered], rtol=1e-3)
    assert np.all(binned >= 0)
    assert np.all(np.abs(binned - exact) <= 2e-3 * exact.max())


@pytest.mark.parametrize("d", [1, 2])
def test_binned_larger_data_and_rules(d):
    rng = np.random.default_rng(d)
    data = np.concatenate([rng.normal(size=(3000, d)) * 0.2, rng.normal(size=(3000, d)) + 3])
    weights = rng.random(6000)
    points = rng.uniform(-2, 6, size=(3000, d))
    for bandwidth in ("scott", "silverman", 0.15):
        exact = tm.kde(data, points, bandwidth=bandwidth, weights=weights)
        binned = tm.kde(data, points, bandwidth=bandwidth, weights=weights, method="binned")
        covered = exact >= 1e-3 * exact.max()
        np.testing.assert_allclose(binned[covered], exact[covered], rtol=1e-3)


def test_binned_rejects_unsupported_kernel_and_dimension():
    with pytest.raises(ValueError, match="gaussian kernel only"):
        tm.kde([0.0, 1.0], [0.5], bandwidth=1.0, kernel="tophat", method="binned")
    with pytest.raises(ValueError, match="two-dimensional"):
        tm.kde(np.zeros((4, 3)), np.zeros((1, 3)), bandwidth=1.0, method="binned")
