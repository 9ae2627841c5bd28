"""The signatures of ``turbometrics.dask``'s metric functions, built from the
in-memory functions' (:func:`mirroring`): the same parameters with the same
defaults, then the keyword-only parameters of dask."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from .._registry import by_name

_KEYWORD = inspect.Parameter.KEYWORD_ONLY
# The parameters that every dask function adds (see the package's docstring).
EXTRAS = {
    "compute": inspect.Parameter("compute", _KEYWORD, default=True, annotation="bool"),
    "split_every": inspect.Parameter("split_every", _KEYWORD, default=None, annotation="int | None"),
    "partitions": inspect.Parameter("partitions", _KEYWORD, default="auto", annotation="str | int"),
}


def dask_signature(name: str, *extras: str) -> inspect.Signature:
    """``turbometrics.<name>``'s signature followed by ``extras`` (names of
    :data:`EXTRAS`)."""
    function = by_name(name).function
    parameters = [*inspect.signature(function).parameters.values(), *(EXTRAS[extra] for extra in extras)]
    return inspect.Signature(parameters, return_annotation="Any")


def mirroring(name: str, *extras: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the implementation of ``turbometrics.dask.<name>``, which
    takes every parameter of :func:`dask_signature` by keyword (their
    defaults are the in-memory function's: the implementation declares
    none), becomes a function of that signature.

    Raises
    ------
    TypeError
        At import, when the implementation's parameters are not the
        signature's, in order (unless it takes ``**arguments`` only).
    """
    signature = dask_signature(name, *extras)

    def decorate(implementation: Callable[..., Any]) -> Callable[..., Any]:
        declared = list(inspect.signature(implementation).parameters.values())
        if not (len(declared) == 1 and declared[0].kind is inspect.Parameter.VAR_KEYWORD):
            names, expected = [p.name for p in declared], list(signature.parameters)
            if names != expected:
                raise TypeError(f"turbometrics.dask.{name} takes {expected}, its implementation {names}")

        @functools.wraps(implementation)
        def metric(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)  # the in-memory function's TypeError for bad arguments
            bound.apply_defaults()
            return implementation(**bound.arguments)

        del metric.__wrapped__  # inspect.signature reports __signature__, not the implementation's
        metric.__signature__ = signature  # type: ignore[attr-defined]
        metric.__name__ = metric.__qualname__ = name
        return metric

    return decorate
