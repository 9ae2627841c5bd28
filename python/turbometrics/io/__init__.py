"""Reading files: tables of predictions chunk by chunk (``_table_reader``:
Parquet, CSV, NPY, JSON Lines) and the mergeable states over a Parquet file
(``_parquet``); label maps from the bytes of PNG and NPY files
(``_label_maps``)."""

from ._label_maps import read_label_map
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
    "read_label_map",
]
