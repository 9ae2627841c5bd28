"""The ways the score table is built, each against scikit-learn.

The table (distinct scores, descending, with the cumulative class weight at
each) is built in one of several ways, which must give identical results:

* counted: unweighted input with few distinct scores (at most 4096) is
  counted per score in a hash table in the first pass over the input;
* sorted: everything else, by a radix sort. For large inputs (2**16 samples
  and more) the buckets of the sort are planned from a sample of the scores
  and counted in the first pass; when a score falls outside the sampled
  range they are planned again and counted in a pass of their own.
* counting given up: the counting pass stops when it meets too many
  distinct scores; what it had counted is scanned again.

Small inputs reach the counting path by default, so the property tests
elsewhere cover it; here every property also runs with counting switched off
(``_core.ranking._set_table_strategy("always_sort")``, a test hook), and large
inputs are shaped to reach each of the other paths, with every thread count.
The value checks the table builder makes for the ranking functions
(non-finite scores or weights, all-zero weights) are covered at sizes where
they run in parallel.
"""

import contextlib
import zlib

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings, strategies as st

import turbometrics as tm
from helpers import assert_score_equal, capture, check_against_sklearn, curve_comparator, parallel_even_for_tiny_inputs
from strategies import binary_problems
from turbometrics import _core

CURVES = ["roc_curve", "precision_recall_curve", "det_curve", "confusion_matrix_at_thresholds"]
HAS_DROP = {"roc_curve", "precision_recall_curve", "det_curve"}
SCORES = ["roc_auc_score", "average_precision_score"]
ALL = CURVES + SCORES
EXACT_WEIGHTS = st.sampled_from(["none", "dyadic", "int", "float32"])
STRATEGIES = ["automatic", "always_sort"]

DISTINCT_LIMIT = 4096  # scores counted without sorting (score_table.hpp)
PLANNED_FROM = 1 << 16  # inputs whose sort buckets are planned from a sample


@contextlib.contextmanager
def table_strategy(name):
    previous = _core.ranking._set_table_strategy(name)
    try:
        yield
    finally:
        _core.ranking._set_table_strategy(previous)


@pytest.fixture(autouse=True)
def _parallel_at_every_size():
    """Every thread count runs in parallel here, whatever the input size."""
    with parallel_even_for_tiny_inputs():
        yield


def _same(a, b):
    """Bit-identical results (NaN == NaN, -0.0 and 0.0 distinguished)."""
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape
        if a.dtype.kind == "f":
            assert np.array_equal(a, b, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(b))
        else:
            assert np.array_equal(a, b)
    else:
        assert type(a) is type(b) and (a == b or (a != a and b != b)), (a, b)


def _kwargs(name, problem, drop):
    kwargs = dict(sample_weight=problem["sample_weight"])
    if name != "roc_auc_score" and problem["pos_label"] is not None:
        kwargs["pos_label"] = problem["pos_label"]
    if name in HAS_DROP:
        kwargs["drop_intermediate"] = drop
    return kwargs


# --------------------------------------------------------------------------
# small inputs: counted (by default) and sorted tables against scikit-learn,
# serial and parallel, and bit-identical to each other


@pytest.mark.parametrize("name", ALL)
@given(data=st.data(), drop=st.booleans(), n_threads=st.sampled_from([1, 2, 3, 7]))
@settings(max_examples=60)
def test_counted_and_sorted_tables_match_sklearn(name, data, drop, n_threads):
    problem = data.draw(binary_problems(max_n=60, weights=data.draw(EXACT_WEIGHTS)))
    kwargs = _kwargs(name, problem, drop)
    args = (problem["y_true"], problem["y_score"])
    results = []
    for strategy in STRATEGIES:
        with table_strategy(strategy):
            check_against_sklearn(name, *args, tm_kwargs=dict(n_threads=n_threads), **kwargs)
            results.append(capture(getattr(tm, name), *args, n_threads=n_threads, **kwargs))
    counted, sorted_ = results
    if counted.exc is not None:
        assert sorted_.exc is not None and str(sorted_.exc) == str(counted.exc)
    else:
        assert sorted_.exc is None
        _same(counted.value, sorted_.value)


# --------------------------------------------------------------------------
# large inputs shaped for each path


def _large(kind, n, rng):
    """(y_true, y_score, sample_weight) of a shape that reaches one path."""
    y = (rng.random(n) < 0.3).astype(np.int64)
    w = None
    if kind == "rounded":  # counted
        s = np.round(rng.random(n), 2)
    elif kind == "rounded_signed_zeros":  # counted, -0.0 and 0.0 in one row
        s = rng.choice([-0.0, 0.0, 0.5, -0.5, 1.0], n)
    elif kind == "discrete_int":  # counted, integer scores
        s = rng.integers(-50, 50, n)
    elif kind == "uint8":
        s = rng.integers(0, 256, n).astype(np.uint8)
    elif kind == "float32_rounded":
        s = np.round(rng.random(n), 3).astype(np.float32)
    elif kind == "at_limit":  # exactly as many distinct scores as are counted
        s = rng.permutation(np.resize(np.arange(DISTINCT_LIMIT) / 7.0, n))
    elif kind == "late_overflow":  # counting gives up near the end
        s = np.round(rng.random(n), 2)
        tail = n // 20
        s[-tail:] = rng.random(tail)
    elif kind == "early_overflow":  # counting gives up at the start
        s = np.round(rng.random(n), 2)
        s[: 2 * DISTINCT_LIMIT] = rng.random(2 * DISTINCT_LIMIT)
    elif kind == "just_over_limit":
        s = rng.permutation(np.resize(np.arange(DISTINCT_LIMIT + 1) / 7.0, n))
    elif kind == "continuous":  # sorted; the sampled plan holds
        s = 1.0 / (1.0 + np.exp(-rng.standard_normal(n) * 2.0))
    elif kind == "outliers":  # sorted; the sampled plan fails (one extreme score)
        s = rng.random(n)
        s[rng.integers(0, n)] = 1e300
        s[rng.integers(0, n)] = -1e-300
    elif kind == "tiny_spread":  # sorted; the sample sees one value only
        s = np.full(n, 0.5)
        s[rng.integers(0, n, 40)] = rng.random(40)
    elif kind == "weighted":  # sorted, weighted
        s = 1.0 / (1.0 + np.exp(-rng.standard_normal(n)))
        w = rng.random(n)
    elif kind == "weighted_zeros":  # many zero weights, some at sampled positions
        s = rng.random(n)
        w = rng.choice([0.0, 0.0, 0.0, 0.5, 2.0], n)
    elif kind == "weighted_rounded":  # weighted input is always sorted
        s = np.round(rng.random(n), 2)
        w = rng.choice([0.25, 1.0, 3.0], n)
    elif kind == "weighted_mostly_zero":  # the sample holds no kept sample
        s = rng.random(n)
        w = np.zeros(n)
        w[rng.integers(0, n, 50)] = 1.5
    else:
        raise ValueError(kind)
    return y, s, w


LARGE_KINDS = [
    "rounded",
    "rounded_signed_zeros",
    "discrete_int",
    "uint8",
    "float32_rounded",
    "at_limit",
    "late_overflow",
    "early_overflow",
    "just_over_limit",
    "continuous",
    "outliers",
    "tiny_spread",
    "weighted",
    "weighted_zeros",
    "weighted_rounded",
    "weighted_mostly_zero",
]


@pytest.mark.parametrize("kind", LARGE_KINDS)
def test_large_paths_match_sklearn_and_each_other(kind):
    rng = np.random.default_rng(zlib.crc32(kind.encode()))
    n = PLANNED_FROM + 4099
    y, s, w = _large(kind, n, rng)
    for name in ALL:
        kwargs = dict(sample_weight=w)
        if name in HAS_DROP:
            kwargs["drop_intermediate"] = name != "precision_recall_curve"
        if w is not None and name in CURVES:
            total = float(np.sum(w))
            compare = curve_comparator(name, rtol=1e-10, atol=1e-12 * total)  # summation order of rates
        else:
            compare = None if w is None else (lambda sk, got: assert_score_equal(sk, got, rtol=1e-10, atol=1e-12))
        check_against_sklearn(name, y, s, compare=compare, copy_inputs=False, tm_kwargs=dict(n_threads=2), **kwargs)
        reference = getattr(tm, name)(y, s, n_threads=1, **kwargs)
        for n_threads in (2, 3, 4):
            _same(reference, getattr(tm, name)(y, s, n_threads=n_threads, **kwargs))
        with table_strategy("always_sort"):
            _same(reference, getattr(tm, name)(y, s, n_threads=3, **kwargs))


@given(
    distinct=st.sampled_from([2, 101, DISTINCT_LIMIT - 1, DISTINCT_LIMIT, DISTINCT_LIMIT + 1, 3 * DISTINCT_LIMIT]),
    fresh_at=st.one_of(st.just(1.0), st.floats(0.0, 1.0)),
    n_threads=st.sampled_from([1, 2, 4]),
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=40)
def test_counting_given_up_anywhere(distinct, fresh_at, n_threads, seed):
    """Few distinct scores except for a stretch of new ones starting at
    `fresh_at`: counting gives up there (or never), in any chunk."""
    rng = np.random.default_rng(seed)
    n = 3 * (1 << 15)
    s = rng.integers(0, 100, n) / 100.0
    start = int(fresh_at * (n - distinct))
    s[start : start + distinct] = np.arange(distinct) / (distinct + 0.5) + 1e-9
    y = (rng.random(n) < 0.4).astype(np.int64)
    for name in ("roc_curve", "precision_recall_curve", "roc_auc_score"):
        check_against_sklearn(name, y, s, copy_inputs=False, tm_kwargs=dict(n_threads=n_threads))
    with table_strategy("always_sort"):
        sorted_ = tm.roc_curve(y, s, n_threads=n_threads)
    _same(sorted_, tm.roc_curve(y, s, n_threads=n_threads))


def test_roc_curve_mostly_dropped_and_mostly_kept_points():
    """roc_curve writes its points in place when the first rows are all kept
    and counts them first otherwise; both cases, with dropping further on."""
    rng = np.random.default_rng(5)
    n = 300_000
    s = rng.random(n)
    y = (rng.random(n) < 0.5).astype(np.int64)
    w = rng.random(n)
    w_ties = w.copy()
    high = np.argsort(-s)[n // 2 :]  # lower half of the scores: unit weights, so collinear runs
    w_ties[high] = 1.0
    for weights in (None, w, w_ties):
        total = 1.0 if weights is None else float(np.sum(weights))
        for drop in (True, False):
            check_against_sklearn(
                "roc_curve",
                y,
                s,
                sample_weight=weights,
                drop_intermediate=drop,
                compare=curve_comparator("roc_curve", rtol=1e-10, atol=1e-12 * total),
                copy_inputs=False,
                tm_kwargs=dict(n_threads=2),
            )


# --------------------------------------------------------------------------
# value checks made by the table builder, at parallel sizes


_N = (1 << 17) + 5


def _bad(kind, rng):
    y = rng.integers(0, 2, _N)
    s = rng.random(_N)
    w = rng.random(_N)
    at = rng.integers(0, _N)
    if kind == "nan_score_and_nan_weight":  # scores are reported first
        s[at] = np.nan
        w[rng.integers(0, _N)] = np.nan
    elif kind == "inf_weight_and_zero_weights":
        w[:] = 0.0
        w[at] = np.inf
    elif kind == "all_zero_weights":
        w[:] = 0.0
    elif kind == "nan_score_at_zero_weight":
        s[at] = np.nan
        w[at] = 0.0
    elif kind == "inf_score_f32_weighted":
        s = s.astype(np.float32)
        s[at] = -np.inf
    elif kind == "inf_weight_f32":
        w = w.astype(np.float32)
        w[at] = np.inf
    elif kind == "nan_weight_f32":
        w = w.astype(np.float32)
        w[at] = np.nan
    elif kind == "inf_score_big_endian":
        s[at] = np.inf
        s = s.astype(">f8")
        w = None
    elif kind == "inf_and_nan_scores":  # NaN wins
        s[at] = np.inf
        s[rng.integers(0, _N)] = -np.nan
        w = None
    elif kind == "inf_score_rounded":  # counted table
        s = np.round(s, 2)
        s[at] = -np.inf
        w = None
    elif kind == "nan_score_f16":
        s = s.astype(np.float16)
        s[at] = np.nan
        w = None
    elif kind == "inf_weight_int_scores":
        s = rng.integers(0, 1000, _N)
        w[at] = -np.inf
    else:
        raise ValueError(kind)
    return y, s, w


BAD_KINDS = [
    "nan_score_and_nan_weight",
    "inf_weight_and_zero_weights",
    "all_zero_weights",
    "nan_score_at_zero_weight",
    "inf_score_f32_weighted",
    "inf_weight_f32",
    "nan_weight_f32",
    "inf_score_big_endian",
    "inf_and_nan_scores",
    "inf_score_rounded",
    "nan_score_f16",
    "inf_weight_int_scores",
]


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("kind", BAD_KINDS)
def test_value_checks_in_the_table_builder(name, kind):
    rng = np.random.default_rng(zlib.crc32(kind.encode()))
    y, s, w = _bad(kind, rng)
    sk_out = capture(getattr(skm, name), y, s, sample_weight=w)
    assert sk_out.exc is not None and isinstance(sk_out.exc, ValueError)
    for n_threads in (1, 2):
        check_against_sklearn(name, y, s, sample_weight=w, copy_inputs=False, tm_kwargs=dict(n_threads=n_threads))


def test_inf_in_object_scores_is_still_accepted():
    """Object scores are checked in Python (only NaN is rejected, as in
    scikit-learn), so the table builder must not reject infinity there."""
    y = np.array([0, 1, 1, 0, 1])
    s = np.array([0.1, np.inf, 0.35, 0.8, -np.inf], dtype=object)
    for name in ALL:
        check_against_sklearn(name, y, s)


@pytest.mark.parametrize("name", CURVES + ["average_precision_score"])
@pytest.mark.parametrize("weights", [np.array([1.0, np.nan, 1.0]), np.zeros(3), np.array([np.inf, 1.0, 1.0])])
@pytest.mark.parametrize("scores", [np.array([0.1, None, 0.3], dtype=object), np.array(["a", "b", "c"], dtype=object)])
def test_weight_errors_before_object_score_errors(name, weights, scores):
    """Weights are checked before object scores are ordered, as in
    scikit-learn (so weight checks stay in Python for such scores)."""
    check_against_sklearn(name, np.array([0, 1, 1]), scores, sample_weight=weights)
