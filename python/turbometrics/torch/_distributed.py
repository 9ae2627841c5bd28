"""The states of every rank, exactly: each rank's serialised state (bytes,
from ``to_bytes``) gathered with ``torch.distributed.all_gather_object``,
in rank order. Every rank of the group must call it (it is a collective)."""

from __future__ import annotations

from typing import Any


def distributed_ready() -> bool:
    """Whether ``torch.distributed`` is available and initialised."""
    import torch.distributed as dist

    return bool(dist.is_available() and dist.is_initialized())


def gather_bytes(data: bytes, group: Any = None) -> list[bytes]:
    """``data`` of every rank of ``group`` (None: the default group), in
    rank order."""
    import torch.distributed as dist

    gathered: list[Any] = [None] * dist.get_world_size(group)
    dist.all_gather_object(gathered, data, group=group)
    return [bytes(blob) for blob in gathered]
