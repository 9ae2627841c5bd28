"""BinnedRankingState: the proven error bounds hold on adversarial data,
binned values are exact when every bin holds one distinct score, and
merging is exact and needs identical bins."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import turbometrics as tm
from strategies import ENCODINGS, binary_problems
from turbometrics import BinnedRankingState, RankingState

BIN_CHOICES = [
    ("bits", 2, None),
    ("bits", 16, None),
    ("bits", 2**13, None),
    ("bits", 2**20, None),
    ("uniform", 1, (0.0, 1.0)),
    ("uniform", 3, (-1.0, 1.0)),
    ("uniform", 50, (0.0, 1.0)),
    ("uniform", 4, (-1e300, 1e300)),
]


def make(choice, pos_label=None):
    strategy, n_bins, value_range = choice
    return BinnedRankingState(n_bins, strategy=strategy, range=value_range, pos_label=pos_label)


@settings(max_examples=80)
@given(
    p=binary_problems(
        min_n=1, max_n=40, encodings=ENCODINGS[:1], score_dtypes=[np.float64, np.float32, np.int64, np.bool_]
    ),
    choice=st.sampled_from(BIN_CHOICES),
    data=st.data(),
)
def test_bounds_hold(p, choice, data):
    y, s, w = p["y_true"], p["y_score"], p["sample_weight"]
    if w is not None and not np.any(w):
        return
    cut = data.draw(st.integers(0, y.shape[0]))
    state = make(choice)
    state.update(y[:cut], s[:cut], sample_weight=None if w is None else w[:cut])
    state.update(y[cut:], s[cut:], sample_weight=None if w is None else w[cut:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        auc, auc_true = state.roc_auc(), tm.roc_auc_score(y, s, sample_weight=w)
        ap, ap_true = state.average_precision(), tm.average_precision_score(y, s, sample_weight=w)
    if np.isnan(auc_true):
        assert np.isnan(auc.value)
    else:
        assert abs(auc.value - auc_true) <= auc.max_error
    assert abs(ap.value - ap_true) <= ap.max_error


@settings(max_examples=40)
@given(p=binary_problems(min_n=1, max_n=40, encodings=ENCODINGS[:1], weights="none", score_dtypes=[np.float64]))
def test_adversarial_within_bin_orders(p):
    """All positives above (or below) all negatives inside one bin: the
    extreme orders reach the bound's ends but never pass them."""
    y = p["y_true"]
    n = y.shape[0]
    for direction in (1.0, -1.0):
        s = 0.6 + direction * 1e-9 * (y * 2 - 1) + 1e-12 * np.arange(n)  # one uniform bin holds everything
        state = BinnedRankingState.from_arrays(y, s, n_bins=4, strategy="uniform", range=(0.0, 1.0))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            auc, auc_true = state.roc_auc(), tm.roc_auc_score(y, s)
            ap, ap_true = state.average_precision(), tm.average_precision_score(y, s)
        if not np.isnan(auc_true):
            assert abs(auc.value - auc_true) <= auc.max_error
            assert auc.max_error == pytest.approx(0.5, rel=1e-9)  # one bin: the bound is 1/2
        assert abs(ap.value - ap_true) <= ap.max_error


def test_bound_is_tight_for_auc():
    y = np.array([0, 0, 1, 1])
    s = np.array([0.1, 0.2, 0.3, 0.4])  # AUC 1, all in one bin
    state = BinnedRankingState.from_arrays(y, s, n_bins=2, strategy="uniform", range=(0.0, 1.0))
    auc = state.roc_auc()
    assert auc.value == 0.5 and auc.value + auc.max_error >= 1.0 >= auc.value + auc.max_error - 1e-12


def test_distinct_bins_are_exact():
    rng = np.random.default_rng(0)
    s = rng.permutation(1000) / 1000.0
    y = rng.integers(0, 2, 1000)
    state = BinnedRankingState.from_arrays(y, s, n_bins=1000, strategy="uniform", range=(0.0, 1.0))
    auc = state.roc_auc()
    assert auc.value == tm.roc_auc_score(y, s) and auc.max_error < 1e-12
    assert state.average_precision().value == pytest.approx(tm.average_precision_score(y, s), rel=1e-12)


def test_bits_bins_preserve_order_and_zero():
    state = BinnedRankingState(2**16)
    values = np.array([-np.inf, -1e300, -1.0, -5e-324, -0.0, 0.0, 5e-324, 1e-300, 0.5, 1.0, 2.0, 1e300, np.inf])
    bins = state.bins_of(values)
    assert np.all(np.diff(bins) >= 0)
    assert bins[4] == bins[5]
    assert np.all((bins >= 0) & (bins < 2**16))


def test_merge_and_pickle():
    rng = np.random.default_rng(1)
    y, s = rng.integers(0, 2, 500), rng.random(500)
    whole = BinnedRankingState.from_arrays(y, s, n_bins=64, strategy="uniform", range=(0.0, 1.0))
    parts = sum(
        BinnedRankingState.from_arrays(y[i : i + 100], s[i : i + 100], n_bins=64, strategy="uniform", range=(0.0, 1.0))
        for i in range(0, 500, 100)
    )
    assert parts.roc_auc() == whole.roc_auc() and parts.average_precision() == whole.average_precision()
    with pytest.raises(ValueError, match="n_bins"):
        whole.merge(BinnedRankingState(32, strategy="uniform", range=(0.0, 1.0)))
    with pytest.raises(ValueError, match="range"):
        whole.merge(BinnedRankingState(64, strategy="uniform", range=(0.0, 2.0)))
    with pytest.raises(ValueError, match="strategy"):
        whole.merge(BinnedRankingState(64))
    buffers = []
    payload = pickle.dumps(whole, protocol=5, buffer_callback=buffers.append)
    assert len(buffers) == 2
    loaded = pickle.loads(payload, buffers=buffers)
    assert loaded.roc_auc() == whole.roc_auc()
    fields = whole.__getstate__()
    fields["version"] = 0
    with pytest.raises(ValueError, match="version 0"):
        BinnedRankingState().__setstate__(fields)


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="power of two"):
        BinnedRankingState(1000)
    with pytest.raises(ValueError, match="range"):
        BinnedRankingState(10, strategy="uniform")
    with pytest.raises(ValueError, match="strategy"):
        BinnedRankingState(8, strategy="quantile")


def test_validation_matches_in_memory():
    with pytest.raises(ValueError, match="pos_label is not specified"):
        BinnedRankingState.from_arrays(["a", "b"], [0.1, 0.2])
    with pytest.raises(ValueError) as expected:
        tm.roc_curve([0, 1], [0.1, np.nan])
    with pytest.raises(ValueError) as actual:
        BinnedRankingState.from_arrays([0, 1], [0.1, np.nan])
    assert str(actual.value) == str(expected.value)


def test_negative_weights_are_refused():
    # Found through the state fuzz test: with signed weights a bin's sums hide
    # the order inside it. Positives of weights 2 and -2 around a negative in
    # one bin have no same-bin sum, yet the AUC is 2.0, not 0.5 +- 0.5.
    y = np.array([1, 1, 0, 1, 0])
    s = np.array([0.5002, 0.5000, 0.5001, 0.9, 0.1])
    w = np.array([2.0, -2.0, 1.0, 1.0, 1.0])
    assert tm.roc_auc_score(y, s, sample_weight=w) == 2.0
    state = BinnedRankingState(8)
    with pytest.raises(ValueError, match="BinnedRankingState needs non-negative sample weights"):
        state.update(y, s, sample_weight=w)
    assert not state.positive.any() and not state.negative.any()  # nothing added
    fields = BinnedRankingState.from_arrays(y, s, n_bins=8, sample_weight=np.abs(w)).__getstate__()
    fields["positive"] = fields["positive"].copy()
    fields["positive"][0] = -1.0
    with pytest.raises(ValueError, match="positive weights must be non-negative"):
        BinnedRankingState().__setstate__(fields)
    BinnedRankingState.from_arrays(y, s, n_bins=8, sample_weight=np.where(w < 0, -0.0, w))  # -0.0 is not negative


def test_weights_over_2_to_the_1000_apart_keep_the_average_precision_finite():
    # Found by the state fuzz test: a subnormal weight of a negative beside one of
    # weight 1 overflowed the ratio of the lower bound (AP -inf +- inf).
    y, s, w = np.array([1, 0]), np.array([0.9, 0.1]), np.array([1.0, 2.225073858507203e-309])
    state = BinnedRankingState.from_arrays(y, s, n_bins=8, sample_weight=w)
    ap = state.average_precision()
    assert abs(ap.value - tm.average_precision_score(y, s, sample_weight=w)) <= ap.max_error <= 1e-12


def test_same_table_as_ranking_state_when_bins_separate_scores():
    y = np.array([0, 1, 1, 0, 1, 0])
    s = np.array([0.05, 0.15, 0.15, 0.55, 0.95, 0.95])
    binned = BinnedRankingState.from_arrays(y, s, n_bins=10, strategy="uniform", range=(0.0, 1.0))
    exact = RankingState.from_arrays(y, s)
    assert binned.roc_auc().value == exact.roc_auc()
