"""Calibration: probabilities against outcomes.

Binned calibration error, the reliability diagram, mean maximum confidence
and the Hellinger distance (``_metrics``, on the input prepared by
``_input``), the Brier score and log loss (``_proper_scores``), the smooth
calibration error (``_smooth``) and the mergeable state (``_state``).
"""

from ._metrics import (
    ReliabilityDiagram,
    calibration_error,
    hellinger_distance,
    mean_max_confidence,
    reliability_diagram,
)
from ._proper_scores import brier_score_loss, checked_probabilities, exact_score_sums, log_loss
from ._smooth import smooth_calibration_error
from ._state import CalibrationState

__all__ = [
    "CalibrationState",
    "ReliabilityDiagram",
    "brier_score_loss",
    "calibration_error",
    "hellinger_distance",
    "log_loss",
    "mean_max_confidence",
    "reliability_diagram",
    "smooth_calibration_error",
]
