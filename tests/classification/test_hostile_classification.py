"""Hostile input to the classification metrics, differentially against
scikit-learn 1.9.1: labels of mixed dtypes (uint64 at or above 2**63 with
signed, float, bool and big-endian labels), integer sample weights whose
sums pass 2**63, and the exception types of edge inputs (0-d arrays,
unorderable object labels, object and string inputs of the proper scores).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings, strategies as st

import turbometrics as tm
from helpers import capture, check_against_sklearn

# scikit-learn and turbometrics warn alike about one-label confusion
# matrices; the outcomes, not the warnings, are compared here
pytestmark = pytest.mark.filterwarnings("ignore:A single label was found:UserWarning")

# Label values each dtype can hold, small ones and the extremes of the type.
_SMALL = [-1, 0, 1, 2]
_POOLS = {
    "int8": _SMALL + [-128, 127],
    "int16": _SMALL + [-32768, 32767],
    "int64": _SMALL + [-(2**63), 2**63 - 1, 2**53 + 1],
    ">i8": _SMALL + [-(2**63), 2**62],
    "uint64": [0, 1, 2, 2**63, 2**63 + 1, 2**64 - 1, 2**64 - 2048],
    ">u8": [0, 1, 2**63, 2**63 + 2048],
    "float32": _SMALL + [2.0**62],
    "float64": _SMALL + [-(2.0**62), 2.0**53],
    ">f8": _SMALL + [2.0**62],
    "bool": [False, True],
}
TABLE_METRICS = ["confusion_matrix", "matthews_corrcoef", "cohen_kappa_score", "balanced_accuracy_score"]
COUNT_METRICS = [
    "accuracy_score",
    "precision_recall_fscore_support",
    "f1_score",
    "jaccard_score",
    "multilabel_confusion_matrix",
]


def _exact(sk, got):
    """Equal values and dtypes (arrays), equal floats (NaN equals NaN)."""
    if isinstance(sk, tuple):
        assert isinstance(got, tuple) and len(got) == len(sk)
        for a, b in zip(sk, got):
            _exact(a, b)
        return
    if isinstance(sk, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == sk.dtype and got.shape == sk.shape, (sk, got)
        assert np.array_equal(got, sk, equal_nan=sk.dtype.kind == "f"), (sk, got)
        return
    assert type(got) is type(sk) or (isinstance(sk, float) and isinstance(got, float)), (sk, got)
    assert got == sk or (math.isnan(sk) and math.isnan(got)), (sk, got)


@st.composite
def _labels(draw, pools):
    name = draw(st.sampled_from(sorted(pools)))
    n = draw(st.integers(1, 8))
    values = draw(st.lists(st.sampled_from(pools[name]), min_size=n, max_size=n))
    return np.array(values, dtype=np.dtype(name))


@st.composite
def _pairs(draw, pools):
    y_true = draw(_labels(pools))
    y_pred = draw(_labels(pools))
    n = min(y_true.shape[0], y_pred.shape[0])
    return y_true[:n], y_pred[:n]


@settings(max_examples=300, deadline=None)
@given(_pairs(_POOLS), st.sampled_from(TABLE_METRICS))
def test_mixed_label_dtypes_in_table_metrics(pair, name):
    """uint64 labels at or above 2**63 with signed or float labels keep
    every sample scikit-learn's confusion_matrix counts (exact match of
    values after promotion), whatever the dtypes and byte order."""
    check_against_sklearn(name, *pair, compare=_exact)


@settings(max_examples=300, deadline=None)
@given(_pairs(_POOLS), st.sampled_from(COUNT_METRICS))
def test_mixed_label_dtypes_in_count_metrics(pair, name):
    kwargs = {"average": "macro"} if name in ("f1_score", "jaccard_score") else {}
    check_against_sklearn(name, *pair, compare=_exact, **kwargs)


@settings(max_examples=100, deadline=None)
@given(st.lists(_pairs(_POOLS), min_size=1, max_size=3))
def test_mixed_label_dtypes_in_confusion_state(batches):
    """The ConfusionState of a batch holds scikit-learn's confusion matrix
    of the batch; merging batches of any dtypes (whose label union may
    round labels to one float) keeps every count."""
    state, counted = tm.ConfusionState(), 0
    for y_true, y_pred in batches:
        batch = capture(tm.ConfusionState.from_arrays, y_true, y_pred)
        expected = capture(skm.confusion_matrix, y_true, y_pred)
        if expected.exc is not None:
            assert type(batch.exc) is type(expected.exc)
            return
        _exact(expected.value, batch.value.confusion_matrix())
        state = state + batch.value
        counted += int(expected.value.sum())
    assert state.confusion_matrix().sum() == counted


def test_uint64_label_past_int64_is_counted():
    y_true = np.array([0, 1, 2**63], dtype=np.uint64)
    y_pred = np.array([0, 1, 2])
    assert tm.confusion_matrix(y_true, y_pred).sum() == 3
    assert tm.matthews_corrcoef(y_true, y_pred) == skm.matthews_corrcoef(y_true, y_pred)
    assert tm.ConfusionState.from_arrays(y_true, y_pred).confusion_matrix().sum() == 3
    support = tm.precision_recall_fscore_support(y_true, y_pred, zero_division=0)[3]
    _exact(skm.precision_recall_fscore_support(y_true, y_pred, zero_division=0)[3], support)


def test_state_merge_keeps_labels_the_union_rounds():
    """uint64 labels 2**63 + 1 and 2**64 - 1 merged with int64 ones: the
    union is float64 (2**63 and 2**64), and each count lands on its label."""
    wide = np.array([2**63 + 1, 2**64 - 1, 1], dtype=np.uint64)
    merged = tm.ConfusionState.from_arrays(wide, wide) + tm.ConfusionState.from_arrays(
        np.array([0, 1]), np.array([0, 5])
    )
    np.testing.assert_array_equal(merged.labels, [0.0, 1.0, 5.0, 2.0**63, 2.0**64])
    np.testing.assert_array_equal(
        merged.confusion_matrix(), [[1, 0, 0, 0, 0], [0, 1, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]]
    )


_WEIGHT_DTYPES = ["int64", "uint64", ">i8", "int32", "uint32", "bool"]


@st.composite
def _weighted(draw):
    n = draw(st.integers(1, 8))
    y_true = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    y_pred = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)))
    dtype = np.dtype(draw(st.sampled_from(_WEIGHT_DTYPES)))
    if dtype.kind == "b":
        pool = [False, True]
    else:
        info = np.iinfo(dtype)
        pool = [0, 1, 3, int(info.max), int(info.max) - 1, int(info.max) // 2 + 1]
        if info.min:
            pool += [-1, int(info.min) // 2]
    weights = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)), dtype=dtype)
    return y_true, y_pred, weights


def _fits_int64(y_true, y_pred, weights) -> bool:
    """Whether every cell of the exact weighted table fits in int64 (where
    scikit-learn's int64 confusion matrix does not wrap)."""
    cells = {}
    for t, p, w in zip(y_true.tolist(), y_pred.tolist(), weights.tolist()):
        cells[t, p] = cells.get((t, p), 0) + int(w)
    return all(-(2**63) <= c < 2**63 for c in cells.values())


def _exact_table(y_true, y_pred, weights) -> np.ndarray:
    labels = np.union1d(y_true, y_pred).tolist()
    table = np.zeros((len(labels), len(labels)), dtype=object)
    for t, p, w in zip(y_true.tolist(), y_pred.tolist(), weights.tolist()):
        table[labels.index(t), labels.index(p)] += int(w)
    return table


@settings(max_examples=300, deadline=None)
@given(_weighted())
def test_integer_weights_are_never_wrapped(data):
    """Integer weights up to 2**64 - 1: the confusion matrix equals
    scikit-learn's int64 matrix where every cell fits, and holds each exact
    cell sum (rounded once to float64) otherwise. The other metrics equal
    scikit-learn's where its sums do not wrap or round, and otherwise stay
    in range (precision and recall in [0, 1], non-negative support)."""
    y_true, y_pred, weights = data
    if not np.any(weights):
        return
    exact = _exact_table(y_true, y_pred, weights)
    got = tm.confusion_matrix(y_true, y_pred, sample_weight=weights)
    if _fits_int64(y_true, y_pred, weights):
        _exact(skm.confusion_matrix(y_true, y_pred, sample_weight=weights), got)
    else:
        assert got.dtype == np.float64
        assert np.array_equal(got, exact.astype(np.float64))
    magnitude = sum(abs(int(w)) for w in weights.tolist())
    if magnitude < 2**31:
        # scikit-learn's int64 marginals (and kappa's outer product of them) do not wrap either
        for name in ("matthews_corrcoef", "cohen_kappa_score", "balanced_accuracy_score"):
            check_against_sklearn(name, y_true, y_pred, sample_weight=weights, compare=_exact)
    state = tm.ConfusionState.from_arrays(y_true, y_pred, sample_weight=weights)
    _exact(got, state.confusion_matrix())
    if magnitude < 2**53:  # scikit-learn's float64 sums are exact too
        for name in ("precision_recall_fscore_support", "jaccard_score"):
            sk = getattr(skm, name)(y_true, y_pred, sample_weight=weights, average=None, zero_division=0)
            _exact(sk, getattr(tm, name)(y_true, y_pred, sample_weight=weights, average=None, zero_division=0))
    elif np.all(weights >= 0):
        precision, recall, _, support = tm.precision_recall_fscore_support(
            y_true, y_pred, sample_weight=weights, average=None, zero_division=0
        )
        assert np.all((precision >= 0) & (precision <= 1) & (recall >= 0) & (recall <= 1))
        np.testing.assert_allclose(support, exact.sum(axis=1).astype(np.float64), rtol=1e-15)
    total = sum(int(w) for w in weights.tolist())
    if total:
        assert tm.accuracy_score(y_true, y_pred, sample_weight=weights) == np.trace(exact) / total


def test_integer_weights_past_int64_against_sklearn():
    """scikit-learn sums integer weights as float64 for accuracy and the
    one-vs-rest counts: 2**62 weights give its values, not wrapped ones."""
    y_true, y_pred = [0, 1, 0, 1, 1], [0, 0, 0, 1, 1]
    weights = np.array([2**62, 2**62, 1, 1, 1])
    for name in ("accuracy_score", "precision_recall_fscore_support", "f1_score", "jaccard_score"):
        sk = getattr(skm, name)(y_true, y_pred, sample_weight=weights)
        got = getattr(tm, name)(y_true, y_pred, sample_weight=weights)
        np.testing.assert_allclose(
            np.asarray(got[:3] if isinstance(got, tuple) else got, dtype=float),
            np.asarray(sk[:3] if isinstance(sk, tuple) else sk, dtype=float),
            rtol=1e-15,
        )
    precision, _, _, support = tm.precision_recall_fscore_support(y_true, y_pred, sample_weight=weights)
    assert np.all(precision <= 1) and np.all(support > 0)


def test_uint64_weight_past_int64_is_not_negative():
    weights = np.array([2**64 - 1, 1], dtype=np.uint64)
    table = tm.confusion_matrix([0, 1], [0, 1], sample_weight=weights)
    assert table.dtype == np.float64 and table[0, 0] == float(2**64 - 1) and table[1, 1] == 1
    assert tm.balanced_accuracy_score([0, 1], [0, 1], sample_weight=weights) == 1.0
    merged = tm.ConfusionState.from_arrays([0], [0], sample_weight=np.array([2**62])) + tm.ConfusionState.from_arrays(
        [0], [0], sample_weight=np.array([2**62])
    )
    assert merged.confusion_matrix()[0, 0] == float(2**63)


_TWO_LABELS = [
    "accuracy_score",
    "f1_score",
    "precision_score",
    "recall_score",
    "jaccard_score",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "precision_recall_fscore_support",
]


@pytest.mark.parametrize("name", _TWO_LABELS + ["average_precision_score"])
def test_unorderable_object_labels_raise_type_error(name):
    """An object array holding a string and None: scikit-learn sorts the
    labels before checking their type, and NumPy raises TypeError."""
    y_true = np.array([None, "a"], dtype=object)
    y_pred = np.array(["a", "b"], dtype=object) if name != "average_precision_score" else np.array([0.2, 0.7])
    with pytest.raises(TypeError, match="'<' not supported between instances of 'str' and 'NoneType'"):
        getattr(skm, name)(y_true, y_pred)
    check_against_sklearn(name, y_true, y_pred)


@pytest.mark.parametrize("name", ["brier_score_loss", "log_loss", "roc_auc_score", "top_k_accuracy_score"])
def test_zero_dimensional_input_raises_type_error(name):
    message = r"Input should have at least 1 dimension i\.e\. satisfy `len\(x\.shape\) > 0`"
    args = (np.array(1), np.array(0.5) if name in ("brier_score_loss", "log_loss") else np.array(1))
    with pytest.raises(TypeError, match=message):
        getattr(skm, name)(*args)
    check_against_sklearn(name, *args)


@pytest.mark.parametrize("name", ["log_loss", "brier_score_loss"])
def test_object_labels_of_numbers_are_unknown(name):
    y_true = np.array([0, 1, 1], dtype=object)
    y_proba = np.array([[0.8, 0.2], [0.3, 0.7], [0.4, 0.6]])
    with pytest.raises(ValueError, match=r"Unknown label type: \(array\(\[0, 1, 1\], dtype=object\),\)"):
        getattr(skm, name)(y_true, y_proba)
    check_against_sklearn(name, y_true, y_proba)
    check_against_sklearn("log_loss", [0.5, 0.7, 0.5], [0.2, 0.7, 0.6])
    check_against_sklearn("log_loss", [0, 1, 1], [0.2, 0.7, 0.6], labels=np.array([0, 1], dtype=object))


@pytest.mark.parametrize("name", ["log_loss", "brier_score_loss"])
@pytest.mark.parametrize(
    "y_proba",
    [
        np.array(["0.2", "0.7", "0.6"]),
        ["0.2", "0.7", "0.6"],
        np.array([b"0.2", b"0.7", b"0.6"]),
        [["0.8", "0.2"]] * 3,
        np.array(["0.2", "x", "0.6"]),
        ["0.2", "x", "0.6"],
    ],
)
def test_string_probabilities_are_converted(name, y_proba):
    """scikit-learn converts string probabilities to float64 (NumPy's
    ValueError for a string that is no number)."""
    check_against_sklearn(name, [0, 1, 1], y_proba, compare=_exact)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "weights"),
    [
        # a cell past int64 (3 + 2**63 - 1) and a total that the rounded cells put at zero
        ([0, 0, 0, 0], [0, 0, 1, 1], [3, 2**63 - 1, -(2**62), -(2**62)]),
        # correct samples' weight -2**63 and a total of 3 that float cell sums lose
        ([0, 0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1, 0, 1], [0, 0, 0, -(2**62), -(2**62), 3, 1, 2**63 - 1]),
    ],
)
def test_accuracy_sums_integer_weights_exactly_past_int64(y_true, y_pred, weights):
    """Found by hypothesis: the accuracy came from the float64 table's rounded cells."""
    correct = sum(w for t, p, w in zip(y_true, y_pred, weights) if t == p)
    got = tm.accuracy_score(y_true, y_pred, sample_weight=np.array(weights, dtype=np.int64))
    assert got == correct / sum(weights)
