// Where a block's IoU matrix comes from: boxes, masks, or values computed
// outside (keypoint OKS, which is NumPy arithmetic in pycocotools).
#pragma once

#include <cstdint>

#include "turbometrics/detection/rle_ops.hpp"

namespace turbometrics::detection {

// Boxes as n x 4 (x, y, w, h) rows.
struct BoxIous {
  const double* dt_boxes;
  const double* gt_boxes;
  const uint8_t* gt_crowd;
  bool operator()(int64_t, const int64_t* dts, const int64_t*, int64_t n_dt, const int64_t* gts, int64_t n_gt,
                  double* out) const {
    for (int64_t d = 0; d < n_dt; ++d)
      for (int64_t g = 0; g < n_gt; ++g)
        out[d * n_gt + g] = box_iou(dt_boxes + 4 * dts[d], gt_boxes + 4 * gts[g], gt_crowd[gts[g]] != 0);
    return true;
  }
};

// Per block, a matrix of (detections in input order) x (ground truths) at
// values + offsets[block]; a negative offset means no matrix.
struct PrecomputedIous {
  const double* values;
  const int64_t* offsets;
  bool operator()(int64_t block, const int64_t*, const int64_t* positions, int64_t n_dt, const int64_t*,
                  int64_t n_gt, double* out) const {
    if (offsets[block] < 0) return false;
    const double* matrix = values + offsets[block];
    for (int64_t d = 0; d < n_dt; ++d)
      for (int64_t g = 0; g < n_gt; ++g) out[d * n_gt + g] = matrix[positions[d] * n_gt + g];
    return true;
  }
};

}  // namespace turbometrics::detection
