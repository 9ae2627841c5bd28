"""One adapter from other libraries' arrays to NumPy, applied to the
arguments of every public function and state method by the decorator that
declares their validation (``_common.params.validate_params``).

NumPy arrays, lists and pandas objects pass unchanged (the validation reads
pandas through ``np.asarray`` without a copy). Recognised by the top-level
package of their type's module, so that no library is imported unless the
caller already passed one of its objects:

- polars ``Series`` / ``DataFrame``: ``to_numpy()``, a view of the column's
  buffer for numeric data without nulls (nulls become NaN, as with
  ``np.asarray``).
- pyarrow ``Array`` (a view for primitive types without nulls),
  ``ChunkedArray`` (one chunk: a view; several: concatenated), ``Table`` /
  ``RecordBatch`` (columns stacked into a 2-D array).
- torch CPU tensors, ``nn.Parameter`` and tensors that require grad
  included: a view of the tensor's memory (detached; conjugate and negative
  bits resolved; bfloat16, which NumPy lacks, widened to float32). Tensors
  on other devices (CUDA...) are copied to the host (``Tensor.cpu()``), an
  O(n) transfer, except in ``roc_auc_score``, ``average_precision_score``,
  ``roc_curve`` and ``precision_recall_curve``, which compute on the device
  (``device_routes``).

Other array API objects (``__array_namespace__``: array-api-strict, CuPy...)
are read with ``np.asarray``, as scikit-learn reads them without array API
dispatch (device arrays raise its error).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def _from_polars(value: Any) -> Any:
    to_numpy = getattr(value, "to_numpy", None)
    return value if to_numpy is None else to_numpy()


def _from_pyarrow(value: Any) -> Any:
    kind = type(value).__name__
    if kind == "ChunkedArray":
        if value.num_chunks == 1:
            return value.chunk(0).to_numpy(zero_copy_only=False)
        return value.to_numpy()
    if kind in ("Table", "RecordBatch"):
        columns = [_from_pyarrow(column) for column in value.columns]
        return np.column_stack(columns) if columns else np.empty((value.num_rows, 0))
    if hasattr(value, "to_numpy") and hasattr(value, "type"):
        return value.to_numpy(zero_copy_only=False)
    return value


def _from_torch(value: Any) -> Any:
    if not hasattr(value, "detach") or getattr(value, "device", None) is None:
        return value
    tensor = value.detach()
    if tensor.device.type != "cpu":
        tensor = tensor.cpu()
    tensor = tensor.resolve_conj().resolve_neg()
    if str(tensor.dtype) == "torch.bfloat16":
        tensor = tensor.float()
    return tensor.numpy()


_ADAPTERS: dict[str, Callable[[Any], Any]] = {
    "polars": _from_polars,
    "pyarrow": _from_pyarrow,
    "torch": _from_torch,
}


_MATRIX_NOT_SUPPORTED = (
    "np.matrix is not supported. Please convert to a numpy array with np.asarray. For more "
    "information see: https://numpy.org/doc/stable/reference/generated/numpy.matrix.html"
)


def as_numpy_input(value: Any) -> Any:
    """``value`` as a NumPy array if it is a polars, pyarrow, torch or other
    array API array (without a copy where its memory layout allows), else
    ``value``. ``np.matrix`` raises scikit-learn's TypeError (its 2-D
    semantics would silently change shapes)."""
    kind = type(value)
    if isinstance(value, np.matrix):
        raise TypeError(_MATRIX_NOT_SUPPORTED)
    adapter = _ADAPTERS.get(kind.__module__.partition(".")[0])
    if adapter is not None:
        return adapter(value)
    if hasattr(kind, "__array_namespace__") and not isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    return value
