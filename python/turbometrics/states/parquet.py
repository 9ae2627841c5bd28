"""``turbometrics.states.parquet``: where :func:`evaluate_parquet` lived before the area subpackages;
kept so that this import and old pickles keep working."""

from ..io import METRICS, evaluate_parquet

__all__ = ["METRICS", "evaluate_parquet"]
