// Intersection over union of boxes and RLE masks, and the union or
// intersection of many RLE masks, with pycocotools' exact arithmetic
// (bbIou, rleIou, rleMerge). RLE operations walk the runs of both masks
// side by side; nothing is decoded.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "turbometrics/detection/run_lengths.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::detection {

// IoU of two [x, y, w, h] boxes as pycocotools' bbIou: 0 unless the overlap
// has a positive width and height; for a crowd ground truth the union is
// the detection's area. Same operations in the same order (std::fmin /
// std::fmax, so a NaN coordinate is ignored by min/max just as in C).
inline double box_iou(const double* dt, const double* gt, bool gt_is_crowd) {
  const double gt_area = gt[2] * gt[3];
  const double dt_area = dt[2] * dt[3];
  const double w = std::fmin(dt[2] + dt[0], gt[2] + gt[0]) - std::fmax(dt[0], gt[0]);
  if (w <= 0) return 0.0;
  const double h = std::fmin(dt[3] + dt[1], gt[3] + gt[1]) - std::fmax(dt[1], gt[1]);
  if (h <= 0) return 0.0;
  const double inter = w * h;
  const double uni = gt_is_crowd ? dt_area : dt_area + gt_area - inter;
  return inter / uni;
}

namespace rle_detail {

// One RLE's runs, consumed front to back. `left` is what remains of the
// current run; `on` whether that run is of set pixels.
struct Cursor {
  const uint32_t* next;
  const uint32_t* end;
  uint32_t left;
  bool on;

  explicit Cursor(const RunLengths& r)
      : next(r.counts.data() + 1), end(r.counts.data() + r.counts.size()), left(r.counts[0]), on(false) {}
  bool exhausted() const { return left == 0 && next == end; }
  // After consuming `step` pixels, enter the next run if this one is used
  // up (at most one run per call, as pycocotools).
  void consume(uint32_t step) {
    left -= step;
    if (left == 0 && next != end) {
      left = *next++;
      on = !on;
    }
  }
};

// pycocotools loops forever when one RLE runs out while the other still has
// pixels left (their counts cover different numbers of pixels).
[[noreturn]] inline void throw_uneven(const char* what) {
  throw std::invalid_argument(std::string(what) +
                              ": the two RLEs' counts cover different numbers of pixels (pycocotools would loop "
                              "forever)");
}

}  // namespace rle_detail

// IoU of two RLEs after pycocotools' bounding-box test passed (the boxes
// overlap). Returns -1 when the sizes differ; otherwise |dt & gt| / |dt | gt|
// (or / area(dt) for a crowd gt), with 32-bit unsigned sums as pycocotools,
// and 0 when nothing intersects. Throws std::invalid_argument where
// pycocotools would crash or hang: empty counts, or counts that cover
// different numbers of pixels.
inline double rle_iou_walk(const RunLengths& dt, const RunLengths& gt, bool gt_is_crowd) {
  if (dt.height != gt.height || dt.width != gt.width) return -1.0;
  if (dt.counts.empty() || gt.counts.empty()) throw std::invalid_argument("rle_iou: an RLE has no counts");
  rle_detail::Cursor a(dt), b(gt);
  uint32_t inter = 0, uni = 0;
  for (;;) {
    if ((a.exhausted() && b.left) || (b.exhausted() && a.left)) rle_detail::throw_uneven("rle_iou");
    const uint32_t step = std::min(a.left, b.left);
    if (a.on || b.on) {
      uni += step;
      if (a.on && b.on) inter += step;
    }
    a.consume(step);
    b.consume(step);
    if (static_cast<uint32_t>(a.left + b.left) == 0) break;
  }
  if (inter == 0) return 0.0;
  if (gt_is_crowd) uni = area(dt);
  return static_cast<double>(inter) / static_cast<double>(uni);
}

// IoU of two RLEs with their bounding boxes (to_bbox) already computed:
// exactly pycocotools' rleIou for one pair. Pairs whose boxes do not
// overlap give the boxes' IoU (0 for boxes of RLEs) without walking the
// runs, even when the sizes differ.
inline double rle_iou(const RunLengths& dt, const Box& dt_box, const RunLengths& gt, const Box& gt_box,
                      bool gt_is_crowd) {
  const double boxes = box_iou(dt_box.data(), gt_box.data(), gt_is_crowd);
  if (!(boxes > 0)) return boxes;
  return rle_iou_walk(dt, gt, gt_is_crowd);
}

// The same, computing both bounding boxes (O(counts)).
inline double rle_iou(const RunLengths& dt, const RunLengths& gt, bool gt_is_crowd) {
  return rle_iou(dt, to_bbox(dt), gt, to_bbox(gt), gt_is_crowd);
}

// An RLE prepared for many IoU evaluations: its bounding box and area,
// and, for a `simple` RLE, the [start, end) pixel ranges of its runs of
// 1s. Simple means: no zero-length run after the first count, counts that
// cover exactly height * width pixels, and fewer than 2^31 pixels; for
// such pairs pycocotools' run walk visits every pixel, so its union equals
// area(dt) + area(gt) - intersection, and the intersection can be summed
// over the runs of 1s that lie in the columns both boxes span. Other RLEs
// fall back to the exact run walk. `rle` must outlive the PreparedRle.
struct PreparedRle {
  const RunLengths* rle = nullptr;
  Box box{};
  uint32_t area = 0;
  bool simple = false;
  std::vector<uint32_t> starts, ends;  // runs of 1s, in pixel order
};

inline PreparedRle prepare(const RunLengths& rle) {
  PreparedRle p;
  p.rle = &rle;
  p.box = to_bbox(rle);
  p.area = area(rle);
  const uint64_t pixels = rle.height * rle.width;
  const auto& c = rle.counts;
  bool simple = !c.empty() && pixels < (uint64_t{1} << 31) && (rle.height == 0 || pixels / rle.height == rle.width) &&
                pixel_count(rle) == pixels;
  for (size_t j = 1; simple && j < c.size(); ++j) simple = c[j] != 0;
  p.simple = simple;
  if (simple) {
    p.starts.reserve(c.size() / 2);
    p.ends.reserve(c.size() / 2);
    uint32_t position = 0;
    for (size_t j = 0; j < c.size(); ++j) {
      if (j % 2) {
        p.starts.push_back(position);
        p.ends.push_back(position + c[j]);
      }
      position += c[j];
    }
  }
  return p;
}

namespace rle_detail {

// Pixels set in both, counting only runs that reach [lo, hi).
inline uint64_t intersection(const PreparedRle& a, const PreparedRle& b, uint32_t lo, uint32_t hi) {
  const size_t na = a.ends.size(), nb = b.ends.size();
  size_t i = static_cast<size_t>(std::upper_bound(a.ends.begin(), a.ends.end(), lo) - a.ends.begin());
  size_t j = static_cast<size_t>(std::upper_bound(b.ends.begin(), b.ends.end(), lo) - b.ends.begin());
  const uint32_t *as = a.starts.data(), *ae = a.ends.data(), *bs = b.starts.data(), *be = b.ends.data();
  uint64_t total = 0;
  while (i < na && j < nb) {
    const uint32_t start = std::max(as[i], bs[j]);
    if (start >= hi) break;
    const uint32_t end = std::min(ae[i], be[j]);
    if (end > start) total += end - start;
    if (ae[i] < be[j])
      ++i;
    else
      ++j;
  }
  return total;
}

}  // namespace rle_detail

// Exactly rle_iou(*dt.rle, dt.box, *gt.rle, gt.box, gt_is_crowd), faster.
inline double rle_iou(const PreparedRle& dt, const PreparedRle& gt, bool gt_is_crowd) {
  const double boxes = box_iou(dt.box.data(), gt.box.data(), gt_is_crowd);
  if (!(boxes > 0)) return boxes;
  if (!dt.simple || !gt.simple || dt.rle->height != gt.rle->height || dt.rle->width != gt.rle->width)
    return rle_iou_walk(*dt.rle, *gt.rle, gt_is_crowd);
  // Both boxes are exact pixel columns; intersections lie in the shared ones.
  const uint64_t h = dt.rle->height;
  const uint64_t x_lo = static_cast<uint64_t>(std::max(dt.box[0], gt.box[0]));
  const uint64_t x_hi = static_cast<uint64_t>(std::min(dt.box[0] + dt.box[2], gt.box[0] + gt.box[2]));
  const uint64_t inter = rle_detail::intersection(dt, gt, static_cast<uint32_t>(x_lo * h),
                                                  static_cast<uint32_t>(std::min<uint64_t>(x_hi * h, UINT32_MAX)));
  if (inter == 0) return 0.0;
  const uint64_t uni = gt_is_crowd ? dt.area : uint64_t{dt.area} + gt.area - inter;
  return static_cast<double>(inter) / static_cast<double>(uni);
}

// Calls body(i) for i in [0, count) on up to n_threads threads. If some
// calls throw, every index still runs and the exception of the lowest
// index is rethrown afterwards, so errors do not depend on the thread count.
template <class Body>
void for_each_index(int64_t count, int n_threads, Body&& body) {
  std::vector<std::exception_ptr> errors;
  bool failed = false;
  std::mutex errors_mutex;
  parallel_for_dynamic(count, n_threads, [&](int64_t i) {
    try {
      body(i);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(errors_mutex);
      if (errors.empty()) errors.resize(static_cast<size_t>(count));
      errors[static_cast<size_t>(i)] = std::current_exception();
      failed = true;
    }
  });
  if (failed)
    for (const auto& e : errors)
      if (e) std::rethrow_exception(e);
}

// Calls body(g, d) for every pair, in parallel over ground truths; on
// errors the first pair in pycocotools' order (g, then d) wins.
template <class Body>
void for_each_pair(int64_t n_dt, int64_t n_gt, int n_threads, Body&& body) {
  for_each_index(n_gt, n_threads, [&](int64_t g) {
    for (int64_t d = 0; d < n_dt; ++d) body(g, d);
  });
}

// out[g * n_dt + d] = box_iou(dt[d], gt[g], crowd[g]) for rows of 4
// doubles; crowd may be null (no crowd). The detections are transposed
// once so that the inner loop is branch-free over contiguous arrays; the
// arithmetic is box_iou's.
inline void box_iou_matrix(const double* dt, int64_t n_dt, const double* gt, int64_t n_gt, const uint8_t* crowd,
                           double* out, int n_threads) {
  std::vector<double> x(n_dt), y(n_dt), x_end(n_dt), y_end(n_dt), dt_area(n_dt);
  for (int64_t d = 0; d < n_dt; ++d) {
    const double* D = dt + 4 * d;
    x[d] = D[0];
    y[d] = D[1];
    x_end[d] = D[2] + D[0];
    y_end[d] = D[3] + D[1];
    dt_area[d] = D[2] * D[3];
  }
  // std::fmin / std::fmax without a libm call: NaN operands are ignored.
  auto fmin = [](double a, double b) { return ((b != b) | (a < b)) ? a : b; };
  auto fmax = [](double a, double b) { return ((b != b) | (a > b)) ? a : b; };
  for_each_index(n_gt, n_threads, [&](int64_t g) {
    const double* G = gt + 4 * g;
    const double gx = G[0], gy = G[1], gx_end = G[2] + G[0], gy_end = G[3] + G[1], gt_area = G[2] * G[3];
    double* o = out + g * n_dt;
    auto row = [&](auto is_crowd) {
      for (int64_t d = 0; d < n_dt; ++d) {
        const double w = fmin(x_end[d], gx_end) - fmax(x[d], gx);
        const double h = fmin(y_end[d], gy_end) - fmax(y[d], gy);
        const double inter = w * h;
        const double uni = decltype(is_crowd)::value ? dt_area[d] : dt_area[d] + gt_area - inter;
        const double ratio = inter / uni;  // for every pair, so that the loop vectorises
        o[d] = ((w <= 0) | (h <= 0)) ? 0.0 : ratio;
      }
    };
    if (crowd != nullptr && crowd[g])
      row(std::true_type{});
    else
      row(std::false_type{});
  });
}

// out[g * n_dt + d] = rle_iou(dt[d], gt[g], crowd[g]), pycocotools' rleIou
// layout; every RLE is prepared once.
inline void rle_iou_matrix(const RunLengths* dt, int64_t n_dt, const RunLengths* gt, int64_t n_gt, const uint8_t* crowd,
                           double* out, int n_threads) {
  std::vector<PreparedRle> pd(static_cast<size_t>(n_dt)), pg(static_cast<size_t>(n_gt));
  for_each_index(n_dt, n_threads, [&](int64_t d) { pd[d] = prepare(dt[d]); });
  for_each_index(n_gt, n_threads, [&](int64_t g) { pg[g] = prepare(gt[g]); });
  for_each_pair(n_dt, n_gt, n_threads,
                [&](int64_t g, int64_t d) { out[g * n_dt + d] = rle_iou(pd[d], pg[g], crowd != nullptr && crowd[g]); });
}

// Union (or intersection) of two RLEs of the same size: pycocotools'
// rleMerge step, including its handling of zero-length runs.
inline RunLengths merge_pair(const RunLengths& a_rle, const RunLengths& b_rle, bool intersect) {
  if (a_rle.counts.empty() || b_rle.counts.empty()) throw std::invalid_argument("merge: an RLE has no counts");
  rle_detail::Cursor a(a_rle), b(b_rle);
  RunLengths out;
  out.height = a_rle.height;
  out.width = a_rle.width;
  uint32_t run = 0;
  bool on = false;
  for (;;) {
    if ((a.exhausted() && b.left) || (b.exhausted() && a.left)) rle_detail::throw_uneven("merge");
    const uint32_t step = std::min(a.left, b.left);
    run += step;
    a.consume(step);
    b.consume(step);
    const bool rest = static_cast<uint32_t>(a.left + b.left) != 0;
    const bool now_on = intersect ? (a.on && b.on) : (a.on || b.on);
    if (now_on != on || !rest) {
      out.counts.push_back(run);
      run = 0;
    }
    on = now_on;
    if (!rest) break;
  }
  return out;
}

// Union (intersect = false) or intersection of n RLEs, folded left to right
// as pycocotools' rleMerge: no RLE gives a 0 x 0 mask with no counts, one
// RLE is returned unchanged, and if some RLE's size differs from the first
// one's the result is a 0 x 0 mask with no counts.
inline RunLengths merge(const RunLengths* rles, size_t n, bool intersect) {
  if (n == 0) return RunLengths{};
  RunLengths acc = rles[0];
  for (size_t i = 1; i < n; ++i) {
    if (rles[i].height != rles[0].height || rles[i].width != rles[0].width) return RunLengths{};
    acc = merge_pair(acc, rles[i], intersect);
  }
  return acc;
}

}  // namespace turbometrics::detection
