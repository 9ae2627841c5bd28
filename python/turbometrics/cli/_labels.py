"""Labels of ``turbometrics evaluate FILE``, converted chunk by chunk: the
positive class of binary labels, and class indices of multiclass ones."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._common.input_error import InputError, shown

__all__ = ["as_text", "binary_labels", "class_indices", "classes_from_columns", "positive_label"]


def positive_label(values: np.ndarray, given: Any, seen: set[Any] | None = None) -> Any:
    """The positive label: ``given`` (converted to the labels' kind), else
    1 (or True) for labels in {0, 1}, {-1, 1} or booleans.

    ``seen``, when given, collects the labels of every chunk so far (without
    ``given``), so that {0, 1} in one chunk and {-1, 1} in another are
    refused as they are in one chunk.

    Raises
    ------
    InputError
        When the labels have no obvious positive class.
    """
    if given is not None:
        if values.dtype.kind in "iuf":
            return _number_label(given, integer=values.dtype.kind != "f")
        if values.dtype.kind == "b":
            flag = {"1": True, "true": True, "0": False, "false": False}.get(str(given).lower())
            if flag is None:
                raise InputError(f"--pos-label {given!r}: the labels are booleans (give true or false)")
            return flag
        return str(given)
    if values.dtype.kind == "b":
        return True
    unique = np.unique(values)
    here = set(unique.tolist())
    if not (here <= {0, 1} or here <= {-1, 1}):
        listed = ", ".join(map(str, unique[:5].tolist()))
        raise InputError(f"labels are {{{listed}}}: give the positive one with --pos-label")
    if seen is not None:
        seen.update(here)
        if {0, -1} <= seen:
            listed = ", ".join(map(str, sorted(seen)))
            raise InputError(f"labels are {{{listed}}} across the file: give the positive one with --pos-label")
    return 1


def _number_label(given: str, integer: bool) -> Any:
    """``--pos-label`` for number labels: a float, or for integer labels an
    int (``1.0`` is 1).

    Raises
    ------
    InputError
        For text that is not a number, or not an integer for integer labels.
    """
    try:
        return int(given) if integer else float(given)
    except ValueError:
        pass
    try:
        number = float(given)
    except ValueError:
        raise InputError(f"--pos-label {given!r} is not a number, but the labels are") from None
    if not number.is_integer():
        raise InputError(f"--pos-label {given!r} is not an integer, but the labels are")
    return int(number)


def binary_labels(values: np.ndarray, pos_label: Any) -> np.ndarray:
    """``values == pos_label`` as int8 (1 positive, 0 negative)."""
    return (values == pos_label).astype(np.int8)


def _index_labels(values: np.ndarray, n_classes: int) -> np.ndarray | None:
    """The labels as int64 when they are all integers 0 .. K-1, else None."""
    if values.dtype.kind in "iub" or (values.dtype.kind == "f" and np.all(values == np.round(values))):
        indices = values.astype(np.int64)
        if not ((indices < 0) | (indices >= n_classes)).any():
            return indices
    return None


def classes_from_columns(values: np.ndarray, columns: Sequence[str]) -> tuple[str, ...] | None:
    """The classes named by the score columns, when the labels are not
    class indices: every column is a shared prefix plus a class
    (``p_cat, p_dog, p_eel`` are the classes ``cat, dog, eel``) and every
    label in ``values`` is one of those classes. None otherwise."""
    if values.shape[0] == 0 or _index_labels(values, len(columns)) is not None:
        return None
    labels = np.unique(as_text(values)).tolist()
    for column in columns:
        if not column.endswith(labels[0]):
            continue
        prefix = column[: len(column) - len(labels[0])]
        if all(c.startswith(prefix) for c in columns):
            classes = tuple(c[len(prefix) :] for c in columns)
            if len(set(classes)) == len(classes) and set(labels) <= set(classes):
                return classes
    return None


def class_indices(values: np.ndarray, classes: Sequence[Any] | None, n_classes: int) -> np.ndarray:
    """Labels as indices of the score columns: the labels themselves when
    ``classes`` is None (they must be integers 0 .. K-1), else the position
    of each label (compared as text) in ``classes``.

    Raises
    ------
    InputError
        Naming the first label that is not a class.
    """
    if classes is None:
        indices = _index_labels(values, n_classes)
        if indices is not None:
            return indices
        if values.dtype.kind in "iub" or (values.dtype.kind == "f" and np.all(values == np.round(values))):
            bad = (values < 0) | (values >= n_classes)
            raise InputError(
                f"label {shown(values[np.argmax(bad)])} is not a class index 0..{n_classes - 1} "
                "(name the classes with --classes)"
            )
        raise InputError(
            f"labels like {shown(values[0])} are neither class indices nor the ends of the score "
            "columns' names: name the classes of the score columns with --classes"
        )
    text = as_text(values)
    lookup = {str(c): i for i, c in enumerate(classes)}
    indices = np.fromiter((lookup.get(t, -1) for t in text), dtype=np.int64, count=text.shape[0])
    if (indices < 0).any():
        raise InputError(
            f"label {shown(text[np.argmax(indices < 0)])} is not one of the classes {','.join(map(str, classes))}"
        )
    return indices


def as_text(values: np.ndarray) -> np.ndarray:
    """Labels as text; integral floats written without '.0'."""
    if values.dtype.kind == "f" and np.all(values == np.round(values)):
        values = values.astype(np.int64)
    return values.astype(str)
