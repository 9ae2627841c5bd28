"""Type stubs for the compiled kernels (private API): one submodule per area,
each checked against the compiled module by .ci/stubtest."""

from . import (
    calibration as calibration,
    classification as classification,
    coco as coco,
    density as density,
    labels as labels,
    mask as mask,
    ranking as ranking,
    stability as stability,
    states as states,
    threads as threads,
)
