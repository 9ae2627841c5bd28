"""pandas, polars, pyarrow, torch and array-API inputs: every public function
gives the NumPy result, and the adapter reads the memory in place where the
layout allows."""

from __future__ import annotations

import inspect
import pickle
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import turbometrics as tm
from turbometrics._common.array_inputs import as_numpy_input

RNG = np.random.default_rng(7)
Y_TRUE = RNG.integers(0, 2, 400)
Y_SCORE = np.round(RNG.random(400), 2)  # ties
Y_PRED = (Y_SCORE > 0.45).astype(np.int64)
Y_MULTI = RNG.integers(0, 3, 400)
P_MULTI = RNG.dirichlet(np.ones(3), 400)


def _pandas(values: np.ndarray) -> Any:
    pd = pytest.importorskip("pandas")
    return pd.Series(values) if values.ndim == 1 else pd.DataFrame(values)


def _polars(values: np.ndarray) -> Any:
    pl = pytest.importorskip("polars")
    if values.ndim == 1:
        return pl.Series(values)
    return pl.DataFrame({f"c{i}": values[:, i] for i in range(values.shape[1])})


def _pyarrow(values: np.ndarray) -> Any:
    pa = pytest.importorskip("pyarrow")
    if values.ndim == 1:
        return pa.array(values)
    return pa.table({f"c{i}": values[:, i] for i in range(values.shape[1])})


def _pyarrow_chunks(values: np.ndarray) -> Any:
    pa = pytest.importorskip("pyarrow")
    if values.ndim == 1:
        return pa.chunked_array([values[:150], values[150:310], values[310:]])
    return pa.Table.from_batches(
        [
            pa.record_batch({f"c{i}": values[start:stop, i] for i in range(values.shape[1])})
            for start, stop in ((0, 150), (150, values.shape[0]))
        ]
    )


def _torch(values: np.ndarray) -> Any:
    torch = pytest.importorskip("torch")
    return torch.from_numpy(values)


def _torch_grad(values: np.ndarray) -> Any:
    torch = pytest.importorskip("torch")
    tensor = torch.from_numpy(values.copy())
    if tensor.is_floating_point():
        tensor.requires_grad_(True)
    return tensor * 1 if tensor.is_floating_point() else tensor  # a non-leaf tensor in the graph


def _array_api_strict(values: np.ndarray) -> Any:
    xp = pytest.importorskip("array_api_strict")
    return xp.asarray(values)


KINDS: dict[str, Callable[[np.ndarray], Any]] = {
    "pandas": _pandas,
    "polars": _polars,
    "pyarrow": _pyarrow,
    "pyarrow-chunked": _pyarrow_chunks,
    "torch": _torch,
    "torch-requires-grad": _torch_grad,
    "array-api-strict": _array_api_strict,
}

CASES = {
    "roc_auc_score": (tm.roc_auc_score, (Y_TRUE, Y_SCORE), {}),
    "roc_curve": (tm.roc_curve, (Y_TRUE, Y_SCORE), {}),
    "f1_score": (tm.f1_score, (Y_TRUE, Y_PRED), {}),
    "confusion_matrix-weighted": (tm.confusion_matrix, (Y_TRUE, Y_PRED), {"sample_weight": Y_SCORE}),
    "calibration_error": (tm.calibration_error, (Y_TRUE, Y_SCORE), {"n_bins": 10}),
    "log_loss-multiclass": (tm.log_loss, (Y_MULTI, P_MULTI), {}),
    "top_k_accuracy_score": (tm.top_k_accuracy_score, (Y_MULTI, P_MULTI), {"k": 2}),
    "stability.std": (tm.stability.std, (RNG.random((5, 40)),), {}),
}


def _assert_same(got: Any, expected: Any) -> None:
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            _assert_same(a, b)
        return
    assert type(got) is type(expected)
    if isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    else:
        assert got == expected


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", CASES)
def test_each_input_kind_gives_the_numpy_result(kind, case):
    function, args, kwargs = CASES[case]
    convert = KINDS[kind]
    foreign_args = [convert(a) for a in args]
    foreign_kwargs = {key: convert(value) for key, value in kwargs.items() if isinstance(value, np.ndarray)}
    other_kwargs = {key: value for key, value in kwargs.items() if not isinstance(value, np.ndarray)}
    _assert_same(function(*foreign_args, **foreign_kwargs, **other_kwargs), function(*args, **kwargs))


def test_polars_numeric_series_is_read_in_place():
    pl = pytest.importorskip("polars")
    series = pl.Series(Y_SCORE)
    # Two conversions share memory only if both view the series' own buffer.
    assert np.shares_memory(as_numpy_input(series), series.to_numpy())


def test_pyarrow_array_and_single_chunk_are_read_in_place():
    pa = pytest.importorskip("pyarrow")
    array = pa.array(Y_SCORE)
    data_address = array.buffers()[1].address
    assert as_numpy_input(array).__array_interface__["data"][0] == data_address
    one_chunk = pa.chunked_array([array])
    assert as_numpy_input(one_chunk).__array_interface__["data"][0] == data_address
    np.testing.assert_array_equal(as_numpy_input(pa.chunked_array([array[:10], array[10:]])), Y_SCORE)


def test_torch_tensors_are_read_in_place():
    torch = pytest.importorskip("torch")
    tensor = torch.from_numpy(Y_SCORE.copy()).requires_grad_(True)
    converted = as_numpy_input(tensor)
    assert converted.__array_interface__["data"][0] == tensor.data_ptr()
    assert np.shares_memory(as_numpy_input(torch.nn.Parameter(tensor.detach())), converted)
    assert as_numpy_input(torch.ones(3, dtype=torch.bfloat16)).dtype == np.float32  # NumPy has no bfloat16
    strided = torch.from_numpy(P_MULTI)[:, 1]
    assert np.shares_memory(as_numpy_input(strided), P_MULTI)


def test_pandas_and_numpy_pass_unchanged():
    pd = pytest.importorskip("pandas")
    series = pd.Series(Y_SCORE)
    assert as_numpy_input(series) is series
    assert as_numpy_input(Y_SCORE) is Y_SCORE
    assert as_numpy_input(np.float64(0.5)) is not None and isinstance(as_numpy_input(np.float64(0.5)), np.float64)


def test_public_functions_keep_their_signatures():
    from turbometrics.ranking import _scores as _ranking

    assert inspect.signature(tm.roc_auc_score) == inspect.signature(_ranking.roc_auc_score)
    assert tm.roc_auc_score.__name__ == "roc_auc_score" and tm.roc_auc_score.__doc__ == _ranking.roc_auc_score.__doc__


def test_public_functions_pickle_by_reference():
    for module in (tm, tm.stability):
        for name in module.__all__:
            function = getattr(module, name)
            if inspect.isfunction(function):
                assert pickle.loads(pickle.dumps(function)) is function, name


def test_no_library_is_imported_for_numpy_input():
    code = (
        "import sys, numpy as np, turbometrics as tm\n"
        "tm.roc_auc_score(np.array([0, 1, 1]), np.array([0.2, 0.9, 0.4]))\n"
        "loaded = [m for m in ('polars', 'pyarrow', 'torch', 'pandas') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("kind", KINDS)
def test_states_take_each_input_kind(kind):
    convert = KINDS[kind]
    ranking = tm.RankingState.from_arrays(convert(Y_TRUE), convert(Y_SCORE))
    assert ranking.roc_auc() == tm.roc_auc_score(Y_TRUE, Y_SCORE)
    confusion = tm.ConfusionState().update(convert(Y_TRUE), convert(Y_PRED))
    assert confusion.f1() == tm.f1_score(Y_TRUE, Y_PRED)
    calibration = tm.CalibrationState.from_arrays(convert(Y_TRUE), convert(Y_SCORE))
    assert calibration.ece() == tm.CalibrationState.from_arrays(Y_TRUE, Y_SCORE).ece()


@pytest.mark.filterwarnings("ignore:the matrix subclass is not the recommended way:PendingDeprecationWarning")
@pytest.mark.parametrize("function", [tm.roc_auc_score, tm.accuracy_score, tm.log_loss, tm.brier_score_loss])
def test_np_matrix_raises_scikit_learns_type_error(function):
    y_true = np.asmatrix(Y_TRUE[:20]).T
    values = np.asmatrix(Y_TRUE[:20] if function is tm.accuracy_score else Y_SCORE[:20]).T
    with pytest.raises(TypeError, match=r"np.matrix is not supported"):
        function(y_true, values)
