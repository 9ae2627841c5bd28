"""Functions whose signature is built from another's: :func:`signed`."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any


def signed(signature: inspect.Signature, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: an implementation that takes every parameter of
    ``signature`` by keyword, with no defaults of its own (or
    ``**arguments``), becomes the function ``name`` of that signature: a
    call binds its arguments as ``signature`` does (its TypeError for an
    unknown or missing one), fills in the signature's defaults and passes
    them all by keyword.

    Raises
    ------
    TypeError
        When the implementation names parameters other than the
        signature's, in its order.
    """

    def decorate(implementation: Callable[..., Any]) -> Callable[..., Any]:
        declared = list(inspect.signature(implementation).parameters.values())
        if not (len(declared) == 1 and declared[0].kind is inspect.Parameter.VAR_KEYWORD):
            names, expected = [p.name for p in declared], list(signature.parameters)
            if names != expected:
                raise TypeError(f"{name} takes {expected}, its implementation {names}")

        @functools.wraps(implementation)
        def function(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return implementation(**bound.arguments)

        del function.__wrapped__  # inspect.signature reports __signature__, not the implementation's
        function.__signature__ = signature  # type: ignore[attr-defined]
        function.__name__ = function.__qualname__ = name.rpartition(".")[2]
        return function

    return decorate
