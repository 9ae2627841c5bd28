"""roc_auc_ci, delong_test and bootstrap_ci against slow references."""

import math
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import given, strategies as st
from sklearn.metrics import accuracy_score, average_precision_score, balanced_accuracy_score, f1_score, roc_auc_score

import turbometrics as tm


def slow_delong(y, s):
    """DeLong's structural components by the O(n^2) definition."""
    positives, negatives = s[y == 1], s[y == 0]
    psi = (positives[:, None] > negatives[None, :]) + 0.5 * (positives[:, None] == negatives[None, :])
    return psi.mean(), psi.mean(axis=1), psi.mean(axis=0)


@st.composite
def problems(draw, min_each=2):
    n = draw(st.integers(2 * min_each, 60))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[:min_each] = 0
    y[min_each : 2 * min_each] = 1
    levels = draw(st.sampled_from([3, 10, 1000]))
    s = np.array(draw(st.lists(st.integers(0, levels), min_size=n, max_size=n)), dtype=float) / levels
    return y, s


@given(problems(), st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_delong_interval_matches_the_quadratic_definition(problem, confidence):
    y, s = problem
    auc, v10, v01 = slow_delong(y, s)
    variance = v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size
    got = tm.roc_auc_ci(y, s, confidence=confidence)
    assert math.isclose(got.value, auc, rel_tol=1e-12)
    assert math.isclose(got.value, roc_auc_score(y, s), rel_tol=1e-12)
    assert math.isclose(got.standard_error, math.sqrt(variance), rel_tol=1e-9, abs_tol=1e-15)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    assert math.isclose(got.lower, max(0.0, auc - z * math.sqrt(variance)), rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(got.upper, min(1.0, auc + z * math.sqrt(variance)), rel_tol=1e-9, abs_tol=1e-12)


@given(problems(), problems())
def test_delong_test_matches_the_quadratic_definition(first, second):
    y, s_a = first
    _, s_b = second
    s_b = s_b[: y.size] if s_b.size >= y.size else np.resize(s_b, y.size)
    auc_a, v10_a, v01_a = slow_delong(y, s_a)
    auc_b, v10_b, v01_b = slow_delong(y, s_b)
    contrast = np.array([1.0, -1.0])
    variance = (
        contrast @ np.cov(np.stack([v10_a, v10_b])) @ contrast / v10_a.size
        + contrast @ np.cov(np.stack([v01_a, v01_b])) @ contrast / v01_a.size
    )
    got = tm.delong_test(y, s_a, s_b)
    assert math.isclose(got.auc_a, auc_a, rel_tol=1e-12) and math.isclose(got.auc_b, auc_b, rel_tol=1e-12)
    if variance > 1e-14:
        z = (auc_a - auc_b) / math.sqrt(variance)
        assert math.isclose(got.z, z, rel_tol=1e-7, abs_tol=1e-9)
        assert math.isclose(got.p_value, math.erfc(abs(z) / math.sqrt(2)), rel_tol=1e-7, abs_tol=1e-12)


def test_identical_scores_have_no_difference():
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.9, 0.3, 0.4, 0.8, 0.5])
    got = tm.delong_test(y, s, s)
    assert got.auc_a == got.auc_b and math.isnan(got.z) and math.isnan(got.p_value)


def test_one_class_gives_nan_with_a_warning():
    with pytest.warns(tm.UndefinedMetricWarning):
        got = tm.roc_auc_ci([1, 1, 1], [0.1, 0.2, 0.3])
    assert math.isnan(got.value) and math.isnan(got.lower)


METRICS = [
    ("roc_auc_score", roc_auc_score, "score"),
    ("average_precision_score", average_precision_score, "score"),
    ("f1_score", f1_score, "pred"),
    ("accuracy_score", accuracy_score, "pred"),
    ("balanced_accuracy_score", balanced_accuracy_score, "pred"),
]


@pytest.mark.parametrize("name, reference, kind", METRICS)
def test_bootstrap_interval(name, reference, kind):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 3000)
    s = np.round(rng.random(3000) + 0.5 * y, 3)
    values = s if kind == "score" else (s > 0.7).astype(int)
    got = tm.bootstrap_ci(name, y, values, n_bootstraps=400, random_state=7)
    assert math.isclose(got.value, reference(y, values), rel_tol=1e-12)
    assert got.lower < got.value < got.upper
    # A bootstrap interval of a mean-like statistic is about 4 standard errors wide at 95 %.
    assert 0 < got.upper - got.lower < 0.2
    again = tm.bootstrap_ci(getattr(tm, name), y, values, n_bootstraps=400, random_state=7, n_threads=1)
    assert again == got
    other_seed = tm.bootstrap_ci(name, y, values, n_bootstraps=400, random_state=8)
    assert other_seed != got


def test_bootstrap_width_matches_delong_for_auc():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 5000)
    s = rng.random(5000) + 0.3 * y
    delong = tm.roc_auc_ci(y, s)
    boot = tm.roc_auc_ci(y, s, method="bootstrap", n_bootstraps=1000, random_state=0)
    assert boot.value == delong.value
    assert abs((boot.upper - boot.lower) - (delong.upper - delong.lower)) < 0.25 * (delong.upper - delong.lower)


def test_bootstrap_is_thread_count_independent():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 200_000)
    s = np.round(rng.random(200_000), 3)
    runs = {tm.roc_auc_ci(y, s, method="bootstrap", n_bootstraps=16, random_state=3, n_threads=t) for t in (1, 2, 4)}
    assert len(runs) == 1


def test_interval_parameters_are_validated():
    with pytest.raises(tm.InvalidParameterError, match="'confidence' parameter of roc_auc_ci"):
        tm.roc_auc_ci([0, 1], [0.1, 0.2], confidence=1.0)
    with pytest.raises(tm.InvalidParameterError, match="'method' parameter"):
        tm.roc_auc_ci([0, 1], [0.1, 0.2], method="exact")
    with pytest.raises(ValueError, match="bootstrap_ci supports"):
        tm.bootstrap_ci("log_loss", [0, 1], [0.1, 0.2])
