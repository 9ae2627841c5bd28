"""best_threshold and metrics_at_thresholds against brute force."""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from sklearn.metrics import accuracy_score, balanced_accuracy_score, fbeta_score, matthews_corrcoef

import turbometrics as tm


def confusion(y, s, w, threshold):
    predicted = s >= threshold
    tp = np.sum(w * (predicted & y))
    fp = np.sum(w * (predicted & ~y))
    fn = np.sum(w * (~predicted & y))
    tn = np.sum(w * (~predicted & ~y))
    return tp, fp, fn, tn


def ratio(a, b):
    return a / b if b != 0 else 0.0


def reference_value(metric, beta, tp, fp, fn, tn):
    tpr, fpr, tnr = ratio(tp, tp + fn), ratio(fp, fp + tn), ratio(tn, tn + fp)
    if metric in ("f1", "fbeta"):
        b2 = 1.0 if metric == "f1" else beta * beta
        return ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
    if metric == "youden":
        return tpr - fpr
    if metric == "accuracy":
        return ratio(tp + tn, tp + fp + fn + tn)
    if metric == "balanced_accuracy":
        return (tpr + tnr) / 2
    denominator = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return ratio(tp * tn - fp * fn, denominator)


@st.composite
def problems(draw):
    n = draw(st.integers(2, 40))
    y = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    s = np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), dtype=float) / 6
    w = np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 2.0]), min_size=n, max_size=n)))
    return y, s, w


@given(
    problems(),
    st.sampled_from(["f1", "fbeta", "youden", "accuracy", "balanced_accuracy", "mcc"]),
    st.sampled_from([0.5, 1.0, 2.0]),
    st.booleans(),
)
def test_best_threshold_is_the_brute_force_optimum(problem, metric, beta, weighted):
    y, s, w = problem
    weights = w if weighted else np.ones_like(w)
    candidates = [np.inf] + sorted(set(s.tolist()), reverse=True)  # highest first: ties keep the first
    values = [reference_value(metric, beta, *confusion(y, s, weights, t)) for t in candidates]
    best = int(np.argmax(values))
    got = tm.best_threshold(y.astype(int), s, metric=metric, beta=beta, sample_weight=w if weighted else None)
    assert got.threshold == candidates[best]
    assert math.isclose(got.value, values[best], rel_tol=1e-12, abs_tol=1e-15)
    tp, fp, fn, tn = confusion(y, s, weights, got.threshold)
    assert math.isclose(got.precision, ratio(tp, tp + fp), rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(got.recall, ratio(tp, tp + fn), rel_tol=1e-12, abs_tol=1e-15)
    assert got.tpr == got.recall
    assert math.isclose(got.fpr, ratio(fp, fp + tn), rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.parametrize(
    "metric, reference",
    [
        ("f1", lambda y, p: fbeta_score(y, p, beta=1, zero_division=0)),
        ("accuracy", accuracy_score),
        ("balanced_accuracy", balanced_accuracy_score),
        ("mcc", matthews_corrcoef),
    ],
)
def test_best_threshold_value_matches_sklearn_metric(metric, reference):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 500)
    s = np.round(rng.random(500) + 0.4 * y, 2)
    got = tm.best_threshold(y, s, metric=metric)
    assert math.isclose(got.value, reference(y, (s >= got.threshold).astype(int)), rel_tol=1e-12)


@given(problems(), st.sampled_from([0.5, 1.0, 2.0]), st.booleans())
def test_metrics_at_thresholds(problem, beta, weighted):
    y, s, w = problem
    weights = w if weighted else np.ones_like(w)
    got = tm.metrics_at_thresholds(y.astype(int), s, beta=beta, sample_weight=w if weighted else None)
    thresholds = np.array(sorted(set(s.tolist()), reverse=True))
    np.testing.assert_array_equal(got["thresholds"], thresholds)
    for i, t in enumerate(thresholds):
        tp, fp, fn, tn = confusion(y, s, weights, t)
        for name, expected in [
            ("tp", tp),
            ("fp", fp),
            ("fn", fn),
            ("tn", tn),
            ("precision", ratio(tp, tp + fp)),
            ("recall", ratio(tp, tp + fn)),
            ("tpr", ratio(tp, tp + fn)),
            ("fpr", ratio(fp, fp + tn)),
            ("fbeta", reference_value("fbeta", beta, tp, fp, fn, tn)),
        ]:
            assert math.isclose(got[name][i], expected, rel_tol=1e-12, abs_tol=1e-12), (name, i)


def test_all_negative_prediction_can_win():
    got = tm.best_threshold([0, 0, 0, 1], [0.9, 0.8, 0.7, 0.1], metric="accuracy")
    assert got.threshold == np.inf and got.value == 0.75


def test_threshold_selection_validates_parameters():
    with pytest.raises(tm.InvalidParameterError, match="'metric' parameter of best_threshold"):
        tm.best_threshold([0, 1], [0.1, 0.9], metric="auc")
    with pytest.raises(tm.InvalidParameterError, match="'beta' parameter"):
        tm.best_threshold([0, 1], [0.1, 0.9], metric="fbeta", beta=0)
    with pytest.raises(ValueError, match="Input contains NaN"):
        tm.metrics_at_thresholds([0, 1], [0.1, np.nan])


def test_thread_count_does_not_change_the_choice():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300_000)
    s = np.round(rng.random(300_000) + 0.2 * y, 4)
    results = {tm.best_threshold(y, s, metric="mcc", n_threads=t) for t in (1, 2, 3)}
    assert len(results) == 1
