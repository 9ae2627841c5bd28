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

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "turbometrics/calibration/bin_table.hpp"
#include "turbometrics/exact_sum.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/portable.hpp"

namespace turbometrics::calibration {

// An exact sum that is fast for addends of similar magnitude: the 53-bit
// significand of an addend whose binary exponent lies in a window of
// kWindow exponents is added to a signed 128-bit integer bucket (two's
// complement in a turbometrics::uint128) of that exponent
// (exact; 2^74 addends before a bucket could overflow); other addends (and
// infinities, NaN) go to an ExactSum directly. sum() folds the buckets into
// the ExactSum, exactly. The window covers [2^-100, 2^28): probabilities and
// moderately weighted ones.
class BucketedExactSum {
 public:
  static constexpr int kWindow = 128;
  static constexpr int kLowest = 1023 - 100;  // biased exponent of bucket 0

  void add(double x) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const uint64_t biased = (bits >> 52) & 0x7FF;
    const uint64_t slot = biased - kLowest;  // wraps for exponents below the window
    if (slot >= static_cast<uint64_t>(kWindow)) {
      rest_.add(x);
      return;
    }
    const int64_t significand = static_cast<int64_t>((bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52));
    buckets_[slot] += sign_extend((bits >> 63) ? -significand : significand);
  }

  // The exact sum of every addend.
  ExactSum sum() const {
    ExactSum out = rest_;
    for (int slot = 0; slot < kWindow; ++slot) {
      const uint128 bucket = buckets_[slot];
      if (bucket == uint128(0)) continue;
      // bucket * 2^(exponent - 1075), added as three exact doubles of at
      // most 50 significant bits each.
      const bool negative = (high64(bucket) >> 63) != 0;
      uint128 magnitude = negative ? -bucket : bucket;
      const double sign = negative ? -1.0 : 1.0;
      int scale = slot + kLowest - 1075;
      for (int part = 0; part < 3; ++part, scale += 50, magnitude >>= 50) {
        const uint64_t piece = low64(magnitude) & ((uint64_t{1} << 50) - 1);
        if (piece != 0) out.add(sign * std::ldexp(static_cast<double>(piece), scale));
      }
    }
    return out;
  }

 private:
  uint128 buckets_[kWindow] = {};  // signed, two's complement
  ExactSum rest_;
};

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

// An ExactSum with BucketedExactSum's interface (for many bins, where the
// buckets would take too much memory).
struct PlainExactSum : ExactSum {
  ExactSum sum() const { return *this; }
};

namespace detail {

// Rows [begin, end) into `table`, accumulating with Sum.
template <class Sum, class T>
void exact_chunk(const Matrix<T>& prob, Mode mode, const BinInput& in, bool linspace, int64_t begin, int64_t end,
                 ExactBinTable& table) {
  const int64_t n_bins = in.n_bins;
  const bool weighted = in.weight != nullptr;
  table.resize(n_bins, weighted);
  // The chunk's sums, per bin: confidence, and (weighted) the weight of the
  // correct and of the other rows (a row's weight goes to one of the two,
  // chosen without a branch; the bin's weight is their sum).
  std::vector<Sum> sums(static_cast<size_t>(n_bins * (weighted ? 3 : 1)));
  Sum* confidence = sums.data();
  Sum* right = sums.data() + (weighted ? n_bins : 0);
  Sum* wrong = sums.data() + (weighted ? 2 * n_bins : 0);
  table.invalid = for_each_binned_batch(
      prob, mode, in, linspace, begin, end, table.invalid_label,
      [&](const double* values, const uint8_t* correct, const int32_t* cells, int64_t count, int64_t start) {
        for (int64_t r = 0; r < count; ++r) {
          // Stage 2 puts row r of a batch in copy r mod kCopies: drop it.
          const int64_t b = cells[r] - (r & (kCopies - 1)) * n_bins;
          if (weighted) {
            const double w = *reinterpret_cast<const double*>(in.weight + (start + r) * in.weight_stride);
            confidence[b].add(w * values[r]);
            (correct[r] ? right : wrong)[b].add(w);
          } else {
            ++table.count[static_cast<size_t>(b)];
            table.correct_count[static_cast<size_t>(b)] += correct[r];
            confidence[b].add(values[r]);
          }
        }
      });
  for (int64_t b = 0; b < n_bins; ++b) {
    table.confidence[static_cast<size_t>(b)] = confidence[b].sum();
    if (weighted) {
      table.correct[static_cast<size_t>(b)] = right[b].sum();
      table.weight[static_cast<size_t>(b)] = right[b].sum();
      table.weight[static_cast<size_t>(b)].add(wrong[b].sum());
    }
  }
}

}  // namespace detail

// `in.edges` must be np.linspace(0, 1, n_bins + 1) (uniform bins).
template <class T>
ExactBinTable exact_bin_table(const Matrix<T>& prob, Mode mode, const BinInput& in, int n_threads) {
  const int64_t n = prob.rows;
  const int64_t n_bins = in.n_bins;
  const bool weighted = in.weight != nullptr;
  const bool linspace = in.uniform && !in.edges_per_table && arithmetic_edges(in.edges, n_bins);
  // Buckets (~2.3 KB per sum, counted as ~300 table cells) up to 64 bins.
  const bool bucketed = n_bins <= 64;
  const int64_t chunks = chunk_count(n, n_bins * 3 * (bucketed ? 300 : 40));
  std::vector<ExactBinTable> partial(static_cast<size_t>(chunks));
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    const auto [begin, end] = chunk_bounds(n, static_cast<int>(chunks), static_cast<int>(c));
    ExactBinTable& table = partial[static_cast<size_t>(c)];
    if (bucketed)
      detail::exact_chunk<BucketedExactSum>(prob, mode, in, linspace, begin, end, table);
    else
      detail::exact_chunk<PlainExactSum>(prob, mode, in, linspace, begin, end, table);
  });
  ExactBinTable result;
  result.resize(n_bins, weighted);
  for (const ExactBinTable& table : partial) result.add(table);
  return result;
}

}  // namespace turbometrics::calibration
