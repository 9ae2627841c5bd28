"""What the states share: ``+`` and ``sum()`` as merge, sample counts,
per-row (or per-bin) class weights, the merged ``pos_label``, the pickle
version check, and serialisation (pickle and :meth:`Serialisable.to_bytes`
/ :meth:`Serialisable.from_bytes`) through one validating constructor,
with the checks it is made of."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

import numpy as np

from .serial import dump_state, load_state

_S = TypeVar("_S", bound="Serialisable")
_LABEL_TYPES = (bool, int, float, str, np.bool_, np.integer, np.floating, np.str_)


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


def merge_balanced(states: list[Any]) -> Any:
    """``states`` (a non-empty list) merged pairwise, level by level: each
    row is copied about log2(len(states)) times (a left fold would copy the
    first ones len(states) times). The merge order depends only on the
    list's order."""
    while len(states) > 1:
        states = [
            states[i].merge(states[i + 1]) if i + 1 < len(states) else states[i] for i in range(0, len(states), 2)
        ]
    return states[0]


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


def check_mergeable(state: Any, other: Any, parameters: tuple[str, ...] = ()) -> None:
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


class Serialisable:
    """Mixin: pickling and ``to_bytes`` / ``from_bytes`` of a state given by
    its parts, a flat mapping of names to JSON-able values (numbers,
    strings, booleans, None, lists) and NumPy arrays (numeric, bool or
    fixed-width string dtypes).

    A state defines ``_VERSION``, :meth:`_parts` and :meth:`_from_parts`,
    the one constructor from parts, which checks every invariant the
    kernels and metrics rely on and raises ValueError naming the field.
    Unpickling (``__setstate__``) and :meth:`from_bytes` both go through
    it; a pickle is the parts plus ``"version"``.
    """

    _VERSION: int = 1

    def _parts(self) -> dict[str, Any]:  # pragma: no cover - every state defines it
        raise NotImplementedError

    @classmethod
    def _from_parts(cls: type[_S], parts: dict[str, Any]) -> _S:  # pragma: no cover - every state defines it
        raise NotImplementedError

    def __getstate__(self) -> dict[str, Any]:
        return {"version": self._VERSION, **self._parts()}

    def __setstate__(self, state: Any) -> None:
        name = type(self).__name__
        check_version(state, name, self._VERSION)
        parts = {key: value for key, value in state.items() if key != "version"}
        self.__dict__.update(type(self)._from_parts(parts).__dict__)

    def to_bytes(self) -> bytes:
        """The state as bytes that :meth:`from_bytes` reads back: a NumPy
        ``.npz`` archive of the state's arrays and a JSON header of its
        other fields (layout: ``turbometrics._common.serial``;
        docs/guide/states.md, "Serialising states"). Nothing in it is pickled."""
        parts = self._parts()
        arrays = {key: value for key, value in parts.items() if isinstance(value, np.ndarray)}
        fields = {key: value for key, value in parts.items() if key not in arrays}
        return dump_state(type(self).__name__, self._VERSION, fields, arrays)

    @classmethod
    def from_bytes(cls: type[_S], data: Any) -> _S:
        """The state of bytes written by :meth:`to_bytes`: only arrays and
        JSON are read (never pickled code), and the state is validated as
        an unpickled one is.

        Raises
        ------
        ValueError
            If the bytes are not such a state (truncated, altered, another
            kind or version) or the state they hold is inconsistent.
        TypeError
            If ``data`` is not bytes.
        """
        fields, arrays = load_state(data, cls.__name__, cls._VERSION)
        both = sorted(set(fields) & set(arrays))
        if both:
            raise ValueError(f"{cls.__name__} bytes: {both[0]!r} is both a field and an array")
        return cls._from_parts({**fields, **arrays})


# -- checks of a state's parts (each raises ValueError naming the field) ----------------------
def check_keys(kind: str, parts: Mapping[str, Any], names: Iterable[str]) -> None:
    """The parts hold exactly ``names``."""
    names = set(names)
    missing, unknown = sorted(names - set(parts)), sorted(set(parts) - names)
    if missing or unknown:
        raise ValueError(f"{kind}: missing fields {missing}, unknown fields {unknown}")


def part_array(parts: Mapping[str, Any], name: str, kinds: str, ndim: int, wide: bool = True) -> np.ndarray:
    """``parts[name]``, a ``ndim``-D array of a dtype kind among ``kinds``
    ('b', 'i', 'u', 'f', 'U'), 64-bit if numeric and ``wide``, as a
    contiguous native-byte-order array."""
    value = parts[name]
    if (
        not isinstance(value, np.ndarray)
        or value.ndim != ndim
        or value.dtype.kind not in kinds
        or (wide and value.dtype.kind in "iuf" and value.dtype.itemsize != 8)
    ):
        shown = f"{value.ndim}-D {value.dtype}" if isinstance(value, np.ndarray) else type(value).__name__
        raise ValueError(f"{name} must be a {ndim}-D array of kind {kinds!r} (64-bit numbers), got {shown}")
    return np.ascontiguousarray(value, dtype=value.dtype.newbyteorder("="))


def part_int(parts: Mapping[str, Any], name: str, low: int = 0, high: int = 2**63 - 1) -> int:
    """``parts[name]``, an int (not a bool) in [low, high]."""
    value = parts[name]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ValueError(f"{name} must be an int in [{low}, {high}], got {value!r}")
    return int(value)


def part_bool(parts: Mapping[str, Any], name: str) -> bool:
    value = parts[name]
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def part_choice(parts: Mapping[str, Any], name: str, options: tuple[Any, ...]) -> Any:
    value = parts[name]
    if not any(value is option or (isinstance(value, str) and value == option) for option in options):
        raise ValueError(f"{name} must be one of {options}, got {value!r}")
    return value


def part_label(parts: Mapping[str, Any], name: str = "pos_label") -> Any:
    """A label value: None, a bool, a number (not NaN) or a string."""
    value = parts[name]
    if value is not None and (not isinstance(value, _LABEL_TYPES) or value != value):
        raise ValueError(f"{name} must be None, a number or a string, got {value!r}")
    return value.item() if isinstance(value, np.generic) else value


def check_counts_or_weights(name: str, values: np.ndarray, non_negative_weights: bool = False) -> None:
    """int64 counts non-negative and totalling less than 2**62 (the kernels
    sum them in int64), or float64 weights finite (and non-negative if
    asked)."""
    if values.dtype.kind == "f":
        if not np.isfinite(values).all():
            raise ValueError(f"{name} weights must be finite")
        if non_negative_weights and values.size and values.min() < 0:
            raise ValueError(f"{name} weights must be non-negative")
        return
    if values.size and values.min() < 0:
        raise ValueError(f"{name} counts must be non-negative")
    if float(values.sum(dtype=np.float64)) >= 2.0**62:
        raise ValueError(f"{name} counts must total less than 2**62")


def check_merged_counts(name: str, *tables: np.ndarray) -> None:
    """Counts about to be summed by a merge total less than 2**62, the bound
    :func:`check_counts_or_weights` puts on one state, so that a merge
    never wraps int64 and its result loads back (float weights pass)."""
    if any(table.dtype.kind == "f" for table in tables):
        return
    total = sum(int(table.sum(dtype=np.int64)) for table in tables)  # each below 2**62: exact
    if total >= 2**62:
        raise ValueError(f"merged {name} counts must total less than 2**62, got {total}")


def check_sorted_distinct(name: str, values: np.ndarray, descending: bool = False) -> None:
    """No NaN, each value above (``descending``: below) the one before."""
    if values.dtype.kind == "f" and np.isnan(values).any():
        raise ValueError(f"{name} must not be NaN")
    before, after = (values[1:], values[:-1]) if descending else (values[:-1], values[1:])
    if values.shape[0] > 1 and not np.all(before < after):
        raise ValueError(f"{name} must be distinct and in {'descending' if descending else 'ascending'} order")
