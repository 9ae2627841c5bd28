// Sums over an ensemble's models of p log p + q log q (q = 1 - p, 0 log 0 =
// 0), one logarithm per element instead of two, for every build: the
// portable loops here (log.hpp's logarithm, compiled per instruction set by
// the block kernels) and the AVX-512 loops of log_table.hpp share the
// formula, the constants and the accumulators.
//
// With a = min(p, q) and b = max(p, q) (q = 1 - p, both as the references
// round them), a' = 1 - b (exact; a' = a unless p < 1/2 and 1 - p rounded):
//   a log a + b log b = a log(a / b) + (a + b) log b
//                     = a log(a / b) + log b + (a - a') log b,
// where |(a - a') log b| <= 2^-54 |log b| <= 2^-54 |b log b| / b: below an
// ulp of the term, and dropped. Over the models of a sample,
//   sum_j (p log p + q log q) = sum_j a_j log(a_j / b_j) + log prod_j b_j,
// so each element costs one division, one logarithm of a / b in (0, 1]
// (below 1/2 |log| >= ln 2, so relative accuracy is easy; above it a >= 1/3
// and the term is >= 0.63, so an absolute error of an ulp of 1/2 is enough),
// and a product and a complement: the product prod_j b_j is kept both as
// itself (P) and as 1 - P (C, updated exactly as C + a' P_old, so that it
// carries the relative accuracy of sums of small a'). At the end
// log P = log1p(-C) when C < 1/2 (relative accuracy for samples whose
// probabilities are all near 0 or 1), else log(P) (P <= 1/2 and
// |log P| >= ln 2). Both have relative error within ~m ulp, the bound of the
// sum itself. Rows are taken in chunks of kRowsPerProduct so that
// P >= 2^-kRowsPerProduct stays normal.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "turbometrics/stability/log.hpp"

namespace turbometrics::stability {

constexpr int64_t kRowsPerProduct = 512;
// Samples per pass over the models: the four accumulator arrays (16 KB)
// stay in L1 while the rows stream through.
constexpr int64_t kEntropySpan = 512;

// The accumulators of kEntropySpan samples.
struct EntropySpan {
  alignas(64) double ratio_terms[kEntropySpan];
  alignas(64) double product[kEntropySpan];
  alignas(64) double complement[kEntropySpan];
  void restart() {
    for (int64_t j = 0; j < kEntropySpan; ++j) ratio_terms[j] = 0.0, product[j] = 1.0, complement[j] = 0.0;
  }
};

// a = min(p, q), b = max(p, q) (NaN p: a = q = NaN, b = p). Selected through
// bit masks: compilers keep a floating-point selection whose arms feed
// arithmetic as a branch, and the loops would not vectorise.
TURBOMETRICS_ALWAYS_INLINE inline void order(double p, double q, double& a, double& b) {
  const uint64_t less = -static_cast<uint64_t>(p < q);
  a = log_detail::from_bits((less & log_detail::bits_of(p)) | (~less & log_detail::bits_of(q)));
  b = log_detail::from_bits((less & log_detail::bits_of(q)) | (~less & log_detail::bits_of(p)));
}

// log P for P = 1 - C (P in (0, 1]): log1p(-C) = log u + (1 - C - u) / u
// with u = fl(1 - C) when C < 1/2 (1 - C - u is exact), else log P.
TURBOMETRICS_ALWAYS_INLINE inline double log_product(double product, double complement) {
  const double u = 1.0 - complement;
  const double near_one = log_positive(u) + (-complement - (u - 1.0)) / u;
  return complement < 0.5 ? near_one : log_positive(product);
}

// p log p + q log q by the same formula, for one model.
TURBOMETRICS_ALWAYS_INLINE inline double binary_xlogx(double p) {
  double a, b;
  order(p, 1.0 - p, a, b);
  return a * log_positive(a / b) + log_product(b, 1.0 - b);
}

// The loop both builds run for h[jj] = sum over the models of
// p log p + q log q, jj < len: spans of kEntropySpan samples (h and, when not
// null, sum zeroed), rows in model order; row(i, j0, span) adds row i's
// samples j0 .. j0 + span to the accumulators, and fold(j0, span) adds them
// into h and restarts them, after every kRowsPerProduct rows and the last.
// The same operations for every sample whatever the block or thread.
template <class Row, class Fold>
TURBOMETRICS_ALWAYS_INLINE inline void for_each_span_row(int64_t models, int64_t len, double* h, double* sum, Row&& row,
                                                         Fold&& fold) {
  for (int64_t j0 = 0; j0 < len; j0 += kEntropySpan) {
    const int64_t span = std::min(kEntropySpan, len - j0);
    for (int64_t j = 0; j < span; ++j) h[j0 + j] = 0.0;
    if (sum)
      for (int64_t j = 0; j < span; ++j) sum[j0 + j] = 0.0;
    for (int64_t i = 0; i < models; ++i) {
      row(i, j0, span);
      if ((i + 1) % kRowsPerProduct == 0 || i + 1 == models) fold(j0, span);
    }
  }
}

// For jj < len: h[jj] = sum over the models of p log p + q log q (model i's
// value at rows[i * step + jj]) and, when sum is not null, sum[jj] = the sum
// of p. A value that is not a probability (NaN, or outside [0, 1]) makes its
// h[jj] NaN.
template <class T>
TURBOMETRICS_ALWAYS_INLINE inline void entropy_sums_portable(const T* rows, int64_t step, int64_t models, int64_t len,
                                                             double* h, double* sum) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  EntropySpan s;
  s.restart();  // and after every fold
  for_each_span_row(
      models, len, h, sum,
      [&](int64_t i, int64_t j0, int64_t span) TURBOMETRICS_ALWAYS_INLINE {
        const T* row = rows + i * step + j0;
        for (int64_t j = 0; j < span; ++j) {
          const double p = static_cast<double>(row[j]);
          double a, b;
          order(p, 1.0 - p, a, b);
          s.ratio_terms[j] += a * log_positive(a / b) + (((p >= 0.0) & (p <= 1.0)) ? 0.0 : nan);
          s.complement[j] += (1.0 - b) * s.product[j];
          s.product[j] *= b;
        }
        if (sum)
          for (int64_t j = 0; j < span; ++j) sum[j0 + j] += static_cast<double>(row[j]);
      },
      [&](int64_t j0, int64_t span) TURBOMETRICS_ALWAYS_INLINE {
        for (int64_t j = 0; j < span; ++j) h[j0 + j] += s.ratio_terms[j] + log_product(s.product[j], s.complement[j]);
        s.restart();
      });
}

}  // namespace turbometrics::stability
