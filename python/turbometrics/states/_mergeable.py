"""What the states share: ``+`` and ``sum()`` as merge, sample counts,
per-row (or per-bin) class weights, the merged ``pos_label`` and the pickle
version check."""

from __future__ import annotations

import copy
from typing import Any, Tuple

import numpy as np


class Mergeable:
    """Mixin: ``a + b`` is ``a.merge(b)``, and ``sum(states)`` works (it
    starts from ``0 + first``, a copy of the first state)."""

    def merge(self, other: Any) -> Any:  # pragma: no cover - every state defines it
        raise NotImplementedError

    def __add__(self, other: Any) -> Any:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.merge(other)

    def __radd__(self, other: Any) -> Any:
        if isinstance(other, int) and other == 0:  # sum(states) starts from 0
            return copy.deepcopy(self)
        return NotImplemented


class CountedSamples(Mergeable):
    """Mixin for states that count their samples and note weights."""

    _n: int
    _weighted: bool

    @property
    def n_samples(self) -> int:
        """Number of samples added."""
        return self._n

    @property
    def weighted(self) -> bool:
        """Whether some batch had sample weights."""
        return self._weighted


class ClassWeights(Mergeable):
    """Mixin: ``positive``/``negative`` weight arrays (int64 counts, or
    float64 when weighted)."""

    _positive: np.ndarray
    _negative: np.ndarray

    @property
    def positive(self) -> np.ndarray:
        """Positive weight per row (int64 counts, or float64 when weighted)."""
        return self._positive

    @property
    def negative(self) -> np.ndarray:
        """Negative weight per row (int64 counts, or float64 when weighted)."""
        return self._negative

    @property
    def weighted(self) -> bool:
        """Whether sample weights were given (merging with weighted data
        promotes counts to float64 weights)."""
        return self._positive.dtype.kind == "f"


def merged_pos_label(a: Any, b: Any) -> Any:
    """The pos_label of a merge: the one set (None means "not set"); two
    different ones raise ValueError."""
    if a is not None and b is not None:
        try:
            same = bool(a == b)
        except (TypeError, ValueError):
            same = False
        if not same:
            raise ValueError(f"cannot merge states of different pos_label: {a!r} and {b!r}")
    return a if a is not None else b


def check_mergeable(state: Any, other: Any, parameters: Tuple[str, ...] = ()) -> None:
    """Raise TypeError unless ``other`` is a state of ``state``'s class, and
    ValueError naming the first of ``parameters`` in which they differ."""
    kind = type(state).__name__
    if not isinstance(other, type(state)):
        raise TypeError(f"cannot merge a {kind} with {type(other).__name__}")
    for name in parameters:
        mine, theirs = getattr(state, name), getattr(other, name)
        if mine != theirs:
            raise ValueError(f"cannot merge {kind}s with different {name}: {mine!r} and {theirs!r}")


def check_version(state: Any, name: str, version: int) -> None:
    """Raise ValueError unless a pickled state dict has this ``version``."""
    found = state.get("version") if isinstance(state, dict) else None
    if found != version:
        raise ValueError(f"{name} pickle version {found!r} is not supported (this is version {version})")
