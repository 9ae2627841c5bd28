"""Returning results: computed now (warnings re-issued in the caller's
process) or as a dask Delayed."""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import dask


class Warned(NamedTuple):
    """A result and the warnings its computation owes the caller (tasks run
    in worker processes, where warnings would be lost)."""

    value: Any
    warnings: list[tuple[str, type]]


def recorded(function: Any, *args: Any, **kwargs: Any) -> Warned:
    """``function(*args, **kwargs)`` with the warnings it issues."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*args, **kwargs)
    return Warned(value, [(str(w.message), w.category) for w in caught])


def _issue(result: Warned) -> Any:
    for message, category in result.warnings:
        warnings.warn(message, category, stacklevel=3)
    return result.value


def finish(result: Any, compute: bool) -> Any:
    """``result`` (a Delayed Warned) computed now, or a Delayed of its value
    (which issues the warnings where it is computed) when ``compute`` is
    False."""
    if compute:
        return _issue(result.compute())
    return dask.delayed(_issue, pure=True)(result)
