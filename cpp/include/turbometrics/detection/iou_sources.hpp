// Where a block's IoU matrix comes from: boxes, masks, or values computed
// outside (keypoint OKS, which is NumPy arithmetic in pycocotools).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "turbometrics/detection/rle.hpp"

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

// Masks decoded once from their compressed strings, with what the IoU needs.
struct PreparedMasks {
  std::vector<RunLengths> rles;
  std::vector<PreparedRle> prepared;

  // Object i's counts are text[offsets[i] .. offsets[i + 1]), its size
  // sizes[2i] x sizes[2i + 1]. Throws std::invalid_argument("mask <i>: ...")
  // for the first malformed one (invalid text, or counts that do not cover
  // the mask), whatever the thread count.
  PreparedMasks(const char* text, const int64_t* offsets, const int64_t* sizes, int64_t n, int n_threads)
      : rles(static_cast<size_t>(n)), prepared(static_cast<size_t>(n)) {
    for_each_index(n, n_threads, [&](int64_t i) {
      try {
        const std::string_view counts(text + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
        rles[i] = from_string(counts, static_cast<uint64_t>(sizes[2 * i]), static_cast<uint64_t>(sizes[2 * i + 1]));
        check_covers_mask(rles[i]);
        prepared[i] = prepare(rles[i]);
      } catch (const std::invalid_argument& error) {
        throw std::invalid_argument("mask " + std::to_string(i) + ": " + error.what());
      }
    });
  }
  PreparedMasks(const PreparedMasks&) = delete;
  PreparedMasks& operator=(const PreparedMasks&) = delete;
};

// Mask IoU, pycocotools' rleIou (box test first; a crowd's union is the
// detection).
struct MaskIous {
  const PreparedRle* dt;
  const PreparedRle* gt;
  const uint8_t* gt_crowd;
  bool operator()(int64_t, const int64_t* dts, const int64_t*, int64_t n_dt, const int64_t* gts, int64_t n_gt,
                  double* out) const {
    for (int64_t d = 0; d < n_dt; ++d)
      for (int64_t g = 0; g < n_gt; ++g) out[d * n_gt + g] = rle_iou(dt[dts[d]], gt[gts[g]], gt_crowd[gts[g]] != 0);
    return true;
  }
};

// Per block, a matrix of (detections in input order) x (ground truths) at
// values + offsets[block]; a negative offset means no matrix.
struct PrecomputedIous {
  const double* values;
  const int64_t* offsets;
  bool operator()(int64_t block, const int64_t*, const int64_t* positions, int64_t n_dt, const int64_t*, int64_t n_gt,
                  double* out) const {
    if (offsets[block] < 0) return false;
    const double* matrix = values + offsets[block];
    for (int64_t d = 0; d < n_dt; ++d)
      for (int64_t g = 0; g < n_gt; ++g) out[d * n_gt + g] = matrix[positions[d] * n_gt + g];
    return true;
  }
};

}  // namespace turbometrics::detection
