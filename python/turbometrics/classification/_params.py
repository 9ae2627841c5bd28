"""Parameter constraints shared by the classification metrics, phrased as
scikit-learn 1.9.1 phrases them in its error messages."""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

from .._common.params import ARRAY_LIKE, BOOLEAN, NONE, REAL, STRING, Constraint, real_interval, str_options


def _is_sparse(value: Any) -> bool:
    return hasattr(value, "format") and hasattr(value, "toarray")


def _is_nan(value: Any) -> bool:
    return isinstance(value, Real) and not isinstance(value, Integral) and math.isnan(value)


def _real_among(options: tuple, phrase: str) -> Constraint:
    return Constraint(phrase, lambda value: isinstance(value, Real) and value in options)


SPARSE = Constraint("a sparse array or matrix", _is_sparse)
NAN = Constraint("numpy.nan", _is_nan)
LABELS = [ARRAY_LIKE, SPARSE]
POS_LABEL = [REAL, STRING, BOOLEAN, NONE]
AVERAGE = [str_options({"micro", "macro", "samples", "weighted", "binary"}), NONE]
ZERO_DIVISION = [_real_among((0.0, 1.0), "a float among {0.0, 1.0}"), NAN, str_options({"warn"})]
JACCARD_ZERO_DIVISION = [_real_among((0, 1), "a float among {0, 1}"), str_options({"warn"})]
BETA = [real_interval(0.0, math.inf, "both")]
WARN_FOR = [
    Constraint("an instance of 'list'", lambda value: isinstance(value, list)),
    Constraint("an instance of 'tuple'", lambda value: isinstance(value, tuple)),
    Constraint("an instance of 'set'", lambda value: isinstance(value, set)),
]
WEIGHTS = [ARRAY_LIKE, NONE]
KAPPA_WEIGHTS = [str_options({"linear", "quadratic"}), NONE]
REPLACE_UNDEFINED = [real_interval(-1.0, 1.0, "both"), NAN]
FLAG = [BOOLEAN]
