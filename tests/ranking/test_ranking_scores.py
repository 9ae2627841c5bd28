"""Differential tests of roc_auc_score and average_precision_score against
scikit-learn 1.9.1: binary (all label encodings, pos_label, max_fpr) and
multilabel-indicator (every average), with and without sample weights.

Values must agree to rtol=1e-12 (atol=0) and have sklearn's exact type:
Python float for averaged/binary results, ndarray (same dtype/shape) for
average=None, and sklearn's int 0 for a weighted average with zero total
weight.
"""

import math

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings, strategies as st

import turbometrics as tm
from helpers import assert_score_equal, capture, check_against_sklearn
from strategies import AVERAGES, MAX_FPRS, binary_problems, multilabel_problems

EXACT_WEIGHTS = st.sampled_from(["none", "dyadic", "int", "float32"])


def _loose(rtol=1e-10, atol=1e-12):
    return lambda sk, got: assert_score_equal(sk, got, rtol=rtol, atol=atol)


# --------------------------------------------------------------------------
# roc_auc_score, binary


@given(data=st.data(), max_fpr=st.sampled_from(MAX_FPRS), average=st.sampled_from(AVERAGES))
def test_roc_auc_binary_matches_sklearn(data, max_fpr, average):
    p = data.draw(binary_problems(weights=data.draw(EXACT_WEIGHTS)))
    check_against_sklearn(
        "roc_auc_score", p["y_true"], p["y_score"], sample_weight=p["sample_weight"], max_fpr=max_fpr, average=average
    )


@given(data=st.data(), max_fpr=st.sampled_from(MAX_FPRS))
@settings(max_examples=80)
def test_roc_auc_binary_arbitrary_weights(data, max_fpr):
    p = data.draw(binary_problems(weights="arbitrary"))
    check_against_sklearn(
        "roc_auc_score", p["y_true"], p["y_score"], sample_weight=p["sample_weight"], max_fpr=max_fpr, compare=_loose()
    )


@given(data=st.data(), max_fpr=st.floats(1e-6, 1.0, exclude_min=False))
@settings(max_examples=80)
def test_roc_auc_binary_any_max_fpr(data, max_fpr):
    p = data.draw(binary_problems(weights=data.draw(EXACT_WEIGHTS), max_n=25))
    check_against_sklearn("roc_auc_score", p["y_true"], p["y_score"], sample_weight=p["sample_weight"], max_fpr=max_fpr)


@pytest.mark.parametrize("max_fpr", [None, 0.5, 0.05, 1e-4])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8])
def test_roc_auc_binary_large(max_fpr, weighted, dtype):
    rng = np.random.default_rng(11)
    n = 140_000  # above the serial cut-off (2**17)
    y_true = (rng.random(n) < 0.2).astype(int)
    raw = rng.standard_normal(n) + y_true
    if np.dtype(dtype).kind == "f":
        y_score = np.round(raw, 2).astype(dtype)
    else:
        y_score = np.clip(np.round(raw * 40 + 120), 0, 255).astype(dtype)
    w = rng.choice([0.0, 0.5, 1.0, 4.0], n) if weighted else None
    check_against_sklearn("roc_auc_score", y_true, y_score, sample_weight=w, max_fpr=max_fpr)


@pytest.mark.parametrize(
    "y_true,y_score,max_fpr",
    [
        ([0, 1], [0.1, 0.9], 0.5),
        ([0, 1], [0.9, 0.1], 0.5),
        ([0, 1], [0.5, 0.5], 0.5),
        ([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 0.5),
        ([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 1e-9),
        ([0, 1, 1, 0], [0.1, 0.2, 0.3, 0.5], 0.5),
        ([0, 0, 0, 1, 1, 1], [1, 2, 3, 1, 2, 3], 0.3333333333333333),
        # max_fpr exactly at a ROC vertex
        ([0, 0, 0, 0, 1, 1], [4, 3, 2, 1, 5, 0], 0.25),
        ([0, 0, 0, 0, 1, 1], [4, 3, 2, 1, 5, 0], 0.75),
    ],
)
def test_roc_auc_max_fpr_examples(y_true, y_score, max_fpr):
    check_against_sklearn("roc_auc_score", np.array(y_true), np.array(y_score), max_fpr=max_fpr)


@pytest.mark.parametrize("max_fpr,rtol", [(np.float64(0.5), 1e-12), (np.float32(0.5), 1e-6), (np.float64(0.25), 1e-12)])
def test_roc_auc_max_fpr_numpy_scalar(max_fpr, rtol):
    # sklearn returns a numpy scalar here (its McClish formula runs in the
    # dtype of max_fpr); a Python float of the same value is accepted.
    y_true, y_score = np.array([0, 1, 1, 0]), np.array([0.1, 0.2, 0.3, 0.5])
    sk = skm.roc_auc_score(y_true, y_score, max_fpr=max_fpr)
    got = tm.roc_auc_score(y_true, y_score, max_fpr=max_fpr)
    assert isinstance(got, float)
    assert math.isclose(got, sk, rel_tol=rtol)


@pytest.mark.parametrize("max_fpr", [1, True, 1.0])
def test_roc_auc_max_fpr_one_is_full_auc(max_fpr):
    y_true, y_score = np.array([0, 1, 1, 0, 1]), np.array([0.1, 0.2, 0.3, 0.5, 0.5])
    check_against_sklearn("roc_auc_score", y_true, y_score, max_fpr=max_fpr)


# --------------------------------------------------------------------------
# roc_auc_score, multilabel


@given(data=st.data(), average=st.sampled_from(AVERAGES), max_fpr=st.sampled_from([None, None, 0.5, 0.1, 1.0]))
def test_roc_auc_multilabel_matches_sklearn(data, average, max_fpr):
    p = data.draw(multilabel_problems(weights=data.draw(EXACT_WEIGHTS)))
    check_against_sklearn(
        "roc_auc_score", p["y_true"], p["y_score"], sample_weight=p["sample_weight"], average=average, max_fpr=max_fpr
    )


@given(data=st.data(), average=st.sampled_from(AVERAGES))
@settings(max_examples=80)
def test_roc_auc_multilabel_arbitrary_weights(data, average):
    p = data.draw(multilabel_problems(weights="arbitrary"))
    check_against_sklearn(
        "roc_auc_score", p["y_true"], p["y_score"], sample_weight=p["sample_weight"], average=average, compare=_loose()
    )


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("weighted", [False, True])
def test_roc_auc_multilabel_large(average, weighted):
    rng = np.random.default_rng(3)
    n, k = (600, 4) if average == "samples" else (30_000, 6)
    y_true = (rng.random((n, k)) < 0.3).astype(int)
    y_score = np.round(rng.random((n, k)) + 0.3 * y_true, 2)
    w = rng.choice([0.0, 1.0, 2.5], n) if weighted else None
    check_against_sklearn("roc_auc_score", y_true, y_score, sample_weight=w, average=average)


# --------------------------------------------------------------------------
# average_precision_score, binary


@given(data=st.data(), average=st.sampled_from(AVERAGES))
def test_average_precision_binary_matches_sklearn(data, average):
    p = data.draw(binary_problems(weights=data.draw(EXACT_WEIGHTS)))
    kwargs = dict(sample_weight=p["sample_weight"], average=average)
    if p["pos_label"] is not None:
        kwargs["pos_label"] = p["pos_label"]
    check_against_sklearn("average_precision_score", p["y_true"], p["y_score"], **kwargs)


@given(data=st.data())
@settings(max_examples=80)
def test_average_precision_binary_arbitrary_weights(data):
    p = data.draw(binary_problems(weights="arbitrary"))
    kwargs = dict(sample_weight=p["sample_weight"])
    if p["pos_label"] is not None:
        kwargs["pos_label"] = p["pos_label"]
    check_against_sklearn("average_precision_score", p["y_true"], p["y_score"], compare=_loose(), **kwargs)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8, np.bool_])
def test_average_precision_binary_large(weighted, dtype):
    rng = np.random.default_rng(5)
    n = 140_000  # above the serial cut-off (2**17)
    y_true = (rng.random(n) < 0.1).astype(int)
    raw = rng.standard_normal(n) + y_true
    if np.dtype(dtype).kind == "f":
        y_score = np.round(raw, 2).astype(dtype)
    elif np.dtype(dtype).kind == "b":
        y_score = raw > 0.5
    else:
        y_score = np.clip(np.round(raw * 40 + 120), 0, 255).astype(dtype)
    w = rng.choice([0.0, 0.5, 1.0, 4.0], n) if weighted else None
    check_against_sklearn("average_precision_score", y_true, y_score, sample_weight=w)


@pytest.mark.parametrize(
    "y_true,pos_label",
    [
        ([0, 1, 1, 0], 1),
        ([0, 1, 1, 0], 0),
        ([-1, 1, 1, -1], -1),
        ([False, True, True, False], True),
        ([False, True, True, False], False),
        (["a", "b", "b", "a"], "a"),
        (["a", "b", "b", "a"], "b"),
        ([0.0, 1.0, 1.0, 0.0], 1.0),
        ([1, 1, 1, 1], 1),
        ([1, 1, 1, 1], 2),  # one present label: no validity check, no positives
        ([0, 0, 0, 0], 1),
    ],
)
def test_average_precision_pos_label_examples(y_true, pos_label):
    y_score = np.array([0.2, 0.9, 0.4, 0.4])
    check_against_sklearn("average_precision_score", np.array(y_true), y_score, pos_label=pos_label)


# --------------------------------------------------------------------------
# average_precision_score, multilabel


@given(data=st.data(), average=st.sampled_from(AVERAGES))
def test_average_precision_multilabel_matches_sklearn(data, average):
    p = data.draw(multilabel_problems(weights=data.draw(EXACT_WEIGHTS)))
    check_against_sklearn(
        "average_precision_score", p["y_true"], p["y_score"], sample_weight=p["sample_weight"], average=average
    )


@given(data=st.data(), average=st.sampled_from(AVERAGES))
@settings(max_examples=80)
def test_average_precision_multilabel_arbitrary_weights(data, average):
    p = data.draw(multilabel_problems(weights="arbitrary"))
    check_against_sklearn(
        "average_precision_score",
        p["y_true"],
        p["y_score"],
        sample_weight=p["sample_weight"],
        average=average,
        compare=_loose(),
    )


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("weighted", [False, True])
def test_average_precision_multilabel_large(average, weighted):
    rng = np.random.default_rng(4)
    n, k = (600, 4) if average == "samples" else (30_000, 6)
    y_true = (rng.random((n, k)) < 0.3).astype(int)
    y_score = np.round(rng.random((n, k)) + 0.3 * y_true, 2)
    w = rng.choice([0.0, 1.0, 2.5], n) if weighted else None
    check_against_sklearn("average_precision_score", y_true, y_score, sample_weight=w, average=average)


# --------------------------------------------------------------------------
# averaging corner cases


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
def test_weighted_average_with_no_positive_labels_returns_int_zero(name):
    # sklearn's _average_binary_score returns the int 0 when the weighted
    # average has zero total weight.
    y_true = np.zeros((4, 3), dtype=int)
    y_score = np.arange(12, dtype=float).reshape(4, 3)
    sk, got = check_against_sklearn(name, y_true, y_score, average="weighted")
    assert type(sk.value) is int and sk.value == 0
    assert type(got.value) is int and got.value == 0


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
def test_weighted_average_with_zero_weight_on_positives_returns_int_zero(name):
    y_true = np.array([[1, 0], [0, 1], [0, 0], [0, 0]])
    y_score = np.arange(8, dtype=float).reshape(4, 2)
    w = np.array([0.0, 0.0, 1.0, 1.0])
    check_against_sklearn(name, y_true, y_score, average="weighted", sample_weight=w)


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
@pytest.mark.parametrize("average", AVERAGES)
def test_single_column_indicator_is_binary(name, average):
    # (n, 1) indicator is "binary" for type_of_target: average is ignored,
    # and average=None still returns a float.
    y_true = np.array([[0], [1], [1], [0]])
    y_score = np.array([[0.1], [0.4], [0.35], [0.8]])
    check_against_sklearn(name, y_true, y_score, average=average)


@pytest.mark.parametrize("average", ["samples", "macro", None])
def test_roc_auc_samples_average_with_undefined_rows(average):
    # rows with one class give NaN + one warning per row
    y_true = np.array([[1, 1, 1], [0, 1, 0], [0, 0, 0], [1, 0, 1]])
    y_score = np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9], [0.2, 0.2, 0.1]])
    sk, _got = check_against_sklearn("roc_auc_score", y_true, y_score, average=average)
    if average == "samples":
        assert len(sk.warnings) == 2


def test_roc_auc_macro_nan_column_propagates():
    y_true = np.array([[0, 1], [0, 0], [0, 1]])
    y_score = np.array([[0.1, 0.3], [0.2, 0.1], [0.3, 0.2]])
    for average in AVERAGES:
        check_against_sklearn("roc_auc_score", y_true, y_score, average=average)


def test_weighted_average_ignores_nan_of_zero_weight_column():
    y_true = np.array([[0, 1], [0, 0], [0, 1]])
    y_score = np.array([[0.1, 0.3], [0.2, 0.1], [0.3, 0.2]])
    sk, _got = check_against_sklearn("roc_auc_score", y_true, y_score, average="weighted")
    assert not math.isnan(sk.value)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
def test_results_are_python_floats(name):
    y_true = np.array([0, 1, 1, 0])
    y_score = np.array([0.1, 0.4, 0.35, 0.8], dtype=np.float32)
    got = getattr(tm, name)(y_true, y_score)
    assert type(got) is float
    ml_true = np.array([[0, 1], [1, 0], [1, 1]])
    ml_score = np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.5]], dtype=np.float32)
    for average in ["micro", "macro", "weighted", "samples"]:
        assert type(getattr(tm, name)(ml_true, ml_score, average=average)) is float
    arr = getattr(tm, name)(ml_true, ml_score, average=None)
    assert type(arr) is np.ndarray and arr.dtype == np.float64 and arr.shape == (2,)


def test_roc_auc_one_class_binary_is_nan_with_warning():
    for y_true in ([1, 1, 1], [0, 0, 0], ["a", "a", "a"]):
        _sk, got = check_against_sklearn("roc_auc_score", np.array(y_true), np.array([0.1, 0.5, 0.2]))
        assert math.isnan(got.value)
        assert [c.__name__ for c, _ in got.warnings] == ["UndefinedMetricWarning"]
        assert issubclass(got.warnings[0][0], UserWarning)


def test_average_precision_no_positives_warns_userwarning():
    out = capture(tm.average_precision_score, np.array([0, 0, 0]), np.array([0.1, 0.5, 0.2]))
    assert out.exc is None and out.value == 0.0
    assert [(c.__name__, m) for c, m in out.warnings] == [
        ("UserWarning", "No positive class found in y_true, recall is set to one for all thresholds.")
    ]


# --------------------------------------------------------------------------
# unusual but legal sample weights


@pytest.mark.parametrize(
    "w", [np.full(4, 1e-9), np.full(4, 1e-300), np.array([1e-9, 1e-9, 1e-9, 5.0]), np.full(4, 5e-324)]
)
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score"])
def test_multilabel_tiny_weights(name, average, w):
    # sklearn's weighted average returns int 0 when the total label weight is
    # merely *close* to zero (xpx.isclose, atol=1e-8)
    y = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    s = np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.1], [0.2, 0.3]])
    check_against_sklearn(name, y, s, sample_weight=w, average=average)


@pytest.mark.parametrize(
    "w",
    [
        [-1.0, -1.0, -1.0, -1.0, -1.0],  # both class totals negative
        [1.0, -1.0, 0.0, 0.0, 0.0],  # positive total -1
        [-1.0, 1.0, 1.0, -1.0, 1.0],  # negative total 0
        [1.0, 1.0, -1.0, 1.0, 1.0],  # negative total 0
        [1.0, 2.0, 1.0, -0.5, 1.0],  # both totals positive
    ],
)
@pytest.mark.parametrize("max_fpr", [None, 0.5])
def test_roc_auc_negative_weight_totals(w, max_fpr):
    # sklearn accepts negative weights; roc_curve then treats a class total
    # <= 0 as "no samples" (NaN rates + UndefinedMetricWarning), so the AUC
    # is NaN (or auc() fails for max_fpr < 1).
    y = np.array([0, 1, 0, 1, 1])
    s = np.array([0.1, 0.1, 0.3, 0.3, 0.2])
    check_against_sklearn("roc_auc_score", y, s, sample_weight=np.array(w), max_fpr=max_fpr)


def _same_number(sk, got):
    assert type(got) is type(sk) and np.array_equal(sk, got, equal_nan=True), (sk, got)


@given(data=st.data(), max_fpr=st.sampled_from(MAX_FPRS))
@settings(max_examples=150)
def test_roc_auc_signed_weights_match_sklearn_exactly(data, max_fpr):
    # Negative weights can make the false positive rate decrease: scikit-learn's
    # auc() then raises "x is neither increasing nor decreasing : <fpr>." (the
    # rates printed with their signs of zero); elsewhere its number, bit for bit.
    p = data.draw(binary_problems(min_n=2, max_n=30, weights="signed"))
    y = np.asarray(p["y_true"] == (1 if p["pos_label"] is None else p["pos_label"]), dtype=int)
    check_against_sklearn(
        "roc_auc_score", y, p["y_score"], sample_weight=p["sample_weight"], max_fpr=max_fpr, compare=_same_number
    )
    check_against_sklearn(
        "average_precision_score", y, p["y_score"], sample_weight=p["sample_weight"], compare=_same_number
    )


@given(p=multilabel_problems(max_n=15, max_labels=3, weights="signed"), average=st.sampled_from(AVERAGES))
@settings(max_examples=60)
def test_multilabel_roc_auc_signed_weights_match_sklearn(p, average):
    check_against_sklearn("roc_auc_score", p["y_true"], p["y_score"], sample_weight=p["sample_weight"], average=average)


@pytest.mark.parametrize(
    "w",
    [
        [-1.0, -1.0, -1.0, -1.0, -1.0],
        [1.0, -1.0, 0.0, 0.0, 0.0],
        [-1.0, 1.0, 1.0, -1.0, 1.0],
        [1.0, 2.0, 1.0, -0.5, 1.0],
    ],
)
def test_average_precision_negative_weights(w):
    y = np.array([0, 1, 0, 1, 1])
    s = np.array([0.1, 0.1, 0.3, 0.3, 0.2])
    check_against_sklearn("average_precision_score", y, s, sample_weight=np.array(w))
