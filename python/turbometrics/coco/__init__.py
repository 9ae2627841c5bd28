"""COCO detection evaluation, bit-identical to pycocotools 2.0.11.

``from turbometrics.coco import COCO, COCOeval`` mirrors
``pycocotools.coco.COCO`` and ``pycocotools.cocoeval.COCOeval``; the
matching and accumulation run in C++. :mod:`turbometrics.coco.mask` is a
drop-in for ``pycocotools.mask`` (run-length encoded masks, polygons, boxes
and their IoU), computed by turbometrics' own C++ kernels.
"""

# For the adapters (cli, dask, plot, spark), not part of the public API:
from . import _results_reader as results_reader, _sharded as sharded, mask
from ._coco import COCO
from ._cocoeval import COCOeval
from ._log import quiet
from ._params import Params
from ._patch import patch_pycocotools, unpatch_pycocotools
from ._per_category import _cell as evaluated_cell, category_curve
from ._state import DetectionState
from ._summary import summary_lines, summary_value

__all__ = ["COCO", "COCOeval", "DetectionState", "Params", "mask", "patch_pycocotools", "unpatch_pycocotools"]
