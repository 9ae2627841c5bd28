"""Warning and error classes (named and based as scikit-learn's).

When scikit-learn is installed, turbometrics warns and raises with
subclasses of these that also derive from scikit-learn's class of the same
name (see :mod:`turbometrics._common.sklearn_classes`): filters and ``except``
clauses naming either library's class match.
"""

from .params import InvalidParameterError


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the input (e.g. one class present).

    The same name and base (``UserWarning``) as
    ``sklearn.exceptions.UndefinedMetricWarning``; turbometrics issues it
    with scikit-learn's messages, in the same cases (as an instance of
    scikit-learn's class too, when scikit-learn is installed).
    """


__all__ = ["InvalidParameterError", "UndefinedMetricWarning"]
