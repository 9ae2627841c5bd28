"""What every ``turbometrics.spark`` function does: one state per partition
(or per row of a partition), built on the executors by a ``mapInArrow``
function and shipped back as ``to_bytes()``; the driver reads them back and
merges them in a balanced tree. Only states reach the driver, never rows.

A ValueError or TypeError raised on an executor (bad input) comes back as a
row of its own and is raised again on the driver with the same type and
message, as the in-memory functions raise it.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .._common.mergeable import merge_balanced

# What the partition functions yield: a serialised state per row, or the
# type name and message of the input error that stopped the partition.
STATE_SCHEMA = "state binary, error_type string, error string"
_ERRORS: dict[str, type[Exception]] = {"ValueError": ValueError, "TypeError": TypeError}


def _batch(states: Sequence[bytes | None], error_type: str | None = None, error: str | None = None) -> Any:
    import pyarrow as pa

    return pa.RecordBatch.from_arrays(
        [
            pa.array(states, type=pa.binary()),
            pa.array([error_type] * len(states), type=pa.string()),
            pa.array([error] * len(states), type=pa.string()),
        ],
        names=["state", "error_type", "error"],
    )


def on_executors(build: Callable[[Iterator[Any]], Iterator[bytes]]) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The ``mapInArrow`` function that yields what ``build(batches)``
    yields (serialised states) as record batches of :data:`STATE_SCHEMA`,
    and, when ``build`` raises ValueError or TypeError (or a subclass), one
    row that carries it to the driver instead."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        try:
            states = list(build(batches))
        except (ValueError, TypeError) as error:
            yield _batch([None], "ValueError" if isinstance(error, ValueError) else "TypeError", str(error))
            return
        if states:
            yield _batch(states)

    return run


def merged_state(frame: Any, build: Callable[[Iterator[Any]], Iterator[bytes]], from_bytes: Callable) -> Any:
    """``build`` run on every partition of ``frame`` (see
    :func:`on_executors`), the states read back with ``from_bytes`` on the
    driver, in partition order, and merged pairwise level by level. None
    when no partition yielded a state.

    Raises
    ------
    ValueError, TypeError
        The first input error raised on an executor, with its message.
    """
    with pyspark_quiet():
        rows = frame.mapInArrow(on_executors(build), STATE_SCHEMA).collect()
    for row in rows:
        if row.error_type is not None:
            raise _ERRORS[row.error_type](row.error)
    states = [from_bytes(bytes(row.state)) for row in rows]
    return merge_balanced(states) if states else None


def session_or_active(spark: Any) -> Any:
    """``spark``, or the active SparkSession (one is created, as
    ``SparkSession.builder.getOrCreate()`` does, when there is none)."""
    if spark is not None:
        return spark
    from pyspark.sql import SparkSession

    with pyspark_quiet():
        return SparkSession.builder.getOrCreate()


@contextlib.contextmanager
def pyspark_quiet() -> Iterator[None]:
    """Within: pyspark's FutureWarning "PySpark does not yet fully support
    pandas >= 3.0.0" is not shown (turbometrics.spark uses Arrow, not
    pandas). Only that warning, and only within: the filter is the
    ``warnings.catch_warnings`` context's, undone on leaving it."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
        yield
