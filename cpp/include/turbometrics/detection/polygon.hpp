// Polygon and box rasterisation with pycocotools' rules (rleFrPoly,
// rleFrBbox), reproduced exactly:
//
// 1. Every vertex is scaled by 5 and rounded as C's (int)(5 * v + 0.5)
//    (truncation toward zero, so negative coordinates round up).
// 2. Each edge, closing edge included, is walked one scaled unit at a time
//    along its longer axis, from its first vertex to its second, both
//    included; the other coordinate is (int)(a + s * t + 0.5) measured from
//    the edge's lower end, so an edge rounds the same in both directions. A
//    zero-length edge (a repeated vertex) yields one point whose y is
//    INT_MIN: pycocotools computes 0/0 there, and x86-64 converts the NaN
//    to INT_MIN.
// 3. Wherever the scaled x of consecutive points changes, the step's left
//    column x = (min x + 0.5) / 5 - 0.5 is kept if it is an integer in
//    [0, W - 1] (W - 1 in unsigned 64-bit arithmetic, so W = 0 keeps every
//    x >= 0), with the boundary row y = ceil(clamp((min y + 0.5) / 5 - 0.5,
//    0, H)).
// 4. The boundaries x * H + y (32-bit wrap-around) and H * W are sorted; the
//    gaps between them are the runs, and two boundaries at the same place
//    cancel.
//
// The walk streams its points (no per-point buffers) and skips, without
// changing the result, the points that cannot produce a kept column: parts
// of an edge outside the image's columns (found by bisection, as the scaled
// column is monotone along an edge), whole edges that stay in one scaled
// column, and, on long steep edges, the runs of points between two column
// changes (each change found by bisection). Work is therefore bounded by
// the image width and the number of edges, not by how far out vertices lie.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "turbometrics/detection/run_lengths.hpp"

namespace turbometrics::detection {

namespace polygon_detail {

constexpr double kScale = 5.0;

// With width 0, pycocotools keeps every column x >= 0 (W - 1 wraps around),
// so the boundaries are bounded only by the coordinates; past this many the
// rasterisation stops with an error instead of allocating gigabytes.
constexpr size_t kMaxUnboundedBoundaries = size_t{1} << 24;

// (int)(kScale * v + .5), rejecting values whose conversion is undefined in C.
inline int32_t scaled(double v, size_t index) {
  const double s = kScale * v + .5;
  if (!(s > -2147483649.0 && s < 2147483648.0))
    throw std::invalid_argument("polygon coordinate " + std::to_string(index) +
                                " must be finite and within about +-4.29e8, got " + std::to_string(v));
  return static_cast<int32_t>(s);
}

// Collects the column boundaries of consecutive upsampled points.
// pycocotools computes x = (left + .5) / 5 - .5 and y = ceil(clamp((v_min +
// .5) / 5 - .5, 0, H)) in doubles; for |values| < 2^31 those doubles are
// exact or at least 0.2 away from an integer, so the integer forms below
// give the same results: x is an integer iff left = 5 x + 2, and
// y = clamp(floor((v_min + 2) / 5), 0, H).
class BoundaryCollector {
 public:
  BoundaryCollector(uint64_t height, uint64_t width)
      : height_(height), width_(width), height32_(static_cast<uint32_t>(height)) {}

  void add(int32_t u, int32_t v) {
    if (has_prev_ && u != prev_u_) {
      const int64_t left = u < prev_u_ ? int64_t{u} : int64_t{u} - 1;
      if (left >= 2 && (left - 2) % 5 == 0) {
        const int64_t x = (left - 2) / 5;
        // x <= W - 1 in unsigned arithmetic: W = 0 keeps every column.
        if (width_ == 0 || static_cast<uint64_t>(x) < width_) {
          const int64_t n = int64_t{std::min(v, prev_v_)} + 2;
          int64_t y = n >= 0 ? n / 5 : -((-n + 4) / 5);  // floor(n / 5)
          if (y < 0)
            y = 0;
          else if (static_cast<uint64_t>(y) > height_)
            y = static_cast<int64_t>(height_);
          if (width_ == 0 && boundaries_.size() >= kMaxUnboundedBoundaries)
            throw std::invalid_argument("polygon in an image of width 0 crosses more than 2^24 columns");
          boundaries_.push_back(static_cast<uint32_t>(x) * height32_ + static_cast<uint32_t>(y));
          columns_.push_back(static_cast<uint32_t>(x));
        }
      }
    }
    prev_u_ = u;
    prev_v_ = v;
    has_prev_ = true;
  }

  // Moves to (u, v) without looking at the step into it (the caller knows
  // the step keeps nothing).
  void jump(int32_t u, int32_t v) {
    prev_u_ = u;
    prev_v_ = v;
    has_prev_ = true;
  }

  std::vector<uint32_t>& boundaries() { return boundaries_; }
  const std::vector<uint32_t>& columns() const { return columns_; }

 private:
  uint64_t height_;
  uint64_t width_;
  uint32_t height32_;
  bool has_prev_ = false;
  int32_t prev_u_ = 0, prev_v_ = 0;
  std::vector<uint32_t> boundaries_;
  std::vector<uint32_t> columns_;  // x of each boundary
};

// Sorts boundaries x * H + y (no wrap-around: H * W < 2^32) by bucketing
// them by column x, then fixing the small disorder inside each column by
// insertion: O(n + number of columns) instead of O(n log n). A closed
// polygon crosses each column it spans at least twice, so the columns are
// few; otherwise std::sort.
inline void sort_boundaries(std::vector<uint32_t>& keys, const std::vector<uint32_t>& columns) {
  const size_t n = keys.size();
  if (n < 32) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  const auto [lo_it, hi_it] = std::minmax_element(columns.begin(), columns.end());
  const uint32_t lo = *lo_it;
  const size_t range = static_cast<size_t>(*hi_it - lo) + 1;
  if (range > n + 64) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  std::vector<uint32_t> offset(range + 1, 0);
  for (const uint32_t c : columns) ++offset[c - lo + 1];
  for (size_t i = 1; i <= range; ++i) offset[i] += offset[i - 1];
  std::vector<uint32_t> sorted(n);
  for (size_t i = 0; i < n; ++i) sorted[offset[columns[i] - lo]++] = keys[i];
  for (size_t i = 1; i < n; ++i) {
    const uint32_t key = sorted[i];
    size_t j = i;
    for (; j > 0 && sorted[j - 1] > key; --j) sorted[j] = sorted[j - 1];
    sorted[j] = key;
  }
  keys.swap(sorted);
}

// The smallest d in [lo, hi] with pred(d), or hi + 1; pred must be false
// then true as d grows.
template <class Pred>
int64_t first_true(int64_t lo, int64_t hi, Pred pred) {
  int64_t a = lo, b = hi + 1;
  while (a < b) {
    const int64_t mid = a + (b - a) / 2;
    if (pred(mid))
      b = mid;
    else
      a = mid + 1;
  }
  return a;
}

// Walks the edge (x0, y0) -> (x1, y1) in scaled units. `lo` and `hi` bound
// the scaled columns a kept step can touch: a step from u to u' keeps
// something only if max(u, u') >= lo + 1 and min(u, u') <= hi - 1.
inline void walk_edge(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int64_t lo, int64_t hi, BoundaryCollector& out) {
  const int64_t dx = std::llabs(int64_t{x1} - x0);
  const int64_t dy = std::llabs(int64_t{y1} - y0);
  if (dx == 0 && dy == 0) {
    out.add(x0, std::numeric_limits<int32_t>::min());
    return;
  }
  const bool along_x = dx >= dy;
  const bool reversed = along_x ? x0 > x1 : y0 > y1;
  // Measure from the lower end so that both directions round alike.
  const int32_t bx = reversed ? x1 : x0, by = reversed ? y1 : y0;
  const int32_t fx = reversed ? x0 : x1, fy = reversed ? y0 : y1;
  const int64_t steps = along_x ? dx : dy;
  const double slope = along_x ? static_cast<double>(fy - by) / static_cast<double>(dx)
                               : static_cast<double>(fx - bx) / static_cast<double>(dy);
  auto point = [&](int64_t d, int32_t& u, int32_t& v) {
    const int64_t t = reversed ? steps - d : d;
    const double td = static_cast<double>(t);
    if (along_x) {
      u = static_cast<int32_t>(bx + t);
      v = static_cast<int32_t>(static_cast<double>(by) + slope * td + .5);
    } else {
      v = static_cast<int32_t>(by + t);
      u = static_cast<int32_t>(static_cast<double>(bx) + slope * td + .5);
    }
  };
  int32_t u, v;
  point(0, u, v);
  out.add(u, v);  // the step from the previous edge
  if (steps == 0) return;
  int32_t u_end, v_end;
  point(steps, u_end, v_end);
  // Within the edge the scaled column is monotone in d.
  const int64_t u_min = std::min(u, u_end), u_max = std::max(u, u_end);
  if (u_min == u_max || u_max <= lo || u_min >= hi) {
    out.jump(u_end, v_end);
    return;
  }
  auto column = [&](int64_t d) {
    int32_t uu, vv;
    point(d, uu, vv);
    return uu;
  };
  const bool rising = u_end > u;
  int64_t first = 1, last = steps;  // the steps (d - 1 -> d) that can keep something
  if (along_x) {
    // u moves by exactly one per step: the step into d spans columns
    // [min, min + 1] with min = u0 + d - 1 (rising) or u0 - d (falling).
    const int64_t u0 = u;
    if (rising) {
      first = std::max<int64_t>(first, lo + 1 - u0);
      last = std::min<int64_t>(last, hi - u0);
    } else {
      first = std::max<int64_t>(first, u0 - hi + 1);
      last = std::min<int64_t>(last, u0 - lo);
    }
  } else if (steps > 64) {
    // u is monotone in d, so the steps touching [lo + 1, hi - 1] are a
    // contiguous range; find its ends by bisection.
    if (rising) {
      first = first_true(1, steps, [&](int64_t d) { return column(d) >= lo + 1; });
      last = first_true(1, steps, [&](int64_t d) { return column(d - 1) > hi - 1; }) - 1;
    } else {
      first = first_true(1, steps, [&](int64_t d) { return column(d) <= hi - 1; });
      last = first_true(1, steps, [&](int64_t d) { return column(d - 1) < lo + 1; }) - 1;
    }
  }
  if (first > last) {
    out.jump(u_end, v_end);
    return;
  }
  if (along_x) {
    // Only steps whose left scaled column is 2 modulo 5 keep a column: the
    // step into d has left column u0 + d - 1 (rising) or u0 - d (falling).
    const int64_t u0 = column(0);
    const int64_t target = rising ? ((3 - u0) % 5 + 5) % 5 : ((u0 - 2) % 5 + 5) % 5;
    for (int64_t d = first + ((target - first) % 5 + 5) % 5; d <= last; d += 5) {
      point(d - 1, u, v);
      out.jump(u, v);
      point(d, u, v);
      out.add(u, v);
    }
    out.jump(u_end, v_end);
    return;
  }
  if (first > 1) {
    point(first - 1, u, v);
    out.jump(u, v);
  }
  const int64_t changes = std::llabs(int64_t{u_end} - column(0));
  if (steps > 64 && changes * 16 < last - first + 1) {
    // A steep edge: u changes at few steps; find each change by bisection.
    int64_t d = first;
    int32_t u_prev = u;
    while (d <= last) {
      const int64_t change = first_true(d, last, [&](int64_t x) { return column(x) != u_prev; });
      if (change > last) break;
      point(change - 1, u, v);
      out.jump(u, v);  // the steps before `change` keep u: nothing to keep
      point(change, u, v);
      out.add(u, v);
      u_prev = u;
      d = change + 1;
    }
    out.jump(u_end, v_end);
    return;
  }
  for (int64_t d = first; d <= last; ++d) {
    point(d, u, v);
    out.add(u, v);
  }
  if (last < steps) out.jump(u_end, v_end);
}

}  // namespace polygon_detail

// Rasterises the closed polygon with `n_vertices` (x, y) pairs stored at
// xy[0..2 * n_vertices) into an H x W RLE, bit-identical to pycocotools'
// rleFrPoly. Zero or one vertex gives an empty mask. Throws
// std::invalid_argument for a coordinate that is not finite or so large
// that pycocotools' int arithmetic overflows (|5 v| >= 2^31, or consecutive
// scaled vertices 2^31 or more apart).
inline RunLengths from_polygon(const double* xy, size_t n_vertices, uint64_t height, uint64_t width) {
  using namespace polygon_detail;
  std::vector<int32_t> px(n_vertices + 1), py(n_vertices + 1);
  for (size_t j = 0; j < n_vertices; ++j) {
    px[j] = scaled(xy[2 * j], 2 * j);
    py[j] = scaled(xy[2 * j + 1], 2 * j + 1);
  }
  if (n_vertices > 0) {
    px[n_vertices] = px[0];
    py[n_vertices] = py[0];
  }
  constexpr int64_t int_max = std::numeric_limits<int32_t>::max();
  for (size_t j = 0; j < n_vertices; ++j) {
    if (std::llabs(int64_t{px[j + 1]} - px[j]) > int_max || std::llabs(int64_t{py[j + 1]} - py[j]) > int_max)
      throw std::invalid_argument("polygon edge " + std::to_string(j) + " is too long (2^31 or more scaled units)");
  }
  if (height == 0) {
    // Every boundary is x * 0 + 0 and H * W is 0: pycocotools' runs are [0].
    RunLengths empty;
    empty.width = width;
    empty.counts.push_back(0);
    return empty;
  }
  // A kept column x in [0, W - 1] comes from a step whose left scaled column
  // is 5 x + 2, so the step touches scaled columns within [2, 5 W - 2].
  const int64_t lo = 2;
  const int64_t hi = (width == 0 || width > (uint64_t{1} << 40)) ? std::numeric_limits<int64_t>::max() / 4
                                                                 : static_cast<int64_t>(5 * width - 2);
  BoundaryCollector collector(height, width);
  for (size_t j = 0; j < n_vertices; ++j) walk_edge(px[j], py[j], px[j + 1], py[j + 1], lo, hi, collector);

  std::vector<uint32_t>& b = collector.boundaries();
  const uint64_t pixels = height * width;
  if (width != 0 && height != 0 && pixels / height == width && pixels <= UINT32_MAX) {
    sort_boundaries(b, collector.columns());  // every key is at most H * W
    b.push_back(static_cast<uint32_t>(pixels));
  } else {
    b.push_back(static_cast<uint32_t>(pixels));
    std::sort(b.begin(), b.end());
  }
  RunLengths rle;
  rle.height = height;
  rle.width = width;
  rle.counts.reserve(b.size());
  uint32_t previous = 0;
  bool pending_merge = false;  // a zero gap cancelled a boundary: add the next gap to the last run
  for (size_t j = 0; j < b.size(); ++j) {
    const uint32_t gap = b[j] - previous;
    previous = b[j];
    if (j == 0) {
      rle.counts.push_back(gap);
    } else if (pending_merge) {
      rle.counts.back() += gap;
      pending_merge = false;
    } else if (gap > 0) {
      rle.counts.push_back(gap);
    } else {
      pending_merge = true;
    }
  }
  return rle;
}

// Rasterises the box [x, y, w, h] as the polygon (x, y), (x, y + h),
// (x + w, y + h), (x + w, y), like pycocotools' rleFrBbox.
inline RunLengths from_bbox(const double* xywh, uint64_t height, uint64_t width) {
  const double xs = xywh[0], xe = xs + xywh[2];
  const double ys = xywh[1], ye = ys + xywh[3];
  const double corners[8] = {xs, ys, xs, ye, xe, ye, xe, ys};
  return from_polygon(corners, 4, height, width);
}

}  // namespace turbometrics::detection
