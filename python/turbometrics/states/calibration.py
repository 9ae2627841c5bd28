"""``turbometrics.states.calibration``: where :class:`CalibrationState` lived before the area subpackages;
kept so that this import and old pickles keep working."""

from ..calibration import CalibrationState

__all__ = ["CalibrationState"]
