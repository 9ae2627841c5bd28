"""Many states' parts in one archive, by columns: what the Evaluator
stores for its whole and each group, so that a group costs what its
states hold, not an archive of its own.

A *record* is one state's parts (see :class:`~.mergeable.Serialisable`):
names mapped to JSON values or arrays (None standing for an absent array).
:func:`columns` turns records that share their names into one column per
name:

* ``<prefix><name>``: the list of the records' values, when none is an
  array;
* otherwise ``<prefix><name>`` is one uint8 array of every record's array
  bytes, one after the other (native byte order, C order), with
  ``<prefix><name>.dtype`` (each record's dtype string, or None),
  ``<prefix><name>.shape`` (each shape, or None) and
  ``<prefix><name>.window`` (None, or for exact-sum limbs, arrays of shape
  ``(n, EXACT_SUM_LIMBS)`` uint64, the ``[lo, hi)`` limb columns kept: the
  others are zero, so a sum costs the limbs its value spans).

:func:`records` reads them back, checking every dtype, shape and window
against the bytes before it allocates anything; the records are then
validated by the states' own constructors.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .serial import EXACT_SUM_LIMBS, array_dtype

_SUFFIXES = (".dtype", ".shape", ".window")


def columns(records: Sequence[Mapping[str, Any]], prefix: str) -> dict[str, Any]:
    """The columns of ``records`` (all with the same names), named
    ``<prefix><name>``."""
    out: dict[str, Any] = {}
    for name in records[0] if records else ():
        values = [record[name] for record in records]
        if not any(isinstance(value, np.ndarray) for value in values):
            out[prefix + name] = values
            continue
        chunks: list[np.ndarray] = []
        layouts: list[tuple[str | None, list[int] | None, list[int] | None]] = []
        for value in values:
            if value is None:
                layouts.append((None, None, None))
                continue
            if not isinstance(value, np.ndarray):
                raise TypeError(f"{prefix}{name} holds arrays and a {type(value).__name__}")
            array = np.ascontiguousarray(value, dtype=value.dtype.newbyteorder("="))
            window = _window(array)
            if window is not None:
                array = np.ascontiguousarray(array[:, window[0] : window[1]])
            chunks.append(array.reshape(-1).view(np.uint8))
            layouts.append((array.dtype.str, list(value.shape), window))
        out[prefix + name] = np.concatenate(chunks) if chunks else np.zeros(0, np.uint8)
        for suffix, column in zip(_SUFFIXES, zip(*layouts)):
            out[prefix + name + suffix] = list(column)
    return out


def _window(array: np.ndarray) -> list[int] | None:
    """The limb columns ``[lo, hi)`` outside which exact-sum limbs are zero
    (at least one column); None for other arrays."""
    if array.ndim != 2 or array.dtype != np.uint64 or array.shape[1] != EXACT_SUM_LIMBS:
        return None
    used = np.flatnonzero(array.any(axis=0))
    return [0, 1] if used.size == 0 else [int(used[0]), int(used[-1]) + 1]


def column_names(parts: Mapping[str, Any], prefix: str) -> set[str]:
    """The record names that ``parts`` holds columns of under ``prefix``
    (record names hold no dot).

    Raises
    ------
    ValueError
        For a name under ``prefix`` that no column would have.
    """
    names = set()
    for key in parts:
        if key.startswith(prefix):
            name, dot, suffix = key[len(prefix) :].partition(".")
            if dot and "." + suffix not in _SUFFIXES:
                raise ValueError(f"unknown field {key!r}")
            names.add(name)
    return names


def records(parts: Mapping[str, Any], prefix: str, names: set[str], count: int) -> list[dict[str, Any]]:
    """The ``count`` records of the columns :func:`columns` wrote under
    ``prefix`` for ``names``.

    Raises
    ------
    ValueError
        Naming the column, for a column that is not a list of ``count``
        values, a dtype or shape that is not one of an array, or bytes that
        are not exactly what the dtypes, shapes and windows call for.
    """
    out: list[dict[str, Any]] = [{} for _ in range(count)]
    for name in names:
        key = prefix + name
        if key + ".dtype" not in parts:
            values = _listed(parts, key, count)
            for record, value in zip(out, values):
                record[name] = value
            continue
        for record, value in zip(out, _arrays(parts, key, count)):
            record[name] = value
    return out


def _listed(parts: Mapping[str, Any], key: str, count: int) -> list[Any]:
    values = parts.get(key)
    if not isinstance(values, list) or len(values) != count:
        raise ValueError(f"{key} must be a list of {count} values")
    return values


def _arrays(parts: Mapping[str, Any], key: str, count: int) -> list[np.ndarray | None]:
    """The arrays of one array column, sizes checked before allocation."""
    data = parts.get(key)
    if not isinstance(data, np.ndarray) or data.dtype != np.uint8 or data.ndim != 1:
        raise ValueError(f"{key} must be a 1-D uint8 array")
    dtypes, shapes = _listed(parts, key + ".dtype", count), _listed(parts, key + ".shape", count)
    windows = _listed(parts, key + ".window", count)
    layouts: list[tuple[np.dtype, tuple[int, ...], list[int] | None] | None] = []
    total = 0
    for dtype_name, shape, window in zip(dtypes, shapes, windows):
        if dtype_name is None and shape is None and window is None:
            layouts.append(None)
            continue
        if not isinstance(dtype_name, str) or not isinstance(shape, list):
            raise ValueError(f"{key}: a dtype name and a shape, or neither")
        dtype = array_dtype(dtype_name, key)
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
            raise ValueError(f"{key}: shape {shape!r} is not a list of non-negative ints")
        stored = list(shape)
        if window is not None:
            if not (
                dtype == np.uint64
                and len(shape) == 2
                and shape[1] == EXACT_SUM_LIMBS
                and isinstance(window, list)
                and len(window) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in window)
                and 0 <= window[0] < window[1] <= EXACT_SUM_LIMBS
            ):
                raise ValueError(f"{key}: window {window!r} is not limb columns of exact sums")
            stored[1] = window[1] - window[0]
        total += math.prod(stored) * dtype.itemsize
        layouts.append((dtype, tuple(shape), window))
        if total > data.shape[0]:
            break
    if total != data.shape[0]:
        raise ValueError(f"{key}: the shapes call for {total} bytes or more, the column holds {data.shape[0]}")
    out: list[np.ndarray | None] = []
    start = 0
    for layout in layouts:
        if layout is None:
            out.append(None)
            continue
        dtype, shape, window = layout
        if window is None:
            size = math.prod(shape) * dtype.itemsize
            out.append(data[start : start + size].view(dtype).reshape(shape).copy())
        else:
            width = window[1] - window[0]
            size = shape[0] * width * dtype.itemsize
            array = np.zeros(shape, dtype)
            array[:, window[0] : window[1]] = data[start : start + size].view(dtype).reshape(shape[0], width)
            out.append(array)
        start += size
    return out
