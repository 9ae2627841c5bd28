"""Differential-testing helpers: run scikit-learn and turbometrics on the same
input and compare results, exceptions and warnings.

Nothing here imports anything from turbometrics except the public functions,
so the helpers work whether or not ``turbometrics.exceptions`` exists:
exceptions and warnings are compared by class name, builtin base classes and
message.
"""

from __future__ import annotations

import contextlib
import copy
import math
import re
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sklearn.metrics as skm

import turbometrics as tm

RTOL = 1e-12

# Warnings that are part of the observable contract.  UndefinedMetricWarning is
# a UserWarning subclass; FutureWarning covers deprecations sklearn announces
# to users (positional arguments of confusion_matrix_at_thresholds).
# DeprecationWarning / RuntimeWarning (numpy internals) are not compared.
CONTRACT_WARNINGS = (UserWarning, FutureWarning)


@dataclass
class Outcome:
    value: Any = None
    exc: BaseException | None = None
    warnings: list[tuple[type, str]] = field(default_factory=list)

    def describe(self) -> str:
        if self.exc is not None:
            return f"raised {type(self.exc).__name__}({str(self.exc)!r})"
        return f"returned {self.value!r}"


def capture(func: Callable, *args, **kwargs) -> Outcome:
    """Call func, recording its return value or exception and every warning."""
    out = Outcome()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        try:
            out.value = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - we compare any exception
            out.exc = exc
    out.warnings = [(w.category, str(w.message)) for w in record if issubclass(w.category, CONTRACT_WARNINGS)]
    return out


def builtin_bases(exc_type: type) -> list[type]:
    """Builtin exception classes in the MRO, minus the trivial ones."""
    return [c for c in exc_type.__mro__ if c.__module__ == "builtins" and c not in (object, BaseException, Exception)]


def assert_same_exception(sk_exc: BaseException, tm_out: Outcome, context: str = "") -> None:
    assert tm_out.exc is not None, (
        f"{context}: sklearn raised {type(sk_exc).__name__}({str(sk_exc)!r}) but turbometrics {tm_out.describe()}"
    )
    tm_exc = tm_out.exc
    sk_type = type(sk_exc)
    # Builtin classes and sklearn's own classes (InvalidParameterError) must
    # match by name; numpy-internal classes (e.g. _UFuncNoLoopError) only by
    # their builtin bases.
    if sk_type.__module__ == "builtins" or sk_type.__module__.startswith("sklearn"):
        assert type(tm_exc).__name__ == sk_type.__name__, (
            f"{context}: exception class differs: sklearn {sk_type.__name__}"
            f"({str(sk_exc)!r}), turbometrics {type(tm_exc).__name__}({str(tm_exc)!r})"
        )
    for base in builtin_bases(sk_type):
        assert isinstance(tm_exc, base), (
            f"{context}: turbometrics exception {type(tm_exc).__mro__} is not a "
            f"{base.__name__} (sklearn raised {sk_type.__mro__})"
        )
    assert normalise_message(str(tm_exc)) == normalise_message(str(sk_exc)), (
        f"{context}: message differs:\n  sklearn:      {str(sk_exc)!r}\n  turbometrics: {str(tm_exc)!r}"
    )


_OPTION_SET = re.compile(r"among \{([^{}]*)\}")


def normalise_message(message: str) -> str:
    """The message with the options of every "a str among {...}" sorted.

    scikit-learn lists those options in the iteration order of a set of
    strings, which depends on the hash seed and on how each module's
    constant set was compiled, so only the set itself is comparable.
    """
    return _OPTION_SET.sub(lambda m: "among {" + ", ".join(sorted(m.group(1).split(", "))) + "}", message)


def assert_same_warnings(sk_out: Outcome, tm_out: Outcome, context: str = "") -> None:
    sk_w = Counter((c.__name__, m) for c, m in sk_out.warnings)
    tm_w = Counter((c.__name__, m) for c, m in tm_out.warnings)
    assert sk_w == tm_w, (
        f"{context}: warnings differ:\n  sklearn:      {sorted(sk_w.items())}\n  turbometrics: {sorted(tm_w.items())}"
    )
    # Same builtin base classes (UndefinedMetricWarning is a UserWarning).
    sk_bases = {c.__name__: builtin_bases(c) for c, _ in sk_out.warnings}
    for c, msg in tm_out.warnings:
        for base in sk_bases.get(c.__name__, []):
            assert issubclass(c, base), f"{context}: warning {c} for {msg!r} is not a {base}"


# --------------------------------------------------------------------------
# value comparison


def assert_rates_close(sk: np.ndarray, got: Any, what: str, rtol: float = RTOL, atol: float = 0.0) -> None:
    assert isinstance(got, np.ndarray), f"{what}: expected ndarray, got {type(got)}"
    assert got.shape == sk.shape, f"{what}: shape {got.shape} != sklearn {sk.shape}\n sk={sk!r}\n tm={got!r}"
    assert got.dtype == sk.dtype, f"{what}: dtype {got.dtype} != sklearn {sk.dtype}"
    np.testing.assert_allclose(got, sk, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def assert_thresholds_equal(sk: np.ndarray, got: Any, what: str = "thresholds") -> None:
    assert isinstance(got, np.ndarray), f"{what}: expected ndarray, got {type(got)}"
    assert got.shape == sk.shape, f"{what}: shape {got.shape} != sklearn {sk.shape}\n sk={sk!r}\n tm={got!r}"
    assert got.dtype == sk.dtype, f"{what}: dtype {got.dtype} != sklearn {sk.dtype}"
    np.testing.assert_array_equal(got, sk, err_msg=what)


def assert_signed_zeros_equal(sk: np.ndarray, got: np.ndarray, what: str = "thresholds") -> None:
    """-0.0 and 0.0 compare equal; check the sign bit explicitly."""
    if sk.dtype.kind == "f":
        assert np.array_equal(np.signbit(got), np.signbit(sk)), (
            f"{what}: sign of zero differs\n sk={sk!r} signbit={np.signbit(sk)}\n tm={got!r} signbit={np.signbit(got)}"
        )


def make_curve_comparator(n_outputs: int, rtol: float = RTOL, atol: float = 0.0, names=None):
    """Curves return (rate, rate, ..., thresholds)."""
    names = names or [f"output[{i}]" for i in range(n_outputs)]

    def compare(sk, got):
        assert isinstance(got, tuple), f"expected a tuple, got {type(got)}"
        assert len(got) == n_outputs == len(sk)
        for i in range(n_outputs - 1):
            assert_rates_close(sk[i], got[i], names[i], rtol=rtol, atol=atol)
        assert_thresholds_equal(sk[-1], got[-1], names[-1])

    return compare


CURVE_NAMES = {
    "roc_curve": ["fpr", "tpr", "thresholds"],
    "precision_recall_curve": ["precision", "recall", "thresholds"],
    "det_curve": ["fpr", "fnr", "thresholds"],
    "confusion_matrix_at_thresholds": ["tns", "fps", "fns", "tps", "thresholds"],
}


def curve_comparator(name: str, rtol: float = RTOL, atol: float = 0.0):
    names = CURVE_NAMES[name]
    return make_curve_comparator(len(names), rtol=rtol, atol=atol, names=names)


def assert_score_equal(sk, got, rtol: float = RTOL, atol: float = 0.0) -> None:
    assert type(got) is type(sk), f"result type {type(got).__name__} ({got!r}) != sklearn {type(sk).__name__} ({sk!r})"
    if isinstance(sk, np.ndarray):
        assert got.shape == sk.shape and got.dtype == sk.dtype, (got, sk)
        np.testing.assert_allclose(got, sk, rtol=rtol, atol=atol, equal_nan=True)
    elif isinstance(sk, float) and math.isnan(sk):
        assert math.isnan(got), f"expected nan, got {got!r}"
    else:
        assert math.isclose(got, sk, rel_tol=rtol, abs_tol=atol), f"turbometrics {got!r} != sklearn {sk!r}"


# --------------------------------------------------------------------------
# the differential driver


def check_against_sklearn(
    name: str,
    *args,
    compare: Callable | None = None,
    tm_kwargs: dict | None = None,
    copy_inputs: bool = True,
    **kwargs,
) -> tuple[Outcome, Outcome]:
    """Run sklearn.metrics.<name> and turbometrics.<name> on the same input.

    If sklearn raises, turbometrics must raise the same exception class name
    (and builtin bases) with the same message.  Otherwise turbometrics must
    return an equal result (compared with ``compare``).  In both cases the
    UserWarning/FutureWarning lists must agree.
    """
    if compare is None:
        compare = curve_comparator(name) if name in CURVE_NAMES else assert_score_equal
    dup = copy.deepcopy if copy_inputs else (lambda x: x)
    sk_out = capture(getattr(skm, name), *dup(args), **dup(kwargs))
    tm_out = capture(getattr(tm, name), *dup(args), **dup(kwargs), **(tm_kwargs or {}))
    context = f"{name}"
    if sk_out.exc is not None:
        assert_same_exception(sk_out.exc, tm_out, context)
    else:
        if tm_out.exc is not None:
            raise AssertionError(
                f"{context}: sklearn returned {sk_out.value!r} but turbometrics raised "
                f"{type(tm_out.exc).__name__}: {tm_out.exc}"
            ) from tm_out.exc
        compare(sk_out.value, tm_out.value)
    assert_same_warnings(sk_out, tm_out, context)
    return sk_out, tm_out


@contextlib.contextmanager
def parallel_even_for_tiny_inputs():
    """Run the kernels' parallel paths even on tiny inputs (lowers
    turbometrics._common.threads.SERIAL_BELOW to 1 for the block)."""
    import turbometrics._common.threads as tm_threads

    saved = tm_threads.SERIAL_BELOW
    tm_threads.SERIAL_BELOW = 1
    try:
        yield
    finally:
        tm_threads.SERIAL_BELOW = saved
