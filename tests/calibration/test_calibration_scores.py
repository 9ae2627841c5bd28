"""brier_score_loss and log_loss: differential tests against scikit-learn 1.9.1
(values bit for bit, exceptions and warnings), and smooth_calibration_error against the
``relplot`` reference implementation."""

import math

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import example, given, strategies as st

import turbometrics as tm
from helpers import assert_same_exception, assert_same_warnings, capture

# Asserts bits or tolerances: re-run under other CPU personalities by .ci/cpu_personalities.
pytestmark = pytest.mark.bits


def compare(name, *args, **kwargs):
    sk = capture(getattr(skm, name), *args, **kwargs)
    got = capture(getattr(tm, name), *args, **kwargs)
    context = f"{name}{args!r}{kwargs!r}"
    if sk.exc is not None:
        assert_same_exception(sk.exc, got, context)
    else:
        assert got.exc is None, f"{context}: sklearn returned {sk.value!r}, turbometrics {got.describe()}"
        assert type(got.value) is float
        # scikit-learn's bits: the log loss takes np.log's own loop on every processor
        assert got.value == sk.value or (math.isnan(got.value) and math.isnan(sk.value)), (context, got, sk.value)
    assert_same_warnings(sk, got, context)


LABEL_SETS = [[0, 1], [-1, 1], [2, 5], ["a", "b"], [0, 1, 2], ["x", "y", "z"], [True, False]]


@st.composite
def problems(draw):
    n = draw(st.integers(1, 25))
    classes = draw(st.sampled_from(LABEL_SETS))
    y = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    shape = draw(st.sampled_from(["1d", "2d", "column"]))
    value = st.one_of(st.sampled_from([0.0, 1.0, 0.5, 1e-20, 1 - 1e-16]), st.floats(0, 1, allow_nan=False))
    if shape == "2d":
        k = draw(st.sampled_from([len(classes), 2, 3]))
        raw = np.array(draw(st.lists(value, min_size=n * k, max_size=n * k))).reshape(n, k)
        if draw(st.booleans()):
            raw = raw / np.maximum(raw.sum(axis=1, keepdims=True), 1e-300)
        prob = raw
    else:
        prob = np.array(draw(st.lists(value, min_size=n, max_size=n)))
        if shape == "column":
            prob = prob[:, None]
    if draw(st.booleans()):
        prob = prob.astype(np.float32)
    if draw(st.booleans()):
        prob = prob * draw(st.sampled_from([1.5, -1.0]))  # out of range
    weights = None
    if draw(st.booleans()):
        weights = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=n, max_size=n))
    return y, prob, weights, classes


@given(problems(), st.sampled_from([None, "first", "last"]), st.sampled_from(["auto", True, False]), st.booleans())
# a float32 mean in the subnormal range: scikit-learn halves it in float32
@example(([0, 0], np.array([0.0, 1e-20], dtype=np.float32), None, [0, 1]), None, "auto", False)
def test_brier_score_loss_matches_scikit_learn(problem, pos_label, scale_by_half, with_labels):
    y, prob, weights, classes = problem
    kwargs = {"sample_weight": weights, "scale_by_half": scale_by_half}
    if pos_label is not None:
        kwargs["pos_label"] = classes[0] if pos_label == "first" else classes[-1]
    if with_labels:
        kwargs["labels"] = sorted(classes)
    compare("brier_score_loss", y, prob, **kwargs)


@given(problems(), st.booleans(), st.booleans())
def test_log_loss_matches_scikit_learn(problem, normalize, with_labels):
    y, prob, weights, classes = problem
    kwargs = {"sample_weight": weights, "normalize": normalize}
    if with_labels:
        kwargs["labels"] = sorted(classes)
    compare("log_loss", y, prob, **kwargs)


@pytest.mark.parametrize(
    "call",
    [
        lambda f: f([0, 1], [0.2, 0.7], scale_by_half="yes"),
        lambda f: f([0, 1], [0.2, 0.7], pos_label=[1]),
        lambda f: f([0, 1], [0.2, 0.7], sample_weight=3),
        lambda f: f([0, 1], [0.2, 0.7], 1),
        lambda f: f([0, 1, 2], [0.2, 0.7, 0.5]),
        lambda f: f(["a", "b"], [0.2, 0.7]),
        lambda f: f([0, 1], [0.2, np.nan]),
        lambda f: f([0, 1, 1], [0.2, 0.7]),
        lambda f: f([0, 1], [[0.2, 0.8], [0.5, 0.5]], labels=[1, 0]),
        lambda f: f([0, 2], [[0.2, 0.8], [0.5, 0.5]], labels=[0, 1]),
        lambda f: f([0, 0], [[0.2, 0.8], [0.5, 0.5]]),
        lambda f: f([0, 1], [[0.2, 0.8], [0.5, 0.5]], labels=[0]),
        lambda f: f([0, 1], [0.2, 0.7], sample_weight=[1, -1]),
    ],
)
@pytest.mark.parametrize("name", ["brier_score_loss", "log_loss"])
def test_errors_and_warnings_match_scikit_learn(name, call):
    sk = capture(call, getattr(skm, name))
    got = capture(call, getattr(tm, name))
    if sk.exc is not None:
        assert_same_exception(sk.exc, got, name)
    else:
        assert got.exc is None and math.isclose(got.value, sk.value, rel_tol=1e-12)
    assert_same_warnings(sk, got, name)


def test_log_loss_y_pred_deprecation():
    compare("log_loss", [0, 1], y_pred=[0.2, 0.7])
    compare("log_loss", [0, 1], [0.2, 0.7], y_pred=[0.2, 0.7])
    compare("log_loss", [0, 1], [0.2, 0.7], normalize="yes")


# --------------------------------------------------------------------------
# smooth calibration error


relplot = pytest.importorskip("relplot")


def _calibrated(seed, n, distortion):
    rng = np.random.default_rng(seed)
    f = rng.beta(2, 2, n)
    truth = np.clip(f + distortion * rng.normal(0, 0.1, n), 0, 1)
    return (rng.random(n) < truth).astype(int), f


@pytest.mark.parametrize("seed,n,distortion", [(0, 300, 0.0), (1, 3000, 0.5), (2, 20000, 1.0), (3, 1000, 2.0)])
def test_smooth_calibration_error_matches_relplot(seed, n, distortion):
    y, f = _calibrated(seed, n, distortion)
    for sigma in (0.02, 0.05, 0.1):
        got = tm.smooth_calibration_error(y, f, bandwidth=sigma)
        want = float(relplot.smECE_sigma(f, y, sigma))
        assert math.isclose(got, want, rel_tol=2e-2, abs_tol=1e-4), (sigma, got, want)
    got, width = tm.smooth_calibration_error(y, f, return_bandwidth=True)
    want, want_width = relplot.smECE(f, y, return_width=True)
    # relplot resolves the bandwidth to 2**-10 only.
    assert abs(width - want_width) < 2e-3
    assert abs(got - float(want)) < 1e-3
    assert abs(got - width) < 1e-6  # the fixed point


def test_smooth_calibration_error_properties():
    y, f = _calibrated(5, 2000, 1.0)
    w = np.random.default_rng(0).integers(1, 3, 2000).astype(float)
    repeated = tm.smooth_calibration_error(np.repeat(y, w.astype(int)), np.repeat(f, w.astype(int)), bandwidth=0.05)
    assert math.isclose(tm.smooth_calibration_error(y, f, sample_weight=w, bandwidth=0.05), repeated, rel_tol=1e-9)
    assert tm.smooth_calibration_error(y, f.astype(np.float32), bandwidth=0.05) == pytest.approx(
        tm.smooth_calibration_error(y, f, bandwidth=0.05), rel=1e-5
    )
    # perfectly calibrated in expectation: small; constant wrong prediction: large
    assert tm.smooth_calibration_error(np.zeros(100, int), np.full(100, 0.9)) > 0.5
    with pytest.raises(ValueError):
        tm.smooth_calibration_error([0, 1], [0.2, 1.2])
    with pytest.raises(tm.InvalidParameterError, match="'bandwidth' parameter"):
        tm.smooth_calibration_error([0, 1], [0.2, 0.7], bandwidth=-1.0)


# --------------------------------------------------------------------------
# the compiled passes of brier_score_loss, log_loss and smooth_calibration_error


@pytest.mark.parametrize("name", ["brier_score_loss", "log_loss"])
def test_large_inputs_match_scikit_learn_for_every_thread_count(name):
    rng = np.random.default_rng(11)
    n = 200_003
    for k in (2, 3, 10, 17):
        prob = rng.dirichlet(np.full(k, 0.5), n)
        y = rng.integers(0, k, n)
        w = rng.random(n)
        cases = [
            (y, prob, {}),
            (y, prob, {"sample_weight": w}),
            # np.average sums float32 weights in NumPy's buffered blocks of float64
            (y, prob, {"sample_weight": w.astype(np.float32)}),
            (y, prob, {"sample_weight": (w * 10).astype(np.int64)}),
            (y, np.asfortranarray(prob), {}),
            (y.astype(np.int8), prob, {}),
            (np.array(list("abcdefghijklmnopq"))[y], prob, {}),
        ]
        if name == "log_loss":
            # scikit-learn's weighted sum is np.dot (BLAS's order)
            cases.append((y, prob, {"normalize": False, "sample_weight": w}))
            cases.append((y, prob, {"normalize": False, "sample_weight": w.astype(np.float32)}))
        if k == 2:
            cases += [
                (y, prob[:, 1], {}),
                (y * 2 - 1, prob[:, 1].copy()[:, None], {"sample_weight": w}),
                (y.astype(bool), prob[::-1, 1], {}),
            ]
        for y_true, y_prob, kwargs in cases:
            want = getattr(skm, name)(y_true, y_prob, **kwargs)
            got = {t: getattr(tm, name)(y_true, y_prob, n_threads=t, **kwargs) for t in (1, 2, 3)}
            assert len(set(got.values())) == 1, (k, kwargs, got)
            assert got[1] == want, (k, kwargs, got[1], want)


@pytest.mark.parametrize("name", ["brier_score_loss", "log_loss"])
def test_labels_argument_and_label_dtypes(name):
    rng = np.random.default_rng(12)
    prob = rng.dirichlet(np.ones(3), 500)
    y = rng.integers(0, 3, 500)
    for y_true, labels in [
        (y, [0, 1, 2]),
        (y.astype(np.uint8), [0, 1, 2]),
        (y + 10, np.array([10, 11, 12])),
        (y.astype(np.int16), [0, 1, 2]),
        (y.astype(float), [0.0, 1.0, 2.0]),
        (y, [0, 1, 2, 3]),
        (y.astype(np.uint8), [-1, 0, 1]),
    ]:
        compare(name, y_true, prob if len(labels) == 3 else rng.dirichlet(np.ones(len(labels)), 500), labels=labels)


def test_probability_facts_errors_and_warnings_match_scikit_learn():
    prob = np.array([[0.2, 0.8], [0.5, 0.5], [0.1, 0.9]])
    for bad in (np.nan, np.inf, -np.inf, 1.5, -0.25):
        p = prob.copy()
        p[1, 0] = bad
        for name in ("brier_score_loss", "log_loss"):
            compare(name, [0, 1, 1], p)
            compare(name, [0, 1, 1], p[:, 1])
            compare(name, [0, 1, 1], np.asfortranarray(p))
    not_normalised = prob * 1.01
    for name in ("brier_score_loss", "log_loss"):
        compare(name, [0, 1, 1], not_normalised)
        compare(name, [0, 1, 1], not_normalised, labels=[1, 0])  # both warnings, in scikit-learn's order
        compare(name, [0, 1, 2], not_normalised)  # the warning, then the class-count error


def test_smooth_calibration_error_deposit_is_the_definition():
    """The compiled deposit equals the NumPy definition (to rounding), for
    every thread count, binary and top-label, weighted, float32 and strided."""
    from turbometrics.calibration import _smooth as sc

    rng = np.random.default_rng(13)
    n = 300_001
    f = rng.beta(2, 2, n)
    y = (rng.random(n) < f).astype(int)
    w = rng.random(n)
    proba = rng.dirichlet(np.ones(4), n)
    labels = rng.integers(0, 4, n)
    cases = [
        (y, f, None),
        (y, f, w),
        (y, f.astype(np.float32), None),
        (y, np.repeat(f, 2)[::2], w),
        (labels, proba, None),
        (labels, np.asfortranarray(proba), w),
    ]
    for y_true, y_prob, weights in cases:
        prob = np.asarray(y_prob, dtype=np.float64)
        if prob.ndim == 1:
            conf, outcome = prob, (np.asarray(y_true) == 1).astype(float)
        else:
            arg = prob.argmax(axis=1)
            conf, outcome = prob[np.arange(n), arg], (arg == y_true).astype(float)
        ww = np.ones(n) if weights is None else weights
        mass, signed = sc._deposit(conf, outcome - conf, ww / ww.sum(), sc._GRID)
        smoother = sc._Smoother(mass, signed)
        for bandwidth in (0.01, 0.1):
            want = smoother.error(bandwidth)
            got = {
                t: tm.smooth_calibration_error(y_true, y_prob, sample_weight=weights, bandwidth=bandwidth, n_threads=t)
                for t in (1, 2, 3)
            }
            assert len(set(got.values())) == 1, got
            assert math.isclose(got[1], want, rel_tol=1e-9), (got[1], want)


def test_smooth_calibration_error_errors():
    with pytest.raises(ValueError, match="greater than 1"):
        tm.smooth_calibration_error([0, 1], [0.2, 1.2])
    with pytest.raises(ValueError, match="less than 0"):
        tm.smooth_calibration_error([0, 1], [[0.2, 0.8], [-0.1, 0.9]])
    with pytest.raises(ValueError, match="NaN"):
        tm.smooth_calibration_error([0, 1], [0.2, np.nan])
    with pytest.raises(ValueError, match="class indices outside"):
        tm.smooth_calibration_error([0, 2], [[0.2, 0.8], [0.5, 0.5]])
    with pytest.raises(ValueError, match="non-negative"):
        tm.smooth_calibration_error([0, 1], [0.2, 0.7], sample_weight=[1, -1])


@given(
    st.integers(2, 6).flatmap(
        lambda k: st.tuples(
            st.just(k),
            st.lists(st.integers(0, k - 1), min_size=1, max_size=300),
            st.integers(0, 2**32 - 1),
            st.sampled_from([None, "fractional", "integer"]),
        )
    )
)
def test_log_loss_is_scikit_learns_bits(case):
    """Random probabilities, where a logarithm other than np.log's differs
    in the last bit for a few percent of the inputs (the vectorised fdlibm
    log turbometrics used before: 17 of 400 inputs on an AVX-512 machine)."""
    k, y, seed, weighting = case
    rng = np.random.default_rng(seed)
    y = np.asarray(y)
    prob = rng.dirichlet(np.full(k, 0.7), y.size)
    if k == 2 and rng.random() < 0.5:
        prob = prob[:, 1]
    weight = {None: None, "fractional": rng.random(y.size) * 3, "integer": rng.integers(0, 4, y.size).astype(float)}
    w = weight[weighting]
    labels = list(range(k))
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    for normalize in (True, False):
        want = skm.log_loss(y, prob, labels=labels, sample_weight=w, normalize=normalize)
        assert tm.log_loss(y, prob, labels=labels, sample_weight=w, normalize=normalize) == want
