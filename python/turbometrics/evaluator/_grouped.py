"""What the Evaluator and the SegmentationEvaluator share: a part of all
the data and one part per group, behind the evaluator's lock: the group
labels in natural order, a group's part made on first use, merges (with
the locks of both evaluators, and of an evaluator with itself), ``+`` and
``sum()``, the results of every part with the groups' gaps, and pickles
read under the lock."""

from __future__ import annotations

import copy
import math
import threading
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar

from .._common.mergeable import Serialisable

OVERALL = "overall"


class _Mergeable(Protocol):
    def merge(self, other: Any, /) -> None: ...


PartT = TypeVar("PartT", bound=_Mergeable)


class GroupedParts(Serialisable, Generic[PartT]):
    """Base of the evaluators: ``_overall``, the part of all the data;
    ``_groups``, each group's part; ``_lock``, held by every method. A
    subclass defines ``_part()`` (an empty part) and ``_values(part,
    group)`` (the metrics of a part, ``group`` None for the whole) and
    ``merge(other)``, which checks ``other`` and calls ``_merge_parts``."""

    _lock: threading.RLock
    _overall: PartT
    _groups: dict[Any, PartT]

    if TYPE_CHECKING:

        def _part(self) -> PartT: ...

        def _values(self, part: PartT, group: Any) -> dict[str, Any]: ...

        def merge(self, other: Self) -> Self: ...

    @property
    def groups(self) -> list[Any]:
        """The group labels seen, in natural order (numbers, then text)."""
        return sorted(self._groups, key=_natural)

    def _group(self, key: Any) -> PartT:
        part = self._groups.get(key)
        if part is None:
            part = self._groups[key] = self._part()
        return part

    def _merge_parts(self, other: Self) -> Self:
        """Add ``other``'s parts (checked mergeable) after this one's, under
        both locks; a copy of ``other`` when it is this evaluator."""
        with _locked(self, other):
            if other is self:
                other = copy.deepcopy(other)
            self._overall.merge(other._overall)
            for key, part in other._groups.items():
                self._group(key).merge(part)
        return self

    def __add__(self, other: Any) -> Self:
        if not isinstance(other, type(self)):
            return NotImplemented
        return copy.deepcopy(self).merge(other)

    def __radd__(self, other: Any) -> Self:
        if isinstance(other, int) and other == 0:  # sum(evaluators) starts from 0
            return copy.deepcopy(self)
        return NotImplemented

    def _results(self) -> dict[str, dict[str, Any]]:
        """``{"overall": ..., "by_group": ..., "gap": ...}`` of the parts
        (under the lock)."""
        with self._lock:
            overall = self._values(self._overall, None)
            by_group = {key: self._values(self._groups[key], key) for key in self.groups}
        return {"overall": overall, "by_group": by_group, "gap": _gaps(by_group)}

    def _counts(self, name: str) -> dict[Any, int]:
        """The count ``name`` of each part, the whole's (``"overall"``) first."""
        return {
            OVERALL: getattr(self._overall, name),
            **{key: getattr(part, name) for key, part in self._groups.items()},
        }

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:  # pickles and deep copies read a consistent set of parts
            return super().__getstate__()


def _natural(key: Any) -> tuple[int, Any]:
    """Sort key of group labels: booleans and numbers in order, then text."""
    if isinstance(key, (bool, int, float)):
        return (0, key)
    return (1, str(key))


@contextmanager
def _locked(*evaluators: GroupedParts[Any]) -> Iterator[None]:
    """Hold the locks of ``evaluators``, taken in one global order (by
    ``id``) so that ``a.merge(b)`` and ``b.merge(a)`` in two threads cannot
    deadlock."""
    with ExitStack() as stack:
        for evaluator in sorted({id(e): e for e in evaluators}.values(), key=id):
            stack.enter_context(evaluator._lock)
        yield


def _gaps(by_group: Mapping[Any, Mapping[str, Any]]) -> dict[str, float]:
    """Per scalar metric: the largest minus the smallest finite group value
    (NaN with fewer than two)."""
    if not by_group:
        return {}
    names = dict.fromkeys(name for values in by_group.values() for name, v in values.items() if isinstance(v, float))
    gaps = {}
    for name in names:
        finite = [v for values in by_group.values() if isinstance(v := values.get(name), float) and math.isfinite(v)]
        gaps[name] = max(finite) - min(finite) if len(finite) >= 2 else math.nan
    return gaps
