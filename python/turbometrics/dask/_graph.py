"""Task-graph plumbing shared by every ``turbometrics.dask`` metric.

Inputs (dask arrays, dask Series or NumPy arrays) are aligned block by block
and turned into one task per block that builds a mergeable state; the states
are then combined by a tree of merge tasks (``split_every`` states per task).
Nothing is ever shuffled: every task reads one block or a few states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from numbers import Integral
from typing import Any

import dask
import dask.array as da
import numpy as np

from .._common.mergeable import merge_balanced

DEFAULT_SPLIT_EVERY = 8
# NumPy input is cut into blocks of this many rows.
NUMPY_BLOCK_ROWS = 1 << 22


def _is_dask_series(value: Any) -> bool:
    return type(value).__name__ == "Series" and hasattr(value, "npartitions") and hasattr(value, "divisions")


def _as_dask_array(value: Any, name: str, rows: Sequence[int] | None) -> Any:
    if isinstance(value, da.Array):
        return value
    if _is_dask_series(value) or type(value).__name__ == "DataFrame":
        raise TypeError(
            f"{name} is a dask {type(value).__name__} but other inputs are dask arrays or NumPy arrays: "
            "pass all inputs as dask arrays (Series.to_dask_array(lengths=True)) or all as dask Series"
        )
    array = np.asarray(value)
    if array.ndim == 0:
        raise ValueError(f"{name} must be an array, got a scalar {value!r}")
    chunks = (tuple(rows),) if rows is not None else (NUMPY_BLOCK_ROWS,)
    return da.from_array(array, chunks=chunks + tuple((-1,) * (array.ndim - 1)))


def _check_lengths(lengths: list[float]) -> None:
    known = [int(n) for n in lengths if not np.isnan(n)]
    if len(set(known)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {known}")


def _aligned_arrays(named: dict) -> list[Any]:
    """Dask arrays of the named inputs, chunked alike along the rows (the
    first dask array's row chunks; NumPy input is cut the same way)."""
    reference = next((v for v in named.values() if isinstance(v, da.Array)), None)
    rows = reference.chunks[0] if reference is not None and not np.isnan(reference.shape[0]) else None
    arrays = [_as_dask_array(value, name, rows) for name, value in named.items()]
    for name, array in zip(named, arrays):
        if array.ndim not in (1, 2):
            raise ValueError(f"{name} must be 1-D or 2-D, got {array.ndim} dimensions")
    _check_lengths([a.shape[0] for a in arrays])
    first = arrays[0]
    aligned = []
    for name, array in zip(named, arrays):
        if array.ndim == 2 and array.numblocks[1] != 1:
            array = array.rechunk({1: -1})
        if array.chunks[0] != first.chunks[0]:
            if any(np.isnan(c) for c in array.chunks[0] + first.chunks[0]):
                raise ValueError(
                    f"the blocks of {name} do not line up with those of {next(iter(named))} and their "
                    "sizes are unknown: call compute_chunk_sizes() on the arrays (or build them with "
                    "known chunks) so that they can be rechunked alike"
                )
            array = array.rechunk({0: first.chunks[0]})
        aligned.append(array)
    return aligned


def _aligned_series(named: dict) -> list[Any]:
    series = list(named.values())
    for name, value in named.items():
        if not _is_dask_series(value):
            raise TypeError(f"{name} must be a dask Series like the other inputs, got {type(value).__name__}")
    first = series[0]
    if all(s.npartitions == first.npartitions for s in series):
        return series
    if all(s.known_divisions for s in series):
        return [s if s.divisions == first.divisions else s.repartition(divisions=first.divisions) for s in series]
    counts = {name: s.npartitions for name, s in named.items()}
    raise ValueError(
        f"the dask Series have different numbers of partitions {counts} and unknown divisions: "
        "repartition them alike (or take them as columns of one DataFrame)"
    )


def _block_task(build: Callable[..., Any], names: Sequence[str]) -> Callable[..., Any]:
    def task(*blocks: Any) -> Any:
        values = [np.asarray(b.to_numpy() if hasattr(b, "to_numpy") else b) for b in blocks]
        lengths = {len(v) for v in values}
        if len(lengths) > 1:
            sizes = {n: len(v) for n, v in zip(names, values)}
            raise ValueError(
                f"a partition of the inputs has different lengths {sizes}: the partitions of the "
                "inputs must line up row for row"
            )
        return build(*values)

    return task


def block_states(build: Callable[..., Any], **inputs: Any) -> list[Any]:
    """One Delayed per aligned block: ``build(*blocks)`` where the blocks are
    NumPy arrays of the inputs given (None inputs are left out)."""
    named = {name: value for name, value in inputs.items() if value is not None}
    task = _block_task(build, list(named))
    if any(_is_dask_series(v) for v in named.values()):
        series = _aligned_series(named)
        return [dask.delayed(task, pure=True)(*parts) for parts in zip(*(s.to_delayed() for s in series))]
    arrays = _aligned_arrays(named)
    blocks = [a.to_delayed().reshape(-1) if a.ndim == 1 else a.to_delayed()[:, 0] for a in arrays]
    return [dask.delayed(task, pure=True)(*parts) for parts in zip(*blocks)]


def check_split_every(split_every: int | None) -> int:
    if split_every is None:
        return DEFAULT_SPLIT_EVERY
    if isinstance(split_every, bool) or not isinstance(split_every, Integral) or split_every < 2:
        raise ValueError(f"split_every must be an int >= 2 or None, got {split_every!r}")
    return int(split_every)


def _merge_all(*states: Any) -> Any:
    return merge_balanced(list(states))


def tree_reduce(parts: list[Any], split_every: int, combine: Callable[..., Any] = _merge_all) -> Any:
    """Combine Delayed parts ``split_every`` at a time, level by level, into
    one Delayed (a single part is returned as is)."""
    if not parts:
        raise ValueError("Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required.")
    level = list(parts)
    while len(level) > 1:
        level = [
            dask.delayed(combine, pure=True)(*level[i : i + split_every]) for i in range(0, len(level), split_every)
        ]
    return level[0]
