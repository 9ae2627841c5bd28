// Sums of float64 sample weights in scikit-learn's order, for the count-based
// scores with fractional weights (exact to scikit-learn's bits):
//
// * in_order_sums: per confusion cell (and optionally per true and per
//   predicted label) the weights added one at a time in input order from
//   +0.0, as scipy's coo -> dense conversion fills confusion_matrix and as
//   np.bincount fills multilabel_confusion_matrix's per-label sums;
// * indicator_in_order_sums: per column of 2-D indicator arrays, as
//   np.bincount over scikit-learn's CSR copy of them adds rows in order;
// * agreement_pairwise: np.average(y_true == y_pred, weights=w), NumPy's
//   pairwise sums of w * [agree] and of w (numpy_sum.hpp).
//
// Each sum is sequential, so threads never split one: a thread owns whole
// sums ("slots") and scans every sample in order, sending the samples of
// other threads' slots to a scratch slot (branch-free). The result is
// bit-identical for every thread count. As every thread reads every sample,
// threads pay off only on large inputs (2^22 samples and more); label
// encoding is parallel from 2^16. Long scans poll `interrupt` and stop
// early (output unspecified).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "turbometrics/interrupt.hpp"
#include "turbometrics/labels/encode.hpp"
#include "turbometrics/numpy_sum.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::classification {

// Samples between two interrupt polls of a scan.
inline constexpr int64_t in_order_poll_block = int64_t{1} << 16;

// The slots [begin, end) one of `parts` threads owns out of `slots`.
inline std::pair<int64_t, int64_t> owned_slots(int64_t slots, int parts, int index) {
  return chunk_bounds(slots, parts, index);
}

// Threads worth using for `slots` sequential sums over n samples: at most
// one per slot, and one below 2^22 samples.
inline int in_order_threads(int64_t slots, int64_t n, int n_threads) {
  if (n < (int64_t{1} << 22)) return 1;
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(n_threads, slots)));
}

// Encodes both label arrays to codes (-1: not a label) in parallel chunks.
template <class Label, class LoadTrue, class LoadPred>
void encode_pairs(int64_t n, LoadTrue true_at, LoadPred pred_at, const labels::LabelEncoder<Label>& encoder,
                  int32_t* true_codes, int32_t* pred_codes, int n_threads, const Interrupt& interrupt) {
  const int64_t blocks = (n + in_order_poll_block - 1) / in_order_poll_block;
  parallel_for_dynamic(blocks, n_threads, interrupt, [&](int64_t b) {
    const int64_t begin = b * in_order_poll_block, end = std::min(n, begin + in_order_poll_block);
    for (int64_t i = begin; i < end; ++i) {
      true_codes[i] = encoder.code(true_at(i));
      pred_codes[i] = encoder.code(pred_at(i));
    }
  });
}

// Adds weights[i] into slot cell(i) = true * K + pred (samples with a code
// of -1 skipped) and, with `marginals`, into slots K*K + true and
// K*K + K + pred (every sample whose code is not -1), each slot in input
// order from +0.0. out has K*K (+ 2K) values.
inline void add_codes_in_order(const int32_t* true_codes, const int32_t* pred_codes, const double* weights, int64_t n,
                               int64_t k, bool marginals, int n_threads, const Interrupt& interrupt, double* out) {
  const int64_t cells = k * k;
  const int64_t slots = cells + (marginals ? 2 * k : 0);
  const int threads = in_order_threads(slots, n, n_threads);
  std::fill(out, out + slots, 0.0);
  parallel_region(threads, [&](int index, int parts) {
    // Plain copies: lambdas capture structured bindings only from C++20.
    const auto owned = owned_slots(slots, parts, index);
    const int64_t lo = owned.first, hi = owned.second;
    if (lo >= hi) return;
    // slot s is owned when (uint64)(s - lo) < span; other slots go to the
    // scratch slot sums[span]
    const uint64_t span = static_cast<uint64_t>(hi - lo);
    std::vector<double> sums(span + 1, 0.0);
    auto at = [&](int64_t s) -> double& {
      const uint64_t local = static_cast<uint64_t>(s - lo);
      return sums[local < span ? local : span];
    };
    for (int64_t begin = 0; begin < n; begin += in_order_poll_block) {
      if (interrupt.requested()) return;
      const int64_t end = std::min(n, begin + in_order_poll_block);
      for (int64_t i = begin; i < end; ++i) {
        const int32_t t = true_codes[i], p = pred_codes[i];
        const double w = weights[i];
        if ((t | p) >= 0) at(t * k + p) += w;
        if (marginals) {
          if (t >= 0) at(cells + t) += w;
          if (p >= 0) at(cells + k + p) += w;
        }
      }
    }
    std::copy(sums.begin(), sums.begin() + span, out + lo);
  });
}

// The K x K table of weight sums per cell in input order (and, with
// `marginals`, the per-true-label and per-predicted-label sums after it).
template <class Label, class LoadTrue, class LoadPred>
std::vector<double> in_order_sums(int64_t n, LoadTrue true_at, LoadPred pred_at, const double* weights,
                                  const labels::LabelEncoder<Label>& encoder, bool marginals, int n_threads,
                                  const Interrupt& interrupt = Interrupt::never()) {
  const int64_t k = encoder.size();
  std::vector<int32_t> true_codes(static_cast<size_t>(n)), pred_codes(static_cast<size_t>(n));
  encode_pairs<Label>(n, true_at, pred_at, encoder, true_codes.data(), pred_codes.data(), n_threads, interrupt);
  std::vector<double> out(static_cast<size_t>(k * k + (marginals ? 2 * k : 0)));
  if (interrupt.requested()) return out;
  add_codes_in_order(true_codes.data(), pred_codes.data(), weights, n, k, marginals, n_threads, interrupt, out.data());
  return out;
}

// Multilabel indicator arrays (n x L, element strides in bytes): per column
// the weights of the rows where y_true != 0, y_pred != 0 and both, each
// added in row order from +0.0; out[0 * L + l] = true, out[1 * L + l] =
// pred, out[2 * L + l] = both.
template <class Label>
std::vector<double> indicator_in_order_sums(const char* y_true, int64_t true_row, int64_t true_col, const char* y_pred,
                                            int64_t pred_row, int64_t pred_col, int64_t n, int64_t n_labels,
                                            const double* weights, int n_threads,
                                            const Interrupt& interrupt = Interrupt::never()) {
  std::vector<double> out(static_cast<size_t>(3 * n_labels), 0.0);
  const int threads = in_order_threads(n_labels, n * n_labels, n_threads);
  parallel_region(threads, [&](int index, int parts) {
    const auto [lo, hi] = owned_slots(n_labels, parts, index);
    const int64_t width = hi - lo;
    if (width <= 0) return;
    std::vector<double> sums(static_cast<size_t>(3 * width), 0.0);
    for (int64_t begin = 0; begin < n; begin += in_order_poll_block) {
      if (interrupt.requested()) return;
      const int64_t end = std::min(n, begin + in_order_poll_block);
      for (int64_t i = begin; i < end; ++i) {
        const double w = weights[i];
        for (int64_t l = lo; l < hi; ++l) {
          const bool t = *reinterpret_cast<const Label*>(y_true + i * true_row + l * true_col) != Label{0};
          const bool p = *reinterpret_cast<const Label*>(y_pred + i * pred_row + l * pred_col) != Label{0};
          if (t) sums[l - lo] += w;
          if (p) sums[width + l - lo] += w;
          if (t && p) sums[2 * width + l - lo] += w;
        }
      }
    }
    for (int part = 0; part < 3; ++part)
      std::copy(sums.begin() + part * width, sums.begin() + (part + 1) * width, out.begin() + part * n_labels + lo);
  });
  return out;
}

// np.average(y_true == y_pred, weights=weights) as its two NumPy pairwise
// sums: (sum of w * [y_true == y_pred], sum of w), contiguous arrays.
template <class Label>
std::pair<double, double> agreement_pairwise(const Label* y_true, const Label* y_pred, const double* weights, int64_t n,
                                             int n_threads) {
  const double agree = numpy_sum(n, n_threads, [&](int64_t begin, int64_t end, double* out) {
    for (int64_t i = begin; i < end; ++i) out[i - begin] = static_cast<double>(y_true[i] == y_pred[i]) * weights[i];
  });
  const double total = numpy_sum(
      n, n_threads, [&](int64_t begin, int64_t end, double* out) { std::copy(weights + begin, weights + end, out); });
  return {agree, total};
}

}  // namespace turbometrics::classification
