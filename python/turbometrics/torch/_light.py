"""The base of the metric classes where torchmetrics is not installed: a
``torch.nn.Module`` with torchmetrics' ``Metric`` protocol as far as the
classes use it (``update`` counted and ``compute`` cached and synced, the
keyword arguments ``sync_on_compute``, ``compute_with_cache``,
``dist_sync_on_step``, ``process_group``, ``distributed_available_fn``,
``compute_on_cpu``, ``dist_sync_fn``), so that the classes behave the same
with and without torchmetrics."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import torch

from ._distributed import distributed_ready

_FLAGS = ("compute_on_cpu", "dist_sync_on_step", "sync_on_compute", "compute_with_cache")


def squeezed(value: Any) -> Any:
    """A one-element tensor (alone or in a tuple) as a scalar, as torchmetrics returns it."""
    if isinstance(value, tuple):
        return tuple(squeezed(part) for part in value)
    return value.squeeze() if isinstance(value, torch.Tensor) and value.numel() == 1 else value


class LightMetric(torch.nn.Module):
    """torchmetrics' ``Metric`` protocol without torchmetrics."""

    # defined by the metric classes' base (ExactMetric), as torchmetrics' Metric defines them
    sync: Callable[..., None]
    unsync: Callable[..., None]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        defaults = {"compute_on_cpu": False, "dist_sync_on_step": False, "sync_on_compute": True}
        for name in _FLAGS:
            value = kwargs.pop(name, defaults.get(name, True))
            if not isinstance(value, bool):
                raise ValueError(f"Expected keyword argument `{name}` to be a `bool` but got {value}")
            setattr(self, name, value)
        self.process_group = kwargs.pop("process_group", None)
        self.dist_sync_fn = kwargs.pop("dist_sync_fn", None)
        self.distributed_available_fn = kwargs.pop("distributed_available_fn", None) or distributed_ready
        if kwargs:
            raise ValueError(f"Unexpected keyword arguments: {', '.join(f'`{a}`' for a in sorted(kwargs))}")
        self._device = torch.device("cpu")
        self._update_count = 0
        self._computed: Any = None
        self._forward_cache: Any = None
        self._is_synced = False
        self._to_sync = self.sync_on_compute
        self._should_unsync = True
        self._wrap()

    def _wrap(self) -> None:
        self.update: Callable[..., None] = self._wrap_update(self.update)
        self.compute: Callable[..., Any] = self._wrap_compute(self.compute)

    def _wrap_update(self, update: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(update)
        def wrapped(*args: Any, **kwargs: Any) -> None:
            self._computed = None
            self._update_count += 1
            with torch.no_grad():
                update(*args, **kwargs)

        return wrapped

    def _wrap_compute(self, compute: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(compute)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if self._update_count == 0:
                warnings.warn(
                    f"The ``compute`` method of metric {type(self).__name__} was called before the ``update`` method"
                    " which may lead to errors, as metric states have not yet been updated.",
                    UserWarning,
                    stacklevel=2,
                )
            if self._computed is not None:
                return self._computed
            self.sync(should_sync=self._to_sync)
            try:
                value = compute(*args, **kwargs)
            finally:
                self.unsync(should_unsync=self._is_synced and self._should_unsync)
            value = squeezed(value)
            if self.compute_with_cache:
                self._computed = value
            return value

        return wrapped

    @property
    def update_called(self) -> bool:
        """Whether ``update`` or ``forward`` ran since the last ``reset``."""
        return self._update_count > 0

    @property
    def update_count(self) -> int:
        """The calls of ``update`` and ``forward`` since the last ``reset``."""
        return self._update_count

    @property
    def device(self) -> torch.device:
        """The device of the results (``.to(device)`` moves it)."""
        return self._device

    def _apply(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        self._device = fn(torch.zeros(0, device=self._device)).device
        return super()._apply(fn, *args, **kwargs)

    def reset(self) -> None:
        """Forget every sample."""
        self._update_count = 0
        self._forward_cache = None
        self._computed = None
        self._is_synced = False

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("update", "compute")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._wrap()
