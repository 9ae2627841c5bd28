"""Public API surface: names, signatures (sklearn 1.9.1's plus a keyword-only
``n_threads=None``), exception and warning classes."""

import inspect

import pytest
import sklearn.metrics as skm

import turbometrics as tm

FUNCTIONS = [
    "roc_curve",
    "precision_recall_curve",
    "roc_auc_score",
    "average_precision_score",
    "det_curve",
    "confusion_matrix_at_thresholds",
]


@pytest.mark.parametrize("name", FUNCTIONS + ["set_num_threads", "get_num_threads", "InvalidParameterError"])
def test_exported(name):
    assert callable(getattr(tm, name))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_signature_is_sklearns_plus_n_threads(name):
    sk = inspect.signature(getattr(skm, name))
    got = inspect.signature(getattr(tm, name))
    sk_params = list(sk.parameters.values())
    got_params = list(got.parameters.values())
    assert [p.name for p in got_params] == [p.name for p in sk_params] + ["n_threads"]
    for a, b in zip(sk_params, got_params):
        assert (a.kind, a.default) == (b.kind, b.default), f"{name}: parameter {a.name}: {b} != sklearn {a}"
    n_threads = got.parameters["n_threads"]
    assert n_threads.kind is inspect.Parameter.KEYWORD_ONLY
    assert n_threads.default is None


def test_invalid_parameter_error_bases():
    assert issubclass(tm.InvalidParameterError, ValueError)
    assert issubclass(tm.InvalidParameterError, TypeError)


def test_undefined_metric_warning_is_user_warning():
    cls = getattr(tm, "UndefinedMetricWarning", None)
    if cls is None:
        pytest.skip("turbometrics does not export UndefinedMetricWarning")
    assert issubclass(cls, UserWarning)
    assert cls.__name__ == "UndefinedMetricWarning"
