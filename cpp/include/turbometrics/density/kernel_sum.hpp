// The density area's one primitive: for every query point p_i,
//
//     log S_i,   S_i = sum_j w_j K(||x_j - p_i|| / h),
//
// with K an unnormalised kernel profile (K(0) = 1). Every exact estimate of
// the area (scikit-learn-style kde, scipy-style gaussian_kde after whitening
// the data, the binned method's fallback) is a normalisation of this sum.
//
// Work is split over query points only: each point's sum is accumulated by
// one thread in a fixed order (data blocks in order, 8 lanes per block), so
// results are bit-identical for every thread count.
//
// The data are sorted (SortedSample: in 1-D by value, in d >= 2 into stripes
// of the first coordinate sorted by the second, so blocks of 512 points are
// compact boxes; zero-weight points dropped), and each point visits only the
// data that can matter (the 1-D window, or the blocks whose box is close):
//
// * Gaussian and exponential kernels: a running exponent shift (the largest
//   log-kernel seen so far) makes the largest term exp(0) = 1, so the sum
//   never underflows: far from the data the result is the exact
//   log-sum-exp, as in scikit-learn. The window holds every data point whose
//   term can exceed 2^-60 / (W / w_min) of the point's largest term (W the
//   total and w_min the smallest weight); the skipped terms together are
//   below 2^-60 of the sum, far below its rounding error.
// * Compact kernels (tophat, epanechnikov, linear, cosine): every pair that
//   can be within h.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "turbometrics/density/exp.hpp"
#include "turbometrics/isa.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::density {

enum class Kernel { gaussian, tophat, epanechnikov, exponential, linear, cosine };

inline Kernel kernel_from_name(const std::string& name) {
  if (name == "gaussian") return Kernel::gaussian;
  if (name == "tophat") return Kernel::tophat;
  if (name == "epanechnikov") return Kernel::epanechnikov;
  if (name == "exponential") return Kernel::exponential;
  if (name == "linear") return Kernel::linear;
  if (name == "cosine") return Kernel::cosine;
  throw std::invalid_argument("unknown kernel: " + name);
}

constexpr int64_t kSampleBlock = 512;  // data points per block: dims * 4 KiB, in L1

// The data, column by column: coordinate c of point j is columns[c * size + j].
// Blocks are the runs of kSampleBlock consecutive points; box (if set) holds
// each block's bounding box, box[2 * (b * dims + c)] = low, [... + 1] = high.
struct Sample {
  const double* columns = nullptr;
  const double* weights = nullptr;  // nullptr: every weight is 1
  int64_t size = 0;
  int dims = 0;
  const double* box = nullptr;
  int64_t blocks() const { return (size + kSampleBlock - 1) / kSampleBlock; }
};

// Query points, row by row: coordinate c of point i is rows[i * dims + c].
struct Queries {
  const double* rows = nullptr;
  int64_t size = 0;
  int dims = 0;
};

// The caller's data, any layout: coordinate c of point j is
// at[j * point_stride + c * coordinate_stride] (strides in elements).
struct DataView {
  const double* at = nullptr;
  int64_t point_stride = 0;
  int64_t coordinate_stride = 0;
  const double* weights = nullptr;  // contiguous; nullptr: every weight is 1
  int64_t size = 0;
  int dims = 0;
  double operator()(int64_t j, int c) const { return at[j * point_stride + c * coordinate_stride]; }
};

// The one copy of the data the kernel sums read, column by column, without
// zero-weight points (they add nothing to any sum). In 1-D it is sorted; in
// d >= 2 it is sorted by the first coordinate into about sqrt(n / block)
// stripes of equal count, each sorted by the second coordinate, so that
// blocks are compact boxes.
struct SortedSample {
  std::vector<double> columns;
  std::vector<double> weights;
  std::vector<double> box;
  Sample view;
  double weight_ratio = 1.0;  // total weight / smallest weight (>= 1)

  explicit SortedSample(const DataView& sample) {
    std::vector<int64_t> order;
    order.reserve(sample.size);
    for (int64_t j = 0; j < sample.size; ++j)
      if (!sample.weights || sample.weights[j] != 0.0) order.push_back(j);
    const int64_t n = static_cast<int64_t>(order.size());
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return sample(a, 0) < sample(b, 0); });
    if (sample.dims >= 2) {
      const int stripes = static_cast<int>(std::max<int64_t>(1, std::llround(std::sqrt(n / double(kSampleBlock)))));
      for (int part = 0; part < stripes; ++part) {
        const auto [begin, end] = chunk_bounds(n, stripes, part);
        std::stable_sort(order.begin() + begin, order.begin() + end,
                         [&](int64_t a, int64_t b) { return sample(a, 1) < sample(b, 1); });
      }
    }
    columns.resize(static_cast<size_t>(n) * sample.dims);
    for (int c = 0; c < sample.dims; ++c) {
      double* to = columns.data() + c * n;
      for (int64_t j = 0; j < n; ++j) to[j] = sample(order[j], c);
    }
    weight_ratio = static_cast<double>(n);
    if (sample.weights) {
      weights.resize(n);
      double total = 0.0, smallest = std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < n; ++j) {
        weights[j] = sample.weights[order[j]];
        total += weights[j];
        smallest = std::min(smallest, weights[j]);
      }
      weight_ratio = n > 0 ? std::max(1.0, total / smallest) : 1.0;
    }
    view = {columns.data(), sample.weights ? weights.data() : nullptr, n, sample.dims, nullptr};
    box.resize(static_cast<size_t>(view.blocks()) * sample.dims * 2);
    for (int64_t b = 0; b < view.blocks(); ++b)
      for (int c = 0; c < sample.dims; ++c) {
        const double* col = columns.data() + c * n;
        const int64_t begin = b * kSampleBlock, end = std::min(n, begin + kSampleBlock);
        double low = col[begin], high = col[begin];
        for (int64_t j = begin + 1; j < end; ++j) {
          low = std::min(low, col[j]);
          high = std::max(high, col[j]);
        }
        box[2 * (b * sample.dims + c)] = low;
        box[2 * (b * sample.dims + c) + 1] = high;
      }
    view.box = box.data();
  }
};

namespace detail {

constexpr int64_t kBlock = kSampleBlock;
constexpr int64_t kTile = 32;  // query points per task

// r2[j] = squared distance from data point begin + j to p, coordinates
// added in order (the order of scikit-learn's euclidean distance).
TURBOMETRICS_ALWAYS_INLINE inline void squared_distances(const Sample& s, int64_t begin, int64_t len, const double* p,
                                                         double* __restrict r2) {
  const double* __restrict col = s.columns + begin;
  const double p0 = p[0];
  for (int64_t j = 0; j < len; ++j) {
    const double t = col[j] - p0;
    r2[j] = t * t;
  }
  for (int c = 1; c < s.dims; ++c) {
    const double* __restrict colc = s.columns + c * s.size + begin;
    const double pc = p[c];
    for (int64_t j = 0; j < len; ++j) {
      const double t = colc[j] - pc;
      r2[j] += t * t;
    }
  }
}

TURBOMETRICS_ALWAYS_INLINE inline double lane_min(const double* __restrict v, int64_t len) {
  double lanes[8];
  for (int l = 0; l < 8; ++l) lanes[l] = std::numeric_limits<double>::infinity();
  int64_t j = 0;
  for (; j + 8 <= len; j += 8)
    for (int l = 0; l < 8; ++l) lanes[l] = v[j + l] < lanes[l] ? v[j + l] : lanes[l];
  for (; j < len; ++j) lanes[0] = v[j] < lanes[0] ? v[j] : lanes[0];
  double m = lanes[0];
  for (int l = 1; l < 8; ++l) m = lanes[l] < m ? lanes[l] : m;
  return m;
}

// sum_j v[j] (* w[j]) in a fixed order: 8 interleaved lanes, then the lanes.
template <bool Weighted>
TURBOMETRICS_ALWAYS_INLINE inline double lane_sum(const double* __restrict v, const double* __restrict w, int64_t len) {
  double lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t j = 0;
  for (; j + 8 <= len; j += 8)
    for (int l = 0; l < 8; ++l) lanes[l] += Weighted ? v[j + l] * w[j + l] : v[j + l];
  for (int l = 0; j < len; ++j, ++l) lanes[l] += Weighted ? v[j] * w[j] : v[j];
  return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
}

// Log-kernels of the non-compact kernels, as functions of the squared
// distance; both decrease with r2.
// radius(r2, drop): a distance beyond which the log-kernel is below
// log_kernel(r2) - drop.
struct GaussianLog {
  double half_inv_h2;  // 0.5 / h^2
  TURBOMETRICS_ALWAYS_INLINE double operator()(double r2) const { return -(r2 * half_inv_h2); }
  double radius(double r2, double drop) const { return std::sqrt(r2 + drop / half_inv_h2) * (1.0 + 1e-12); }
};
struct ExponentialLog {
  double h;
  TURBOMETRICS_ALWAYS_INLINE double operator()(double r2) const { return -(std::sqrt(r2) / h); }
  double radius(double r2, double drop) const { return (std::sqrt(r2) + drop * h) * (1.0 + 1e-12); }
};

// Half-open range of sorted data whose first coordinate x satisfies
// fl(x - p0) in (-radius, radius) (rounding is monotone, so this is a range).
inline std::pair<int64_t, int64_t> first_coordinate_window(const Sample& s, double p0, double radius) {
  const double* first = s.columns;
  const double* lo = std::partition_point(first, first + s.size, [&](double x) { return x - p0 <= -radius; });
  const double* hi = std::partition_point(lo, first + s.size, [&](double x) { return x - p0 < radius; });
  return {lo - first, hi - first};
}

// Squared distance from data point j to p.
inline double squared_distance(const Sample& s, int64_t j, const double* p) {
  double r2 = 0.0;
  for (int c = 0; c < s.dims; ++c) {
    const double t = s.columns[c * s.size + j] - p[c];
    r2 += t * t;
  }
  return r2;
}

// A lower bound of the squared distances from block b's points to p, in
// floating point: each fl(x_c - p_c) is at least as far from 0 as the gap
// to the box (rounding is monotone), so no pair's computed r2 is smaller.
inline double box_squared_distance(const Sample& s, int64_t b, const double* p) {
  double r2 = 0.0;
  for (int c = 0; c < s.dims; ++c) {
    const double low = s.box[2 * (b * s.dims + c)], high = s.box[2 * (b * s.dims + c) + 1];
    const double t = p[c] < low ? low - p[c] : (p[c] > high ? high - p[c] : 0.0);
    r2 += t * t;
  }
  return r2;
}

// Calls body(begin, len) for runs of at most kBlock data points that hold
// every data point within `radius` of p (computed distances): in 1-D the
// window of the first coordinate, in d >= 2 the blocks whose box is within
// radius.
template <class Body>
TURBOMETRICS_ALWAYS_INLINE inline void for_each_run_within(const Sample& s, const double* p, double radius,
                                                           Body&& body) {
  if (s.dims == 1) {
    const auto window = first_coordinate_window(s, p[0], radius);
    for (int64_t begin = window.first; begin < window.second; begin += kBlock)
      body(begin, std::min(kBlock, window.second - begin));
    return;
  }
  for (int64_t b = 0; b < s.blocks(); ++b)
    if (std::sqrt(box_squared_distance(s, b, p)) < radius) body(b * kBlock, std::min(kBlock, s.size - b * kBlock));
}

// An upper bound of the smallest squared distance from the data to p: the
// points nearest in the first coordinate (exact in 1-D), or in d >= 2 the
// points of the block whose box is nearest.
inline double nearest_bound(const Sample& s, const double* p, double* buffer) {
  double nearest = std::numeric_limits<double>::infinity();
  if (s.dims == 1) {
    const int64_t near =
        std::partition_point(s.columns, s.columns + s.size, [&](double x) { return x < p[0]; }) - s.columns;
    for (int64_t j = std::max<int64_t>(0, near - 8); j < std::min(s.size, near + 8); ++j)
      nearest = std::min(nearest, squared_distance(s, j, p));
    return nearest;
  }
  int64_t best = 0;
  double best_bound = std::numeric_limits<double>::infinity();
  for (int64_t b = 0; b < s.blocks(); ++b) {
    const double bound = box_squared_distance(s, b, p);
    if (bound < best_bound) {
      best_bound = bound;
      best = b;
    }
  }
  const int64_t len = std::min(kBlock, s.size - best * kBlock);
  squared_distances(s, best * kBlock, len, p, buffer);
  return lane_min(buffer, len);
}

// Query points [first, first + count) of a Gaussian or exponential kernel.
template <class LogKernel, bool Weighted>
TURBOMETRICS_ALWAYS_INLINE inline void exp_family_tile(const Sample& s, const Queries& q, int64_t first, int64_t count,
                                                       LogKernel log_kernel, double drop, double* out) {
  alignas(64) double r2[kBlock];
  alignas(64) double term[kBlock];
  for (int64_t i = first; i < first + count; ++i) {
    const double* p = q.rows + i * q.dims;
    const double radius = log_kernel.radius(nearest_bound(s, p, r2), drop);
    double shift = -std::numeric_limits<double>::infinity(), total = 0.0;
    for_each_run_within(s, p, radius, [&](int64_t begin, int64_t len) TURBOMETRICS_ALWAYS_INLINE {
      squared_distances(s, begin, len, p, r2);
      const double top = log_kernel(lane_min(r2, len));  // the run's largest log-kernel
      if (top > shift) {
        total *= std::exp(shift - top);
        shift = top;
      }
      for (int64_t j = 0; j < len; ++j) term[j] = exp_nonpositive(log_kernel(r2[j]) - shift);
      total += lane_sum<Weighted>(term, Weighted ? s.weights + begin : nullptr, len);
    });
    out[i] = std::log(total) + shift;
  }
}

// Profiles of the compact kernels at dist < h, written as scikit-learn
// writes them.
struct Tophat {
  double h;
  TURBOMETRICS_ALWAYS_INLINE double operator()(double) const { return 1.0; }
};
struct Epanechnikov {
  double h;
  TURBOMETRICS_ALWAYS_INLINE double operator()(double dist) const { return 1.0 - (dist * dist) / (h * h); }
};
struct Linear {
  double h;
  TURBOMETRICS_ALWAYS_INLINE double operator()(double dist) const { return 1.0 - dist / h; }
};
struct Cosine {
  double h;
  TURBOMETRICS_ALWAYS_INLINE double operator()(double dist) const {
    return std::cos(0.5 * 3.141592653589793 * dist / h);
  }
};

// Query points [first, first + count) of a compact kernel: only the runs of
// data within h.
template <class Profile, bool Weighted>
TURBOMETRICS_ALWAYS_INLINE inline void compact_tile(const Sample& s, const Queries& q, int64_t first, int64_t count,
                                                    Profile profile, double* out) {
  alignas(64) double r2[kBlock];
  alignas(64) double term[kBlock];
  const double h = profile.h;
  for (int64_t i = first; i < first + count; ++i) {
    const double* p = q.rows + i * q.dims;
    // dist >= |x_0 - p_0| (sqrt(fl(t*t)) == |t| in binary floating point),
    // and dist >= the box bound, so the skipped pairs are outside the support.
    double total = 0.0;
    for_each_run_within(s, p, h, [&](int64_t begin, int64_t len) TURBOMETRICS_ALWAYS_INLINE {
      squared_distances(s, begin, len, p, r2);
      for (int64_t j = 0; j < len; ++j) {
        const double dist = std::sqrt(r2[j]);
        const double value = profile(dist);
        term[j] = dist < h ? value : 0.0;
      }
      total += lane_sum<Weighted>(term, Weighted ? s.weights + begin : nullptr, len);
    });
    out[i] = std::log(total);
  }
}

template <bool Weighted>
TURBOMETRICS_ALWAYS_INLINE inline void any_tile(const Sample& s, const Queries& q, int64_t first, int64_t count,
                                                Kernel kernel, double h, double drop, double* out) {
  switch (kernel) {
    case Kernel::gaussian:
      return exp_family_tile<GaussianLog, Weighted>(s, q, first, count, GaussianLog{0.5 / (h * h)}, drop, out);
    case Kernel::exponential:
      return exp_family_tile<ExponentialLog, Weighted>(s, q, first, count, ExponentialLog{h}, drop, out);
    case Kernel::tophat: return compact_tile<Tophat, Weighted>(s, q, first, count, Tophat{h}, out);
    case Kernel::epanechnikov: return compact_tile<Epanechnikov, Weighted>(s, q, first, count, Epanechnikov{h}, out);
    case Kernel::linear: return compact_tile<Linear, Weighted>(s, q, first, count, Linear{h}, out);
    case Kernel::cosine: return compact_tile<Cosine, Weighted>(s, q, first, count, Cosine{h}, out);
  }
}

// The tile code compiled for the processor's instruction set (isa.hpp).
// The copies differ only in vector width (and, with FMA, in the last bits
// of a result); on one machine every call takes the same path.
template <bool Weighted>
void tile(Isa isa, const Sample& s, const Queries& q, int64_t first, int64_t count, Kernel kernel, double h,
          double drop, double* out) {
  dispatch(isa, [&](auto) TURBOMETRICS_ALWAYS_INLINE { any_tile<Weighted>(s, q, first, count, kernel, h, drop, out); });
}

}  // namespace detail

// out[i] = log sum_j w_j K(||x_j - p_i|| / h) for every query point (-inf
// where no data point is in a compact kernel's support). Once `interrupt`
// is requested the remaining points are skipped (their out unspecified).
inline void log_kernel_sums(const SortedSample& sorted, const Queries& queries, Kernel kernel, double h, double* out,
                            int n_threads, const Interrupt& interrupt = Interrupt::never()) {
  const Sample& sample = sorted.view;
  if (sample.dims != queries.dims) throw std::invalid_argument("data and points differ in dimension");
  if (sample.size == 0) {  // every weight zero: no mass anywhere
    for (int64_t i = 0; i < queries.size; ++i) out[i] = -std::numeric_limits<double>::infinity();
    return;
  }
  // Terms below exp(-drop) of the largest weigh less than 2^-60 of the sum.
  const double drop = 60.0 * std::log(2.0) + std::log(sorted.weight_ratio);
  // Tasks of at most kTile points and about 2^24 pair distances, so that
  // an interrupt is seen within milliseconds even for huge data.
  const int64_t tile = std::clamp<int64_t>((int64_t{1} << 24) / (sample.size * sample.dims), 1, detail::kTile);
  const int64_t tiles = (queries.size + tile - 1) / tile;
  const Isa isa = best_isa();
  parallel_for_dynamic(tiles, n_threads, interrupt, [&](int64_t t) {
    const int64_t first = t * tile;
    const int64_t count = std::min(tile, queries.size - first);
    if (sample.weights)
      detail::tile<true>(isa, sample, queries, first, count, kernel, h, drop, out);
    else
      detail::tile<false>(isa, sample, queries, first, count, kernel, h, drop, out);
  });
}

}  // namespace turbometrics::density
