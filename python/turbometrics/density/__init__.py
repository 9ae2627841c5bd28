"""Kernel density estimation: :func:`kde` (scikit-learn's kernels; exact, or
binned on a grid by ``_binned``) and :class:`gaussian_kde` (scipy's
estimator; bandwidths in ``_bandwidth``)."""

from ._gaussian_kde import gaussian_kde
from ._kde import kde

__all__ = ["gaussian_kde", "kde"]
