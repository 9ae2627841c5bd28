"""The exception for input the command line program cannot use, the
helpers that write its one-line messages, and the argparse types that
refuse nonsense numbers before any work starts."""

import argparse
import math
from typing import Any

import numpy as np


class InputError(Exception):
    """Input the program cannot use; its one-line message is shown to the
    user, who gets exit code 2 and no traceback."""


def first_line(message: object) -> str:
    """The first line of an exception's or warning's text, or its type name."""
    lines = str(message).strip().splitlines()
    return lines[0] if lines else type(message).__name__


def shown(value: Any) -> str:
    """``repr`` of a value for a message (NumPy scalars as Python ones)."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def positive_int(text: str, maximum: int | None = None) -> int:
    """argparse type: an integer from 1 to ``maximum`` (unbounded when None).

    Raises
    ------
    argparse.ArgumentTypeError
        For text that is not an integer, or one out of range (argparse
        turns it into a one-line usage error).
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1 or (maximum is not None and value > maximum):
        bound = "at least 1" if maximum is None else f"from 1 to {maximum:,}"
        raise argparse.ArgumentTypeError(f"must be {bound}, got {text}")
    return value


def finite_float(text: str) -> float:
    """argparse type: a finite number (not nan, inf or -inf).

    Raises
    ------
    argparse.ArgumentTypeError
        For text that is not a number, or a non-finite one.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
    return value
