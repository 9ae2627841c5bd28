"""The registry of metrics: every public metric function once, with what
the rest of the package derives from it.

* :data:`FUNCTIONS` lists the metric functions (:class:`Metric`). From it
  come the top level's ``__all__`` (:func:`top_level_names`), the names that
  ``turbometrics.sklearn`` patches (``sklearn=True``), the functions of
  ``turbometrics.dask`` and their signatures (``dask``), and the invariants
  that ``tests/test_common.py`` checks for every metric (``inputs``).
* :data:`STREAMED` is the one vocabulary of the streaming tools
  (:class:`~turbometrics.Evaluator`, ``evaluate_parquet``, the command line,
  ``turbometrics.dask.evaluate`` and ``turbometrics.spark.evaluate``): each
  name, the in-memory function it equals, the state method that computes it
  and the tools that take it; :data:`SEGMENTATION` the names of label maps
  (:class:`~turbometrics.SegmentationEvaluator`, ``turbometrics.spark``).

Adding a metric function means one :class:`Metric` here, beside the
function itself (CONTRIBUTING.md).
"""

from ._functions import FUNCTIONS, Metric, by_name, top_level_names
from ._streamed import ALIASES, SEGMENTATION, STREAMED, Streamed, canonical, result_items

__all__ = [
    "ALIASES",
    "FUNCTIONS",
    "SEGMENTATION",
    "STREAMED",
    "Metric",
    "Streamed",
    "by_name",
    "canonical",
    "result_items",
    "top_level_names",
]
