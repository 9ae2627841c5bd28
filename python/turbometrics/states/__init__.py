"""Mergeable evaluation states: summaries of data that merge exactly.

Each state is built from arrays (``S.from_arrays``), grows in place
(``s.update``, returning the state), merges with another state of the same
parameters (``s.merge(other)``, ``s + other``, ``sum(states)``), pickles
(versioned; arrays as out-of-band buffers with pickle protocol 5) and
serialises safely (``s.to_bytes()`` / ``S.from_bytes(data)``: arrays and
JSON, nothing unpickled); both validate what they load. Results equal the
in-memory functions on the concatenated data.
"""

from .. import _core
from ..calibration import CalibrationState
from ..classification import ConfusionState
from ..io import evaluate_parquet
from ..ranking import BinnedRankingState, BinnedValue, RankingState
from ..segmentation import SegmentationState
from . import binned_ranking, calibration, confusion, parquet, ranking  # where the states lived before

#: ``RankingState.average_precision_part`` returns exact sums scaled by ``2**AP_SCALE``.
AP_SCALE: int = _core.exact_sums.SCALE_BITS

__all__ = [
    "AP_SCALE",
    "BinnedRankingState",
    "BinnedValue",
    "CalibrationState",
    "ConfusionState",
    "RankingState",
    "SegmentationState",
    "evaluate_parquet",
]
