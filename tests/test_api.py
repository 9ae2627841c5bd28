"""Public API surface: every scikit-learn metric turbometrics implements
(``turbometrics.sklearn.METRIC_NAMES``) is exported at the top level under its
scikit-learn name, with scikit-learn 1.9.1's signature plus a keyword-only
``n_threads=None``; the exception and warning classes."""

import inspect
import math

import pytest
import sklearn.metrics as skm

import turbometrics as tm
from turbometrics.sklearn import METRIC_NAMES


def _parameters(signature: inspect.Signature) -> list[tuple]:
    """Each parameter's name, kind and default, with NaN defaults equal to each other."""
    return [
        (p.name, p.kind, "nan" if isinstance(p.default, float) and math.isnan(p.default) else p.default)
        for p in signature.parameters.values()
    ]


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_exported_under_its_scikit_learn_name(name):
    assert name in tm.__all__
    assert getattr(tm, name).__name__ == name


@pytest.mark.parametrize("name", METRIC_NAMES)
def test_signature_is_sklearns_plus_n_threads(name):
    got = inspect.signature(getattr(tm, name))
    n_threads = got.parameters["n_threads"]
    assert (n_threads.kind, n_threads.default) == (inspect.Parameter.KEYWORD_ONLY, None)
    without_n_threads = got.replace(parameters=[p for p in got.parameters.values() if p.name != "n_threads"])
    assert _parameters(without_n_threads) == _parameters(inspect.signature(getattr(skm, name)))
    assert list(got.parameters)[-1] == "n_threads"


def test_invalid_parameter_error_bases():
    assert issubclass(tm.InvalidParameterError, ValueError)
    assert issubclass(tm.InvalidParameterError, TypeError)


def test_undefined_metric_warning_is_a_user_warning():
    assert "UndefinedMetricWarning" in tm.__all__
    assert issubclass(tm.UndefinedMetricWarning, UserWarning)
    assert tm.UndefinedMetricWarning.__name__ == "UndefinedMetricWarning"
