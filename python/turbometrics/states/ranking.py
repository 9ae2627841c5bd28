"""``turbometrics.states.ranking``: where :class:`RankingState` lived before the area subpackages;
kept so that this import and old pickles keep working."""

from ..ranking import RankingState

__all__ = ["RankingState"]
