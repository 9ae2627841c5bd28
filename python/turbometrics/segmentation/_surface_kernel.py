"""The directed surface distances of binary masks or label maps, from the
C++ kernel (``surface_distance.hpp``): validation of the maps, spacing and
connectivity, and the per-class calls.

A map of 1 to 3 dimensions is passed to the kernel as a (planes, rows,
columns) view of itself (no copy for bool, uint8, uint16, int32 and int64
maps; binary masks of other dtypes become one uint8 copy).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

from .. import _core
from .._common.threads import resolve_threads
from .._common.validation import as_array

_KERNEL_DTYPES = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.int32), np.dtype(np.int64))


@dataclass(frozen=True)
class Directed:
    """One class's boundaries and directed distances: ``a_to_b`` holds, in C
    order of ``a``'s boundary pixels, each one's distance to the nearest
    boundary pixel of ``b`` (+inf when ``b`` is empty), and ``b_to_a`` the
    reverse. DeepMind's surfaces (``_surfel``) also have the area of each
    surface point (``a_areas``, ``b_areas``), the distances then sorted
    with them."""

    a_boundary: int
    b_boundary: int
    a_to_b: np.ndarray
    b_to_a: np.ndarray
    a_areas: np.ndarray | None = None
    b_areas: np.ndarray | None = None


def is_integer(value: object) -> bool:
    return isinstance(value, Integral) and not isinstance(value, (bool, np.bool_))


def _as_map(values: Any, name: str) -> np.ndarray:
    array = as_array(values)
    if array.dtype.kind not in "biu":
        raise TypeError(f"{name} must be a mask or label map of bools or integers, got dtype {array.dtype}.")
    if not 1 <= array.ndim <= 3:
        raise ValueError(f"{name} must have 1, 2 or 3 dimensions, got shape {array.shape}.")
    if array.size == 0:
        raise ValueError(f"{name} has no pixels (shape {array.shape}).")
    return array


def check_pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """Both maps as arrays of 1 to 3 dimensions, of one shape, bool or
    integer, with at least one pixel."""
    first, second = _as_map(a, "a"), _as_map(b, "b")
    if first.shape != second.shape:
        raise ValueError(f"a and b have different shapes: {first.shape} and {second.shape}.")
    return first, second


def check_spacing(spacing: Any, ndim: int) -> tuple[float, ...]:
    """The spacing of each axis: None is 1, a number applies to every axis,
    a sequence has one finite positive value per axis."""
    if spacing is None:
        return (1.0,) * ndim
    if isinstance(spacing, Real) and not isinstance(spacing, (bool, np.bool_)):
        values: Sequence[Any] = [spacing] * ndim
    else:
        array = np.asarray(spacing)
        if array.ndim != 1 or array.dtype.kind not in "iuf":
            raise TypeError(f"spacing must be None, a number or a sequence of {ndim} numbers, got {spacing!r}.")
        values = array.tolist()
    if len(values) != ndim:
        raise ValueError(f"spacing must have one value per axis ({ndim}), got {len(values)}.")
    out = tuple(float(v) for v in values)
    if not all(np.isfinite(v) and v > 0 for v in out):
        raise ValueError(f"spacing must be finite and positive, got {out}.")
    return out


def check_connectivity(connectivity: Any) -> int:
    if not is_integer(connectivity) or int(connectivity) < 1:
        raise ValueError(f"connectivity must be an int >= 1, got {connectivity!r}.")
    return min(int(connectivity), 3)


def _view(array: np.ndarray) -> np.ndarray:
    return array.reshape((1,) * (3 - array.ndim) + array.shape) if array.ndim < 3 else array


def _kernel_map(array: np.ndarray) -> np.ndarray:
    if array.dtype.kind == "b":
        return array.view(np.uint8)
    if array.dtype in _KERNEL_DTYPES:
        return array
    return array.astype(np.int64)


def _run(
    a: np.ndarray,
    b: np.ndarray,
    classes: list[int],
    num_classes: int,
    spacing: tuple[float, ...],
    connectivity: int,
    n_threads: int | None,
) -> list[Directed]:
    padded = (1.0,) * (3 - a.ndim) + spacing
    threads = max(1, min(resolve_threads(n_threads), len(classes)))
    raw = _core.segmentation.surface_distances(
        _view(a), _view(b), a.ndim, list(padded), connectivity, num_classes, classes, threads
    )
    return [Directed(int(na), int(nb), ab, ba) for na, nb, ab, ba in raw]


def binary_distances(
    a: np.ndarray, b: np.ndarray, spacing: tuple[float, ...], connectivity: int, n_threads: int | None = None
) -> Directed:
    """The directed distances of two binary masks (non-zero is the object)."""
    masks = [m.view(np.uint8) if m.dtype.kind == "b" else (m != 0).view(np.uint8) for m in (a, b)]
    return _run(masks[0], masks[1], [1], 2, spacing, connectivity, n_threads)[0]


def point_distances(a: np.ndarray, b: np.ndarray, spacing: tuple[float, ...]) -> Directed:
    """The directed distances between the points (non-zero pixels) of two
    boolean arrays of one shape: every point is a boundary pixel
    (connectivity 0)."""
    return _run(a.view(np.uint8), b.view(np.uint8), [1], 2, spacing, 0, 1)[0]


def check_labels(array: np.ndarray, name: str, num_classes: int, ignore_index: int | None) -> None:
    """Every label in [0, num_classes) or equal to ignore_index."""
    values = array
    if ignore_index is not None:
        values = array[array != ignore_index] if array.dtype.kind != "b" else array
    if values.size == 0:
        return
    low, high = int(values.min()), int(values.max())
    if low < 0 or high >= num_classes:
        bad = low if low < 0 else high
        raise ValueError(f"{name} holds the label {bad}, outside [0, {num_classes}) and not ignore_index.")


def label_distances(
    a: np.ndarray,
    b: np.ndarray,
    num_classes: int,
    classes: list[int],
    spacing: tuple[float, ...],
    connectivity: int,
    n_threads: int | None = None,
) -> list[Directed]:
    """The directed distances of the given classes of two label maps, whose
    labels were checked (labels outside [0, num_classes) belong to no
    class)."""
    if not classes:
        return []
    return _run(_kernel_map(a), _kernel_map(b), classes, num_classes, spacing, connectivity, n_threads)
