"""Differential tests of the curve functions against scikit-learn 1.9.1.

roc_curve, precision_recall_curve, det_curve, confusion_matrix_at_thresholds:
every returned array must have sklearn's shape and dtype; rates/counts must
agree to rtol=1e-12 (atol=0), thresholds exactly.  When sklearn raises or
warns, turbometrics must raise/warn identically (see helpers.py).
"""

import zlib

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings, strategies as st

import turbometrics as tm
from helpers import (
    assert_signed_zeros_equal,
    capture,
    check_against_sklearn,
    curve_comparator,
)
from strategies import binary_problems, score_arrays, sizes

CURVES = ["roc_curve", "precision_recall_curve", "det_curve", "confusion_matrix_at_thresholds"]
HAS_DROP = {"roc_curve", "precision_recall_curve", "det_curve"}

# Weight kinds whose sums are exact whatever the summation order.
EXACT_WEIGHTS = st.sampled_from(["none", "dyadic", "int", "float32"])


def _run(name, problem, drop=None, **extra):
    kwargs = dict(pos_label=problem["pos_label"], sample_weight=problem["sample_weight"], **extra)
    if drop is not None:
        kwargs["drop_intermediate"] = drop
    return check_against_sklearn(name, problem["y_true"], problem["y_score"], **kwargs)


# --------------------------------------------------------------------------
# property tests, exact-sum weights


@given(data=st.data(), drop=st.booleans())
def test_roc_curve_matches_sklearn(data, drop):
    problem = data.draw(binary_problems(weights=data.draw(EXACT_WEIGHTS)))
    _run("roc_curve", problem, drop)


@given(data=st.data(), drop=st.booleans())
def test_precision_recall_curve_matches_sklearn(data, drop):
    problem = data.draw(binary_problems(weights=data.draw(EXACT_WEIGHTS)))
    _run("precision_recall_curve", problem, drop)


@given(data=st.data(), drop=st.booleans())
def test_det_curve_matches_sklearn(data, drop):
    problem = data.draw(binary_problems(weights=data.draw(EXACT_WEIGHTS)))
    _run("det_curve", problem, drop)


@given(data=st.data())
def test_confusion_matrix_at_thresholds_matches_sklearn(data):
    problem = data.draw(binary_problems(weights=data.draw(EXACT_WEIGHTS)))
    _run("confusion_matrix_at_thresholds", problem)


# --------------------------------------------------------------------------
# default arguments (roc_curve drops intermediate points by default; the
# others keep them)


@pytest.mark.parametrize("name", CURVES)
@given(problem=binary_problems(weights="none", encodings=None))
@settings(max_examples=40)
def test_curve_defaults(name, problem):
    if problem["pos_label"] is None:
        check_against_sklearn(name, problem["y_true"], problem["y_score"])
    else:
        check_against_sklearn(name, problem["y_true"], problem["y_score"], pos_label=problem["pos_label"])


# --------------------------------------------------------------------------
# arbitrary float weights: the values may differ by summation-order rounding,
# so rates get a tiny absolute slack; shapes and thresholds must still match.


@pytest.mark.parametrize("name", CURVES)
@given(problem=binary_problems(weights="arbitrary"), drop=st.booleans())
@settings(max_examples=60)
def test_curves_arbitrary_weights(name, problem, drop):
    compare = curve_comparator(name, rtol=1e-10, atol=1e-12 * (1 + float(np.sum(problem["sample_weight"]))))
    kwargs = dict(pos_label=problem["pos_label"], sample_weight=problem["sample_weight"])
    if name in HAS_DROP:
        kwargs["drop_intermediate"] = drop
    check_against_sklearn(name, problem["y_true"], problem["y_score"], compare=compare, **kwargs)


# --------------------------------------------------------------------------
# larger inputs: many ties, long runs, random bit patterns (multi-pass radix)


def _random_scores(rng, n, dtype, ties):
    dtype = np.dtype(dtype)
    if ties:
        pool = _random_scores(rng, 7, dtype, ties=False)
        return pool[rng.integers(0, len(pool), n)]
    if dtype.kind == "f":
        bits = rng.integers(0, np.iinfo(np.uint64).max, n, dtype=np.uint64, endpoint=True)
        x = bits.view(np.float64)
        x = np.where(np.isfinite(x), x, rng.standard_normal(n))
        if dtype == np.float32:
            bits32 = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32)
            x = np.where(np.isfinite(bits32), bits32, np.float32(0.5)).astype(np.float32)
        return x.astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    info = np.iinfo(dtype)
    return rng.integers(int(info.min), int(info.max), n, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize(
    "dtype", [np.float64, np.float32, np.int64, np.int32, np.uint32, np.uint64, np.uint8, np.bool_]
)
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_curves_large_random(name, dtype, ties, weighted):
    rng = np.random.default_rng(zlib.crc32(f"{name}-{np.dtype(dtype).str}-{ties}-{weighted}".encode()))
    n = 20_011
    y_score = _random_scores(rng, n, dtype, ties)
    y_true = rng.integers(0, 2, n)
    w = rng.choice([0.0, 0.5, 1.0, 2.0], n) if weighted else None
    kwargs = dict(sample_weight=w)
    if name in HAS_DROP:
        for drop in (False, True):
            check_against_sklearn(name, y_true, y_score, drop_intermediate=drop, **kwargs)
    else:
        check_against_sklearn(name, y_true, y_score, **kwargs)


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize("n_threads", [1, 2])
def test_curves_multithreaded_match_sklearn(name, n_threads):
    rng = np.random.default_rng(7)
    n = 150_000
    y_score = np.round(rng.standard_normal(n), 2)
    y_true = (rng.random(n) < 0.3).astype(np.int64)
    w = rng.choice([0.0, 0.25, 1.0, 3.0], n)
    check_against_sklearn(name, y_true, y_score, sample_weight=w, tm_kwargs=dict(n_threads=n_threads))


# --------------------------------------------------------------------------
# signed zeros: sklearn's threshold for a tie group is the score of the last
# sample of the group in stable descending order, so its sign of zero is the
# sign of the last zero in the input (after dropping zero-weight samples).


@pytest.mark.parametrize("name", CURVES)
@given(data=st.data())
@settings(max_examples=60)
def test_signed_zero_thresholds_keep_sklearn_sign(name, data):
    n = data.draw(sizes(1, 12))
    dtype = data.draw(st.sampled_from([np.float64, np.float32]))
    y_score = np.array(
        data.draw(st.lists(st.sampled_from([0.0, -0.0, 1.0, -2.5]), min_size=n, max_size=n)), dtype=dtype
    )
    y_true = np.array(data.draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n)))
    if len(set(y_true)) < 2:
        y_true[0] = 1 - y_true[0]
        if n == 1:
            y_true = np.array([1])
    sk = capture(getattr(skm, name), y_true, y_score)
    got = capture(getattr(tm, name), y_true, y_score)
    if sk.exc is not None:
        return
    assert got.exc is None, got.exc
    curve_comparator(name)(sk.value, got.value)
    assert_signed_zeros_equal(sk.value[-1], got.value[-1])


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize(
    "y_score",
    [[0.0, -0.0], [-0.0, 0.0], [1.0, -0.0, 0.0, -0.0], [-0.0, -0.0, 0.0]],
    ids=["pos_then_neg", "neg_then_pos", "mixed_neg_last", "pos_last"],
)
def test_signed_zero_thresholds_examples(name, y_score):
    y_true = np.array([0, 1] + [1, 0][: len(y_score) - 2])
    y_score = np.array(y_score)
    sk = getattr(skm, name)(y_true, y_score)
    got = getattr(tm, name)(y_true, y_score)
    curve_comparator(name)(sk, got)
    assert_signed_zeros_equal(sk[-1], got[-1])


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize("y_score", [[-0.0, 0.0, -0.0], [0.0, -0.0, 0.0]], ids=["last_kept_pos", "last_kept_neg"])
def test_signed_zero_threshold_with_zero_weight_last(name, y_score):
    # The zero-weight sample is filtered out before sorting, so sklearn's
    # threshold comes from the last *non-zero-weight* zero.
    y_true = np.array([0, 1, 1])
    y_score = np.array(y_score)
    w = np.array([1.0, 1.0, 0.0])
    sk = getattr(skm, name)(y_true, y_score, sample_weight=w)
    got = getattr(tm, name)(y_true, y_score, sample_weight=w)
    curve_comparator(name)(sk, got)
    assert_signed_zeros_equal(sk[-1], got[-1], f"{name} thresholds")


# --------------------------------------------------------------------------
# negative sample weights: sklearn accepts them


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize(
    "y_true,y_score,w",
    [
        ([0, 1], [0.3, 0.1], [-1.0, 1.0]),
        ([0, 1, 1, 0, 1], [0.3, 0.1, 0.1, 0.2, 0.5], [1.0, -0.5, 2.0, 1.0, 1.0]),
        ([0, 1, 0, 1], [1, 2, 3, 4], [2.0, 1.0, -1.0, 1.0]),
    ],
)
def test_curves_negative_weights(name, y_true, y_score, w):
    kwargs = dict(sample_weight=np.array(w))
    check_against_sklearn(name, np.array(y_true), np.array(y_score), **kwargs)
    if name in HAS_DROP:
        check_against_sklearn(name, np.array(y_true), np.array(y_score), drop_intermediate=True, **kwargs)


@given(p=binary_problems(min_n=1, max_n=30, weights="signed"), drop=st.booleans())
@settings(max_examples=100)
def test_roc_curve_signed_weights_bit_for_bit(p, drop):
    # With negative weights scikit-learn's cumulative sums start at -0.0 until a
    # sample adds something else; the rates keep that sign (and auc()'s
    # "neither increasing nor decreasing" message prints it).
    args = (p["y_true"], p["y_score"])
    kwargs = dict(pos_label=p["pos_label"], sample_weight=p["sample_weight"], drop_intermediate=drop)
    sk, got = check_against_sklearn("roc_curve", *args, **kwargs)
    if sk.exc is None:
        for a, b in zip(sk.value, got.value):
            assert a.tobytes() == b.tobytes(), (sk.value, got.value)


def test_roc_curve_keeps_negative_zero_rates():
    y, s, w = np.array([1, 0, 1, 0]), np.array([0.9, 0.8, 0.7, 0.1]), np.array([-1.0, -1.0, 2.0, 3.0])
    fpr, tpr, _ = tm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert fpr.tobytes() == np.array([0.0, -0.0, -0.5, -0.5, 1.0]).tobytes()
    assert tpr.tobytes() == np.array([0.0, -1.0, -1.0, 1.0, 1.0]).tobytes()
    with pytest.raises(ValueError, match=r"x is neither increasing nor decreasing : \[ 0\.  -0\.  -0\.5"):
        tm.roc_auc_score(y, s, sample_weight=w)


# --------------------------------------------------------------------------
# specific regression-style examples


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize(
    "y_true,y_score",
    [
        ([1], [0.5]),
        ([0], [0.5]),
        ([0, 1], [0.5, 0.5]),
        ([1, 0], [0.5, 0.5]),
        ([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]),
        ([1, 1, 1, 0, 0, 0], [3, 3, 3, 3, 3, 3]),
        ([0, 1, 0, 1, 0, 1], [1, 1, 2, 2, 3, 3]),
        ([1, 1, 1, 1], [4, 3, 2, 1]),
        ([0, 0, 0, 0], [4, 3, 2, 1]),
    ],
)
def test_curve_examples(name, y_true, y_score):
    check_against_sklearn(name, np.array(y_true), np.array(y_score))
    if name in HAS_DROP:
        check_against_sklearn(name, np.array(y_true), np.array(y_score), drop_intermediate=True)
        check_against_sklearn(name, np.array(y_true), np.array(y_score), drop_intermediate=False)


def test_roc_curve_collinear_points_kept_like_sklearn():
    # fps = [1, 3, 7], tps = [1, 2, 4] -- not collinear corners; sklearn keeps
    # them.  Also equal-step runs that *are* collinear get dropped.
    y_true = np.array([1, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0] + [0, 1, 0, 1, 0, 1])
    y_score = np.arange(len(y_true))[::-1].astype(float)
    for drop in (True, False):
        check_against_sklearn("roc_curve", y_true, y_score, drop_intermediate=drop)
        check_against_sklearn("precision_recall_curve", y_true, y_score, drop_intermediate=drop)
        check_against_sklearn("det_curve", y_true, y_score, drop_intermediate=drop)


@given(data=st.data())
@settings(max_examples=60)
def test_drop_intermediate_strictly_monotone_runs(data):
    # Long runs of only-negatives / only-positives are what drop_intermediate
    # removes; generate inputs built from runs.
    runs = data.draw(st.lists(st.tuples(st.booleans(), st.integers(1, 5)), min_size=1, max_size=8))
    y_true = np.concatenate([np.full(k, int(b)) for b, k in runs])
    y_score = data.draw(score_arrays(len(y_true), np.float64))
    y_score = np.sort(y_score)[::-1].copy()
    for name in ("roc_curve", "precision_recall_curve", "det_curve"):
        check_against_sklearn(name, y_true, y_score, drop_intermediate=True)
