"""Input validation reproducing scikit-learn's checks and messages.

Label facts (distinct values, integrality) come from one compiled pass over
the labels instead of ``np.unique``; everything else mirrors scikit-learn's
``check_array``, ``column_or_1d``, ``type_of_target`` and friends.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _core
from .threads import resolve_threads, threads_for

# dtypes the label scan reads directly; others fall back to NumPy.
_SCANNABLE_KINDS = {
    ("f", 8),
    ("f", 4),
    ("i", 8),
    ("i", 4),
    ("i", 2),
    ("i", 1),
    ("u", 8),
    ("u", 4),
    ("u", 2),
    ("u", 1),
    ("b", 1),
}


def as_array(values: Any) -> np.ndarray:
    """``np.asarray``, falling back to an object array for ragged input."""
    if isinstance(values, np.ndarray):
        return values
    try:
        return np.asarray(values)
    except ValueError:
        return np.asarray(values, dtype=object)


def num_samples(values: Any) -> int:
    """Number of samples (first dimension) of an array-like."""
    message = f"Expected sequence or array-like, got {type(values)}"
    if hasattr(values, "fit") and callable(values.fit):
        raise TypeError(message)
    shape = getattr(values, "shape", None)
    if shape is not None:
        if len(shape) == 0:
            raise TypeError(
                "Input should have at least 1 dimension i.e. satisfy `len(x.shape) > 0`, "
                f"got scalar `{values!r}` instead."
            )
        return int(shape[0])
    try:
        return len(values)
    except TypeError as error:
        raise TypeError(message) from error


def check_consistent_length(*arrays: Any) -> None:
    """Raise ValueError if the non-None arguments differ in length."""
    lengths = [num_samples(array) for array in arrays if array is not None]
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {lengths!r}")


def check_min_samples(array: np.ndarray) -> None:
    """scikit-learn's ``ensure_min_samples=1`` and ``ensure_min_features=1``
    (a 0-d array gets scikit-learn's TypeError for a scalar)."""
    if array.ndim == 0:
        num_samples(array)
    if array.ndim >= 1 and array.shape[0] < 1:
        raise ValueError(f"Found array with 0 sample(s) (shape={array.shape}) while a minimum of 1 is required.")
    if array.ndim == 2 and array.shape[1] < 1:
        raise ValueError(f"Found array with 0 feature(s) (shape={array.shape}) while a minimum of 1 is required.")


def check_dimensions(array: np.ndarray) -> None:
    """check_array's rejection of complex data and of more than 2 dimensions."""
    if array.dtype.kind == "c":
        raise ValueError(f"Complex data not supported\n{array}\n")
    if array.ndim > 2:
        raise ValueError(f"Found array with dim {array.ndim}, while dim <= 2 is required.")


def check_orderable(*values: Any) -> None:
    """scikit-learn's ``np.unique`` of the label arrays ahead of its target
    checks (``attach_unique``): object labels that cannot be ordered (a
    string and None) raise NumPy's TypeError there. Only object arrays whose
    first value is no string are sorted here; other arrays either sort or
    are sorted by the label checks, with the same error."""
    for value in values:
        if (
            isinstance(value, np.ndarray)
            and value.dtype == object
            and value.size
            and not isinstance(value.flat[0], str)
        ):
            np.unique(value)


def column_or_1d(values: Any) -> np.ndarray:
    """A 1-D view of a 1-D array or an (n, 1) column; ValueError otherwise
    (NumPy's own error for ragged sequences, as in scikit-learn)."""
    array = np.asarray(values)
    check_dimensions(array)
    if array.ndim == 1:
        return array
    if array.ndim == 2 and array.shape[1] == 1:
        return array.reshape(-1)
    raise ValueError(f"y should be a 1d array, got an array of shape {array.shape} instead.")


def value_status(array: np.ndarray) -> tuple[int, bool | None]:
    """(0 if finite, 1 if some value is NaN, 2 if some is infinite and none
    NaN; whether every value is zero, or None where it was not computed)."""
    if array.dtype.kind != "f":
        return 0, None
    flat = array.reshape(-1)
    if (array.dtype.itemsize in (4, 8)) and array.dtype.isnative and flat.ndim == 1:
        bits = _core.labels.finite_status(flat, threads_for(resolve_threads(None), flat.shape[0]))
        return bits & 3, bool(bits & 4)
    if np.isnan(flat).any():
        return 1, None
    return (2 if np.isinf(flat).any() else 0), None


def nonfinite_status(array: np.ndarray) -> int:
    """0 if finite, 1 if some value is NaN, 2 if some is infinite (no NaN)."""
    return value_status(array)[0]


def assert_all_finite(array: np.ndarray, input_name: str = "", status: int | None = None) -> None:
    """Raise scikit-learn's ValueError if ``array`` holds NaN or infinity
    (``status``: a precomputed :func:`nonfinite_status`)."""
    if array.dtype == object:
        if np.any(array != array):
            raise ValueError("Input contains NaN")
        return
    if status is None:
        status = nonfinite_status(array)
    if status == 0:
        return
    raise nonfinite_error(array.dtype, input_name, status)


def nonfinite_error(dtype: np.dtype, input_name: str, status: int) -> ValueError:
    """scikit-learn's error for values of ``dtype`` with a non-finite
    status (1: NaN, 2: infinity)."""
    name = f"{input_name} " if input_name else ""
    problem = "NaN" if status == 1 else f"infinity or a value too large for {dtype!r}"
    return ValueError(f"Input {name}contains {problem}.")


ALL_ZERO_WEIGHTS = "Sample weights must contain at least one non-zero number."


def check_score_array(values: Any, status: int | None = None) -> np.ndarray:
    """``check_array(y_score, ensure_2d=False)``: numeric, at most 2-D,
    finite and non-empty. Object arrays are converted to float64, but (as in
    scikit-learn) object data that arrived as a list is left as it is.
    ``status``: the finiteness of ``values`` (a :func:`nonfinite_status`)
    when a compiled pass already found it."""
    array = np.asarray(values)
    if array.dtype.kind in "USV":
        raise ValueError(
            "dtype='numeric' is not compatible with arrays of bytes/strings.Convert your data to "
            "numeric values explicitly instead."
        )
    if array.dtype.kind == "O" and hasattr(values, "dtype"):
        array = array.astype(np.float64)
    check_dimensions(array)
    assert_all_finite(array, status=status)
    check_min_samples(array)
    return array


def check_sample_weight(
    sample_weight: Any, n_samples: int, force_float: bool = True, check_values: bool = True
) -> np.ndarray:
    """scikit-learn's ``_check_sample_weight``: float64, 1-D, finite, not all zero.
    With ``force_float=False`` integer and bool weights keep their dtype;
    with ``check_values=False`` the finiteness and all-zero checks are left
    to the caller (the checks of shape and size are made)."""
    weights = as_array(sample_weight)
    check_dimensions(weights)  # complex weights raise before any cast
    keep_integers = not force_float and weights.dtype.kind in "biu"
    if not keep_integers and weights.dtype not in (np.float64, np.float32):
        weights = weights.astype(np.float64)
    if weights.ndim == 0:
        weights = np.full(n_samples, weights, dtype=weights.dtype)
    check_dimensions(weights)
    check_min_samples(weights)
    status, all_zero = value_status(weights) if check_values else (0, False)  # one pass for both checks
    assert_all_finite(weights, input_name="sample_weight", status=status)
    if weights.ndim != 1:
        raise ValueError(
            f"Sample weights must be 1D array or scalar, got {weights.ndim}D array. "
            f"Expected either a scalar value or a 1D array of length {n_samples}."
        )
    if weights.shape != (n_samples,):
        raise ValueError(f"sample_weight.shape == {weights.shape}, expected {(n_samples,)}!")
    if check_values and (all_zero if all_zero is not None else np.count_nonzero(weights) == 0):
        raise ValueError(ALL_ZERO_WEIGHTS)
    return weights


def distinct_values(array: np.ndarray, limit: int) -> tuple[np.ndarray | None, bool]:
    """Sorted distinct values of ``array`` (None if more than ``limit``) and
    whether every value is integral (always True for non-float dtypes)."""
    flat = array.reshape(-1)
    kind = (array.dtype.kind, array.dtype.itemsize)
    if kind in _SCANNABLE_KINDS and array.dtype.isnative:
        scanned = flat.view(np.uint8) if array.dtype.kind == "b" else flat
        values, integral = _core.labels.scan(scanned, limit, threads_for(resolve_threads(None), flat.shape[0]))
        if values is not None:
            values = values.astype(array.dtype, copy=False)
        return values, bool(integral)
    values = np.unique(flat)
    integral = True
    if array.dtype.kind == "f":
        integral = bool(np.all(flat.astype(np.int64).astype(array.dtype) == flat))
    return (values if values.shape[0] <= limit else None), integral


class Target:
    """What ``type_of_target`` found: the kind, the array and its classes.

    ``classes`` holds the sorted distinct values when there are at most two
    of them (enough for every binary decision), else None.
    """

    def __init__(self, kind: str, array: np.ndarray, classes: np.ndarray | None) -> None:
        self.kind = kind
        self.array = array
        self.classes = classes


def type_of_target(values: Any, input_name: str = "") -> Target:
    """scikit-learn's ``type_of_target`` for dense input, with its errors."""
    valid = (isinstance(values, Sequence) or hasattr(values, "__array__")) and not isinstance(values, str)
    if not valid:
        raise ValueError(f"Expected array-like (array or non-string sequence), got {values!r}")
    if values.__class__.__name__ in ("SparseSeries", "SparseArray"):
        raise ValueError("y cannot be class 'SparseSeries' or 'SparseArray'")
    if hasattr(values, "toarray") and hasattr(values, "format"):
        raise TypeError("turbometrics does not accept sparse y_true; pass a dense array")
    array = as_array(values)
    classes, integral = (None, True)
    numeric = array.dtype.kind in "biuf"
    if array.size == 0:
        classes = array.reshape(-1)[:0]
    elif numeric:
        classes, integral = distinct_values(array, 2)
    # is_multilabel: at most two integral values (strings never qualify).
    two_dimensional = array.ndim == 2 and array.shape[1] > 1 and numeric
    if two_dimensional and classes is not None and (array.dtype.kind in "biu" or integral):
        return Target("multilabel-indicator", array, classes)
    if array.size:
        first = array.reshape(-1)[0] if array.ndim else array
        if isinstance(first, bytes):
            raise TypeError(
                "Support for labels represented as bytes is not supported. Convert the labels to a string "
                "or integer format."
            )
        if (
            array.ndim >= 1
            and not hasattr(array[0], "__array__")
            and isinstance(array[0], Sequence)
            and not isinstance(array[0], str)
        ):
            raise ValueError(
                "You appear to be using a legacy multi-label data representation. Sequence of sequences are no "
                "longer supported; use a binary array or sparse matrix instead - the MultiLabelBinarizer "
                "transformer can convert to this format."
            )
    if array.ndim not in (1, 2):
        return Target("unknown", array, None)
    if not min(array.shape):
        return Target("binary" if array.ndim == 1 else "unknown", array, classes)
    if array.dtype == object and not isinstance(array.flat[0], str):
        return Target("unknown", array, None)
    suffix = "-multioutput" if array.ndim == 2 and array.shape[1] > 1 else ""
    if array.dtype.kind == "f" and not integral:
        assert_all_finite(array, input_name=input_name)
        return Target("continuous" + suffix, array, None)
    if not numeric:
        uniques = np.unique(array)
        classes = uniques if uniques.shape[0] <= 2 else None
    if classes is None or (array.ndim == 2 and array.shape[1] > 1):
        return Target("multiclass" + suffix, array, classes)
    return Target("binary", array, classes)


def check_pos_label_consistency(pos_label: Any, classes: np.ndarray) -> Any:
    """scikit-learn's rule: without pos_label, labels must be {0,1} or {-1,1}."""
    if pos_label is not None:
        return pos_label
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ambiguous = (
            classes.dtype.kind in "OUS"
            or classes.shape[0] > 2
            or not (
                np.all(classes == np.asarray([0, 1]))
                or np.all(classes == np.asarray([-1, 1]))
                or np.all(classes == np.asarray([0]))
                or np.all(classes == np.asarray([-1]))
                or np.all(classes == np.asarray([1]))
            )
        )
    if ambiguous:
        shown = ", ".join(repr(value) for value in classes.tolist())
        raise ValueError(
            f"y_true takes value in {{{shown}}} and pos_label is not specified: either make y_true take value "
            "in {0, 1} or {-1, 1} or pass pos_label explicitly."
        )
    return 1
