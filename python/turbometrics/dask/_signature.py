"""The signatures of ``turbometrics.dask``'s metric functions, built from the
in-memory functions' (:func:`mirroring`): the same parameters with the same
defaults, then the keyword-only parameters of dask."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .._common.signatures import signed
from .._registry import by_name

_KEYWORD = inspect.Parameter.KEYWORD_ONLY
# The parameters that every dask function adds (see the package's docstring).
EXTRAS = {
    "compute": inspect.Parameter("compute", _KEYWORD, default=True, annotation="bool"),
    "split_every": inspect.Parameter("split_every", _KEYWORD, default=None, annotation="int | None"),
    "partitions": inspect.Parameter("partitions", _KEYWORD, default="auto", annotation="str | int"),
}


def dask_signature(parameters: list[inspect.Parameter], *extras: str) -> inspect.Signature:
    """``parameters`` followed by ``extras`` (names of :data:`EXTRAS`)."""
    return inspect.Signature([*parameters, *(EXTRAS[extra] for extra in extras)], return_annotation="Any")


def mirroring(name: str, *extras: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the implementation of ``turbometrics.dask.<name>`` takes
    ``turbometrics.<name>``'s parameters, with its defaults (the
    implementation declares none), then ``extras``
    (:func:`~turbometrics._common.signatures.signed`; an implementation
    that drifts from them raises TypeError at import)."""
    parameters = list(inspect.signature(by_name(name).function).parameters.values())
    return signed(dask_signature(parameters, *extras), f"turbometrics.dask.{name}")
