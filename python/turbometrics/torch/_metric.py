"""The base of the metric classes: torchmetrics' ``Metric`` protocol over
turbometrics' mergeable states.

The base is ``torchmetrics.Metric`` where torchmetrics is installed (so
that ``isinstance(metric, torchmetrics.Metric)`` holds, and Lightning's
``self.log(name, metric)`` logs the metric: it calls ``compute`` at the
epoch's end, logs ``forward``'s value on steps and calls ``reset``), else
``LightMetric``, a ``torch.nn.Module`` with the same protocol. A class
registers no tensor state with ``add_state``: its state is a list of
turbometrics states (one, or one per class), kept on the host, which
torchmetrics' own synchronisation (tensors concatenated or summed) could
not merge. So ``sync`` / ``unsync`` are replaced: ``sync`` gathers every
rank's serialised states (``to_bytes``) and merges them in rank order,
``unsync`` puts the local states back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import torch

from .._common.mergeable import merge_balanced
from .._common.serial import dump_state, load_state
from ._distributed import gather_bytes
from ._light import squeezed

if TYPE_CHECKING:
    from torchmetrics import Metric as _Base
else:
    try:
        from torchmetrics import Metric as _Base
    except ImportError:  # torchmetrics is optional
        from ._light import LightMetric as _Base

_VERSION = 1


class ExactMetric(_Base):
    """A metric class over mergeable states (see the module's docstring).

    Subclasses name their constructor arguments in ``_CONFIG`` (kept as
    attributes of those names; two metrics merge only when they are equal)
    and define ``_new_states``, ``_add`` (check a batch and add it to
    states) and ``_value`` (the result of merged states). A class whose
    ``_add`` checks the batch, then makes one ``update`` of its one state
    (which adds the whole batch or raises with the state unchanged) sets
    ``_ADDS_AT_ONCE``: ``update`` then adds into the metric's state directly,
    without a state of the batch merged in after.
    """

    # torchmetrics' Metric declares these three as (class-level) attributes, not ClassVars
    is_differentiable: bool | None = False
    higher_is_better: bool | None = True
    full_state_update: bool | None = False
    _CONFIG: ClassVar[tuple[str, ...]] = ()
    _ADDS_AT_ONCE: ClassVar[bool] = False
    # set by the base's constructor
    _is_synced: bool
    _update_count: int
    _computed: Any
    _forward_cache: Any

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._local_states: list[Any] | None = None

    # -- what a class defines -------------------------------------------------------------
    def _new_states(self) -> list[Any]:  # pragma: no cover - every class defines it
        raise NotImplementedError

    def _add(self, states: list[Any], preds: torch.Tensor, target: torch.Tensor) -> None:  # pragma: no cover
        raise NotImplementedError

    def _value(self, states: list[Any]) -> Any:  # pragma: no cover - every class defines it
        raise NotImplementedError

    # -- the protocol ---------------------------------------------------------------------
    def _init_states(self) -> None:
        """Called by each class's constructor once its arguments are set."""
        self._states = self._new_states()

    def update(self, preds: torch.Tensor, target: torch.Tensor) -> None:
        """Add a batch. A batch the checks refuse leaves the metric as it was."""
        if self._ADDS_AT_ONCE:
            self._add(self._states, preds, target)
            return
        batch = self._new_states()
        self._add(batch, preds, target)
        self._states = [mine.merge(theirs) for mine, theirs in zip(self._states, batch)]

    def compute(self) -> Any:
        """The value of every sample added since the last ``reset`` (of all
        ranks, under ``torch.distributed``), as float64 tensors on the
        metric's device.

        Raises
        ------
        ValueError
            If no sample was added (on any rank), and as the metric's
            scikit-learn function raises where its value is undefined.
        """
        return self._result(self._states)

    def forward(self, preds: torch.Tensor, target: torch.Tensor) -> Any:
        """Add the batch (as ``update``) and return the batch's own value
        (of every rank's batch with ``dist_sync_on_step=True``).

        Raises
        ------
        ValueError
            As ``compute`` for the batch alone (the batch is added first).
        """
        if self._is_synced:
            raise RuntimeError("The Metric shouldn't be synced when performing ``forward``; call ``unsync`` first.")
        batch = self._new_states()
        self._add(batch, preds, target)
        self._states = [mine.merge(theirs) for mine, theirs in zip(self._states, batch)]
        self._update_count += 1
        self._computed = None
        self._forward_cache = None
        if self.dist_sync_on_step and self.distributed_available_fn():
            batch = self._gathered(batch, self.process_group)
        self._forward_cache = squeezed(self._result(batch))  # as compute's: a one-element tensor as a scalar
        return self._forward_cache

    def reset(self) -> None:
        """Forget every sample."""
        super().reset()
        self._local_states = None
        self._states = self._new_states()

    def merge_state(self, incoming_state: Any) -> None:
        """Add the samples of another metric of this class and arguments.

        Raises
        ------
        ValueError
            If ``incoming_state`` is not a metric of this class, or its
            arguments differ.
        """
        if not isinstance(incoming_state, type(self)):
            raise ValueError(
                f"Expected incoming state to be an instance of {type(self).__name__} but got {type(incoming_state)}"
            )
        self._check_config(incoming_state._config())
        self._states = [mine.merge(theirs) for mine, theirs in zip(self._states, incoming_state._states)]
        self._update_count += incoming_state._update_count
        self._computed = None

    @property
    def states(self) -> tuple[Any, ...]:
        """The turbometrics states (one, or one per class) of the samples
        added on this rank; O(distinct scores), O(bins) or O(classes^2),
        never a list of the samples. They are the metric's own objects, not
        copies: a later ``update`` may add to them in place."""
        return tuple(self._states)

    # -- synchronisation ------------------------------------------------------------------
    def sync(
        self,
        dist_sync_fn: Any = None,
        process_group: Any = None,
        should_sync: bool = True,
        distributed_available: Any = None,
    ) -> None:
        """Replace the local states by those of every rank, merged in rank
        order (a collective: every rank calls it). ``dist_sync_fn`` is not
        used: the states are gathered as bytes."""
        if self._is_synced and should_sync:
            raise RuntimeError("The Metric has already been synced.")
        available = distributed_available if distributed_available is not None else self.distributed_available_fn
        if not should_sync or not (callable(available) and available()):
            return
        self._local_states = self._states
        self._states = self._gathered(self._states, process_group or self.process_group)
        self._is_synced = True

    def unsync(self, should_unsync: bool = True) -> None:
        """Put the local states back after :meth:`sync`."""
        if not should_unsync:
            return
        if not self._is_synced or self._local_states is None:
            raise RuntimeError("The Metric has already been un-synced.")
        self._states, self._local_states = self._local_states, None
        self._is_synced = False

    def _gathered(self, states: list[Any], group: Any) -> list[Any]:
        ranks = [self._loaded(blob) for blob in gather_bytes(self._dump(states), group)]
        return [merge_balanced(list(column)) for column in zip(*ranks)]

    # -- serialisation --------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """The metric's arguments and states as bytes (nothing pickled;
        ``len(metric.to_bytes())`` is the size of its state), which
        :meth:`from_bytes` reads back."""
        return self._dump(self._states)

    @classmethod
    def from_bytes(cls, data: Any) -> Any:
        """A metric of this class from :meth:`to_bytes`'s bytes (validated).

        Raises
        ------
        ValueError
            If the bytes are not such a metric's.
        """
        fields, _ = load_state(data, cls.__name__, _VERSION)
        config = fields.get("config")
        if not isinstance(config, dict) or set(config) != set(cls._CONFIG):
            raise ValueError(f"{cls.__name__} bytes: the arguments must be {list(cls._CONFIG)}")
        metric = cls(**config)
        metric._states = metric._loaded(data)
        metric._update_count = int(metric._states[0].n_samples > 0)  # no "compute before update" warning
        return metric

    def _config(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._CONFIG}

    def _check_config(self, other: dict[str, Any]) -> None:
        for name, value in self._config().items():
            if other.get(name) != value:
                raise ValueError(
                    f"cannot merge {type(self).__name__} metrics with different {name}: {value!r} and "
                    f"{other.get(name)!r}"
                )

    def _dump(self, states: list[Any]) -> bytes:
        arrays = {f"state{i}": np.frombuffer(state.to_bytes(), np.uint8) for i, state in enumerate(states)}
        return dump_state(type(self).__name__, _VERSION, {"config": self._config()}, arrays)

    def _loaded(self, data: Any) -> list[Any]:
        """The states of bytes of a metric of this class and arguments."""
        fields, arrays = load_state(data, type(self).__name__, _VERSION)
        config = fields.get("config")
        self._check_config(config if isinstance(config, dict) else {})
        empty = self._new_states()
        names = [f"state{i}" for i in range(len(empty))]
        if sorted(arrays) != sorted(names):
            raise ValueError(f"{type(self).__name__} bytes: expected the arrays {names}")
        return [type(state).from_bytes(arrays[name].tobytes()) for state, name in zip(empty, names)]

    # -- results --------------------------------------------------------------------------
    def _result(self, states: list[Any]) -> Any:
        if states[0].n_samples == 0:
            raise ValueError(
                f"{type(self).__name__} has no samples: update was not called with data"
                f"{' on any rank' if self._is_synced else ''} since the last reset."
            )
        return self._value(states)

    def _tensor(self, value: Any) -> torch.Tensor:
        """A float64 tensor of ``value`` on the metric's device."""
        return torch.from_numpy(np.array(value, dtype=np.float64)).to(self.device)
