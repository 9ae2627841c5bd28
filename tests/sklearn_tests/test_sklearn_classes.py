"""turbometrics' warnings and errors are instances of scikit-learn's classes
when scikit-learn is installed (without turbometrics.sklearn.patch), and of
turbometrics' own classes always; ``import turbometrics`` still does not
import scikit-learn."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings

import pytest

pytest.importorskip("sklearn")

from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils._param_validation import InvalidParameterError

import turbometrics as tm


def test_direct_calls_warn_with_scikit_learn_class():
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined") as record:
        tm.precision_score([0, 0, 1], [0, 0, 0])
    assert issubclass(record[0].category, tm.UndefinedMetricWarning)
    with pytest.warns(UndefinedMetricWarning, match="Only one class is present"):
        tm.roc_auc_score([1, 1], [0.2, 0.4])
    with pytest.warns(UndefinedMetricWarning, match="No negative samples"):
        tm.roc_curve([1, 1], [0.2, 0.4])
    with pytest.warns(tm.UndefinedMetricWarning):  # turbometrics' own class still matches
        tm.recall_score([0, 0], [0, 1])


def test_scikit_learn_warning_filters_apply():
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        with pytest.raises(UndefinedMetricWarning):
            tm.f1_score([0, 0], [0, 0])


def test_direct_calls_raise_scikit_learn_class():
    with pytest.raises(InvalidParameterError, match="The 'max_fpr' parameter of roc_auc_score") as error:
        tm.roc_auc_score([0, 1], [0.2, 0.4], max_fpr=2)
    assert isinstance(error.value, tm.InvalidParameterError)
    assert isinstance(error.value, ValueError) and isinstance(error.value, TypeError)
    try:
        tm.f1_score([0, 1], [0, 1], average="bogus")
    except InvalidParameterError as caught:
        assert "The 'average' parameter of f1_score must be" in str(caught)
    else:
        pytest.fail("no InvalidParameterError")


def test_classes_and_instances_pickle():
    """What joblib and dask workers send back."""
    with pytest.raises(InvalidParameterError) as error:
        tm.roc_auc_score([0, 1], [0.2, 0.4], max_fpr=2)
    copy = pickle.loads(pickle.dumps(error.value))
    assert type(copy) is type(error.value) and str(copy) == str(error.value)
    with pytest.warns(UndefinedMetricWarning) as record:
        tm.precision_score([0, 0], [0, 0])
    assert pickle.loads(pickle.dumps(record[0].category)) is record[0].category


_WITHOUT_SCIKIT_LEARN = """
import sys, warnings
sys.modules["sklearn"] = None  # as if scikit-learn were not installed
import turbometrics as tm
with warnings.catch_warnings(record=True) as record:
    warnings.simplefilter("always")
    tm.precision_score([0, 0], [0, 0])
assert record[0].category is tm.UndefinedMetricWarning, record[0].category
try:
    tm.roc_auc_score([0, 1], [0.2, 0.4], max_fpr=2)
except tm.InvalidParameterError as error:
    assert type(error) is tm.InvalidParameterError
"""


def test_without_scikit_learn_turbometrics_classes_are_used():
    subprocess.run([sys.executable, "-c", _WITHOUT_SCIKIT_LEARN], check=True)


def test_import_does_not_import_scikit_learn():
    code = (
        "import sys, turbometrics as tm; assert 'sklearn' not in sys.modules\n"
        "tm.roc_auc_score([0, 1], [0.2, 0.4]); assert 'sklearn' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
