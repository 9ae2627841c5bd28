"""Mergeable evaluation states: summaries of data that merge exactly.

Each state is built from arrays (``S.from_arrays``), grows in place
(``s.update``), merges with another state of the same parameters
(``s.merge(other)``, ``s + other``, ``sum(states)``) and pickles (versioned;
arrays as out-of-band buffers with pickle protocol 5).
"""

from .. import _core
from .binned_ranking import BinnedRankingState, BinnedValue
from .ranking import RankingState

#: ``RankingState.average_precision_part`` returns exact sums scaled by ``2**AP_SCALE``.
AP_SCALE: int = _core.EXACT_SUM_SCALE_BITS

__all__ = ["AP_SCALE", "BinnedRankingState", "BinnedValue", "RankingState"]
