"""Warning and error classes (named and based as scikit-learn's)."""

from ._params import InvalidParameterError


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the input (e.g. one class present).

    The same name and base (``UserWarning``) as
    ``sklearn.exceptions.UndefinedMetricWarning``; turbometrics issues it
    with scikit-learn's messages, in the same cases.
    """


__all__ = ["InvalidParameterError", "UndefinedMetricWarning"]
