"""The exception for input the command line program cannot use, and the
helpers that write its one-line messages."""

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
