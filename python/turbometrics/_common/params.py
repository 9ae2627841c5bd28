"""Parameter validation with scikit-learn's error messages.

Each public function declares its constraints on its definition with
:func:`validate_params`; a value that satisfies none of them raises
:class:`InvalidParameterError` worded exactly as scikit-learn's
``validate_params`` words it.
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from numbers import Integral, Real
from typing import Any, TypeVar

import numpy as np

from .array_inputs import as_numpy_input
from .exceptions import InvalidParameterError
from .sklearn_classes import scikit_learn_compatible


class Constraint:
    """A named predicate with the phrase scikit-learn uses for it."""

    def __init__(self, phrase: str, accepts: Callable[[Any], Any]) -> None:  # truthy: accepted (NumPy bools too)
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
    phrase = f"a float in the range {'[' if left_in else '('}{float(left)}, {float(right)}{']' if right_in else ')'}"

    def accepts(value: Any) -> bool:
        if not isinstance(value, Real):
            return False
        if not isinstance(value, Integral) and math.isnan(value):
            return False
        number: Any = value  # numbers.Real declares no comparisons
        above_left = number >= left if left_in else number > left
        below_right = number <= right if right_in else number < right
        return bool(above_left and below_right)

    return Constraint(phrase, accepts)


def _invalid_parameter(function_name: str, name: str, options: Sequence[Constraint], value: Any) -> Exception:
    """InvalidParameterError (scikit-learn's class too, when it is installed)
    in scikit-learn's words for ``value``, which no option accepts."""
    phrases = [str(option) for option in options]
    described = phrases[0] if len(phrases) == 1 else f"{', '.join(phrases[:-1])} or {phrases[-1]}"
    return scikit_learn_compatible(InvalidParameterError)(
        f"The {name!r} parameter of {function_name} must be {described}. Got {value!r} instead."
    )


Function = TypeVar("Function", bound=Callable[..., Any])


def _argument_reader(signature: inspect.Signature, names: Sequence[str]) -> Callable[..., tuple]:
    """A function with ``signature``'s parameters and defaults that returns
    the values of ``names``: Python binds the call itself, much faster than
    ``Signature.bind``, and raises TypeError where that would."""
    namespace: dict[str, Any] = {}
    parameters = []
    keyword_only_started = False
    for index, parameter in enumerate(signature.parameters.values()):
        if parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
            raise TypeError(f"validate_params does not support the parameter {parameter}")
        if parameter.kind == parameter.KEYWORD_ONLY and not keyword_only_started:
            parameters.append("*")
            keyword_only_started = True
        if parameter.default is parameter.empty:
            parameters.append(parameter.name)
        else:
            namespace[f"_default_{index}"] = parameter.default
            parameters.append(f"{parameter.name}=_default_{index}")
    source = f"def read_arguments({', '.join(parameters)}):\n    return ({''.join(f'{name}, ' for name in names)})\n"
    exec(source, namespace)
    return namespace["read_arguments"]


def validate_params(
    constraints: Mapping[str, Sequence[Constraint]], *, bind_like_scikit_learn: bool = True, name: str | None = None
) -> Callable[[Function], Function]:
    """Declare the constraints of a function's parameters, checked on every
    call before the function runs (scikit-learn's ``validate_params``), and
    read every argument through :func:`~turbometrics._common.array_inputs.as_numpy_input`
    first: the one place where polars, pyarrow, torch and array API inputs
    become NumPy arrays (and ``np.matrix`` is refused), for every public
    function and every state method that takes arrays.

    Parameters
    ----------
    constraints : dict
        Parameter name to the constraints of which a valid value satisfies
        at least one. Checked in this order (scikit-learn checks in the
        order of the signature); the first parameter no constraint accepts
        raises :class:`InvalidParameterError` in scikit-learn's words. Names
        that are no parameter of the function are ignored, so one table can
        serve several functions.
    bind_like_scikit_learn : bool, default=True
        A call that does not fit the signature raises the TypeError of
        ``inspect.Signature.bind`` ("missing a required argument: 'y_score'",
        as scikit-learn's wrapper does); False leaves Python's own TypeError.
    name : str, optional
        The function's name in the messages; default: its ``__name__``, or
        the class's name for ``__init__``.

    Notes
    -----
    The wrapper keeps the function's name, docstring, signature and
    ``__wrapped__``, and records the checked constraints in its
    ``parameter_constraints`` attribute.
    """

    def decorate(function: Function) -> Function:
        signature = inspect.signature(function)
        declared = {key: list(options) for key, options in constraints.items() if key in signature.parameters}
        checks = list(declared.items())
        read_arguments = _argument_reader(signature, list(declared))
        qualified = function.__qualname__.split(".")
        function_name = name or (qualified[-2] if function.__name__ == "__init__" else function.__name__)

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            args = tuple(as_numpy_input(value) for value in args)
            kwargs = {key: as_numpy_input(value) for key, value in kwargs.items()}
            try:
                values = read_arguments(*args, **kwargs)
            except TypeError:
                if bind_like_scikit_learn:
                    signature.bind(*args, **kwargs)
                return function(*args, **kwargs)  # raises Python's TypeError for the call
            for (parameter, options), value in zip(checks, values):
                for option in options:
                    if option.accepts(value):
                        break
                else:
                    raise _invalid_parameter(function_name, parameter, options, value)
            return function(*args, **kwargs)

        wrapper.parameter_constraints = declared  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


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
