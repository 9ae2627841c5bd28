"""Calibration metrics against NumPy references written from the definitions.

The references bin with ``np.searchsorted(edges, conf, side="right") - 1``
(clipped to the last bin) on the exact ``np.linspace`` / ``np.quantile``
edges, which is the definition turbometrics documents.
"""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st

import turbometrics as tm

# Asserts bits or tolerances: re-run under other CPU personalities by .ci/cpu_personalities.
pytestmark = pytest.mark.bits

# --------------------------------------------------------------------------
# references


def ref_edges(conf, n_bins, strategy):
    if strategy == "uniform":
        return np.linspace(0, 1, n_bins + 1)
    edges = np.quantile(conf, np.linspace(0, 1, n_bins + 1)).astype(np.float64)
    edges[0], edges[-1] = 0.0, 1.0
    return edges


def ref_table(conf, correct, w, edges):
    n_bins = edges.shape[0] - 1
    idx = np.clip(np.searchsorted(edges, conf, side="right") - 1, 0, n_bins - 1)
    weight = np.bincount(idx, w, minlength=n_bins)
    sconf = np.bincount(idx, w * conf.astype(np.float64), minlength=n_bins)
    scorr = np.bincount(idx, w * correct, minlength=n_bins)
    return weight, sconf, scorr


def ref_error_of_table(weight, sconf, scorr, norm):
    filled = weight > 0
    share = weight[filled] / weight.sum()
    gap = np.abs(scorr[filled] / weight[filled] - sconf[filled] / weight[filled])
    if norm == "l1":
        return float(np.sum(share * gap))
    if norm == "l2":
        return float(np.sqrt(np.sum(share * gap**2)))
    return float(np.max(gap))


def ref_calibration_error(y, prob, n_bins=15, strategy="uniform", norm="l1", mode="auto", w=None):
    prob = np.asarray(prob)
    w = np.ones(prob.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    if mode == "auto":
        mode = "binary" if prob.ndim == 1 else "top_label"
    if prob.ndim == 1 and mode != "binary":
        prob = np.stack([1 - prob, prob], axis=1)
    if mode == "binary":
        conf, correct = prob, (np.asarray(y) == 1).astype(np.float64)
        return ref_error_of_table(*ref_table(conf, correct, w, ref_edges(conf, n_bins, strategy)), norm)
    if mode == "top_label":
        conf = prob.max(axis=1)
        correct = (np.argmax(prob, axis=1) == y).astype(np.float64)
        return ref_error_of_table(*ref_table(conf, correct, w, ref_edges(conf, n_bins, strategy)), norm)
    errors = []
    for k in range(prob.shape[1]):
        conf = prob[:, k]
        correct = (np.asarray(y) == k).astype(np.float64)
        errors.append(ref_error_of_table(*ref_table(conf, correct, w, ref_edges(conf, n_bins, strategy)), norm))
    return float(np.mean(errors))


# --------------------------------------------------------------------------
# strategies: values on bin edges, 0.0 and 1.0, ties, weights with zeros


@st.composite
def binary_problems(draw):
    n = draw(st.integers(1, 40))
    n_bins = draw(st.integers(1, 20))
    edges = np.linspace(0, 1, n_bins + 1)
    special = st.sampled_from([0.0, 1.0, 0.5, *edges.tolist(), float(np.nextafter(edges[min(1, n_bins)], 0))])
    value = st.one_of(special, st.floats(0, 1, allow_nan=False), st.sampled_from([0.1, 0.2, 0.3, 0.7]))
    p = np.array(draw(st.lists(value, min_size=n, max_size=n)), dtype=np.float64)
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.7, 3.0]), min_size=n, max_size=n)))
        if not np.any(w):
            w[0] = 1.0
    return y, p, n_bins, w


@st.composite
def multiclass_problems(draw):
    n = draw(st.integers(1, 30))
    k = draw(st.integers(2, 5))
    n_bins = draw(st.integers(1, 12))
    raw = np.array(draw(st.lists(st.sampled_from([0.0, 1.0, 1.0, 2.0, 3.0, 0.5]), min_size=n * k, max_size=n * k)))
    raw = raw.reshape(n, k)
    raw[raw.sum(axis=1) == 0, 0] = 1.0
    prob = raw / raw.sum(axis=1, keepdims=True)  # exact ties, 1.0 and 0.0 entries
    y = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from([0.0, 1.0, 2.5]), min_size=n, max_size=n)))
        if not np.any(w):
            w[0] = 1.0
    return y, prob, n_bins, w


@given(binary_problems(), st.sampled_from(["uniform", "quantile"]), st.sampled_from(["l1", "l2", "max"]))
def test_binary_matches_reference(problem, strategy, norm):
    y, p, n_bins, w = problem
    got = tm.calibration_error(y, p, n_bins=n_bins, strategy=strategy, norm=norm, sample_weight=w)
    want = ref_calibration_error(y, p, n_bins, strategy, norm, "binary", w)
    assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-15)


@given(
    multiclass_problems(),
    st.sampled_from(["uniform", "quantile"]),
    st.sampled_from(["l1", "l2", "max"]),
    st.sampled_from(["top_label", "classwise"]),
)
def test_multiclass_matches_reference(problem, strategy, norm, mode):
    y, prob, n_bins, w = problem
    got = tm.calibration_error(y, prob, n_bins=n_bins, strategy=strategy, norm=norm, mode=mode, sample_weight=w)
    want = ref_calibration_error(y, prob, n_bins, strategy, norm, mode, w)
    assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-15)


@given(binary_problems(), st.sampled_from(["top_label", "classwise"]))
def test_one_dimensional_top_label_and_classwise(problem, mode):
    y, p, n_bins, w = problem
    got = tm.calibration_error(y, p, n_bins=n_bins, mode=mode, sample_weight=w)
    assert math.isclose(
        got, ref_calibration_error(y, p, n_bins, "uniform", "l1", mode, w), rel_tol=1e-12, abs_tol=1e-15
    )


@given(binary_problems(), st.sampled_from(["uniform", "quantile"]))
def test_reliability_diagram_is_the_bin_table(problem, strategy):
    y, p, n_bins, w = problem
    diagram = tm.reliability_diagram(y, p, n_bins=n_bins, strategy=strategy, sample_weight=w)
    ww = np.ones_like(p) if w is None else w
    edges = ref_edges(p, n_bins, strategy)
    weight, sconf, scorr = ref_table(p, (y == 1).astype(float), ww, edges)
    np.testing.assert_array_equal(diagram.edges, edges)
    np.testing.assert_allclose(diagram.weight, weight / weight.sum(), rtol=1e-12)
    with np.errstate(invalid="ignore", divide="ignore"):
        np.testing.assert_allclose(diagram.confidence, np.where(weight > 0, sconf / weight, np.nan), rtol=1e-12)
        np.testing.assert_allclose(diagram.accuracy, np.where(weight > 0, scorr / weight, np.nan), rtol=1e-12)


@pytest.mark.parametrize("n_bins", [1, 2, 3, 7, 10, 15, 49, 100, 1000, 4099])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_uniform_bin_lookup_is_exactly_searchsorted(n_bins, dtype):
    """Every edge, its neighbours in both directions, 0.0 and 1.0."""
    edges = np.linspace(0, 1, n_bins + 1)
    values = np.concatenate(
        [edges, np.nextafter(edges, -1), np.nextafter(edges, 2), edges.astype(np.float32).astype(np.float64)]
    )
    values = np.clip(values, 0, 1).astype(dtype)
    diagram = tm.reliability_diagram(np.zeros(values.shape[0], dtype=int), values, n_bins=n_bins)
    idx = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, n_bins - 1)
    counts = np.bincount(idx, minlength=n_bins)
    np.testing.assert_array_equal(diagram.weight, counts / values.shape[0])


def test_one_lands_in_the_last_bin_and_edges_go_up():
    d = tm.reliability_diagram([1, 1, 0], [1.0, 0.5, 0.0], n_bins=2)
    np.testing.assert_array_equal(d.weight, [1 / 3, 2 / 3])  # 0.5 is in [0.5, 1], with 1.0
    np.testing.assert_array_equal(d.accuracy, [0.0, 1.0])


def test_known_values():
    # two bins: [0, .5) holds .2 (y=0) and .4 (y=1); [.5, 1] holds .9 (y=1)
    y, p = [0, 1, 1], [0.2, 0.4, 0.9]
    ece = 2 / 3 * abs(0.5 - 0.3) + 1 / 3 * abs(1 - 0.9)
    assert math.isclose(tm.calibration_error(y, p, n_bins=2), ece)
    assert math.isclose(tm.calibration_error(y, p, n_bins=2, norm="max"), 0.2)
    assert math.isclose(tm.calibration_error(y, p, n_bins=2, norm="l2"), math.sqrt(2 / 3 * 0.04 + 1 / 3 * 0.01))


def test_quantile_ties_make_empty_bins():
    p = np.array([0.3] * 8 + [0.9, 0.9])
    y = np.array([0] * 5 + [1] * 3 + [1, 0])
    d = tm.reliability_diagram(y, p, n_bins=4, strategy="quantile")
    # edges [0, .3, .3, .3, 1]: [0, .3) and the two [.3, .3) bins are empty,
    # every sample is in [.3, 1]
    np.testing.assert_array_equal(d.edges, [0.0, 0.3, 0.3, 0.3, 1.0])
    np.testing.assert_array_equal(d.weight, [0.0, 0.0, 0.0, 1.0])
    assert math.isclose(
        tm.calibration_error(y, p, n_bins=4, strategy="quantile"), ref_calibration_error(y, p, 4, "quantile")
    )


def test_single_sample():
    assert tm.calibration_error([1], [0.75]) == 0.25
    assert tm.calibration_error([0], [[0.25, 0.75]]) == 0.75
    assert tm.calibration_error([1], [1.0], strategy="quantile") == 0.0


def test_pos_label_and_string_labels():
    y = np.array(["a", "b", "b", "a"])
    p = np.array([0.1, 0.8, 0.6, 0.3])
    assert tm.calibration_error(y, p, pos_label="b") == ref_calibration_error((y == "b").astype(int), p)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        tm.calibration_error(y, p)


def test_float32_is_read_in_place_and_matches_float32_reference():
    rng = np.random.default_rng(3)
    p = rng.random(1000).astype(np.float32)
    y = (rng.random(1000) < p).astype(int)
    got = tm.calibration_error(y, p, n_bins=10)
    assert math.isclose(got, ref_calibration_error(y, p, 10), rel_tol=1e-12)


def test_strided_readonly_and_fortran_input():
    rng = np.random.default_rng(4)
    prob = rng.dirichlet(np.ones(6), 500)
    y = rng.integers(0, 6, 500)
    want = ref_calibration_error(y[::2], prob[::2, ::1], 10)
    f = np.asfortranarray(prob)
    f.setflags(write=False)
    assert math.isclose(tm.calibration_error(y[::2], f[::2], n_bins=10), want, rel_tol=1e-12)
    big = np.zeros((500, 12))
    big[:, ::2] = prob
    assert math.isclose(
        tm.calibration_error(y, big[:, ::2], n_bins=10), ref_calibration_error(y, prob, 10), rel_tol=1e-12
    )


@pytest.mark.parametrize("mode", ["top_label", "classwise"])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_identical_for_every_thread_count(mode, strategy):
    rng = np.random.default_rng(5)
    n = 200_003
    prob = rng.dirichlet(np.ones(4), n)
    y = rng.integers(0, 4, n)
    w = rng.choice([0.0, 0.3, 1.0, 2.7], n)
    results = {
        t: tm.calibration_error(y, prob, mode=mode, strategy=strategy, sample_weight=w, n_threads=t)
        for t in (1, 2, 3, 4)
    }
    assert len(set(results.values())) == 1, results
    assert math.isclose(results[1], ref_calibration_error(y, prob, 15, strategy, "l1", mode, w), rel_tol=1e-10)


def test_errors():
    with pytest.raises(ValueError, match="greater than 1"):
        tm.calibration_error([0, 1], [0.5, 1.5])
    with pytest.raises(ValueError, match="less than 0"):
        tm.calibration_error([0, 1], [0.5, -0.1])
    with pytest.raises(ValueError, match="NaN"):
        tm.calibration_error([0, 1], [0.5, np.nan])
    with pytest.raises(ValueError, match="infinity"):
        tm.calibration_error([0, 1], [[0.5, np.inf], [0.2, 0.8]])
    for mode in ("top_label", "classwise"):
        for strategy in ("uniform", "quantile"):
            with pytest.raises(ValueError, match="NaN"):
                tm.calibration_error([0, 1], [[0.5, np.nan], [0.2, 0.8]], mode=mode, strategy=strategy)
    with pytest.raises(ValueError, match="NaN"):
        tm.calibration_error([0, 1], [np.nan, 0.5], strategy="quantile")
    with pytest.raises(ValueError, match="greater than 1"):
        tm.reliability_diagram([0, 1], np.array([0.5, 2.0], dtype=np.float32))
    with pytest.raises(ValueError, match="class indices"):
        tm.calibration_error([0, 3], [[0.5, 0.5], [0.2, 0.8]])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        tm.calibration_error([0, 1, 1], [0.5, 0.2])
    with pytest.raises(ValueError, match="non-negative"):
        tm.calibration_error([0, 1], [0.5, 0.2], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="1-D y_prob"):
        tm.calibration_error([0, 1], [[0.5, 0.5], [0.2, 0.8]], mode="binary")
    with pytest.raises(tm.InvalidParameterError, match="'norm' parameter of calibration_error"):
        tm.calibration_error([0, 1], [0.5, 0.2], norm="l3")
    with pytest.raises(tm.InvalidParameterError, match="'n_bins' parameter"):
        tm.calibration_error([0, 1], [0.5, 0.2], n_bins=0)
    with pytest.raises(TypeError):
        tm.calibration_error([0, 1], [0.5, 0.2], 10)  # keyword-only


def test_mean_max_confidence_and_hellinger():
    rng = np.random.default_rng(6)
    p = rng.dirichlet(np.ones(5), 300)
    q = rng.dirichlet(np.ones(5), 300)
    w = rng.random(300)
    assert math.isclose(tm.mean_max_confidence(p), p.max(axis=1).mean(), rel_tol=1e-12)
    assert math.isclose(tm.mean_max_confidence(p, sample_weight=w), np.average(p.max(axis=1), weights=w), rel_tol=1e-12)
    b = rng.random(50)
    assert math.isclose(tm.mean_max_confidence(b), np.maximum(b, 1 - b).mean(), rel_tol=1e-12)
    rows = np.sqrt(0.5 * np.sum((np.sqrt(p) - np.sqrt(q)) ** 2, axis=1))
    assert math.isclose(tm.hellinger_distance(p, q), rows.mean(), rel_tol=1e-12)
    assert math.isclose(tm.hellinger_distance(p[0], q[0]), rows[0], rel_tol=1e-12)
    assert tm.hellinger_distance(p, p) == 0.0
    assert math.isclose(tm.hellinger_distance([1.0, 0.0], [0.0, 1.0]), 1.0)
    assert math.isclose(tm.hellinger_distance(p.astype(np.float32), q.astype(np.float32)), rows.mean(), rel_tol=1e-6)
    with pytest.raises(ValueError, match="same shape"):
        tm.hellinger_distance(p, q[:, :3])


def test_every_function_takes_keyword_only_n_threads():
    y, p = [0, 1, 1], [0.2, 0.6, 0.9]
    for f, args in [
        (tm.calibration_error, (y, p)),
        (tm.reliability_diagram, (y, p)),
        (tm.mean_max_confidence, (p,)),
        (tm.hellinger_distance, (p, p)),
        (tm.smooth_calibration_error, (y, p)),
        (tm.brier_score_loss, (y, p)),
        (tm.log_loss, (y, p)),
    ]:
        f(*args, n_threads=1)
        with pytest.raises(ValueError):
            f(*args, n_threads=0)


@given(st.integers(1, 200), st.integers(1, 20), st.integers(0, 2**32 - 1), st.sampled_from(["uniform", "quantile"]))
def test_agrees_with_scikit_learn_calibration_curve_off_the_edges(n, n_bins, seed, strategy):
    """Off the inner edges the bins are the same as scikit-learn's; it
    returns only the non-empty bins."""
    from sklearn.calibration import calibration_curve

    rng = np.random.default_rng(seed)
    p = rng.random(n)
    y = (rng.random(n) < p).astype(int)
    edges = ref_edges(p, n_bins, strategy)
    theirs = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100) if strategy == "quantile" else edges
    if np.isin(p, edges[1:-1]).any() or np.isin(p, theirs[1:-1]).any():
        return  # on an inner edge scikit-learn's bins are (a, b], ours [a, b)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    d = tm.reliability_diagram(y, p, n_bins=n_bins, strategy=strategy)
    filled = d.weight > 0
    np.testing.assert_allclose(d.accuracy[filled], prob_true, rtol=1e-12)
    np.testing.assert_allclose(d.confidence[filled], prob_pred, rtol=1e-12)


def test_inner_edge_differs_from_scikit_learn_calibration_curve():
    from sklearn.calibration import calibration_curve

    y, p = [0, 1, 1], [0.2, 0.5, 0.9]
    prob_true, _ = calibration_curve(y, p, n_bins=2)
    np.testing.assert_array_equal(prob_true, [0.5, 1.0])  # 0.5 joins [0, 0.5]
    np.testing.assert_array_equal(tm.reliability_diagram(y, p, n_bins=2).accuracy, [0.0, 1.0])  # 0.5 in [0.5, 1]


# --------------------------------------------------------------------------
# the bin-table kernel's paths: unrolled row kernels for 2-16 columns (and the
# runtime-width and strided ones), vectorised bins, fused label checks


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("k", [2, 3, 4, 5, 7, 8, 9, 10, 11, 15, 16, 17, 33, 70])
def test_top_label_every_row_width(k, dtype):
    """Exact ties (first maximum wins), values on bin edges, 1.0 and 0.0."""
    rng = np.random.default_rng(k)
    n = 3001
    raw = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], size=(n, k))
    raw[raw.sum(axis=1) == 0, 0] = 1.0
    prob = (raw / raw.sum(axis=1, keepdims=True)).astype(dtype)
    y = rng.integers(0, k, n)
    w = rng.choice([0.0, 0.5, 2.0], n)
    for weights in (None, w):
        for strategy in ("uniform", "quantile"):
            got = tm.calibration_error(y, prob, n_bins=7, strategy=strategy, sample_weight=weights)
            want = ref_calibration_error(y, prob, 7, strategy, "l1", "top_label", weights)
            assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-15), (k, strategy)
    # strided rows and columns take the element-wise path
    wide = np.zeros((n, 2 * k), dtype=dtype)
    wide[:, ::2] = prob
    assert math.isclose(
        tm.calibration_error(y, wide[:, ::2], n_bins=7), ref_calibration_error(y, prob, 7), rel_tol=1e-12, abs_tol=1e-15
    )


@pytest.mark.parametrize("n_bins", [1, 2, 3, 10, 15, 100, 4099])
def test_binary_kernel_paths(n_bins):
    rng = np.random.default_rng(n_bins)
    n = 5003
    edges = np.linspace(0, 1, n_bins + 1)
    p = np.concatenate([rng.random(n), edges, np.nextafter(edges, 2).clip(0, 1), np.nextafter(edges, -1).clip(0, 1)])
    y = (rng.random(p.shape[0]) < p).astype(np.int64)
    w = rng.random(p.shape[0])
    for prob in (p, p.astype(np.float32), np.repeat(p, 2)[::2]):
        for weights in (None, w):
            got = tm.calibration_error(y, prob, n_bins=n_bins, sample_weight=weights)
            assert math.isclose(
                got,
                ref_calibration_error(y, prob, n_bins, "uniform", "l1", "binary", weights),
                rel_tol=1e-12,
                abs_tol=1e-15,
            )


def test_class_index_range_is_checked_by_the_kernel():
    prob = np.full((4, 3), 1 / 3)
    for y in ([0, 1, 2, 3], [0, -1, 2, 1], np.array([0, 1, 2, 7], dtype=np.int32)):
        with pytest.raises(ValueError, match=r"class indices outside \[0, 2\]"):
            tm.calibration_error(y, prob)
        with pytest.raises(ValueError, match=r"class indices outside \[0, 2\]"):
            tm.reliability_diagram(y, prob, strategy="quantile")
    # an out-of-range class is reported before invalid weights and probabilities, as before
    with pytest.raises(ValueError, match="class indices"):
        tm.calibration_error([0, 1, 2, 5], prob, sample_weight=[1, 1, -1, 1])
    with pytest.raises(ValueError, match="non-negative"):
        tm.calibration_error([0, 1, 2, 2], prob, sample_weight=[1, 1, -1, 1])
    with pytest.raises(ValueError, match="class indices"):
        tm.calibration_error([0, 1, 2, 5], np.full((4, 3), 1.7))
    with pytest.raises(ValueError, match="greater than 1"):
        tm.calibration_error([0, 1, 2, 2], np.full((4, 3), 1.7))


@pytest.mark.parametrize("mode", ["binary", "top_label"])
def test_identical_for_every_thread_count_one_table_modes(mode):
    rng = np.random.default_rng(8)
    n = 300_007
    if mode == "binary":
        prob = rng.random(n)
        y = (rng.random(n) < prob).astype(int)
    else:
        prob = rng.dirichlet(np.ones(10), n).astype(np.float32)
        y = rng.integers(0, 10, n)
    w = rng.random(n)
    for weights in (None, w):
        results = {t: tm.reliability_diagram(y, prob, sample_weight=weights, n_threads=t) for t in (1, 2, 3)}
        for t in (2, 3):
            for a, b in zip(results[1], results[t]):
                np.testing.assert_array_equal(a, b)


@given(
    st.one_of(binary_problems(), multiclass_problems()),
    st.sampled_from(["l1", "l2", "max"]),
    st.sampled_from(["auto", "classwise"]),
    st.integers(24, 1000),
)
def test_huge_weights_scale_exactly(problem, norm, mode, shift):
    # Weights of 1e308 summed to inf: 0.0 (max) or NaN (l1, l2), no warning
    # (issue 23). The metrics are ratios of the bin sums, so weights times 2**k
    # that do not overflow give the same bits, and the state (exact sums) agrees.
    y, prob, n_bins, w = problem
    w = np.ones(y.shape[0]) if w is None else w
    huge = w / w.max() * 1e308  # at most 1e308 (1e308 / w.max() overflows for w.max() < 1)
    scaled = np.ldexp(huge, -shift)  # a power of two away, nothing lost
    kwargs = dict(n_bins=n_bins, norm=norm, mode=mode)
    got = tm.calibration_error(y, prob, sample_weight=huge, **kwargs)
    assert math.isfinite(got)
    assert got == tm.calibration_error(y, prob, sample_weight=scaled, **kwargs)
    diagram = tm.reliability_diagram(y, prob, sample_weight=huge, n_bins=n_bins, mode=mode)
    expected = tm.reliability_diagram(y, prob, sample_weight=scaled, n_bins=n_bins, mode=mode)
    for a, b in zip(diagram, expected):
        np.testing.assert_array_equal(a, b)
    if mode == "auto":
        state = tm.CalibrationState.from_arrays(y, prob, sample_weight=huge, n_bins=n_bins)
        metric = {"l1": state.ece, "l2": state.rmsce, "max": state.mce}[norm]
        assert math.isclose(metric(), got, rel_tol=1e-12, abs_tol=1e-15)


def test_huge_weights_reproducer():
    y, p, w = np.array([0, 1, 1, 0, 1, 1]), np.array([0.1, 0.9, 0.8, 0.3, 0.65, 0.95]), np.full(6, 1e308)
    for norm, expected in (("l1", 0.1833333333333333), ("l2", 0.20949675149960886), ("max", 0.35)):
        assert tm.calibration_error(y, p, n_bins=5, norm=norm, sample_weight=w) == expected
    assert tm.mean_max_confidence(p, sample_weight=w) == tm.mean_max_confidence(p)
