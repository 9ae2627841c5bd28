// Proper scoring rules (Brier score, log loss) over float64 probabilities,
// and the facts scikit-learn's validation needs about them, each in one
// compiled pass.
//
// * probability_facts: NaN / infinity, minimum, maximum, and whether every
//   row sums to 1 within np.isclose's tolerance (each row summed in column
//   order; NumPy may add long rows in another order, which moves a sum by a
//   few ulp, far inside the tolerance of sqrt(eps)).
// * score_sums: the (weighted) sum over rows of the per-row loss, the one-hot
//   row of each sample's class against the row of probabilities:
//   Brier sum_k (e_k - p_k)^2, log loss -log(clip(p_y, eps, 1 - eps)), the
//   logarithm taken by the loop that np.log runs (elementwise_loop.hpp), so
//   that every term is scikit-learn's on every processor.
//
// A 1-D array of positive-class probabilities stands for the two columns
// (1 - p, p), with 1 - p computed in floating point as scikit-learn does.
//
// * exact_score_sums: the same two sums as exact sums (ExactSum), every
//   row's term computed as score_sums computes it, so that sums of batches
//   merge exactly: the totals do not depend on how the rows are split or
//   ordered.
//
// Determinism: probability_facts cuts rows into a chunk count that depends
// only on the number of rows; score_sums adds in NumPy's order
// (numpy_sum.hpp), so both are independent of the thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "turbometrics/calibration/bin_table.hpp"
#include "turbometrics/elementwise_loop.hpp"
#include "turbometrics/exact_sum.hpp"
#include "turbometrics/isa.hpp"
#include "turbometrics/labels/encode.hpp"
#include "turbometrics/numpy_sum.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::calibration {

inline int64_t score_chunks(int64_t rows) { return std::clamp<int64_t>(rows / 16384, 1, 256); }

// Row k of a probability matrix, or of the two columns (1 - p, p) of a 1-D
// array (two_column).
struct ProbRows {
  Matrix<double> m;
  bool two_column = false;
  int64_t cols() const { return two_column ? 2 : m.cols; }
  double at(int64_t i, int64_t k) const {
    if (two_column) {
      const double p = m.at(i, 0);
      return k == 0 ? 1.0 - p : p;
    }
    return m.at(i, k);
  }
};

struct ProbabilityFacts {
  int status = 0;  // 0 finite, 1 some NaN, 2 some infinity and no NaN
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  bool rows_sum_to_one = true;  // |row sum - 1| <= atol + rtol for every row
};

namespace detail {

// NaN flags, non-finite flags, minima and maxima of n contiguous values in
// eight lanes (a generic 64-byte vector with GCC and Clang, which compilers
// map to the instruction set's registers); lanes[0..31] receives them lane
// by lane.
TURBOMETRICS_ALWAYS_INLINE inline void flat_facts_lanes(const double* v, int64_t n, double* lanes) {
  int64_t i = 0;
#if defined(__GNUC__)
  typedef double V __attribute__((vector_size(64)));
  typedef int64_t M __attribute__((vector_size(64)));
  constexpr double inf = std::numeric_limits<double>::infinity();
  V lo = {inf, inf, inf, inf, inf, inf, inf, inf};
  V hi = -lo;
  M nan = {0, 0, 0, 0, 0, 0, 0, 0}, nonfinite = nan;
  const V zero = {0, 0, 0, 0, 0, 0, 0, 0};
  for (; i + 8 <= n; i += 8) {
    V x;
    std::memcpy(&x, v + i, sizeof x);
    nan |= x != x;
    nonfinite |= (x - x) != zero;
    lo = x < lo ? x : lo;
    hi = x > hi ? x : hi;
  }
  for (int l = 0; l < 8; ++l) {
    lanes[l] = nan[l] ? 1.0 : 0.0;
    lanes[8 + l] = nonfinite[l] ? 1.0 : 0.0;
    lanes[16 + l] = lo[l];
    lanes[24 + l] = hi[l];
  }
#else
  for (int l = 0; l < 8; ++l) {
    lanes[l] = lanes[8 + l] = 0.0;
    lanes[16 + l] = std::numeric_limits<double>::infinity();
    lanes[24 + l] = -std::numeric_limits<double>::infinity();
  }
#endif
  for (; i < n; ++i) {
    const double x = v[i];
    lanes[0] += x == x ? 0.0 : 1.0;
    lanes[8] += (x - x) == 0.0 ? 0.0 : 1.0;
    lanes[16] = x < lanes[16] ? x : lanes[16];
    lanes[24] = x > lanes[24] ? x : lanes[24];
  }
}

// The same compiled for the processor's instruction set (isa.hpp).
inline void flat_facts(Isa isa, const double* v, int64_t n, double* lanes) {
  dispatch(isa, [&](auto) TURBOMETRICS_ALWAYS_INLINE { flat_facts_lanes(v, n, lanes); });
}

}  // namespace detail

inline ProbabilityFacts probability_facts(const ProbRows& p, bool check_rows, double rtol, double atol, int n_threads) {
  const int64_t n = p.m.rows;
  const int64_t cols = p.m.cols;
  const int64_t chunks = score_chunks(n);
  std::vector<ProbabilityFacts> part(static_cast<size_t>(chunks));
  const double tolerance = atol + rtol;
  const int64_t item = static_cast<int64_t>(sizeof(double));
  // Rows that are one contiguous run of values (C order, or 1-D contiguous).
  const bool flat = (cols == 1 ? p.m.row_stride == item : (p.m.col_stride == item && p.m.row_stride == cols * item));
  const Isa isa = best_isa();
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    const auto [begin, end] = chunk_bounds(n, static_cast<int>(chunks), static_cast<int>(c));
    bool nan = false, inf = false, close = true;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    // Sub-blocks of about 8192 values: the row sums re-read them from L1/L2.
    const int64_t step = std::max<int64_t>(1, 8192 / cols);
    for (int64_t first = begin; first < end; first += step) {
      const int64_t last = std::min(end, first + step);
      if (flat) {
        double lanes[32];
        const double* v = reinterpret_cast<const double*>(p.m.data + first * p.m.row_stride);
        detail::flat_facts(isa, v, (last - first) * cols, lanes);
        for (int l = 0; l < 8; ++l) {
          nan |= lanes[l] != 0.0;
          inf |= lanes[8 + l] != 0.0;
          lo = lanes[16 + l] < lo ? lanes[16 + l] : lo;
          hi = lanes[24 + l] > hi ? lanes[24 + l] : hi;
        }
      } else {
        for (int64_t i = first; i < last; ++i)
          for (int64_t k = 0; k < cols; ++k) {
            const double v = p.m.at(i, k);
            nan |= v != v;
            inf |= (v - v) != 0.0;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
          }
      }
      if (!check_rows) continue;
      if (p.two_column) {
        for (int64_t i = first; i < last; ++i) {
          const double v = p.m.at(i, 0);
          close &= std::fabs(((1.0 - v) + v) - 1.0) <= tolerance;
        }
      } else {
        for (int64_t i = first; i < last; ++i) {
          const char* row = p.m.data + i * p.m.row_stride;
          double sum = 0.0;
          for (int64_t k = 0; k < cols; ++k) sum += *reinterpret_cast<const double*>(row + k * p.m.col_stride);
          close &= std::fabs(sum - 1.0) <= tolerance;
        }
      }
    }
    ProbabilityFacts& f = part[c];
    f.status = nan ? 1 : (inf ? 2 : 0);
    f.min = lo;
    f.max = hi;
    f.rows_sum_to_one = close;
  });
  ProbabilityFacts out;
  for (const auto& f : part) {
    out.status = (out.status == 1 || f.status == 1) ? 1 : std::max(out.status, f.status);
    out.min = f.min < out.min ? f.min : out.min;
    out.max = f.max > out.max ? f.max : out.max;
    out.rows_sum_to_one = out.rows_sum_to_one && f.rows_sum_to_one;
  }
  return out;
}

enum class Score { brier, log };

struct ScoreSums {
  double total = 0.0;          // sum over rows of w * loss
  double weight = 0.0;         // sum of w
  bool unknown_label = false;  // some label is not among the classes
};

// Labels: any integer type, encoded against the sorted distinct classes.
// Every selection by the class is a bit mask (class-dependent branches
// mispredict on random labels). Writes the losses of rows [begin, end) to
// `losses` (times the row's weight when weighted), in scikit-learn's float
// operations: a row's Brier loss is np.sum of its squared differences
// (NumPy's order), log loss -log(clip(p_y)). Returns whether some label is
// of no class.
template <class Label>
bool row_losses(const ProbRows& p, const char* labels, int64_t label_stride, const labels::LabelEncoder<Label>& encoder,
                const char* weights, int64_t weight_stride, Score score, double eps, const ElementwiseLoop& log,
                int64_t begin, int64_t end, double* losses) {
  using detail::keep_or_zero;
  const int64_t cols = p.cols();
  constexpr int64_t kBatch = 256;
  alignas(64) double picked[kBatch];
  alignas(64) double logs[kBatch];
  std::vector<double> squares(score == Score::brier && !p.two_column ? cols : 0);
  bool unknown = false;
  for (int64_t start = begin; start < end; start += kBatch) {
    const int64_t count = std::min(kBatch, end - start);
    double* out = losses + (start - begin);
    for (int64_t r = 0; r < count; ++r) {
      const int64_t i = start + r;
      const int32_t code = encoder.code(labels::load_label<Label>(labels, label_stride, i));
      unknown |= code < 0;
      if (p.two_column) {
        const double x = p.m.at(i, 0), q = 1.0 - x;
        if (score == Score::brier) {
          const double d0 = keep_or_zero(1.0, code == 0) - q, d1 = keep_or_zero(1.0, code == 1) - x;
          const double s0 = d0 * d0, s1 = d1 * d1;  // two products, then one sum (no fused multiply-add)
          out[r] = s0 + s1;
        } else {
          // The true class's probability: 1 - p for class 0, p for class 1.
          picked[r] = keep_or_zero(q, code == 0) + keep_or_zero(x, code != 0);
          out[r] = keep_or_zero(1.0, code >= 0);
        }
      } else {
        const char* row = p.m.data + i * p.m.row_stride;
        if (score == Score::brier) {
          for (int64_t k = 0; k < cols; ++k) {
            const double d = keep_or_zero(1.0, k == code) - *reinterpret_cast<const double*>(row + k * p.m.col_stride);
            squares[k] = d * d;
          }
          out[r] = 0.0 + numpy_pairwise_sum(squares.data(), cols);
        } else {
          // Only the true class contributes (the one-hot row zeroes the
          // rest); a label of no class contributes nothing.
          const int64_t k = code >= 0 ? code : 0;
          picked[r] = *reinterpret_cast<const double*>(row + k * p.m.col_stride);
          out[r] = keep_or_zero(1.0, code >= 0);
        }
      }
    }
    if (score == Score::log) {
      // np.clip(p, eps, 1 - eps), then the batch's logarithms by the loop
      // np.log runs (elementwise_loop.hpp), and -(1 * log p) as
      // scikit-learn's -sum(xlogy(one_hot, p)) gives it.
      for (int64_t r = 0; r < count; ++r) {
        const double v = picked[r];
        picked[r] = v < eps ? eps : (v > 1.0 - eps ? 1.0 - eps : v);
      }
      log(picked, logs, count);
      for (int64_t r = 0; r < count; ++r) out[r] *= -logs[r];
    }
    if (weights) {
      for (int64_t r = 0; r < count; ++r) {
        out[r] *= *reinterpret_cast<const double*>(weights + (start + r) * weight_stride);
      }
    }
  }
  return unknown;
}

// scikit-learn's _average pieces: total = np.sum of the per-row losses
// (times the weights when weighted), weight = np.sum of the weights (or
// the row count), both in NumPy's summation order.
template <class Label>
ScoreSums score_sums(const ProbRows& p, const char* labels, int64_t label_stride,
                     const labels::LabelEncoder<Label>& encoder, const char* weights, int64_t weight_stride,
                     Score score, double eps, const ElementwiseLoop& log, int n_threads) {
  const int64_t n = p.m.rows;
  std::atomic<bool> unknown{false};
  ScoreSums out;
  out.total = numpy_sum(n, n_threads, [&](int64_t begin, int64_t end, double* losses) {
    if (row_losses(p, labels, label_stride, encoder, weights, weight_stride, score, eps, log, begin, end, losses)) {
      unknown.store(true, std::memory_order_relaxed);
    }
  });
  if (weights) {
    out.weight = numpy_sum(n, n_threads, [&](int64_t begin, int64_t end, double* values) {
      for (int64_t i = begin; i < end; ++i)
        values[i - begin] = *reinterpret_cast<const double*>(weights + i * weight_stride);
    });
  } else {
    out.weight = static_cast<double>(n);
  }
  out.unknown_label = unknown.load();
  return out;
}

// The per-row losses themselves, unweighted, written to out[0 .. rows):
// scikit-learn's log_loss(normalize=False) with weights is np.dot of the
// losses and the weights (BLAS's order, which the caller keeps by calling
// it). Returns whether some label is of no class.
template <class Label>
bool score_terms(const ProbRows& p, const char* labels, int64_t label_stride,
                 const labels::LabelEncoder<Label>& encoder, Score score, double eps, const ElementwiseLoop& log,
                 int n_threads, double* out) {
  const int64_t n = p.m.rows;
  const int64_t chunks = score_chunks(n);
  std::atomic<bool> unknown{false};
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    const auto [begin, end] = chunk_bounds(n, static_cast<int>(chunks), static_cast<int>(c));
    if (row_losses(p, labels, label_stride, encoder, nullptr, 0, score, eps, log, begin, end, out + begin))
      unknown.store(true, std::memory_order_relaxed);
  });
  return unknown.load();
}

struct ExactScoreSums {
  ExactSum total;   // sum over rows of w * loss
  ExactSum weight;  // sum of w (zero when unweighted: the caller counts rows)
  bool unknown_label = false;

  void add(const ExactScoreSums& other) {
    total.add(other.total);
    weight.add(other.weight);
    unknown_label |= other.unknown_label;
  }
};

// score_sums as exact sums: each chunk of rows writes its terms (row_losses)
// to a buffer and adds them, and its weights, to its own ExactSums, which
// are then added.
template <class Label>
ExactScoreSums exact_score_sums(const ProbRows& p, const char* labels, int64_t label_stride,
                                const labels::LabelEncoder<Label>& encoder, const char* weights, int64_t weight_stride,
                                Score score, double eps, const ElementwiseLoop& log, int n_threads) {
  const int64_t n = p.m.rows;
  const int64_t chunks = score_chunks(n);
  std::vector<ExactScoreSums> partial(static_cast<size_t>(chunks));
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    const auto [begin, end] = chunk_bounds(n, static_cast<int>(chunks), static_cast<int>(c));
    constexpr int64_t kBuffer = 4096;
    std::vector<double> losses(static_cast<size_t>(std::min(kBuffer, std::max<int64_t>(end - begin, 1))));
    BufferedExactSum total, weight;
    bool unknown = false;
    for (int64_t from = begin; from < end; from += kBuffer) {
      const int64_t to = std::min(end, from + kBuffer);
      unknown |= row_losses(p, labels, label_stride, encoder, weights, weight_stride, score, eps, log, from, to,
                            losses.data());
      for (int64_t i = 0; i < to - from; ++i) total.add(losses[static_cast<size_t>(i)]);
      if (weights) {
        for (int64_t i = from; i < to; ++i) weight.add(*reinterpret_cast<const double*>(weights + i * weight_stride));
      }
    }
    ExactScoreSums& part = partial[static_cast<size_t>(c)];
    part.total = total.total();
    part.weight = weight.total();
    part.unknown_label = unknown;
  });
  ExactScoreSums out;
  for (const ExactScoreSums& part : partial) out.add(part);
  return out;
}

}  // namespace turbometrics::calibration
