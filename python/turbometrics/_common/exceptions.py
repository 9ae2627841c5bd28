"""Warning and error classes (named and based as scikit-learn's).

When scikit-learn is installed, turbometrics warns and raises with
subclasses of these that also derive from scikit-learn's class of the same
name (see :mod:`turbometrics._common.sklearn_classes`): filters and ``except``
clauses naming either library's class match.
"""


class InvalidParameterError(ValueError, TypeError):
    """A parameter has an invalid type or value (as in scikit-learn).

    A ``ValueError`` and a ``TypeError``, like
    ``sklearn.utils._param_validation.InvalidParameterError``, with
    scikit-learn's message, e.g. "The 'max_fpr' parameter of roc_auc_score
    must be a float in the range (0.0, 1.0] or None. Got 2 instead."
    """


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the input (e.g. one class present).

    The same name and base (``UserWarning``) as
    ``sklearn.exceptions.UndefinedMetricWarning``; turbometrics issues it
    with scikit-learn's messages, in the same cases (as an instance of
    scikit-learn's class too, when scikit-learn is installed).
    """


__all__ = ["InvalidParameterError", "UndefinedMetricWarning"]
