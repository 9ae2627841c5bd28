"""The fallback rule of the scikit-learn patch: which calls turbometrics
handles, and which go to scikit-learn's own function.

turbometrics handles a call when every argument is something it computes
exactly as scikit-learn does. The original function gets the call when

- the arguments do not bind to scikit-learn's signature (unknown keyword,
  missing argument: scikit-learn raises its own TypeError);
- an argument is a SciPy sparse matrix or array (turbometrics reads dense
  input only), an ``np.matrix`` (scikit-learn refuses it with its
  TypeError) or a masked array (scikit-learn reads the data under the
  mask; turbometrics does not compute with masked arrays);
- scikit-learn's ``array_api_dispatch`` is on and an argument is anything
  but a NumPy array, a list, a tuple, a string, a number or None (torch,
  CuPy, array-api-strict arrays..., whose results scikit-learn returns in
  their namespace and on their device; pandas and polars objects too).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._common.params import is_sparse

# ndarray subclasses that scikit-learn reads otherwise than a plain array.
_SCIKIT_LEARN_SUBCLASSES = (np.matrix, np.ma.MaskedArray)


def _for_scikit_learn(value: Any) -> bool:
    return is_sparse(value) or isinstance(value, _SCIKIT_LEARN_SUBCLASSES)


# What scikit-learn's array API dispatch reads as NumPy (or ignores).
_NUMPY_OR_PLAIN = (np.ndarray, np.generic, str, bytes, list, tuple, int, float, complex, type(None))


def _is_foreign_array(value: Any) -> bool:
    return not isinstance(value, _NUMPY_OR_PLAIN)


def _array_api_dispatch() -> bool:
    import sklearn

    return bool(sklearn.get_config().get("array_api_dispatch", False))


def turbometrics_handles(values: Iterable[Any]) -> bool:
    """Whether turbometrics computes a call with these argument values
    exactly as scikit-learn (the arguments already bound to scikit-learn's
    signature)."""
    values = list(values)
    if any(_for_scikit_learn(value) for value in values):
        return False
    return not (any(_is_foreign_array(value) for value in values) and _array_api_dispatch())
