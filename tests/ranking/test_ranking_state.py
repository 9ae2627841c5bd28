"""RankingState: states built from chunks, merged in any tree order, equal
the in-memory functions on all the data (which equal scikit-learn 1.9.1).

Unweighted (and dyadic-weighted, where every sum is exact) results are
compared bit for bit, thresholds byte for byte (sign of zero included) when
the merge keeps the data order; arbitrary weights at rtol 1e-12.
"""

from __future__ import annotations

import contextlib
import math
import pickle
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import turbometrics as tm
from strategies import ENCODINGS, binary_problems, score_arrays
from turbometrics import RankingState, _core
from turbometrics.states import AP_SCALE

RTOL = 1e-12
MAX_FPRS = [None, 1.0, 0.5, 0.1]


# -- helpers ---------------------------------------------------------------------------------
def outcome(call):
    """(value or ('raise', type, message), warnings as a sorted list)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = call()
        except Exception as error:  # noqa: BLE001 - compared below
            return ("raise", type(error), str(error)), []
    return value, sorted({(w.category.__name__, str(w.message)) for w in caught})


def raised(result):
    """The exception an outcome() recorded, as ('raise', type, message), or None."""
    value = result[0]
    if isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], str) and value[0] == "raise":
        return value
    return None


def assert_same(actual, expected, exact, thresholds_bytes=True):
    """Equal values: floats bit for bit (exact) or at RTOL; arrays with
    equal dtype; thresholds (last array of a curve) byte for byte."""
    (value_a, warn_a), (value_e, warn_e) = actual, expected
    assert warn_a == warn_e
    if raised(expected):
        assert raised(actual) == raised(expected)
        return
    if isinstance(value_e, tuple):  # curves and named tuples
        assert isinstance(value_a, tuple) and len(value_a) == len(value_e)
        for i, (a, e) in enumerate(zip(value_a, value_e)):
            last = i == len(value_e) - 1 and isinstance(e, np.ndarray)
            assert_same((a, []), (e, []), exact, thresholds_bytes and last)
        return
    if isinstance(value_e, np.ndarray):
        assert value_a.dtype == value_e.dtype and value_a.shape == value_e.shape
        if exact:
            if thresholds_bytes:
                assert value_a.tobytes() == value_e.tobytes()
            else:
                np.testing.assert_array_equal(value_a, value_e)
        else:
            np.testing.assert_allclose(value_a, value_e, rtol=RTOL, atol=0)
        return
    if isinstance(value_e, float) or isinstance(value_a, float):
        if math.isnan(value_e):
            assert math.isnan(value_a)
        elif exact:
            assert value_a == value_e, (value_a, value_e)
        else:
            assert value_a == pytest.approx(value_e, rel=RTOL, abs=1e-300)
        return
    assert value_a == value_e


def correctly_rounded_auc(y, s):
    """The unweighted ROC AUC, exactly (rank-sum statistic, ties one
    half), rounded once to the nearest float."""
    y, s = np.asarray(y, dtype=bool), np.asarray(s, dtype=np.float64)
    positives, negatives = s[y], s[~y]
    wins = sum(2 * int(np.sum(x > negatives)) + int(np.sum(x == negatives)) for x in positives)
    return float(Fraction(wins, 2 * positives.shape[0] * negatives.shape[0]))


def chunk_bounds(draw, n):
    k = draw(st.integers(1, 5))
    cuts = sorted(draw(st.lists(st.integers(0, n), min_size=k - 1, max_size=k - 1)))
    return list(zip([0] + cuts, cuts + [n]))


def ordered_tree_merge(draw, states):
    """Merge neighbours in a random order (the data order is kept)."""
    states = list(states)
    while len(states) > 1:
        i = draw(st.integers(0, len(states) - 2))
        states[i : i + 2] = [states[i] + states[i + 1]]
    return states[0]


def take(array, begin, end):
    return None if array is None else array[begin:end]


def chunked_state(draw, p, bounds):
    """States of the chunks, each by from_arrays or by update of an empty
    state, merged in a random order-keeping tree."""
    states = []
    for begin, end in bounds:
        args = (p["y_true"][begin:end], p["y_score"][begin:end])
        weight = take(p["sample_weight"], begin, end)
        if draw(st.booleans()):
            states.append(RankingState.from_arrays(*args, sample_weight=weight, pos_label=p["pos_label"]))
        else:
            states.append(RankingState(pos_label=p["pos_label"]).update(*args, sample_weight=weight))
    return ordered_tree_merge(draw, states)


def positive_indicator(p):
    pos_label = 1 if p["pos_label"] is None else p["pos_label"]
    return np.asarray(p["y_true"] == pos_label, dtype=bool)


def exact_weights(p):
    w = p["sample_weight"]
    return w is None or np.all(w * 4 == np.round(w * 4))  # dyadic or int: every sum exact


# -- the differential test -------------------------------------------------------------------
@settings(max_examples=60)
@given(p=binary_problems(min_n=0, max_n=30), data=st.data())
def test_chunked_states_equal_in_memory(p, data):
    draw = data.draw
    y, s, w, pos_label = p["y_true"], p["y_score"], p["sample_weight"], p["pos_label"]
    built = outcome(lambda: RankingState.from_arrays(y, s, sample_weight=w, pos_label=pos_label))
    if y.shape[0] > 0:
        reference = outcome(lambda: tm.roc_curve(y, s, pos_label=pos_label, sample_weight=w))
        if raised(reference) and not raised(reference)[2].startswith("Sample weights must contain"):
            assert raised(built) == raised(reference)  # the same validation error
            return
    assert not raised(built), built
    state = chunked_state(draw, p, chunk_bounds(draw, y.shape[0]))
    y01 = positive_indicator(p)
    exact = exact_weights(p)
    max_fpr = draw(st.sampled_from(MAX_FPRS))
    drop = draw(st.booleans()) if exact else False
    checks = [
        (lambda: state.roc_auc(max_fpr=max_fpr), lambda: tm.roc_auc_score(y01, s, sample_weight=w, max_fpr=max_fpr)),
        (state.average_precision, lambda: tm.average_precision_score(y01, s, sample_weight=w)),
        (
            lambda: state.roc_curve(drop_intermediate=drop),
            lambda: tm.roc_curve(y01, s, sample_weight=w, drop_intermediate=drop),
        ),
        (
            lambda: state.precision_recall_curve(drop_intermediate=drop),
            lambda: tm.precision_recall_curve(y01, s, sample_weight=w, drop_intermediate=drop),
        ),
    ]
    metric = draw(st.sampled_from(["f1", "fbeta", "youden", "accuracy", "balanced_accuracy", "mcc"]))
    if exact:
        checks.append(
            (
                lambda: state.best_threshold(metric, beta=2.0),
                lambda: tm.best_threshold(y01, s, metric=metric, beta=2.0, sample_weight=w),
            )
        )
    if w is None:
        checks.append((state.roc_auc_ci, lambda: tm.roc_auc_ci(y01, s)))
    for on_state, in_memory in checks:
        assert_same(outcome(on_state), outcome(in_memory), exact)


@settings(max_examples=40)
@given(p=binary_problems(min_n=1, max_n=30, weights="none", encodings=ENCODINGS[:1]), data=st.data())
def test_merge_is_commutative(p, data):
    """Any merge order (not only data order) gives the same values."""
    draw = data.draw
    bounds = chunk_bounds(draw, p["y_true"].shape[0])
    states = [RankingState.from_arrays(p["y_true"][b:e], p["y_score"][b:e]) for b, e in bounds]
    order = draw(st.permutations(range(len(states))))
    shuffled = sum(states[i] for i in order)
    ordered = sum(states)
    np.testing.assert_array_equal(shuffled.scores, ordered.scores)
    np.testing.assert_array_equal(shuffled.positive, ordered.positive)
    np.testing.assert_array_equal(shuffled.negative, ordered.negative)
    for name in ("roc_auc", "average_precision"):
        assert_same(outcome(getattr(shuffled, name)), outcome(getattr(ordered, name)), True)


# -- range partitions ------------------------------------------------------------------------
@settings(max_examples=60)
@given(p=binary_problems(min_n=1, max_n=30, encodings=ENCODINGS[:1]), data=st.data())
def test_split_parts_add_up(p, data):
    """roc_auc_part and average_precision_part over the buckets of split()
    add up to the whole-data value: exactly (correctly rounded) when
    unweighted."""
    draw = data.draw
    y, s, w = p["y_true"], p["y_score"], p["sample_weight"]
    if w is not None and not np.any(w):
        return
    state = RankingState.from_arrays(y, s, sample_weight=w)
    candidates = np.unique(np.concatenate([state.scores.astype(np.float64), [-np.inf, 0.5, np.inf]]))
    edges = np.sort(np.array(draw(st.lists(st.sampled_from(list(candidates)), unique=True, max_size=4))))[::-1]
    buckets = state.split(edges)
    assert len(buckets) == len(edges) + 1
    assert sum(len(b) for b in buckets) == len(state)
    for bucket, (high, low) in zip(buckets, zip([np.inf] + list(edges), list(edges) + [-np.inf])):
        scores = bucket.scores.astype(np.float64)
        assert np.all(scores >= low) and (high == np.inf or np.all(scores < high))
    total_p, total_n = state.total_positive, state.total_negative
    above_p = above_n = 0
    twice_area, ap = 0, 0
    for bucket in buckets:
        twice_area += bucket.roc_auc_part(above_p, above_n)
        ap += bucket.average_precision_part(above_p, above_n, total_p)
        above_p += bucket.total_positive
        above_n += bucket.total_negative
    assert isinstance(ap, int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected_ap = state.average_precision()
        expected_auc = state.roc_auc()
        in_memory_ap = tm.average_precision_score(y, s)
    if w is None:
        # The parts are exact: any split gives the one-piece sums, rounded
        # once; the state's (= in-memory) areas are NumPy's rounded sums of
        # rounded terms, equal to rounding (docs/guide/exactness.md, "Exactness").
        assert ap == state.average_precision_part(0, 0, total_p)
        assert expected_ap == in_memory_ap
        assert max(0.0, ap / 2**AP_SCALE) == pytest.approx(expected_ap, rel=RTOL, abs=1e-300)
        assert isinstance(twice_area, int)
        if total_p > 0 and total_n > 0:
            auc = twice_area / (2 * total_p * total_n)
            assert auc == correctly_rounded_auc(y == 1, s)  # the state takes 1 as positive
            assert auc == pytest.approx(expected_auc, rel=RTOL)
    else:
        assert max(0.0, ap / 2**AP_SCALE) == pytest.approx(expected_ap, rel=RTOL, abs=1e-300)
        if total_p > 0 and total_n > 0:
            assert twice_area / (2 * total_p * total_n) == pytest.approx(expected_auc, rel=1e-10)


def test_split_rejects_unordered_edges():
    state = RankingState.from_arrays([0, 1, 1], [0.1, 0.5, 0.9])
    with pytest.raises(ValueError, match="strictly descending"):
        state.split([0.2, 0.6])
    with pytest.raises(ValueError, match="NaN"):
        state.split([np.nan])


# -- dtypes and weighting --------------------------------------------------------------------
@settings(max_examples=40)
@given(data=st.data())
def test_merging_score_dtypes_follows_concatenation(data):
    draw = data.draw
    dtypes = [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_, np.float16, np.int16]
    parts = []
    for _ in range(draw(st.integers(2, 3))):
        n = draw(st.integers(0, 8))
        parts.append(
            (
                draw(score_arrays(n, draw(st.sampled_from(dtypes)))),
                np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int64),
            )
        )
    state = sum(RankingState.from_arrays(y, s) for s, y in parts)
    scores = np.concatenate([s for s, _ in parts])
    y = np.concatenate([y for _, y in parts])
    assert state.scores.dtype == scores.dtype
    if y.shape[0] == 0:
        return
    assert_same(
        outcome(state.precision_recall_curve),
        outcome(lambda: tm.precision_recall_curve(y, scores)),
        True,
        thresholds_bytes=False,
    )
    assert_same(outcome(state.roc_auc), outcome(lambda: tm.roc_auc_score(y, scores)), True)


def test_weighted_and_unweighted_merge_promotes():
    a = RankingState.from_arrays([0, 1, 1], [0.1, 0.4, 0.9])
    b = RankingState.from_arrays([1, 0], [0.4, 0.2], sample_weight=[0.5, 2.0])
    merged = a + b
    assert merged.weighted and merged.positive.dtype == np.float64
    expected = tm.roc_auc_score([0, 1, 1, 1, 0], [0.1, 0.4, 0.9, 0.4, 0.2], sample_weight=[1, 1, 1, 0.5, 2.0])
    assert merged.roc_auc() == pytest.approx(expected, rel=RTOL)
    assert (b + a).roc_auc() == pytest.approx(expected, rel=RTOL)


def test_from_table_round_trip_and_checks():
    state = RankingState.from_arrays([0, 1, 1, 0, 1], [0.3, 0.3, 0.9, -0.0, 0.1])
    again = RankingState.from_table(state.scores, state.positive, state.negative)
    assert again.roc_auc() == state.roc_auc() and again.average_precision() == state.average_precision()
    np.testing.assert_array_equal(state.scores, [0.9, 0.3, 0.1, 0.0])
    np.testing.assert_array_equal(state.positive, [1, 1, 1, 0])
    with pytest.raises(ValueError, match="descending"):
        RankingState.from_table([0.1, 0.2], [1, 0], [0, 1])
    with pytest.raises(ValueError, match="one length"):
        RankingState.from_table([0.1], [1, 0], [0, 1])


def test_all_zero_weights_raise_only_for_all_the_data():
    a = RankingState.from_arrays([0, 1], [0.1, 0.2], sample_weight=[0.0, 0.0])
    b = RankingState.from_arrays([1, 0], [0.3, 0.4], sample_weight=[1.0, 2.0])
    assert (a + b).roc_auc() == tm.roc_auc_score([0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4], sample_weight=[0, 0, 1, 2])
    expected = outcome(lambda: tm.average_precision_score([0, 1], [0.1, 0.2], sample_weight=[0.0, 0.0]))
    assert outcome(a.average_precision) == expected and raised(expected)


def test_empty_state_raises_like_empty_input():
    for make in (lambda: RankingState(), lambda: RankingState.from_arrays([], np.array([], np.float32))):
        state = make()
        assert len(state) == 0
        empty = np.array([], np.int64), np.array([], state.scores.dtype)
        assert outcome(state.roc_auc) == outcome(lambda: tm.roc_auc_score(*empty))
        assert outcome(state.roc_curve) == outcome(lambda: tm.roc_curve(*empty))
        assert outcome(state.average_precision) == outcome(lambda: tm.average_precision_score(*empty))


# -- merge compatibility, sum, pickling ------------------------------------------------------
def test_incompatible_merges_raise():
    a = RankingState.from_arrays(["x", "y"], [0.1, 0.2], pos_label="x")
    b = RankingState.from_arrays(["x", "y"], [0.1, 0.2], pos_label="y")
    with pytest.raises(ValueError, match="pos_label"):
        a.merge(b)
    with pytest.raises(TypeError):
        a.merge(object())
    assert (RankingState() + a).pos_label == "x"


def test_sum_of_states():
    states = [RankingState.from_arrays([0, 1], [0.1 * i, 0.2 * i]) for i in range(1, 4)]
    total = sum(states)
    assert total.roc_auc() == tm.roc_auc_score(
        [0, 1] * 3, [0.1, 0.2, 0.2, 0.4, 0.30000000000000004, 0.6000000000000001]
    )


def test_pickle_out_of_band_without_copies():
    rng = np.random.default_rng(0)
    state = RankingState.from_arrays(rng.integers(0, 2, 1000), rng.random(1000))
    buffers = []
    payload = pickle.dumps(state, protocol=5, buffer_callback=buffers.append)
    assert len(buffers) == 3 and len(payload) < 1000  # the three table columns travel out of band
    loaded = pickle.loads(payload, buffers=buffers)
    for name in ("scores", "positive", "negative"):
        assert np.shares_memory(getattr(loaded, name), getattr(state, name))  # no copy
        np.testing.assert_array_equal(getattr(loaded, name), getattr(state, name))
    assert loaded.roc_auc() == state.roc_auc()
    in_band = pickle.loads(pickle.dumps(state))
    assert in_band.average_precision() == state.average_precision()


def test_pickle_of_another_version_raises():
    state = RankingState.from_arrays([0, 1], [0.1, 0.2])
    fields = state.__getstate__()
    fields["version"] = 999
    with pytest.raises(ValueError, match="version 999"):
        RankingState().__setstate__(fields)


# -- threads and large tables ----------------------------------------------------------------
def test_thread_count_invariance_on_many_blocks():
    rng = np.random.default_rng(1)
    n = 300_000  # > the array table's block size
    y = rng.integers(0, 2, n)
    s = rng.random(n).astype(np.float32)
    w = rng.random(n)
    unweighted = RankingState.from_arrays(y[: n // 2], s[: n // 2]) + RankingState.from_arrays(y[n // 2 :], s[n // 2 :])
    weighted = RankingState.from_arrays(y, s, sample_weight=w)
    for state in (unweighted, weighted):
        results = []
        for threads in (1, 2, 3):
            results.append(
                (
                    state.roc_auc(n_threads=threads),
                    state.roc_auc(max_fpr=0.3, n_threads=threads),
                    state.average_precision(n_threads=threads),
                    state.roc_curve(n_threads=threads)[0].tobytes(),
                    state.precision_recall_curve(drop_intermediate=True, n_threads=threads)[0].tobytes(),
                    state.best_threshold("mcc", n_threads=threads),
                )
            )
        assert results[0] == results[1] == results[2]
    assert unweighted.roc_auc() == tm.roc_auc_score(y, s)
    assert unweighted.average_precision() == tm.average_precision_score(y, s)
    fpr, tpr, thresholds = unweighted.roc_curve()
    expected = tm.roc_curve(y, s)
    for a, e in zip((fpr, tpr, thresholds), expected):
        assert a.tobytes() == e.tobytes()
    assert weighted.average_precision() == pytest.approx(tm.average_precision_score(y, s, sample_weight=w), rel=RTOL)
    assert weighted.roc_auc() == pytest.approx(tm.roc_auc_score(y, s, sample_weight=w), rel=RTOL)


# -- the exact sum ---------------------------------------------------------------------------
finite_doubles = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(min_value=-1e-300, max_value=1e-300),
    st.sampled_from([5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308]),
)


@settings(max_examples=200)
@given(values=st.lists(finite_doubles, max_size=30), cut=st.integers(0, 30))
def test_exact_sum_is_correctly_rounded_and_grouping_free(values, cut):
    from fractions import Fraction

    exact = sum((Fraction(v) for v in values), Fraction(0))
    value, scaled = _core.exact_sums.exact_sum(np.array(values, dtype=np.float64))
    assert Fraction(scaled, 2**AP_SCALE) == exact
    try:
        expected = float(exact)  # correctly rounded, half to even
    except OverflowError:
        expected = math.inf if exact > 0 else -math.inf
    assert value == expected
    with contextlib.suppress(OverflowError):  # fsum gives up on intermediate overflow; the Fraction is the oracle
        assert value == math.fsum(values)
    head, tail = _core.exact_sums.exact_sum(np.array(values[:cut])), _core.exact_sums.exact_sum(np.array(values[cut:]))
    assert head[1] + tail[1] == scaled


def test_zero_score_keeps_the_sign_of_the_last_zero():
    """As the in-memory table reports the sign of the last zero in input
    order, a merged zero row carries the later operand's sign."""
    y = np.array([0, 1, 1, 0])
    for scores in ([-0.0, 0.5, 0.0, 0.5], [0.0, 0.5, -0.0, 0.5]):
        s = np.array(scores)
        merged = RankingState.from_arrays(y[:2], s[:2]) + RankingState.from_arrays(y[2:], s[2:])
        expected = tm.precision_recall_curve(y, s)[2]
        assert merged.precision_recall_curve()[2].tobytes() == expected.tobytes()
        assert np.signbit(merged.scores[-1]) == np.signbit(s[2])


def test_from_table_leaves_the_callers_arrays_writeable():
    scores, positive, negative = np.array([0.9, 0.1]), np.array([1, 0]), np.array([0, 1])
    RankingState.from_table(scores, positive, negative)
    assert scores.flags.writeable and positive.flags.writeable and negative.flags.writeable


def test_states_merge_after_a_pickle_round_trip():
    # Unpickled arrays carry new (equal, not identical) dtype objects; a
    # state that crossed a process boundary must still merge.
    rng = np.random.default_rng(7)
    y, s = rng.integers(0, 2, 500), rng.random(500).round(2)
    a = RankingState.from_arrays(y[:250], s[:250])
    b = pickle.loads(pickle.dumps(RankingState.from_arrays(y[250:], s[250:]), protocol=5))
    assert (a + b).roc_auc() == tm.roc_auc_score(y, s)
    assert (b + a).average_precision() == tm.average_precision_score(y, s)


@pytest.mark.parametrize(
    "positive, negative, message",
    [
        ([1, -1], [0, 2], "must be non-negative"),
        (np.array([2**64 - 1, 1], np.uint64), np.array([1, 1], np.uint64), "total less than 2\\*\\*62"),
        (np.array([2**62, 2**62]), np.array([1, 1]), "total less than 2\\*\\*62"),
        ([np.nan, 1.0], [0.0, 1.0], "weights must be finite"),
        ([1.0, 1.0], [np.inf, 1.0], "weights must be finite"),
    ],
)
def test_from_table_rejects_counts_the_sweeps_cannot_read(positive, negative, message):
    # Negative or wrapping int64 counts would give silently wrong numbers.
    with pytest.raises(ValueError, match=message):
        RankingState.from_table([0.9, 0.1], positive, negative)


def _without_zero_signs(result):
    """An outcome() whose error message's array is read back as numbers with
    unsigned zeros: a state keeps each score's summed weights, not the samples
    that scikit-learn's cumulative sums start with, so its rates have no
    negative zeros. NumPy pads every element for a sign when one has a minus,
    so the printed texts also differ in spaces ('[ 0. -0.  3.]', '[0. 0. 3.]')."""
    error = raised(result)
    if error is None:
        return result
    head, bracket, rest = error[2].partition("[")
    if not bracket:
        return result
    printed, _, tail = rest.partition("]")
    numbers = tuple(float(text) + 0.0 for text in printed.split())  # -0.0 + 0.0 is 0.0
    return ("raise", error[1], (head, numbers, tail)), result[1]


def test_signed_weights_error_differs_only_in_zero_signs():
    # Found by the random hypothesis profile: the function's rates print as
    # "[ 0. -0.  3.  1.]", the state's as "[0. 0. 3. 1.]" (padded for the sign
    # of a negative zero only in the first).
    y_true, y_score = np.array([0, 1, 0, 1]), np.array([0.0, 0.0, 1.0, 2.0])
    weight = np.array([-2.0, -2.0, 3.0, -2.0])
    state = RankingState.from_arrays(y_true, y_score, sample_weight=weight)
    on_state = outcome(state.roc_auc)
    in_memory = outcome(lambda: tm.roc_auc_score(y_true, y_score, sample_weight=weight))
    assert raised(on_state)[2] == "x is neither increasing nor decreasing : [0. 0. 3. 1.]."
    assert raised(in_memory)[2] == "x is neither increasing nor decreasing : [ 0. -0.  3.  1.]."
    assert_same(_without_zero_signs(on_state), _without_zero_signs(in_memory), exact=True)
    other_rates = outcome(lambda: tm.roc_auc_score(y_true, y_score, sample_weight=[-2.0, -2.0, 5.0, -2.0]))
    assert raised(other_rates)[2].endswith("[ 0.         -0.          1.66666667  1.        ].")
    assert _without_zero_signs(other_rates)[0][2][1] == (0.0, 0.0, 1.66666667, 1.0)
    assert _without_zero_signs(on_state) != _without_zero_signs(other_rates)


@settings(max_examples=100)
@given(p=binary_problems(min_n=1, max_n=30, weights="signed"), data=st.data())
def test_signed_weights_states_equal_in_memory(p, data):
    # Negative weights: the state raises the function's "x is neither increasing
    # nor decreasing" where it does (the message's zeros unsigned), and gives
    # its numbers bit for bit elsewhere (the weights are dyadic: sums exact).
    draw = data.draw
    y01, s, w = positive_indicator(p), p["y_score"], p["sample_weight"]
    p = dict(p, y_true=y01.astype(int), pos_label=1)
    state = chunked_state(draw, p, chunk_bounds(draw, y01.shape[0]))
    max_fpr = draw(st.sampled_from(MAX_FPRS))
    on_state = outcome(lambda: state.roc_auc(max_fpr=max_fpr))
    in_memory = outcome(lambda: tm.roc_auc_score(y01, s, sample_weight=w, max_fpr=max_fpr))
    assert_same(_without_zero_signs(on_state), _without_zero_signs(in_memory), exact=True)
    assert_same(
        outcome(state.average_precision),
        outcome(lambda: tm.average_precision_score(y01, s, sample_weight=w)),
        exact=True,
    )
