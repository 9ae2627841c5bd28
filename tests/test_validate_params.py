"""Parameter validation is declared on each public function's definition
(``@validate_params``, as scikit-learn's ``validate_params``), never restated
in its body: the declaration is recorded, checked in order before the body
runs, with scikit-learn's messages and the right binding errors."""

from __future__ import annotations

import inspect
import pickle

import numpy as np
import pytest

import turbometrics as tm
from turbometrics import stability
from turbometrics._common.params import ARRAY_LIKE, BOOLEAN, NONE, validate_params

# Public functions with parameters whose checks are not InvalidParameterError
# constraints: set_num_threads raises its own TypeError/ValueError for
# n_threads (the check every function's n_threads shares), evaluate_parquet
# refuses unknown metrics and columns with ValueErrors of its own.
_UNDECLARED = {"set_num_threads", "evaluate_parquet"}


def _public_functions():
    for module in (tm, stability):
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isfunction(value) and inspect.signature(value).parameters and name not in _UNDECLARED:
                yield pytest.param(value, id=f"{module.__name__}.{name}")


@pytest.mark.parametrize("function", list(_public_functions()))
def test_every_public_function_declares_its_constraints(function):
    # A function that validated in its body would carry no declaration.
    declared = getattr(function, "parameter_constraints", None)
    assert declared, f"{function.__name__} declares no constraints with @validate_params"
    parameters = inspect.signature(function).parameters
    assert set(declared) <= set(parameters)
    assert all(declared.values())


def test_exempt_functions_exist():
    # The exemption list names real public functions (it must not go stale).
    assert _UNDECLARED <= set(tm.__all__)


@pytest.mark.parametrize(
    "method",
    [
        tm.ConfusionState.f1_score,
        tm.ConfusionState.confusion_matrix,
        tm.ConfusionState.cohen_kappa_score,
        tm.RankingState.roc_auc,
        tm.RankingState.best_threshold,
        tm.CalibrationState.__init__,
    ],
)
def test_state_methods_declare_their_constraints(method):
    assert method.parameter_constraints


def test_signature_name_docstring_and_wrapped_are_kept():
    assert tm.roc_auc_score.__name__ == "roc_auc_score"
    assert list(inspect.signature(tm.roc_auc_score).parameters) == [
        "y_true",
        "y_score",
        "average",
        "sample_weight",
        "max_fpr",
        "multi_class",
        "labels",
        "n_threads",
    ]
    assert tm.roc_auc_score.__doc__ == inspect.unwrap(tm.roc_auc_score).__doc__
    assert inspect.unwrap(tm.roc_auc_score).__code__.co_name == "roc_auc_score"
    assert pickle.loads(pickle.dumps(tm.roc_auc_score)) is tm.roc_auc_score


def test_first_invalid_parameter_in_declared_order_wins():
    y, s = [0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8]
    with pytest.raises(tm.InvalidParameterError, match="The 'average' parameter of roc_auc_score"):
        tm.roc_auc_score(y, s, max_fpr=2, average="bogus")
    # calibration_error declares norm after the common parameters, as it checked them before.
    with pytest.raises(tm.InvalidParameterError, match="The 'mode' parameter of calibration_error"):
        tm.calibration_error(y, s, norm="l3", mode="bogus")


def test_message_is_scikit_learns():
    with pytest.raises(tm.InvalidParameterError) as raised:
        tm.roc_auc_score([0, 1], [0.1, 0.9], max_fpr=2)
    assert str(raised.value) == (
        "The 'max_fpr' parameter of roc_auc_score must be a float in the range (0.0, 1.0] or None. Got 2 instead."
    )


def test_state_messages_name_the_function_they_mirror():
    with pytest.raises(tm.InvalidParameterError, match="The 'n_bins' parameter of CalibrationState must be"):
        tm.CalibrationState(n_bins=0)
    state = tm.ConfusionState.from_arrays([0, 1, 1], [0, 1, 0])
    with pytest.raises(tm.InvalidParameterError, match="The 'average' parameter of f1_score must be"):
        state.f1(average="bogus")


def test_binding_errors_follow_the_function():
    # Functions mirroring scikit-learn raise inspect.Signature.bind's TypeError
    # (no name prefix), the others Python's own.
    with pytest.raises(TypeError, match=r"^got an unexpected keyword argument 'bogus'$"):
        tm.roc_auc_score([0, 1], [0.1, 0.9], bogus=1)
    with pytest.raises(TypeError, match=r"^missing a required argument: 'y_score'$"):
        tm.roc_auc_score([0, 1])
    with pytest.raises(TypeError, match=r"^std\(\) got an unexpected keyword argument 'bogus'$"):
        stability.std(np.ones((2, 3)), bogus=1)
    with pytest.raises(TypeError, match=r"^calibration_error\(\) missing 1 required positional argument: 'y_prob'$"):
        tm.calibration_error([0, 1])


def test_keyword_only_since_still_warns_and_validates():
    with pytest.warns(FutureWarning, match="Pass pos_label=1, sample_weight=None as keyword args"):
        tm.confusion_matrix_at_thresholds([0, 1], [0.1, 0.9], 1, None)
    with pytest.warns(FutureWarning), pytest.raises(tm.InvalidParameterError, match="'sample_weight' parameter"):
        tm.confusion_matrix_at_thresholds([0, 1], [0.1, 0.9], 1, 3)


def test_defaults_are_read_and_unknown_names_ignored():
    @validate_params({"x": [ARRAY_LIKE], "flag": [BOOLEAN], "not_a_parameter": [NONE]}, bind_like_scikit_learn=False)
    def function(x, *, flag=True):
        return flag

    assert function.parameter_constraints == {"x": [ARRAY_LIKE], "flag": [BOOLEAN]}
    assert function([1]) is True
    with pytest.raises(tm.InvalidParameterError, match="The 'flag' parameter of function must be"):
        function([1], flag=1)


def test_positional_only_and_variadic_parameters_are_refused():
    with pytest.raises(TypeError, match="does not support"):
        validate_params({})(lambda *values: None)


def test_bootstrap_ci_checks_declared_parameters_before_the_metric():
    # The metric's check depends on the value's name and stays in the body,
    # after the declared checks (it used to come first).
    with pytest.raises(tm.InvalidParameterError, match="The 'confidence' parameter of bootstrap_ci"):
        tm.bootstrap_ci("bogus", [0, 1], [0.1, 0.9], confidence=2)
    with pytest.raises(ValueError, match="bootstrap_ci supports"):
        tm.bootstrap_ci("bogus", [0, 1], [0.1, 0.9])
