"""Type stubs for the compiled kernels (private API): one submodule per area
(detection's COCO-format kernels in ``coco_results`` and ``coco_masks``) and
the shared exact sums, each checked against the compiled module by
.ci/stubtest."""

from . import (
    calibration as calibration,
    classification as classification,
    coco_masks as coco_masks,
    coco_results as coco_results,
    density as density,
    detection as detection,
    exact_sums as exact_sums,
    labels as labels,
    ranking as ranking,
    ranking_tables as ranking_tables,
    segmentation as segmentation,
    stability as stability,
    threads as threads,
)
