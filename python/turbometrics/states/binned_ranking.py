"""``turbometrics.states.binned_ranking``: where :class:`BinnedRankingState` lived before the area subpackages;
kept so that this import and old pickles keep working."""

from ..ranking import BinnedRankingState, BinnedValue

__all__ = ["BinnedRankingState", "BinnedValue"]
