"""Detection evaluation: matching detections to ground truths and
accumulating precision and recall, with pycocotools 2.0.11's arithmetic.

This is the area (C++ ``cpp/include/turbometrics/detection``, compiled
``_core.detection``): one side of an evaluation is :class:`Columns`, the
matching runs per (category, image) block and yields the per-detection match
table, and every score (AP, AR, the summary's 12 or 10 numbers, per-category
curves) is a pass over that table, under the evaluation's :class:`Params`.
The COCO format is the layer above it, :mod:`turbometrics.coco`: the
annotation and results files, masks, pycocotools' ``COCO`` and ``COCOeval``
API, and ``DetectionState`` (the match table of COCO datasets, mergeable).
The public names are there; this package has none of its own.
"""

# For the format layer (turbometrics.coco) and the plot adapter, not part
# of the public API (`x as x` marks them as exported):
from ._accumulate import accumulate_table as accumulate_table, check_bool_scores as check_bool_scores
from ._blocks import Blocks as Blocks, assign_blocks as assign_blocks
from ._columns import NUMBER_TYPES as NUMBER_TYPES, Columns as Columns
from ._describe import MissingFieldError as MissingFieldError, check_box as check_box, describe as describe
from ._eval_images import EvaluatedImages as EvaluatedImages, IouMatrices as IouMatrices
from ._keypoints import keypoint_similarities as keypoint_similarities
from ._log import quiet as quiet, say as say
from ._params import Params as Params
from ._per_category import (
    category_curve as category_curve,
    evaluated_cell as evaluated_cell,
    results_per_category as results_per_category,
)
from ._summary import summarize as summarize, summary_lines as summary_lines, summary_value as summary_value

__all__: list[str] = []
