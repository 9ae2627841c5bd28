"""What every ``turbometrics.spark`` function does: one state per partition
(or per row of a partition), built on the executors by a ``mapInArrow``
function and shipped back as ``to_bytes()``; the driver reads them back and
merges them in a balanced tree. Only states reach the driver, never rows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .._common.mergeable import merge_balanced

# The schema of what the partition functions yield: one serialised state per row.
STATE_SCHEMA = "state binary"


def state_batch(states: list[bytes]) -> Any:
    """An Arrow record batch of serialised states (one column, ``state``)."""
    import pyarrow as pa

    return pa.RecordBatch.from_arrays([pa.array(states, type=pa.binary())], names=["state"])


def merged_state(frame: Any, partition: Callable[[Iterator[Any]], Iterator[Any]], from_bytes: Callable) -> Any:
    """``partition`` run on every partition of ``frame`` (``mapInArrow``,
    yielding :func:`state_batch` batches), the states read back with
    ``from_bytes`` on the driver, in partition order, and merged pairwise
    level by level. None when no partition yielded a state."""
    rows = frame.mapInArrow(partition, STATE_SCHEMA).collect()
    states = [from_bytes(bytes(row.state)) for row in rows]
    return merge_balanced(states) if states else None


def session_or_active(spark: Any) -> Any:
    """``spark``, or the active SparkSession (one is created, as
    ``SparkSession.builder.getOrCreate()`` does, when there is none)."""
    if spark is not None:
        return spark
    from pyspark.sql import SparkSession

    return SparkSession.builder.getOrCreate()
