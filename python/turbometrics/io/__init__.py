"""Reading files: tables of predictions chunk by chunk (``_table_reader``:
Parquet, CSV, NPY, JSON Lines) and the mergeable states over a Parquet file
(``_parquet``)."""

from ._parquet import METRICS, evaluate_parquet
from ._table_reader import FORMATS, Coded, Table, labels_array, missing, numeric, open_table

__all__ = [
    "FORMATS",
    "METRICS",
    "Coded",
    "Table",
    "evaluate_parquet",
    "labels_array",
    "missing",
    "numeric",
    "open_table",
]
