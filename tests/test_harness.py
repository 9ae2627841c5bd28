"""Self-tests of the differential harness (helpers.py): each deliberate
deviation of a fake turbometrics function must be detected."""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import turbometrics as tm
from helpers import check_against_sklearn

Y = np.array([0, 1, 1, 0, 1])
S = np.array([0.1, 0.4, 0.35, 0.8, 0.4])


def _patched(monkeypatch, name, fake):
    monkeypatch.setattr(tm, name, fake)


def test_passes_for_sklearn_itself(monkeypatch):
    for name in ["roc_curve", "precision_recall_curve", "roc_auc_score", "average_precision_score"]:
        _patched(monkeypatch, name, lambda *a, n_threads=None, _f=getattr(skm, name), **k: _f(*a, **k))  # noqa: B008 (binds this name's function)
        check_against_sklearn(name, Y, S)
        check_against_sklearn(name, np.array([1, 1]), np.array([0.1, 0.2]))  # warnings path
        check_against_sklearn(name, Y, np.array([0.1, np.nan, 0.2, 0.3, 0.4]))  # error path


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: (r[0] * (1 + 1e-10), r[1], r[2]),  # tiny relative error in a rate
        lambda r: (r[0], r[1], r[2].astype(np.float32)),  # threshold dtype
        lambda r: (r[0], r[1], r[2][:-1]),  # threshold shape
        lambda r: (r[0], r[1], r[2] + 1e-15),  # thresholds not exact
        lambda r: (r[0], r[1]),  # missing output
        lambda r: list(r),  # not a tuple
        lambda r: (r[0].astype(np.float32), r[1], r[2]),  # rate dtype
        lambda r: (np.r_[r[0], 1.0], np.r_[r[1], 1.0], np.r_[r[2], 0.0]),  # extra point
    ],
)
def test_detects_curve_deviation(monkeypatch, mutate):
    _patched(monkeypatch, "roc_curve", lambda *a, n_threads=None, **k: mutate(skm.roc_curve(*a, **k)))
    with pytest.raises(AssertionError):
        check_against_sklearn("roc_curve", Y, S)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda v: v * (1 + 1e-10),
        lambda v: np.float64(v),
        lambda v: np.array([v]),
        lambda v: float("nan"),
    ],
)
def test_detects_score_deviation(monkeypatch, mutate):
    _patched(monkeypatch, "roc_auc_score", lambda *a, n_threads=None, **k: mutate(skm.roc_auc_score(*a, **k)))
    with pytest.raises(AssertionError):
        check_against_sklearn("roc_auc_score", Y, S)


def test_detects_nan_vs_number(monkeypatch):
    _patched(monkeypatch, "roc_auc_score", lambda *a, n_threads=None, **k: 0.5)
    with pytest.raises(AssertionError):
        check_against_sklearn("roc_auc_score", np.array([1, 1]), np.array([0.1, 0.2]))


def test_detects_missing_warning(monkeypatch):
    def fake(*a, n_threads=None, **k):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return skm.roc_auc_score(*a, **k)

    _patched(monkeypatch, "roc_auc_score", fake)
    with pytest.raises(AssertionError, match="warnings differ"):
        check_against_sklearn("roc_auc_score", np.array([1, 1]), np.array([0.1, 0.2]))


def test_detects_wrong_warning_category(monkeypatch):
    def fake(*a, n_threads=None, **k):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = skm.roc_auc_score(*a, **k)
        warnings.warn("Only one class is present in y_true. ROC AUC score is not defined in that case.", UserWarning)
        return value

    _patched(monkeypatch, "roc_auc_score", fake)
    with pytest.raises(AssertionError, match="warnings differ"):
        check_against_sklearn("roc_auc_score", np.array([1, 1]), np.array([0.1, 0.2]))


def test_detects_extra_warning(monkeypatch):
    def fake(*a, n_threads=None, **k):
        warnings.warn("spurious", UserWarning)
        return skm.roc_auc_score(*a, **k)

    _patched(monkeypatch, "roc_auc_score", fake)
    with pytest.raises(AssertionError, match="warnings differ"):
        check_against_sklearn("roc_auc_score", Y, S)


@pytest.mark.parametrize(
    "exc",
    [
        ValueError("Input contains NaN"),  # message differs (no period)
        TypeError("Input contains NaN."),  # class differs
        RuntimeError("Input contains NaN."),
    ],
)
def test_detects_exception_deviation(monkeypatch, exc):
    def fake(*a, n_threads=None, **k):
        raise exc

    _patched(monkeypatch, "roc_curve", fake)
    with pytest.raises(AssertionError):
        check_against_sklearn("roc_curve", Y, np.array([0.1, np.nan, 0.2, 0.3, 0.4]))


def test_detects_result_instead_of_exception(monkeypatch):
    _patched(monkeypatch, "roc_curve", lambda *a, n_threads=None, **k: skm.roc_curve(Y, S))
    with pytest.raises(AssertionError, match="sklearn raised"):
        check_against_sklearn("roc_curve", Y, np.array([0.1, np.nan, 0.2, 0.3, 0.4]))


def test_detects_exception_instead_of_result(monkeypatch):
    def fake(*a, n_threads=None, **k):
        raise ValueError("nope")

    _patched(monkeypatch, "roc_curve", fake)
    with pytest.raises(AssertionError, match="turbometrics raised"):
        check_against_sklearn("roc_curve", Y, S)
