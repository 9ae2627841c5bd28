"""Multiclass roc_auc_score (ovr/ovo), multiclass average precision and
top_k_accuracy_score against scikit-learn."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from helpers import check_against_sklearn


@st.composite
def multiclass_problems(draw, max_n=40, max_classes=5):
    n_classes = draw(st.integers(3, max_classes))
    n = draw(st.integers(n_classes, max_n))
    codes = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    codes[:n_classes] = np.arange(n_classes)  # every class present
    ties = draw(st.booleans())
    raw = np.array(
        draw(st.lists(st.integers(1, 4 if ties else 1000), min_size=n * n_classes, max_size=n * n_classes)), dtype=float
    ).reshape(n, n_classes)
    proba = raw / raw.sum(axis=1, keepdims=True)
    encoding = draw(st.sampled_from(["int", "shifted", "str"]))
    labels = {"int": codes, "shifted": codes * 3 - 2, "str": np.array(list("abcde"))[codes]}[encoding]
    weights = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.5]), min_size=n, max_size=n)))
    return labels, proba, weights


@given(
    multiclass_problems(),
    st.sampled_from(["ovr", "ovo"]),
    st.sampled_from(["macro", "weighted", "micro", None]),
    st.booleans(),
)
def test_multiclass_roc_auc(problem, multi_class, average, weighted):
    y, proba, weights = problem
    check_against_sklearn(
        "roc_auc_score", y, proba, multi_class=multi_class, average=average, sample_weight=weights if weighted else None
    )


@given(multiclass_problems(), st.sampled_from(["ovr", "ovo"]))
def test_multiclass_roc_auc_with_labels(problem, multi_class):
    y, proba, _ = problem
    check_against_sklearn("roc_auc_score", y, proba, multi_class=multi_class, labels=np.unique(y))


@pytest.mark.parametrize(
    "case",
    [
        "unordered",
        "not_unique",
        "too_few",
        "missing",
        "not_probabilities",
        "1d_scores",
        "ovo_weights",
        "ovo_none",
        "bad_average",
        "partial",
    ],
)
def test_multiclass_roc_auc_errors(case):
    y = np.array([0, 1, 2, 2, 1, 0])
    proba = np.full((6, 3), 1 / 3)
    kwargs = {"multi_class": "ovr"}
    if case == "unordered":
        kwargs["labels"] = [2, 0, 1]
    elif case == "not_unique":
        kwargs["labels"] = [0, 1, 1]
    elif case == "too_few":
        kwargs["labels"] = [0, 1]
    elif case == "missing":
        kwargs["labels"] = [0, 1, 3]
    elif case == "not_probabilities":
        proba = proba * 2
    elif case == "1d_scores":
        proba = proba[:, 0]
    elif case == "ovo_weights":
        kwargs.update(multi_class="ovo", sample_weight=np.ones(6))
    elif case == "ovo_none":
        kwargs.update(multi_class="ovo", average=None)
    elif case == "bad_average":
        kwargs.update(average="samples")
    elif case == "partial":
        kwargs.update(max_fpr=0.5)
    check_against_sklearn("roc_auc_score", y, proba, **kwargs)


@given(multiclass_problems(), st.sampled_from(["macro", "weighted", "micro", None]))
def test_multiclass_average_precision(problem, average):
    y, proba, _ = problem
    check_against_sklearn("average_precision_score", y, proba, average=average)


@st.composite
def top_k_problems(draw):
    n_classes = draw(st.integers(2, 5))
    n = draw(st.integers(1, 30))
    codes = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)))
    scores = np.array(
        draw(st.lists(st.integers(0, 3), min_size=n * n_classes, max_size=n * n_classes)), dtype=float
    ).reshape(n, n_classes)
    if n_classes == 2 and draw(st.booleans()):
        scores = scores[:, 1] / 3.0
    return codes, scores, n_classes


@given(top_k_problems(), st.integers(1, 4), st.booleans(), st.booleans(), st.booleans())
def test_top_k_accuracy(problem, k, normalize, weighted, with_labels):
    y, scores, n_classes = problem
    weights = np.linspace(0.5, 2.0, y.shape[0]) if weighted else None
    labels = np.arange(n_classes) if with_labels else None
    check_against_sklearn(
        "top_k_accuracy_score", y, scores, k=k, normalize=normalize, sample_weight=weights, labels=labels
    )


def test_top_k_ties_go_to_higher_class_index():
    import turbometrics as tm

    # Class 0 is the true class; classes 0 and 2 tie. With k=1, class 2 wins the tie.
    assert tm.top_k_accuracy_score([0, 1, 2], [[0.4, 0.2, 0.4], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]], k=1) == 2 / 3
