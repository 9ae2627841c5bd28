"""Mergeable evaluation states: accumulate batches, merge shards, pickle.

Every state has ``S.from_arrays(...)``, an in-place ``update(...)``
returning the state, ``merge`` / ``+`` (``sum(states)`` works), and a
versioned pickle. Results equal the in-memory functions on the
concatenated data.
"""

from .calibration import CalibrationState
from .confusion import ConfusionState
from .parquet import evaluate_parquet

__all__ = ["CalibrationState", "ConfusionState", "evaluate_parquet"]
