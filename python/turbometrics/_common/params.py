"""Parameter validation with scikit-learn's error messages.

Each public function declares its constraints; a value that satisfies none of
them raises :class:`InvalidParameterError` worded exactly as scikit-learn's
``validate_params`` words it.
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from numbers import Integral, Real
from typing import Any, Callable, Dict, Sequence, TypeVar

import numpy as np

from .sklearn_classes import scikit_learn_compatible


class InvalidParameterError(ValueError, TypeError):
    """A parameter has an invalid type or value (as in scikit-learn).

    A ``ValueError`` and a ``TypeError``, like
    ``sklearn.utils._param_validation.InvalidParameterError``, with
    scikit-learn's message, e.g. "The 'max_fpr' parameter of roc_auc_score
    must be a float in the range (0.0, 1.0] or None. Got 2 instead."
    """


class Constraint:
    """A named predicate with the phrase scikit-learn uses for it."""

    def __init__(self, phrase: str, accepts: Callable[[Any], bool]) -> None:
        self.phrase = phrase
        self.accepts = accepts

    def __str__(self) -> str:
        return self.phrase


def is_sparse(value: Any) -> bool:
    """Whether ``value`` is a SciPy sparse array or matrix (without importing SciPy)."""
    return type(value).__module__.startswith("scipy.sparse")


def _is_array_like(value: Any) -> bool:
    if is_sparse(value):
        return False  # scikit-learn declares sparse input separately; these functions refuse it
    looks_like_array = hasattr(value, "__len__") or hasattr(value, "shape") or hasattr(value, "__array__")
    return looks_like_array and not np.isscalar(value)


ARRAY_LIKE = Constraint("an array-like", _is_array_like)
NONE = Constraint("None", lambda value: value is None)
BOOLEAN = Constraint(
    "an instance of 'bool' or an instance of 'numpy.bool'",
    lambda value: isinstance(value, (bool, np.bool_)),
)
REAL = Constraint("an instance of 'float'", lambda value: isinstance(value, Real))
STRING = Constraint("an instance of 'str'", lambda value: isinstance(value, str))


def str_options(options: set) -> Constraint:
    """Strings from a set; pass a set literal in scikit-learn's order."""
    return Constraint(
        f"a str among {{{', '.join(repr(option) for option in options)}}}",
        lambda value: isinstance(value, str) and value in options,
    )


def real_interval(left: float, right: float, closed: str) -> Constraint:
    """Real numbers between two bounds (``closed`` as in scikit-learn)."""
    left_in = closed in ("left", "both")
    right_in = closed in ("right", "both")
    phrase = (
        f"a float in the range {'[' if left_in else '('}{float(left)}, {float(right)}{']' if right_in else ')'}"
    )

    def accepts(value: Any) -> bool:
        if not isinstance(value, Real):
            return False
        if not isinstance(value, Integral) and math.isnan(value):
            return False
        above_left = value >= left if left_in else value > left
        below_right = value <= right if right_in else value < right
        return bool(above_left and below_right)

    return Constraint(phrase, accepts)


def validate(function_name: str, values: Dict[str, Any], constraints: Dict[str, Sequence[Constraint]]) -> None:
    """Raise InvalidParameterError (scikit-learn's class too, when it is
    installed) for the first value no constraint accepts."""
    for name, value in values.items():
        options = constraints[name]
        if any(option.accepts(value) for option in options):
            continue
        phrases = [str(option) for option in options]
        described = phrases[0] if len(phrases) == 1 else f"{', '.join(phrases[:-1])} or {phrases[-1]}"
        raise scikit_learn_compatible(InvalidParameterError)(
            f"The {name!r} parameter of {function_name} must be {described}. Got {value!r} instead."
        )


Function = TypeVar("Function", bound=Callable[..., Any])


def bind_like_scikit_learn(function: Function) -> Function:
    """Bind arguments as scikit-learn's ``validate_params`` wrapper does, so
    that a wrong call raises its TypeError texts ("too many positional
    arguments", "missing a required argument: 'y_score'", ...)."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        signature.bind(*args, **kwargs)
        return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def keyword_only_since(version: str, positional: Sequence[str]) -> Callable[[Function], Function]:
    """scikit-learn's ``_deprecate_positional_args``: keyword-only arguments
    passed by position still work, with a FutureWarning. ``positional`` are
    scikit-learn's parameter names in order (turbometrics' own keyword-only
    parameters such as ``n_threads`` are never filled by position)."""

    def decorate(function: Function) -> Function:
        parameters = inspect.signature(function).parameters
        leading = [name for name, p in parameters.items() if p.kind == p.POSITIONAL_OR_KEYWORD]
        keyword_only = [name for name in positional if name not in leading]

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            extra = len(args) - len(leading)
            if extra <= 0:
                return function(*args, **kwargs)
            described = ", ".join(f"{name}={value}" for name, value in zip(keyword_only[:extra], args[-extra:]))
            warnings.warn(
                f"Pass {described} as keyword args. From version {version} passing these as positional arguments "
                "will result in an error",
                FutureWarning,
                stacklevel=2,
            )
            kwargs.update(zip(positional, args))
            return function(**kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
