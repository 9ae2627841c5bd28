// The grid deposit of the smooth calibration error (smECE): each sample's
// weight, and its weight times its residual (correct - confidence), split
// between the two grid points around its confidence by linear
// interpolation. One pass reads every probability once (top label: the row
// maximum and first argmax, as the bin table computes them) and flags
// values that are not probabilities and class indices outside [0, K).
//
// Determinism: samples are cut into a chunk count that depends only on the
// number of samples and the grid size; each chunk fills its own grids,
// added in chunk order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "turbometrics/calibration/bin_table.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::calibration {

struct Deposit {
  std::vector<double> mass;      // grid + 1 points: sum of w * (interpolation weight)
  std::vector<double> residual;  // the same times (correct - confidence)
  double total_weight = 0.0;
  bool invalid = false;
  bool invalid_label = false;
};

inline int64_t deposit_chunks(int64_t n, int64_t grid) {
  int64_t chunks = std::clamp<int64_t>(n / 65536, 1, 16);
  while (chunks > 1 && chunks * (grid + 1) > (int64_t{1} << 22)) chunks /= 2;
  return chunks;
}

// mode: binary (1-D y_prob, uint8 label mask) or top_label (int64 class
// indices). Positions are numpy's: x * grid truncated to an integer and
// clipped to [0, grid - 1], with the remainder as the upper point's share.
template <class T>
Deposit smooth_deposit(const Matrix<T>& prob, Mode mode, const BinInput& in, int64_t grid, int n_threads) {
  const int64_t n = prob.rows;
  const int64_t chunks = deposit_chunks(n, grid);
  const int64_t points = grid + 1;
  std::vector<double> partial(static_cast<size_t>(chunks * points * 2), 0.0);
  std::vector<double> weights(static_cast<size_t>(chunks), 0.0);
  std::vector<char> invalid(static_cast<size_t>(chunks), 0), invalid_label(static_cast<size_t>(chunks), 0);
  const double g = static_cast<double>(grid);
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    const auto [begin, end] = chunk_bounds(n, static_cast<int>(chunks), static_cast<int>(c));
    double* mass = partial.data() + c * points * 2;
    double* resid = mass + points;
    constexpr int64_t kBatch = detail::kBatch;
    double conf[kBatch];
    uint8_t correct[kBatch];
    detail::Labels labels{mode == Mode::top_label ? in.label : nullptr, in.label_stride};
    const detail::TopRows<T> top_rows = mode == Mode::top_label ? detail::top_rows_for(prob) : nullptr;
    const uint8_t* mask = reinterpret_cast<const uint8_t*>(in.label);
    bool low = false, bad = false, label_bad = false;
    double total = 0.0;
    for (int64_t start = begin; start < end; start += kBatch) {
      const int64_t count = std::min(kBatch, end - start);
      if (mode == Mode::top_label) {
        top_rows(prob, start, count, labels, detail::RowOut{conf, correct}, low, label_bad);
      } else {
        for (int64_t r = 0; r < count; ++r) {
          conf[r] = static_cast<double>(prob.at(start + r, 0));
          correct[r] = mask ? mask[(start + r) * in.label_stride] != 0 : 0;
        }
      }
      for (int64_t r = 0; r < count; ++r) {
        const double x = conf[r];
        bad |= not_probability(x);
        const double w = in.weight ? *reinterpret_cast<const double*>(in.weight + (start + r) * in.weight_stride) : 1.0;
        total += w;
        const double position = x * g;
        // numpy: position.astype(int64), clipped to [0, grid - 1]; invalid
        // values are flagged, any point in range will do for them.
        const double clipped = position > 0.0 ? (position < g - 1.0 ? position : g - 1.0) : 0.0;
        const int64_t lo = static_cast<int64_t>(clipped);
        const double frac = position - static_cast<double>(lo);
        const double r_weight = w * (detail::keep_or_zero(1.0, correct[r] != 0) - x);
        mass[lo] += w * (1.0 - frac);
        mass[lo + 1] += w * frac;
        resid[lo] += r_weight * (1.0 - frac);
        resid[lo + 1] += r_weight * frac;
      }
    }
    weights[c] = total;
    invalid[c] = low || bad;
    invalid_label[c] = label_bad;
  });
  Deposit out;
  out.mass.assign(partial.begin(), partial.begin() + points);
  out.residual.assign(partial.begin() + points, partial.begin() + 2 * points);
  out.total_weight = weights[0];
  out.invalid = invalid[0];
  out.invalid_label = invalid_label[0];
  for (int64_t c = 1; c < chunks; ++c) {
    const double* mass = partial.data() + c * points * 2;
    for (int64_t j = 0; j < points; ++j) {
      out.mass[j] += mass[j];
      out.residual[j] += mass[points + j];
    }
    out.total_weight += weights[c];
    out.invalid |= invalid[c] != 0;
    out.invalid_label |= invalid_label[c] != 0;
  }
  return out;
}

}  // namespace turbometrics::calibration
