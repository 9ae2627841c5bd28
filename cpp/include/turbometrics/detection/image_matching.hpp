// Greedy matching of one (category, image) block, with pycocotools'
// COCOeval.evaluateImg semantics:
//
// * detections are sorted stably on -score and cut to max_detections; the IoU
//   matrix is taken between those detections and the block's ground truths in
//   their input order;
// * per area range, a ground truth is ignored when its ignore flag is set or
//   its area lies outside [lo, hi] (bounds inclusive); ignored ground truths
//   move last, stably;
// * per IoU threshold t, each detection in turn takes the best ground truth
//   with IoU >= min(t, 1 - 1e-10): a ground truth already taken by a detection
//   with a positive id is skipped unless it is a crowd; the scan stops at the
//   first ignored ground truth once a regular one is matched; ties go to the
//   later ground truth (the comparison is >=);
// * a detection matched to an ignored ground truth is ignored, and so is an
//   unmatched detection (or one matched to a ground truth with id 0) whose area
//   lies outside the range.
//
// Ids are compared as doubles, as pycocotools stores them in float arrays.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "turbometrics/detection/score_order.hpp"

namespace turbometrics::detection {

struct GroundTruthColumns {
  const double* id;
  const double* area;
  const uint8_t* ignore;  // iscrowd (or no visible keypoints)
  const uint8_t* crowd;   // iscrowd: may be matched many times; IoU union is the detection
};

struct DetectionColumns {
  const double* id;
  const double* area;
  const double* score;
};

struct MatchingParams {
  const double* iou_thresholds;
  int64_t n_thresholds;
  const double* area_ranges;  // n_area_ranges x (lo, hi)
  int64_t n_area_ranges;
  int64_t max_detections;
};

// How many of n best-first detections pycocotools keeps for a maxDet:
// len(dets[0:max_det]) in Python, so a negative maxDet drops that many from
// the end.
inline int64_t kept_detections(int64_t n, int64_t max_det) {
  return max_det >= 0 ? std::min(n, max_det) : std::max<int64_t>(n + max_det, 0);
}

// What a detection is at one IoU threshold once matching is done.
enum class Outcome : uint8_t { false_positive = 0, true_positive = 1, ignored = 2 };

// The matching of one block. Reused across blocks to keep its buffers.
class BlockMatcher {
 public:
  // Loads block `block`: `gts` and `dts` index the columns, in input order.
  // `fill_ious(block, kept_dts, kept_positions, n_kept, gts, n_gt, out)`
  // writes the n_kept x n_gt IoU matrix (row-major) of the kept detections
  // (column indices, and positions in `dts`) against the ground truths, or
  // returns false where pycocotools has no IoU matrix (then nothing matches).
  template <class FillIous>
  void load(int64_t block, const GroundTruthColumns& gt_columns, const DetectionColumns& dt_columns, const int64_t* gts,
            int64_t n_gt, const int64_t* dts, int64_t n_dt, const MatchingParams& params, FillIous&& fill_ious) {
    gt_ = gt_columns;
    dt_ = dt_columns;
    params_ = &params;
    gt_index_.assign(gts, gts + n_gt);
    order_.resize(static_cast<size_t>(n_dt));
    for (int64_t i = 0; i < n_dt; ++i) order_[i] = {descending_score_key(dt_.score[dts[i]]), i};
    std::sort(order_.begin(), order_.end());
    const int64_t kept = kept_detections(n_dt, params.max_detections);
    dt_index_.resize(static_cast<size_t>(kept));
    dt_position_.resize(static_cast<size_t>(kept));
    for (int64_t i = 0; i < kept; ++i) {
      dt_position_[i] = order_[i].position;
      dt_index_[i] = dts[order_[i].position];
    }
    ious_.resize(static_cast<size_t>(kept * n_gt));
    has_ious_ = kept > 0 && n_gt > 0 &&
                fill_ious(block, dt_index_.data(), dt_position_.data(), kept, gt_index_.data(), n_gt, ious_.data());
  }

  int64_t n_gt() const { return static_cast<int64_t>(gt_index_.size()); }
  int64_t n_dt() const { return static_cast<int64_t>(dt_index_.size()); }
  // Column indices of the kept detections, best score first.
  const int64_t* detections() const { return dt_index_.data(); }
  // The IoU matrix (n_dt x n_gt, ground truths in input order), if any.
  bool has_ious() const { return has_ious_; }
  const double* ious() const { return ious_.data(); }

  // Matches the block for area range `a`. Afterwards, for threshold t:
  // gt_order()[j] is the j-th ground truth (block position) in ignore order,
  // gt_ignored()[j] its flag, matched_gt(t, d) the ignore-order position of the
  // ground truth detection d matched (-1: none), last_dt(t, j) the detection
  // that last matched ground truth j (-1: none), dt_ignored(t, d) the
  // detection's ignore flag and outcome(t, d) what it counts as.
  void match(int64_t a) {
    const int64_t G = n_gt(), D = n_dt(), T = params_->n_thresholds;
    const double lo = params_->area_ranges[2 * a], hi = params_->area_ranges[2 * a + 1];
    gt_order_.clear();
    for (int pass = 0; pass < 2; ++pass) {
      for (int64_t g = 0; g < G; ++g) {
        const int64_t c = gt_index_[g];
        const bool ignored = gt_.ignore[c] || gt_.area[c] < lo || gt_.area[c] > hi;
        if (ignored == (pass == 1)) gt_order_.push_back(g);
      }
      if (pass == 0) n_regular_ = static_cast<int64_t>(gt_order_.size());
    }
    matched_gt_.assign(static_cast<size_t>(T * D), -1);
    last_dt_.assign(static_cast<size_t>(T * G), -1);
    dt_ignored_.resize(static_cast<size_t>(T * D));
    if (!has_ious_) {  // nothing matches: only the area rule applies
      for (int64_t d = 0; d < D; ++d) {
        const double area = dt_.area[dt_index_[d]];
        const uint8_t outside = area < lo || area > hi;
        for (int64_t t = 0; t < T; ++t) dt_ignored_[t * D + d] = outside;
      }
      return;
    }
    std::fill(dt_ignored_.begin(), dt_ignored_.end(), uint8_t{0});
    for (int64_t t = 0; t < T; ++t) {
      int64_t* matched = matched_gt_.data() + t * D;
      int64_t* last = last_dt_.data() + t * G;
      uint8_t* ignored = dt_ignored_.data() + t * D;
      const double start = std::min(params_->iou_thresholds[t], 1 - 1e-10);
      for (int64_t d = 0; d < D; ++d) {
        double best = start;
        int64_t m = -1;
        const double* row = ious_.data() + d * G;
        for (int64_t j = 0; j < G; ++j) {
          const int64_t g = gt_order_[j];
          if (last[j] >= 0 && dt_.id[dt_index_[last[j]]] > 0 && !gt_.crowd[gt_index_[g]]) continue;
          if (m > -1 && m < n_regular_ && j >= n_regular_) break;
          if (row[g] < best) continue;
          best = row[g];
          m = j;
        }
        if (m == -1) continue;
        ignored[d] = m >= n_regular_;
        matched[d] = m;
        last[m] = d;
      }
    }
    for (int64_t t = 0; t < T; ++t) {
      for (int64_t d = 0; d < D; ++d) {
        const double area = dt_.area[dt_index_[d]];
        if (matched_gt_id(t, d) == 0 && (area < lo || area > hi)) dt_ignored_[t * D + d] = 1;
      }
    }
  }

  int64_t n_regular_gts() const { return n_regular_; }
  const int64_t* gt_order() const { return gt_order_.data(); }
  int64_t matched_gt(int64_t t, int64_t d) const { return matched_gt_[t * n_dt() + d]; }
  int64_t last_dt(int64_t t, int64_t j) const { return last_dt_[t * n_gt() + j]; }
  bool dt_ignored(int64_t t, int64_t d) const { return dt_ignored_[t * n_dt() + d] != 0; }
  // The id of the ground truth detection d matched at threshold t, 0 if none.
  double matched_gt_id(int64_t t, int64_t d) const {
    const int64_t j = matched_gt(t, d);
    return j < 0 ? 0.0 : gt_.id[gt_index_[gt_order_[j]]];
  }
  Outcome outcome(int64_t t, int64_t d) const {
    if (dt_ignored(t, d)) return Outcome::ignored;
    return matched_gt_id(t, d) != 0 ? Outcome::true_positive : Outcome::false_positive;
  }

 private:
  GroundTruthColumns gt_{};
  DetectionColumns dt_{};
  const MatchingParams* params_ = nullptr;
  std::vector<int64_t> gt_index_, dt_index_, dt_position_, gt_order_, matched_gt_, last_dt_;
  std::vector<OrderedDetection> order_;
  std::vector<double> ious_;
  std::vector<uint8_t> dt_ignored_;
  int64_t n_regular_ = 0;
  bool has_ious_ = false;
};

}  // namespace turbometrics::detection
