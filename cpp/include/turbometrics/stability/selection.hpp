// Selection rate: per row of a (rows x cols) label array, the (weighted)
// number of labels equal to pos_label. Counts are exact integers; weighted
// sums run over a column chunking that depends only on the number of
// columns, added in chunk order, so results are identical for every thread
// count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "turbometrics/parallel.hpp"

namespace turbometrics::stability {

template <class Label>
struct LabelRows {
  const char* data = nullptr;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t row_stride = 0;  // bytes
  int64_t col_stride = 0;
};

// out[r] = sum over columns j of w_j [label(r, j) == pos] (w_j = 1 without
// weights); total = sum of the weights (cols without weights).
template <class Label>
void selected_sums(const LabelRows<Label>& y, Label pos, const char* weights, int64_t weight_stride, double* out,
                   double& total, int n_threads) {
  const int64_t chunks = std::clamp<int64_t>(y.cols / 65536, 1, 64);
  const int64_t rows = y.rows;
  std::vector<double> partial(static_cast<size_t>(chunks * rows), 0.0);
  std::vector<double> weight_sums(static_cast<size_t>(chunks), 0.0);
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    const auto [begin, end] = chunk_bounds(y.cols, static_cast<int>(chunks), static_cast<int>(c));
    const bool contiguous = y.col_stride == static_cast<int64_t>(sizeof(Label));
    for (int64_t r = 0; r < rows; ++r) {
      const char* row = y.data + r * y.row_stride;
      if (!weights) {
        int64_t count = 0;
        if (contiguous) {
          const Label* v = reinterpret_cast<const Label*>(row);
          for (int64_t j = begin; j < end; ++j) count += v[j] == pos;
        } else {
          for (int64_t j = begin; j < end; ++j) count += *reinterpret_cast<const Label*>(row + j * y.col_stride) == pos;
        }
        partial[c * rows + r] = static_cast<double>(count);
      } else {
        double sum = 0.0;
        for (int64_t j = begin; j < end; ++j) {
          const double w = *reinterpret_cast<const double*>(weights + j * weight_stride);
          sum += w * static_cast<double>(*reinterpret_cast<const Label*>(row + j * y.col_stride) == pos);
        }
        partial[c * rows + r] = sum;
      }
    }
    if (weights) {
      double sum = 0.0;
      for (int64_t j = begin; j < end; ++j) sum += *reinterpret_cast<const double*>(weights + j * weight_stride);
      weight_sums[c] = sum;
    } else {
      weight_sums[c] = static_cast<double>(end - begin);
    }
  });
  total = 0.0;
  for (int64_t r = 0; r < rows; ++r) out[r] = 0.0;
  for (int64_t c = 0; c < chunks; ++c) {
    for (int64_t r = 0; r < rows; ++r) out[r] += partial[c * rows + r];
    total += weight_sums[c];
  }
}

}  // namespace turbometrics::stability
