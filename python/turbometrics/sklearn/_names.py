"""The scikit-learn metric functions that turbometrics implements, by name
(the registry's entries with ``sklearn=True``).

Each name is both a public function of ``sklearn.metrics`` and one of
``turbometrics`` with the same parameters (turbometrics adds a keyword-only
``n_threads``).
"""

from __future__ import annotations

from .._registry import FUNCTIONS

# The registry's drop-ins for sklearn.metrics, by area (ranking,
# classification, calibration) as the registry lists them.
METRIC_NAMES: tuple[str, ...] = tuple(metric.name for metric in FUNCTIONS if metric.sklearn)

# scikit-learn's scorer check, patched so that it still refuses the wrapped
# metric functions passed as scorers.
SCORING_CHECK = "check_scoring"

# Every name of ``sklearn.metrics`` that the patch replaces.
PATCHED_NAMES: tuple[str, ...] = (*METRIC_NAMES, SCORING_CHECK)
