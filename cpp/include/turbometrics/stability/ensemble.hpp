// Per-sample statistics of an ensemble's predictions P[model, sample(, class)].
//
// Samples are processed in blocks of a fixed length (from the shape of P
// only). Inside a block the models are the outer loop and the samples the
// inner one, so each model's row segment is read once, in order, and every
// inner loop is an element-wise update of small per-sample accumulators that
// compilers vectorise. Blocks of other layouts (strided, Fortran-ordered)
// are first copied into a contiguous block buffer. Every sample's value
// depends on that sample's column only (summed in model order), so results
// are identical for every thread count.
//
// Validation costs no extra pass: the statistic's own pass counts, per
// sample, the values that are not probabilities (NaN, or outside [0, 1]);
// the caller describes the offending values only on error.
//
// The loops are compiled for the baseline instruction set and, on x86-64,
// for AVX2+FMA and AVX-512, picked at run time (as the density kernels are).
// FMA can change the last bits of sums of products (entropies, variances)
// between machines; on one machine every call takes the same path. The
// interquartile range uses only min, max and numpy's interpolation outside
// the compiled-per-instruction-set code, so it equals numpy's bit for bit
// (but for the sign of some zeros: quartiles.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "turbometrics/isa.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/stability/entropy_sums.hpp"
#include "turbometrics/stability/log.hpp"
#include "turbometrics/stability/log_table.hpp"
#include "turbometrics/stability/quartiles.hpp"

namespace turbometrics::stability {

// A read-only strided (models x samples x classes) array; 2-D input has
// classes == 1 and holds the probability of the positive class.
template <class T>
struct Ensemble {
  const char* data = nullptr;
  int64_t models = 0;
  int64_t samples = 0;
  int64_t classes = 1;
  int64_t model_stride = 0;  // bytes
  int64_t sample_stride = 0;
  int64_t class_stride = 0;
  T at(int64_t m, int64_t j, int64_t k = 0) const {
    return *reinterpret_cast<const T*>(data + m * model_stride + j * sample_stride + k * class_stride);
  }
};

enum class Statistic { label_stability, jitter, aleatoric, mutual_info, variance, std, iqr };

// Samples per block: 2048 for 2-D P (a model's segment is 16 KB of float64,
// long enough runs for the hardware prefetcher; the per-sample accumulators
// stay in L1 or L2); for class probabilities, blocks of about 2048 values
// per model. A function of the shape of P only.
constexpr int64_t kBinaryBlock = 2048;
inline int64_t block_length(int64_t classes) {
  return classes == 1 ? kBinaryBlock : std::max<int64_t>(1, 2048 / classes);
}

// Position of numpy's linear-interpolation quantile q among m sorted values:
// the lower neighbour's index and the weight of the upper one.
inline void quantile_position(int64_t m, double q, int64_t& lo, double& gamma) {
  const double virtual_index = static_cast<double>(m) * q + (1.0 + q * -1.0) - 1.0;
  const double floor_index = std::floor(virtual_index);
  lo = std::clamp<int64_t>(static_cast<int64_t>(floor_index), 0, m - 1);
  gamma = virtual_index - floor_index;
}

// numpy's two-sided lerp, evaluated as np.percentile(P, [75, 25]) evaluates
// it: the neighbours' difference in T, the rest in float64 (its float64
// gamma promotes the product). Compiled for the baseline instruction set
// only (no FMA contraction), as numpy's separate multiply and add.
template <class T>
double numpy_lerp(T a, T b, double gamma) {
  const double diff = static_cast<double>(static_cast<T>(b - a));
  if (gamma >= 0.5) return static_cast<double>(b) - diff * (1.0 - gamma);
  return static_cast<double>(a) + diff * gamma;
}

namespace detail {

// What a block kernel needs besides the data.
struct Job {
  Statistic stat;
  double threshold;                         // label threshold (2-D)
  float threshold_float;                    // the smallest float >= threshold (float32 P)
  const QuartilePlan* quartiles = nullptr;  // iqr (quartiles.hpp)
  Isa isa = Isa::generic;                   // the entropies' AVX-512 logarithm (log_table.hpp)
};

// A block of contiguous data: value (model i, sample jj, class k) at
// rows[i * step + jj * classes + k], jj < len.
template <class T>
struct Block {
  const T* rows;
  int64_t step;
  int64_t models;
  int64_t len;
  int64_t classes;
};

// Adds 1 to bad[jj] for a value that is not a probability (NaN fails both).
template <class T, class A>
TURBOMETRICS_ALWAYS_INLINE inline A not_probability(T v) {
  return ((v >= T(0)) & (v <= T(1))) ? A(0) : A(1);
}

// out[j] = statistic of sample j of a 2-D block; returns whether some value
// was not a probability. A: the count type (T, or double when T = float and
// m >= 2^24). For iqr, out receives nothing: the four order statistics of
// each sample go to order[0..3][j].
//
// Validation rides on the accumulators, so that each element costs one
// update: a value that is not a probability adds 2^40 to a count (counts of
// valid values stay below m < 2^40), or NaN to a sum (sums of valid values
// are finite). Selections are between constants, so that they stay selects
// and the loops vectorise.
template <class T, class A>
TURBOMETRICS_ALWAYS_INLINE inline bool binary_block(const Block<T>& b, const Job& job, double* out, T* order[4]) {
  constexpr int64_t B = kBinaryBlock;
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  const int64_t m = b.models, len = b.len;
  const double md = static_cast<double>(m);
  bool bad = false;
  switch (job.stat) {
    case Statistic::label_stability:
    case Statistic::jitter: {
      const T thr = std::is_same_v<T, float> ? static_cast<T>(job.threshold_float) : static_cast<T>(job.threshold);
      constexpr A flag = A(1099511627776.0);  // 2^40
      alignas(64) A ones[B];
      for (int64_t jj = 0; jj < len; ++jj) ones[jj] = A(0);
      for (int64_t i = 0; i < m; ++i) {
        const T* row = b.rows + i * b.step;
        for (int64_t jj = 0; jj < len; ++jj) {
          const T v = row[jj];
          ones[jj] += (v >= thr ? A(1) : A(0)) + (((v >= T(0)) & (v <= T(1))) ? A(0) : flag);
        }
      }
      for (int64_t jj = 0; jj < len; ++jj) {
        bad |= ones[jj] > A(md);
        const double c1 = static_cast<double>(ones[jj]), c0 = md - c1;
        out[jj] = job.stat == Statistic::jitter ? 2.0 * c1 * c0 / (md * (md - 1.0)) : std::fabs(c1 - c0) / md;
      }
      break;
    }
    case Statistic::aleatoric:
    case Statistic::mutual_info: {
      // Sums over models of p log p + q log q (nats) and, for the mutual
      // information, of p, which then becomes p log p + q log q of the mean.
      const bool mi = job.stat == Statistic::mutual_info;
      alignas(64) double h[B], sum[B];
#ifdef TURBOMETRICS_HAS_LOG_TABLE_AVX512
      // AVX-512: the same sums with one table-driven logarithm per element.
      if (job.isa == Isa::avx512) {
        bad |= log_table::entropy_sums(b.rows, b.step, m, len, h, mi ? sum : nullptr);
        if (mi) log_table::entropy_of_means(sum, md, len);
      } else
#endif
      {
        entropy_sums_portable(b.rows, b.step, m, len, h, mi ? sum : nullptr);
        if (mi)
          for (int64_t jj = 0; jj < len; ++jj) sum[jj] = binary_xlogx(sum[jj] / md);
      }
      // Entropies in bits: -(nats) / ln 2.
      constexpr double inv_ln2 = 1.4426950408889634074;
      int64_t nans = 0;
      for (int64_t jj = 0; jj < len; ++jj) {
        nans += h[jj] != h[jj];
        const double mean_entropy = -h[jj] * inv_ln2 / md;
        out[jj] = mi ? -sum[jj] * inv_ln2 - mean_entropy : mean_entropy;
      }
      bad |= nans != 0;
      break;
    }
    case Statistic::variance:
    case Statistic::std: {
      // One pass of sums shifted by the first model's value v0:
      // S1 = sum (v - v0), S2 = sum (v - v0)^2, m var = S2 - S1^2 / m. The
      // shift bounds the cancellation: m (mean - v0)^2 <= m * (m var), so
      // the relative error stays within a small multiple of m^2 ulp.
      alignas(64) double s1[B], s2[B];
      const T* first = b.rows;
      for (int64_t jj = 0; jj < len; ++jj) {
        const T v = first[jj];
        s1[jj] = 0.0;
        s2[jj] = ((v >= T(0)) & (v <= T(1))) ? 0.0 : nan;
      }
      for (int64_t i = 1; i < m; ++i) {
        const T* row = b.rows + i * b.step;
        for (int64_t jj = 0; jj < len; ++jj) {
          const T v = row[jj];
          const double d = static_cast<double>(v) - static_cast<double>(first[jj]);
          s1[jj] += d;
          s2[jj] += d * d + (((v >= T(0)) & (v <= T(1))) ? 0.0 : nan);
        }
      }
      for (int64_t jj = 0; jj < len; ++jj) {
        bad |= s2[jj] != s2[jj];
        const double centred = std::max(0.0, s2[jj] - s1[jj] * s1[jj] / md);
        out[jj] = job.stat == Statistic::std ? std::sqrt(centred / (md - 1.0)) : centred / md;
      }
      break;
    }
    case Statistic::iqr: bad = order_statistics<T>(job.isa, b.rows, b.step, len, *job.quartiles, order); break;
  }
  return bad;
}

// Class probabilities (m, n, K): jitter by argmax (first maximum), entropies
// over the K classes. For the entropies the element-wise x log x (and, for
// the mutual information, the running mean) are vectorised over a model's
// whole contiguous block segment; the sums over k then run in class order.
template <class T>
TURBOMETRICS_ALWAYS_INLINE inline bool class_block(const Block<T>& b, const Job& job, double* out) {
  constexpr int64_t values = 2048;  // len * K <= max(2048, K)
  const int64_t m = b.models, len = b.len, K = b.classes, count = len * K;
  const double md = static_cast<double>(m);
  std::vector<double> scratch(static_cast<size_t>(std::max(values, count)));
  double bad = 0.0;
  if (job.stat == Statistic::jitter) {
    std::vector<int64_t> counts(static_cast<size_t>(count), 0);
    for (int64_t i = 0; i < m; ++i) {
      const T* row = b.rows + i * b.step;
      for (int64_t e = 0; e < count; ++e) bad += not_probability<T, double>(row[e]);
      for (int64_t jj = 0; jj < len; ++jj) {
        const T* v = row + jj * K;
        T best = v[0];
        int64_t arg = 0;
        for (int64_t k = 1; k < K; ++k) {
          const bool greater = v[k] > best;
          best = greater ? v[k] : best;
          arg = greater ? k : arg;
        }
        ++counts[jj * K + arg];
      }
    }
    for (int64_t jj = 0; jj < len; ++jj) {
      double squares = 0.0;
      for (int64_t k = 0; k < K; ++k) squares += static_cast<double>(counts[jj * K + k] * counts[jj * K + k]);
      out[jj] = (md * md - squares) / (md * (md - 1.0));
    }
    return bad != 0.0;
  }
  const bool mi = job.stat == Statistic::mutual_info;
  std::vector<double> entropy(static_cast<size_t>(len), 0.0);
  std::vector<double> mean(mi ? static_cast<size_t>(count) : 0, 0.0);
  double* t = scratch.data();
  for (int64_t i = 0; i < m; ++i) {
    const T* row = b.rows + i * b.step;
    for (int64_t e = 0; e < count; ++e) {
      const double p = static_cast<double>(row[e]);
      bad += not_probability<double, double>(p);
      t[e] = xlogx(p);
    }
    if (mi)
      for (int64_t e = 0; e < count; ++e) mean[e] += static_cast<double>(row[e]);
    for (int64_t jj = 0; jj < len; ++jj) {
      double h = 0.0;
      for (int64_t k = 0; k < K; ++k) h -= t[jj * K + k];
      entropy[jj] += h;
    }
  }
  constexpr double inv_ln2 = 1.4426950408889634074;
  for (int64_t jj = 0; jj < len; ++jj) {
    const double mean_entropy = entropy[jj] * inv_ln2 / md;
    if (!mi) {
      out[jj] = mean_entropy;
      continue;
    }
    double h = 0.0;
    for (int64_t k = 0; k < K; ++k) h -= xlogx(mean[jj * K + k] / md);
    out[jj] = h * inv_ln2 - mean_entropy;
  }
  return bad != 0.0;
}

template <class T, class A>
TURBOMETRICS_ALWAYS_INLINE inline bool any_block(const Block<T>& b, const Job& job, double* out, T* order[4]) {
  if (b.classes == 1) return binary_block<T, A>(b, job, out, order);
  return class_block<T>(b, job, out);
}

// The block code compiled for the processor's instruction set (isa.hpp).
template <class T, class A>
bool run_block(Isa isa, const Block<T>& b, const Job& job, double* out, T* order[4]) {
  return dispatch(isa, [&](auto) TURBOMETRICS_ALWAYS_INLINE { return any_block<T, A>(b, job, out, order); });
}

// The smallest float f with double(f) >= t (for t in [0, 1]): then for every
// float v, v >= f exactly when double(v) >= t.
inline float float_threshold(double t) {
  float f = static_cast<float>(t);
  if (static_cast<double>(f) < t) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

}  // namespace detail

// Writes the statistic of every sample to out[0 .. samples) and returns
// whether some value read was not a probability (NaN or outside [0, 1]); the
// caller then rejects the input.
template <class T>
bool per_sample(const Ensemble<T>& P, Statistic stat, double threshold, double* out, int n_threads) {
  const int64_t m = P.models, K = P.classes, n = P.samples;
  const int64_t item = static_cast<int64_t>(sizeof(T));
  const int64_t block = block_length(K);
  const int64_t blocks = (n + block - 1) / block;
  detail::Job job;
  job.stat = stat;
  job.isa = best_isa();
  job.threshold = threshold;
  job.threshold_float = detail::float_threshold(threshold);
  detail::QuartilePlan quartiles;
  int64_t lo25 = 0, lo75 = 0;
  double g25 = 0.0, g75 = 0.0;
  if (stat == Statistic::iqr) {
    quantile_position(m, 0.75, lo75, g75);
    quantile_position(m, 0.25, lo25, g25);
    const int64_t wires[4] = {lo25, std::min(lo25 + 1, m - 1), lo75, std::min(lo75 + 1, m - 1)};
    quartiles = detail::quartile_plan(m, wires, job.isa);
    job.quartiles = &quartiles;
  }
  // Rows of contiguous samples (and classes) are read in place; any other
  // layout is copied block by block into a contiguous buffer.
  const bool in_place = K == 1 ? P.sample_stride == item : (P.class_stride == item && P.sample_stride == K * item);
  const bool double_counts = std::is_same_v<T, float> && m >= (int64_t{1} << 24);
  const Isa isa = best_isa();
  std::vector<char> flagged(static_cast<size_t>(blocks), 0);
  parallel_for_dynamic(blocks, n_threads, [&](int64_t blk) {
    const int64_t j0 = blk * block;
    const int64_t len = std::min(block, n - j0);
    detail::Block<T> b{nullptr, 0, m, len, K};
    std::vector<T> copy;
    if (in_place) {
      b.rows = reinterpret_cast<const T*>(P.data + j0 * P.sample_stride);
      b.step = P.model_stride / item;
      if (P.model_stride % item != 0) b.rows = nullptr;  // unaligned model stride: copy instead
    }
    if (!b.rows) {
      copy.resize(static_cast<size_t>(m * len * K));
      for (int64_t i = 0; i < m; ++i)
        for (int64_t jj = 0; jj < len; ++jj)
          for (int64_t k = 0; k < K; ++k) copy[(i * len + jj) * K + k] = P.at(i, j0 + jj, k);
      b.rows = copy.data();
      b.step = len * K;
    }
    double* o = out + j0;
    std::vector<T> order_buffer(stat == Statistic::iqr ? static_cast<size_t>(4 * len) : 0);
    T* order[4] = {nullptr, nullptr, nullptr, nullptr};
    if (stat == Statistic::iqr)
      for (int w = 0; w < 4; ++w) order[w] = order_buffer.data() + w * len;
    const bool bad = double_counts ? detail::run_block<T, double>(isa, b, job, o, order)
                                   : detail::run_block<T, T>(isa, b, job, o, order);
    if (stat == Statistic::iqr) {
      // numpy's interpolation, compiled for the baseline instruction set.
      for (int64_t jj = 0; jj < len; ++jj)
        o[jj] = numpy_lerp(order[2][jj], order[3][jj], g75) - numpy_lerp(order[0][jj], order[1][jj], g25);
    }
    flagged[blk] = bad;
  });
  return std::find(flagged.begin(), flagged.end(), 1) != flagged.end();
}

}  // namespace turbometrics::stability
