"""The invariants every metric function keeps, checked over the registry
(``turbometrics._registry.FUNCTIONS``), as scikit-learn's
``test_common.py`` checks its estimators: a metric added to the registry
is checked here without a line of its own.

For every function:

* the same result, bit for bit, at 1 and 3 threads;
* lists, NumPy arrays and pandas columns give the same result, and so do
  read-only and strided arrays;
* labels as int8, int32, uint64, float64 and (binary) bool, and float32
  scores that are exactly the float64 ones, give the result of the int64 /
  float64 inputs (ranking and classification: the values, not the dtype,
  decide), and the scikit-learn drop-ins equal scikit-learn on float32
  probabilities;
* the scikit-learn drop-ins raise scikit-learn's exception type and
  message for mismatched lengths, NaN scores and an empty input;
* the functions with a state method equal that method of the state of
  their arrays.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import turbometrics as tm
from turbometrics._registry import FUNCTIONS, Metric

N = 3000
_IDS = [metric.name if metric.top_level else f"{metric.area}.{metric.name}" for metric in FUNCTIONS]

# role of each array argument, by the registry's kind of inputs
_ROLES: dict[str, tuple[str, ...]] = {
    "binary scores": ("binary labels", "scores"),
    "two binary scores": ("binary labels", "scores", "scores"),
    "scored metric": ("binary labels", "scores"),
    "class scores": ("labels", "class scores"),
    "labels": ("labels", "labels"),
    "binary probabilities": ("binary labels", "probabilities"),
    "probability rows": ("probability rows",),
    "two distributions": ("probability rows", "probability rows"),
    "samples and points": ("samples", "samples"),
    "ensemble": ("ensemble",),
    "predictions": ("labels",),
    "label maps": ("label map", "label map"),
    "label maps and tolerance": ("label map", "label map"),
    "instance maps": ("instance map", "label map"),
}
# keyword arguments that a kind needs (or that keep it quick)
_KWARGS: dict[str, dict[str, Any]] = {
    "scored metric": {"n_bootstraps": 40, "random_state": 0},
    "samples and points": {"bandwidth": 0.5},
    "label maps": {"num_classes": 3},
    "label maps and tolerance": {"num_classes": 3, "tolerance": 1.0},
    "instance maps": {"num_classes": 3, "average_instance_sizes": {2: 10.0}},
}


def _array(role: str, rng: np.random.Generator, n: int) -> np.ndarray:
    if role == "binary labels":
        return rng.integers(0, 2, n)
    if role == "labels":
        return rng.integers(0, 3, n)
    if role == "scores":
        return np.round(rng.random(n), 2)  # ties
    if role == "probabilities":
        return rng.random(n)
    if role == "class scores":
        return rng.dirichlet(np.ones(3), n)
    if role == "probability rows":
        return rng.dirichlet(np.ones(3), n)
    if role == "label map":
        return rng.integers(0, 3, (n // 30, 30))
    if role == "instance map":  # class 2's pixels in instances 2000..2003 but one in eight (class 2 unlabelled)
        classes = rng.integers(0, 3, (n // 30, 30))
        return np.where(
            (classes == 2) & (rng.random(classes.shape) < 0.875), rng.integers(2000, 2004, classes.shape), classes
        )
    if role == "samples":
        return rng.normal(size=(n // 10, 2))
    assert role == "ensemble"
    return rng.random((5, n))


def _arguments(metric: Metric, n: int = N, seed: int = 0) -> tuple[list[Any], dict[str, Any]]:
    """The positional arguments (arrays, and the scored metric's name) and
    keyword arguments of one call of ``metric``."""
    rng = np.random.default_rng(seed)
    arrays = [_array(role, rng, n) for role in _ROLES[metric.inputs]]
    kwargs = dict(_KWARGS.get(metric.inputs, {}))
    parameters = inspect.signature(metric.function).parameters
    if metric.inputs == "labels" and "average" in parameters:
        kwargs["average"] = "macro"  # three classes
    if "beta" in parameters and parameters["beta"].default is inspect.Parameter.empty:
        kwargs["beta"] = 2.0
    if metric.inputs == "scored metric":
        return ["roc_auc_score", *arrays], kwargs
    return arrays, kwargs


def _call(metric: Metric, args: list[Any], kwargs: dict[str, Any], **more: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return metric.function(*args, **kwargs, **more)


def _same(a: Any, b: Any, dtypes: bool = True) -> bool:
    """Equal bit for bit: arrays (their dtypes too unless ``dtypes`` is
    False), tuples, dataclasses, floats (NaN equal to NaN)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        nan = a.dtype.kind in "fc" and b.dtype.kind in "fc"
        return (a.dtype == b.dtype or not dtypes) and a.shape == b.shape and np.array_equal(a, b, equal_nan=nan)
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y, dtypes) for x, y in zip(a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k], dtypes) for k in a)
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and _same(dataclasses.astuple(a), dataclasses.astuple(b), dtypes)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


def _replaced(args: list[Any], convert: Callable[[np.ndarray], Any]) -> list[Any]:
    return [convert(arg) if isinstance(arg, np.ndarray) else arg for arg in args]


@pytest.mark.parametrize("metric", FUNCTIONS, ids=_IDS)
def test_same_bits_at_any_thread_count(metric):
    args, kwargs = _arguments(metric)
    assert _same(_call(metric, args, kwargs, n_threads=1), _call(metric, args, kwargs, n_threads=3))


@pytest.mark.parametrize("metric", FUNCTIONS, ids=_IDS)
def test_lists_pandas_read_only_and_strided_arrays(metric):
    args, kwargs = _arguments(metric)
    expected = _call(metric, args, kwargs)

    def read_only(array: np.ndarray) -> np.ndarray:
        copy = array.copy()
        copy.flags.writeable = False
        return copy

    def strided(array: np.ndarray) -> np.ndarray:
        wide = np.repeat(array, 2, axis=-1)  # every array strided along its last axis
        view = wide[..., ::2]
        assert not view.flags.c_contiguous or view.size <= 1
        return view

    def pandas(array: np.ndarray) -> Any:
        pd = pytest.importorskip("pandas")
        return pd.Series(array) if array.ndim == 1 else pd.DataFrame(array) if array.ndim == 2 else array

    for convert in (np.ndarray.tolist, read_only, strided, pandas):
        assert _same(_call(metric, _replaced(args, convert), kwargs), expected), convert.__name__


_LABEL_DTYPES = (np.int8, np.int32, np.uint64, np.float64)


_VALUES_DECIDE = [metric for metric in FUNCTIONS if metric.area in ("ranking", "classification")]


@pytest.mark.parametrize("metric", _VALUES_DECIDE, ids=[m.name for m in _VALUES_DECIDE])
def test_label_and_score_dtypes_give_the_values_result(metric):
    args, kwargs = _arguments(metric)
    expected = _call(metric, args, kwargs)
    roles = ["metric name"] * (len(args) - len(_ROLES[metric.inputs])) + list(_ROLES[metric.inputs])
    for dtype in (*_LABEL_DTYPES, bool):
        changed = [
            arg.astype(dtype) if role == "binary labels" or (role == "labels" and dtype is not bool) else arg
            for arg, role in zip(args, roles)
        ]
        assert _same(_call(metric, changed, kwargs), expected), dtype
    # float32 scores that are the float64 ones exactly (multiples of 1/64): the same values
    # (thresholds come back in the scores' dtype, as scikit-learn's)
    exact = [np.round(arg * 64) / 64 if role == "scores" else arg for arg, role in zip(args, roles)]
    single = [arg.astype(np.float32) if role == "scores" else arg for arg, role in zip(exact, roles)]
    assert _same(_call(metric, single, kwargs), _call(metric, exact, kwargs), dtypes=False)


def _sklearn(metric: Metric) -> Callable[..., Any]:
    metrics = pytest.importorskip("sklearn.metrics")
    return getattr(metrics, metric.name)


@dataclasses.dataclass(frozen=True)
class _Raised:
    error: str
    message: str


def _outcome(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """What ``function(*args, **kwargs)`` returns, or the type and message
    it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - the type and message are compared
            return _Raised(type(error).__name__, str(error))


_SKLEARN = [metric for metric in FUNCTIONS if metric.sklearn]


@pytest.mark.parametrize("metric", _SKLEARN, ids=[m.name for m in _SKLEARN])
def test_float32_probabilities_as_scikit_learn(metric):
    args, kwargs = _arguments(metric, n=500)
    roles = _ROLES[metric.inputs]
    single = [
        arg.astype(np.float32) if role in ("probabilities", "class scores") else arg for arg, role in zip(args, roles)
    ]
    assert _same(_outcome(metric.function, *single, **kwargs), _outcome(_sklearn(metric), *single, **kwargs))


@pytest.mark.parametrize("metric", _SKLEARN, ids=[m.name for m in _SKLEARN])
def test_errors_as_scikit_learn(metric):
    reference = _sklearn(metric)
    args, kwargs = _arguments(metric, n=50)
    roles = _ROLES[metric.inputs]
    bad_inputs = {
        "lengths": [args[0][:-1], *args[1:]],
        "empty": [arg[:0] for arg in args],
        "nan": [
            np.where(np.arange(arg.shape[0]).reshape((-1,) + (1,) * (arg.ndim - 1)) == 3, np.nan, arg)
            if role in ("scores", "probabilities", "class scores")
            else arg
            for arg, role in zip(args, roles)
        ],
    }
    for what, bad in bad_inputs.items():
        assert _same(_outcome(metric.function, *bad, **kwargs), _outcome(reference, *bad, **kwargs)), what


_STATES = {"ranking": tm.RankingState, "classification": tm.ConfusionState}
_WITH_STATE = [metric for metric in FUNCTIONS if metric.state_method is not None]


@pytest.mark.parametrize("metric", _WITH_STATE, ids=[m.name for m in _WITH_STATE])
def test_states_equal_the_functions(metric):
    args, kwargs = _arguments(metric)
    state = _STATES[metric.area].from_arrays(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        method_kwargs = {key: value for key, value in kwargs.items() if key != "beta" or metric.name == "fbeta_score"}
        assert _same(getattr(state, metric.state_method)(**method_kwargs), _call(metric, args, kwargs))


def test_the_streaming_vocabulary_names_registered_functions_and_state_methods():
    # Each name of the Evaluator's, the command line's and evaluate_parquet's vocabulary equals a
    # registered function and is computed by a method of its state (the Evaluator's exact sums
    # aside), with options that method takes.
    from turbometrics._registry import ALIASES, STREAMED, by_name

    states = {"ranking": tm.RankingState, "confusion": tm.ConfusionState, "calibration": tm.CalibrationState}
    for name, entry in STREAMED.items():
        assert entry.name == name and entry.tools
        by_name(entry.function)
        if entry.state in states:
            parameters = inspect.signature(getattr(states[entry.state], entry.method)).parameters
            assert set(entry.options) <= set(parameters), name
    assert all(target in STREAMED for target in ALIASES.values())
