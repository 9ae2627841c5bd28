"""CalibrationState: batches split anywhere and merged in any order give
bit-identical states (exact per-bin sums), whose metrics equal the in-memory
calibration_error / reliability_diagram (uniform bins) at rtol 1e-12, with
exact bin counts."""

from __future__ import annotations

import itertools
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import turbometrics as tm
from helpers import capture

# Asserts bits or tolerances: re-run under other CPU personalities by .ci/cpu_personalities.
pytestmark = pytest.mark.bits

# Probabilities with heavy ties, bin edges (k / n_bins), 0, 1 and -0.0.
_SPECIAL = [0.0, -0.0, 1.0, 0.5, 0.1, 0.2, 1 / 3, 2 / 3, 0.9999999999999999, 1e-300]


@st.composite
def _problem(draw):
    mode = draw(st.sampled_from(["binary", "binary", "top_label", "binary_as_top"]))
    n = draw(st.one_of(st.integers(0, 2), st.integers(0, 60)))
    n_bins = draw(st.sampled_from([1, 2, 3, 10, 15]))
    values = st.one_of(st.sampled_from(_SPECIAL), st.floats(0.0, 1.0))
    if mode == "top_label":
        k = draw(st.integers(1, 4))
        prob = np.asarray(
            draw(st.lists(st.lists(values, min_size=k, max_size=k), min_size=n, max_size=n)), dtype=np.float64
        ).reshape(n, k)
        y_true = np.asarray(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)), dtype=np.int64)
    else:
        prob = np.asarray(draw(st.lists(values, min_size=n, max_size=n)), dtype=np.float64)
        encoding = draw(st.sampled_from(["01", "pm1", "bool"]))
        bits = np.asarray(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
        y_true = {"01": bits.astype(np.int64), "pm1": np.where(bits, 1, -1), "bool": bits}[encoding]
    if draw(st.booleans()):
        prob = prob.astype(np.float32)
    weight = None
    weight_mode = draw(st.sampled_from(["none", "none", "float", "zeros"]))
    if weight_mode == "float":
        weight = np.asarray(draw(st.lists(st.floats(0.01, 10.0), min_size=n, max_size=n)))
    elif weight_mode == "zeros":
        weight = np.asarray(draw(st.lists(st.sampled_from([0.0, 0.5, 3.0]), min_size=n, max_size=n)))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=5)))
    api_mode = "top_label" if mode == "binary_as_top" else "auto"
    return y_true, prob, weight, n_bins, api_mode, [0] + cuts + [n]


def _states(y_true, prob, weight, n_bins, mode, bounds):
    states = []
    for start, stop in itertools.pairwise(bounds):
        w = None if weight is None else weight[start:stop]
        states.append(
            tm.CalibrationState.from_arrays(
                y_true[start:stop], prob[start:stop], n_bins=n_bins, mode=mode, sample_weight=w
            )
        )
    return states


def _merge(draw, states):
    states = list(states)
    while len(states) > 1:
        a = states.pop(draw(st.integers(0, len(states) - 1)))
        b = states.pop(draw(st.integers(0, len(states) - 1)))
        states.append(a + b)
    return states[0]


def _close(expected, got):
    if isinstance(expected, float):
        assert type(got) is float
        if math.isnan(expected):
            assert math.isnan(got)
        else:
            # Gaps |accuracy - confidence| may cancel: the state's exact sums
            # and the kernel's float sums then differ by an absolute ulp.
            assert math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-15), (got, expected)
        return
    for a, b in zip(expected, got):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-15, equal_nan=True)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_state_equals_in_memory(data):
    y_true, prob, weight, n_bins, mode, bounds = data.draw(_problem())
    states = _states(y_true, prob, weight, n_bins, mode, bounds)
    state = _merge(data.draw, states)
    other = _merge(data.draw, states[::-1])
    assert pickle.dumps(state.__getstate__()) == pickle.dumps(other.__getstate__())  # merge order: same bits
    if data.draw(st.booleans()):
        state = pickle.loads(pickle.dumps(state, protocol=5))
    for norm, method in (("l1", "ece"), ("max", "mce"), ("l2", "rmsce")):
        expected = capture(
            tm.calibration_error, y_true, prob, n_bins=n_bins, norm=norm, mode=mode, sample_weight=weight
        )
        got = capture(getattr(state, method))
        if expected.exc is not None:
            assert got.exc is not None and type(got.exc) is type(expected.exc), (expected.describe(), got.describe())
            continue
        assert got.exc is None, (expected.describe(), got.describe())
        _close(expected.value, got.value)
    expected = capture(tm.reliability_diagram, y_true, prob, n_bins=n_bins, mode=mode, sample_weight=weight)
    if expected.exc is None:
        _close(expected.value, state.reliability_diagram())
        if weight is None:  # exact counts: the documented binning rule
            confidence = (
                prob
                if mode == "auto" and prob.ndim == 1
                else (prob.max(axis=1) if prob.ndim == 2 else np.maximum(1 - prob, prob))
            )
            bins = np.minimum(np.searchsorted(state.edges, confidence, side="right") - 1, n_bins - 1)
            np.testing.assert_array_equal(state.bin_weight(), np.bincount(bins, minlength=n_bins))


def test_invalid_batches_raise_as_in_memory():
    for y, p in (
        ([0, 1], [0.5, 1.5]),
        ([0, 1], [np.nan, 0.5]),
        ([0, 3], [[0.5, 0.5], [0.2, 0.8]]),
        ([0, 2], [0.1, 0.2]),
    ):
        expected = capture(tm.calibration_error, y, p)
        got = capture(tm.CalibrationState.from_arrays, y, p)
        assert expected.exc is not None and type(got.exc) is type(expected.exc)
        assert str(got.exc) == str(expected.exc)


def test_incompatible_merges_and_batches():
    binary = tm.CalibrationState.from_arrays([0, 1], [0.2, 0.7])
    top = tm.CalibrationState.from_arrays([0, 1], [[0.2, 0.8], [0.6, 0.4]])
    with pytest.raises(ValueError, match="cannot merge CalibrationStates of binary input"):
        binary + top
    with pytest.raises(ValueError, match="different n_bins"):
        binary + tm.CalibrationState(10)
    with pytest.raises(ValueError, match="different pos_label"):
        binary + tm.CalibrationState(pos_label=1)
    with pytest.raises(ValueError, match="the batch is top_label input with 3 columns"):
        top.update([0], [[0.2, 0.3, 0.5]])
    with pytest.raises(TypeError):
        binary.merge(1)


def test_empty_and_all_zero_weights():
    with pytest.raises(ValueError, match="minimum of 1"):
        tm.CalibrationState().ece()
    zero = tm.CalibrationState.from_arrays([0, 1], [0.2, 0.7], sample_weight=[0.0, 0.0])
    with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero number"):
        zero.ece()
    both = zero + tm.CalibrationState.from_arrays([1], [0.9], sample_weight=[2.0])
    assert both.ece() == tm.calibration_error([0, 1, 1], [0.2, 0.7, 0.9], sample_weight=[0.0, 0.0, 2.0])
    assert sum([tm.CalibrationState.from_arrays([], []), both]).n_samples == 3


def test_pickle_version_mismatch():
    state = tm.CalibrationState.from_arrays([0, 1, 1], [0.1, 0.6, 0.9])
    payload = state.__getstate__()
    assert payload["_confidence"].dtype == np.dtype("<u8")
    payload["version"] = 0
    with pytest.raises(ValueError, match="CalibrationState pickle version 0 is not supported"):
        tm.CalibrationState.__new__(tm.CalibrationState).__setstate__(payload)


def test_thread_count_and_split_invariance():
    rng = np.random.default_rng(3)
    prob = rng.random(400_000)
    y = (rng.random(400_000) < prob).astype(np.int64)
    weight = rng.random(400_000)
    one = tm.CalibrationState.from_arrays(y, prob, sample_weight=weight, n_threads=1)
    two = tm.CalibrationState.from_arrays(y, prob, sample_weight=weight, n_threads=2)
    parts = sum(
        tm.CalibrationState.from_arrays(y[i : i + 30_001], prob[i : i + 30_001], sample_weight=weight[i : i + 30_001])
        for i in range(0, 400_000, 30_001)
    )
    blobs = {pickle.dumps(s.__getstate__()) for s in (one, two, parts)}
    assert len(blobs) == 1
    assert math.isclose(one.ece(), tm.calibration_error(y, prob, sample_weight=weight), rel_tol=1e-12)


def test_state_merges_after_a_pickle_round_trip():
    rng = np.random.default_rng(3)
    y, p = rng.integers(0, 2, 400), rng.random(400)
    a = tm.CalibrationState.from_arrays(y[:200], p[:200])
    b = pickle.loads(pickle.dumps(tm.CalibrationState.from_arrays(y[200:], p[200:]), protocol=5))
    assert (a + b).ece() == (b + a).ece() == tm.CalibrationState.from_arrays(y, p).ece()
