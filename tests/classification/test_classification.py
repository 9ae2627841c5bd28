"""Differential tests of the classification metrics against scikit-learn:
values (rtol 1e-12; counts exact), result types and dtypes, warnings
(category and message) and exceptions (type and message)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import sklearn.metrics
from hypothesis import given, strategies as st

import turbometrics as tm
from classification_strategies import label_pairs, n_samples, present_labels, weights_for
from helpers import assert_score_equal, capture, check_against_sklearn

ATOL = 1e-12  # for values that cancel to (almost) zero, e.g. kappa of chance agreement

PRF_FUNCTIONS = ["precision_recall_fscore_support", "precision_score", "recall_score", "f1_score", "fbeta_score"]
AVERAGES = [None, "binary", "micro", "macro", "weighted", "samples"]
ZERO_DIVISIONS = ["warn", 0, 1, 0.0, 1.0, np.nan]


def _compare(sk, got):
    if isinstance(sk, tuple):
        assert isinstance(got, tuple) and len(got) == len(sk)
        for a, b in zip(sk, got):
            _compare(a, b)
        return
    if sk is None:
        assert got is None
        return
    if isinstance(sk, np.ndarray) and sk.dtype.kind in "iu":
        assert type(got) is np.ndarray and got.dtype == sk.dtype and got.shape == sk.shape, (got, sk)
        np.testing.assert_array_equal(got, sk)
        return
    assert_score_equal(sk, got, atol=ATOL)


def _labels_param(draw, kind, y_true, y_pred):
    if kind.startswith("multilabel"):
        width = np.asarray(y_true).shape[1]
        return draw(st.one_of(st.none(), st.lists(st.integers(-1, width), min_size=1, max_size=width + 1)))
    present = present_labels(y_true, y_pred)
    if not present:
        return None
    choice = draw(st.sampled_from(["none", "none", "subset", "extra", "empty"]))
    if choice == "none":
        return None
    subset = draw(st.lists(st.sampled_from(present), min_size=1, max_size=len(present), unique=True))
    if choice == "extra":
        extra = "zebra" if isinstance(present[0], str) else 999
        subset = subset + [extra]
    if choice == "empty":
        subset = []
    return subset


def _pos_label(draw, kind, y_true, y_pred):
    present = present_labels(y_true, y_pred)
    return draw(st.sampled_from([1, 1, 0, "cat", 999] + present[:3]))


@given(st.data())
def test_confusion_matrix(data):
    kind, y_true, y_pred = data.draw(label_pairs(allow_invalid=True))
    weight = data.draw(weights_for(len(y_true), allow_invalid=True))
    labels = _labels_param(data.draw, kind, y_true, y_pred)
    normalize = data.draw(st.sampled_from([None, None, "true", "pred", "all"]))
    check_against_sklearn(
        "confusion_matrix", y_true, y_pred, labels=labels, sample_weight=weight, normalize=normalize, compare=_compare
    )


@given(st.data())
def test_multilabel_confusion_matrix(data):
    kind, y_true, y_pred = data.draw(label_pairs(allow_invalid=True))
    weight = data.draw(weights_for(len(y_true), allow_invalid=True))
    labels = _labels_param(data.draw, kind, y_true, y_pred)
    samplewise = data.draw(st.booleans())
    check_against_sklearn(
        "multilabel_confusion_matrix",
        y_true,
        y_pred,
        labels=labels,
        sample_weight=weight,
        samplewise=samplewise,
        compare=_compare,
    )


@pytest.mark.parametrize("weight_dtype", [None, np.int64, np.bool_, np.uint8, np.int32, np.uint64, np.float32])
@pytest.mark.parametrize("samplewise", [False, True])
@pytest.mark.parametrize("rows", [[[0, 0]], [[0, 1]], [[0, 0], [0, 0]], [[1, 0], [0, 1]]])
def test_multilabel_confusion_matrix_dtype(rows, samplewise, weight_dtype):
    """scikit-learn's dtypes from its CSR counting: int64 zeros from
    ``np.bincount`` when no entry is nonzero, the int32 index pointers times
    the weights per sample."""
    y = np.array(rows)
    weight = None if weight_dtype is None else np.ones(len(y), dtype=weight_dtype)
    expected = sklearn.metrics.multilabel_confusion_matrix(y, y, sample_weight=weight, samplewise=samplewise)
    got = tm.multilabel_confusion_matrix(y, y, sample_weight=weight, samplewise=samplewise)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@given(st.data())
def test_precision_recall_f(data):
    name = data.draw(st.sampled_from(PRF_FUNCTIONS))
    kind, y_true, y_pred = data.draw(label_pairs(allow_invalid=data.draw(st.booleans())))
    weight = data.draw(weights_for(len(y_true), allow_invalid=data.draw(st.booleans())))
    kwargs = dict(
        average=data.draw(st.sampled_from(AVERAGES)),
        zero_division=data.draw(st.sampled_from(ZERO_DIVISIONS)),
        pos_label=_pos_label(data.draw, kind, y_true, y_pred),
        labels=_labels_param(data.draw, kind, y_true, y_pred) if data.draw(st.booleans()) else None,
        sample_weight=weight,
    )
    if kwargs["labels"] == []:
        kwargs["labels"] = None
    if name in ("precision_recall_fscore_support", "fbeta_score"):
        kwargs["beta"] = data.draw(st.sampled_from([0, 0.5, 1, 2.0, math.inf]))
    if name == "precision_recall_fscore_support" and data.draw(st.booleans()):
        kwargs["warn_for"] = data.draw(st.sampled_from([("precision",), ["recall", "f-score"], {"f-score"}, ()]))
    check_against_sklearn(name, y_true, y_pred, compare=_compare, **kwargs)


@given(st.data())
def test_jaccard_score(data):
    kind, y_true, y_pred = data.draw(label_pairs(allow_invalid=data.draw(st.booleans())))
    weight = data.draw(weights_for(len(y_true), allow_invalid=data.draw(st.booleans())))
    labels = _labels_param(data.draw, kind, y_true, y_pred) if data.draw(st.booleans()) else None
    check_against_sklearn(
        "jaccard_score",
        y_true,
        y_pred,
        labels=labels or None,
        pos_label=_pos_label(data.draw, kind, y_true, y_pred),
        average=data.draw(st.sampled_from(AVERAGES)),
        zero_division=data.draw(st.sampled_from(["warn", 0, 1])),
        sample_weight=weight,
        compare=_compare,
    )


@given(st.data())
def test_accuracy_score(data):
    _kind, y_true, y_pred = data.draw(label_pairs(allow_invalid=True))
    weight = data.draw(weights_for(len(y_true), allow_invalid=True))
    check_against_sklearn(
        "accuracy_score", y_true, y_pred, normalize=data.draw(st.booleans()), sample_weight=weight, compare=_compare
    )


@given(st.data())
def test_balanced_accuracy_score(data):
    _kind, y_true, y_pred = data.draw(label_pairs(allow_invalid=True))
    weight = data.draw(weights_for(len(y_true), allow_invalid=True))
    check_against_sklearn(
        "balanced_accuracy_score",
        y_true,
        y_pred,
        adjusted=data.draw(st.booleans()),
        sample_weight=weight,
        compare=_compare,
    )


@given(st.data())
def test_cohen_kappa_score(data):
    kind, y_true, y_pred = data.draw(label_pairs(allow_invalid=True))
    weight = data.draw(weights_for(len(y_true), allow_invalid=True))
    labels = _labels_param(data.draw, kind, y_true, y_pred) if not kind.startswith("multilabel") else None
    check_against_sklearn(
        "cohen_kappa_score",
        y_true,
        y_pred,
        labels=labels,
        weights=data.draw(st.sampled_from([None, "linear", "quadratic"])),
        sample_weight=weight,
        replace_undefined_by=data.draw(st.sampled_from([np.nan, 0.0, -1, 1.0])),
        compare=_compare,
    )


@given(st.data())
def test_matthews_corrcoef(data):
    _kind, y_true, y_pred = data.draw(label_pairs(allow_invalid=True))
    weight = data.draw(weights_for(len(y_true), allow_invalid=True))
    check_against_sklearn("matthews_corrcoef", y_true, y_pred, sample_weight=weight, compare=_compare)


# ---------------------------------------------------------------------------
# explicit cases: parameter errors and documented edge cases

BAD_PARAMETERS = [
    ("f1_score", dict(average="mean")),
    ("f1_score", dict(zero_division="x")),
    ("f1_score", dict(pos_label=[1])),
    ("fbeta_score", dict(beta=-1)),
    ("fbeta_score", dict(beta=np.nan)),
    ("precision_recall_fscore_support", dict(warn_for=3)),
    ("jaccard_score", dict(zero_division=np.nan)),
    ("accuracy_score", dict(normalize=3)),
    ("balanced_accuracy_score", dict(adjusted="yes")),
    ("cohen_kappa_score", dict(weights="cubic")),
    ("cohen_kappa_score", dict(replace_undefined_by=2)),
    ("confusion_matrix", dict(normalize="rows")),
    ("multilabel_confusion_matrix", dict(samplewise=1)),
    ("matthews_corrcoef", dict(sample_weight=3)),
    ("precision_score", dict(labels=5)),
]


def _sorted_options(message: str) -> str:
    # "a str among {...}" lists a set whose iteration order depends on the
    # hash seed and on the order frozenset constants were marshalled into
    # each library's .pyc, so it can differ between the two libraries.
    return re.sub(r"among \{([^}]*)\}", lambda m: "among {" + ", ".join(sorted(m.group(1).split(", "))) + "}", message)


@pytest.mark.parametrize("name,kwargs", BAD_PARAMETERS)
def test_invalid_parameters(name, kwargs):
    import sklearn.metrics as skm

    import turbometrics as tm

    sk, got = (
        capture(getattr(skm, name), [0, 1, 1], [0, 1, 0], **kwargs),
        capture(getattr(tm, name), [0, 1, 1], [0, 1, 0], **kwargs),
    )
    assert sk.exc is not None and got.exc is not None, (sk.describe(), got.describe())
    assert type(got.exc).__name__ == type(sk.exc).__name__
    assert isinstance(got.exc, ValueError) and isinstance(got.exc, TypeError)
    assert _sorted_options(str(got.exc)) == _sorted_options(str(sk.exc))


@pytest.mark.parametrize(
    "name",
    PRF_FUNCTIONS[1:]
    + ["jaccard_score", "accuracy_score", "confusion_matrix", "matthews_corrcoef", "cohen_kappa_score"],
)
@pytest.mark.parametrize(
    "y_true,y_pred",
    [
        (5, [1]),
        ([], []),
        ([0, 1], [0, 1, 1]),
        ([0.5, 1], [0, 1]),
        (["a", "b"], [0, 1]),
        ([[0, 1], [1, 1]], [0, 1]),
        ([[1, 2], [2, 1]], [[1, 2], [2, 2]]),
        ([[0, 1], [1, 0]], [[0, 1, 1], [1, 0, 0]]),
        (np.zeros((2, 2, 2)), np.zeros((2, 2, 2))),
        ([0, 1, 2], [0, 1, np.nan]),
        ([0, 1], [0, 1j]),
    ],
)
def test_invalid_targets(name, y_true, y_pred):
    kwargs = {"beta": 2} if name == "fbeta_score" else {}
    if name == "cohen_kappa_score" or name == "matthews_corrcoef" or name == "confusion_matrix":
        kwargs = {}
    check_against_sklearn(name, y_true, y_pred, compare=_compare, **kwargs)


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_zero_division_all_undefined(average, zero_division):
    # nothing predicted positive, nothing truly positive: every ratio undefined
    for y_true, y_pred in (
        ([0, 0, 0], [0, 0, 0]),
        (np.zeros((3, 2), int), np.zeros((3, 2), int)),
        ([2, 2, 1], [2, 2, 2]),
    ):
        for name in PRF_FUNCTIONS:
            kwargs = {"beta": 0.5} if name == "fbeta_score" else {}
            check_against_sklearn(
                name, y_true, y_pred, average=average, zero_division=zero_division, compare=_compare, **kwargs
            )
        if not (isinstance(zero_division, float) and math.isnan(zero_division)):
            check_against_sklearn(
                "jaccard_score", y_true, y_pred, average=average, zero_division=zero_division, compare=_compare
            )


def test_pos_label_errors_and_warning():
    check_against_sklearn("f1_score", [0, 1, 2], [0, 1, 1], compare=_compare)  # multiclass, binary average
    check_against_sklearn("f1_score", ["a", "b"], ["a", "b"], compare=_compare)  # invalid pos_label
    check_against_sklearn("f1_score", [2, 2], [2, 2], pos_label=3, compare=_compare)  # one label: allowed
    check_against_sklearn("recall_score", [0, 1, 2], [0, 1, 1], pos_label=2, average="macro", compare=_compare)
    check_against_sklearn("precision_score", np.eye(3, dtype=int), np.eye(3, dtype=int), compare=_compare)


def test_string_mix_message():
    check_against_sklearn("accuracy_score", np.array(["a", "b", "a"]), np.array([1, 0, 1]), compare=_compare)
    check_against_sklearn("confusion_matrix", ["a", "b", "a"], ["a", "b", "c"], labels=["x"], compare=_compare)


def test_kappa_labels_message():
    check_against_sklearn("cohen_kappa_score", [0, 1], [1, 2], labels=[2], compare=_compare)
    check_against_sklearn("cohen_kappa_score", [0, 0], [1, 1], labels=[0, 1], compare=_compare)
    check_against_sklearn("cohen_kappa_score", [0, 0], [0, 0], compare=_compare)


def test_n_threads_validated():
    import turbometrics as tm

    with pytest.raises(ValueError):
        tm.f1_score([0, 1], [0, 1], n_threads=0)
    with pytest.raises(TypeError):
        tm.accuracy_score([0, 1], [0, 1], n_threads=1.5)


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("accuracy_score", {}),
        ("f1_score", {"average": "macro"}),
        ("jaccard_score", {"average": "samples"}),
        ("multilabel_confusion_matrix", {}),
        ("multilabel_confusion_matrix", {"samplewise": True}),
        ("precision_recall_fscore_support", {"average": None}),
        ("confusion_matrix", {}),
        ("matthews_corrcoef", {}),
    ],
)
def test_sparse_indicator_input(name, kwargs):
    import scipy.sparse as sp

    y_true = np.array([[0, 1, 1], [1, 0, 0], [1, 1, 0]])
    y_pred = np.array([[0, 1, 0], [1, 1, 0], [0, 1, 0]])
    for convert in (sp.csr_matrix, sp.csr_array):
        for a, b in (
            (convert(y_true), convert(y_pred)),
            (convert(y_true), y_pred),
            (convert(y_true[:, :1]), y_pred[:, :1]),
        ):
            check_against_sklearn(name, a, b, compare=_compare, **kwargs)


def _other_type(value):
    """A label of another type than ``value``: its string for a number or a
    bool; for a string, the number it spells, else a number."""
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return 7
    return str(value)


@given(st.data())
def test_labels_of_another_type_than_y(data):
    # scikit-learn's label union of string labels with numeric ones is a string
    # array, and its LabelEncoder casts y to it: labels=['0', '1'] select the
    # integer labels 0 and 1 (issue 23: turbometrics gave 0.0).
    _, y_true, y_pred = data.draw(label_pairs(encodings=["int", "int_neg", "float", "bool", "uint8", "str"]))
    present = present_labels(y_true, y_pred)
    chosen = data.draw(st.lists(st.sampled_from(present), min_size=1, max_size=len(present) + 1))
    labels = [_other_type(value) if data.draw(st.booleans()) else value for value in chosen]
    labels += data.draw(st.lists(st.sampled_from(["x", "10", 3, "True", "0.0"]), max_size=2))
    weight = data.draw(weights_for(n_samples(y_true)))
    check_against_sklearn(
        "multilabel_confusion_matrix", y_true, y_pred, labels=labels, sample_weight=weight, compare=_compare
    )
    average = data.draw(st.sampled_from([None, "macro", "weighted", "micro"]))
    check_against_sklearn(
        "f1_score", y_true, y_pred, labels=labels, sample_weight=weight, average=average, compare=_compare
    )
    state = tm.ConfusionState.from_arrays(y_true, y_pred, sample_weight=weight)
    expected = capture(tm.f1_score, y_true, y_pred, labels=labels, sample_weight=weight, average=average)
    got = capture(state.f1, labels=labels, average=average)
    if expected.exc is not None:
        assert type(got.exc) is type(expected.exc) and str(got.exc) == str(expected.exc)
    else:
        _compare(expected.value, got.value)


def test_string_labels_select_integer_labels():
    check_against_sklearn("f1_score", [0, 1, 0, 1], [0, 1, 1, 1], labels=["0", "1"], average="macro", compare=_compare)
    check_against_sklearn("multilabel_confusion_matrix", [0, 1, 10, 9], [0, 1, 9, 10], labels=["10", "9"])
