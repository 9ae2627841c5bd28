"""Warning and error classes (named and based as scikit-learn's)."""

from ._params import InvalidParameterError


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the input (e.g. one class present)."""


__all__ = ["InvalidParameterError", "UndefinedMetricWarning"]
