"""turbometrics' scikit-learn metrics with scikit-learn's exact signatures.

Each function here is the turbometrics function of the same name with the
``n_threads`` parameter removed from its signature (the global thread count,
:func:`turbometrics.set_num_threads`, applies). Building them needs no
scikit-learn.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import turbometrics

from ._names import METRIC_NAMES


def sklearn_signature(function: Callable[..., Any]) -> inspect.Signature:
    """``function``'s signature without ``n_threads`` and without annotations,
    which is scikit-learn's signature of the function of that name."""
    parameters = [
        parameter.replace(annotation=inspect.Parameter.empty)
        for parameter in inspect.signature(function).parameters.values()
        if parameter.name != "n_threads"
    ]
    return inspect.Signature(parameters)


def _sklearn_facing(name: str) -> Callable[..., Any]:
    function = getattr(turbometrics, name)
    signature = sklearn_signature(function)

    @functools.wraps(function)
    def metric(*args: Any, **kwargs: Any) -> Any:
        signature.bind(*args, **kwargs)  # scikit-learn's TypeError for an unknown argument
        return getattr(turbometrics, name)(*args, **kwargs)

    del metric.__wrapped__  # inspect.signature reports __signature__, not the wrapped function's
    metric.__signature__ = signature  # type: ignore[attr-defined]
    metric.__module__ = __name__.rsplit(".", 1)[0]
    return metric


FUNCTIONS: dict[str, Callable[..., Any]] = {name: _sklearn_facing(name) for name in METRIC_NAMES}
