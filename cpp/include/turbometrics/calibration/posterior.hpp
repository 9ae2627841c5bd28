// Row-wise distances between posterior matrices. Each row's value depends on
// that row only, so the output is identical for every thread count.
#pragma once

#include <cmath>
#include <cstdint>

#include "turbometrics/calibration/bin_table.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::calibration {

// out[i] = sqrt(0.5 * sum_k (sqrt(p[i,k]) - sqrt(q[i,k]))^2).
template <class T>
void row_hellinger(const Matrix<T>& p, const Matrix<T>& q, double* out, int n_threads) {
  const int64_t blocks = (p.rows + 4095) / 4096;
  parallel_for_dynamic(blocks, n_threads, [&](int64_t b) {
    const int64_t end = std::min<int64_t>(p.rows, (b + 1) * 4096);
    for (int64_t i = b * 4096; i < end; ++i) {
      double sum = 0.0;
      for (int64_t k = 0; k < p.cols; ++k) {
        const double d = std::sqrt(static_cast<double>(p.at(i, k))) - std::sqrt(static_cast<double>(q.at(i, k)));
        sum += d * d;
      }
      out[i] = std::sqrt(0.5 * sum);
    }
  });
}

}  // namespace turbometrics::calibration
