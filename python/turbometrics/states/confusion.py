"""``turbometrics.states.confusion``: where :class:`ConfusionState` lived before the area subpackages;
kept so that this import and old pickles keep working."""

from ..classification import ConfusionState

__all__ = ["ConfusionState"]
