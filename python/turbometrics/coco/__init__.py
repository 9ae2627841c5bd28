"""COCO detection evaluation, bit-identical to pycocotools 2.0.11: the COCO
format layer over the detection area (``turbometrics.detection``, which has
no public names of its own).

``from turbometrics.coco import COCO, COCOeval`` mirrors
``pycocotools.coco.COCO`` and ``pycocotools.cocoeval.COCOeval``: this
package reads the annotation and results files (JSON, RLE and polygon
masks, keypoints) into the area's columns, and the area matches and
accumulates them in C++. :mod:`turbometrics.coco.mask` is a drop-in for
``pycocotools.mask`` (run-length encoded masks, polygons, boxes and their
IoU), computed by turbometrics' own C++ kernels. ``DetectionState`` is the
match table of COCO datasets, mergeable; ``Params`` is the area's.
"""

import sys as _sys

from ..detection import Params

# For the adapters (cli, dask, spark), not part of the public API:
from . import _results_reader as results_reader, _sharded as sharded, mask
from ._coco import COCO
from ._cocoeval import COCOeval
from ._patch import patch_pycocotools, unpatch_pycocotools
from ._state import DetectionState

__all__ = ["COCO", "COCOeval", "DetectionState", "Params", "mask", "patch_pycocotools", "unpatch_pycocotools"]


# A Params pickled before the detection area had its own package names the
# module turbometrics.coco._params: that name resolves to where it lives now.
_sys.modules.setdefault(f"{__name__}._params", _sys.modules[Params.__module__])
