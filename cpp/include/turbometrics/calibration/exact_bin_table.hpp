// The calibration bin table with exact sums, for mergeable states: per bin
// the weight, the sum of weighted confidence and the sum of weighted
// correctness, each an ExactSum (a fixed-point integer), so that adding the
// tables of any split of the data in any order gives the same bits.
// Unweighted, the weight and the correct count are int64 counts.
//
// Rows are read and binned by bin_table.hpp's stages 1 and 2
// (detail::for_each_binned_batch: one binning rule); only stage 3 differs.
// Binary and top-label modes (one table).
#pragma once

#include <cstdint>
#include <vector>

#include "../exact_sum.hpp"
#include "../parallel.hpp"
#include "bin_table.hpp"

namespace turbometrics::calibration {

struct ExactBinTable {
  std::vector<int64_t> count;          // per bin, unweighted
  std::vector<int64_t> correct_count;  // per bin, unweighted
  std::vector<ExactSum> weight;        // per bin, weighted
  std::vector<ExactSum> confidence;    // per bin: sum of (weight *) confidence
  std::vector<ExactSum> correct;       // per bin, weighted
  bool invalid = false;
  bool invalid_label = false;

  void resize(int64_t n_bins, bool weighted) {
    const size_t bins = static_cast<size_t>(n_bins);
    count.assign(weighted ? 0 : bins, 0);
    correct_count.assign(weighted ? 0 : bins, 0);
    weight.assign(weighted ? bins : 0, ExactSum{});
    confidence.assign(bins, ExactSum{});
    correct.assign(weighted ? bins : 0, ExactSum{});
  }

  // Adds another table of the same shape (exact: the order does not matter).
  void add(const ExactBinTable& other) {
    for (size_t b = 0; b < count.size(); ++b) {
      count[b] += other.count[b];
      correct_count[b] += other.correct_count[b];
    }
    for (size_t b = 0; b < weight.size(); ++b) {
      weight[b].add(other.weight[b]);
      correct[b].add(other.correct[b]);
    }
    for (size_t b = 0; b < confidence.size(); ++b) confidence[b].add(other.confidence[b]);
    invalid |= other.invalid;
    invalid_label |= other.invalid_label;
  }
};

// `in.edges` must be np.linspace(0, 1, n_bins + 1) (uniform bins).
template <class T>
ExactBinTable exact_bin_table(const Matrix<T>& prob, Mode mode, const BinInput& in, int n_threads) {
  const int64_t n = prob.rows;
  const int64_t n_bins = in.n_bins;
  const bool weighted = in.weight != nullptr;
  const bool linspace = in.uniform && !in.edges_per_table && arithmetic_edges(in.edges, n_bins);
  // An ExactSum is a few hundred bytes: count it as ~40 cells of the table.
  const int64_t chunks = chunk_count(n, n_bins * 3 * 40);
  std::vector<ExactBinTable> partial(static_cast<size_t>(chunks));
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    ExactBinTable& table = partial[static_cast<size_t>(c)];
    table.resize(n_bins, weighted);
    const auto [begin, end] = chunk_bounds(n, static_cast<int>(chunks), static_cast<int>(c));
    table.invalid = detail::for_each_binned_batch(
        prob, mode, in, linspace, begin, end, table.invalid_label,
        [&](const double* values, const uint8_t* correct, const int32_t* cells, int64_t count, int64_t start) {
          for (int64_t r = 0; r < count; ++r) {
            const size_t b = static_cast<size_t>(cells[r] % n_bins);  // drop the interleaved copy
            if (weighted) {
              const double w = *reinterpret_cast<const double*>(in.weight + (start + r) * in.weight_stride);
              table.weight[b].add(w);
              table.confidence[b].add(w * values[r]);
              if (correct[r]) table.correct[b].add(w);
            } else {
              ++table.count[b];
              table.correct_count[b] += correct[r];
              table.confidence[b].add(values[r]);
            }
          }
        });
  });
  ExactBinTable result;
  result.resize(n_bins, weighted);
  for (const ExactBinTable& table : partial) result.add(table);
  return result;
}

}  // namespace turbometrics::calibration
