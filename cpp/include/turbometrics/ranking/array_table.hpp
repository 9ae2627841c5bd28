// A score table given by arrays: distinct scores in descending order with
// the positive and negative weight *at* each (per row, not cumulative).
// It has the interface the sweeps in sweeps.hpp read (that of SortedScores):
// fixed-size blocks of rows, each starting from its entry totals, so sweeps
// run block-parallel and, blocks depending only on the row count, give the
// same result for every thread count.
//
// Cumulative weights are summed row by row from the first row; weighted
// (double) entry totals come from one sequential pass, so every block sees
// exactly the running sums a one-block sweep would. Optional offsets
// (`above_positive`, `above_negative`) are weight at higher scores outside
// the arrays: every cumulative weight includes them (the part of a table
// that a range partition holds).
//
// Integer (count) tables are checked as they are summed: counts and offsets
// must be non-negative and total less than 2^62, so that no cumulative
// count (or sum of the two classes' counts) overflows; otherwise the
// constructor throws std::invalid_argument.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "turbometrics/parallel.hpp"
#include "turbometrics/ranking/score_table.hpp"

namespace turbometrics::ranking {

template <class Score, class RowWeightType>
class ArrayTable {
 public:
  using ScoreType = Score;
  using Weight = RowWeightType;
  using TableRow = Row<Score, Weight>;
  static constexpr int64_t default_block_rows = int64_t{1} << 16;

  ArrayTable(const Score* scores, const Weight* positive, const Weight* negative, int64_t rows, int n_threads,
             Weight above_positive = Weight{0}, Weight above_negative = Weight{0},
             int64_t block_rows = default_block_rows)
      : scores_(scores), positive_(positive), negative_(negative), rows_(rows), block_rows_(block_rows) {
    const int64_t blocks = rows == 0 ? 0 : (rows + block_rows - 1) / block_rows;
    entry_positive_.assign(blocks + 1, above_positive);
    entry_negative_.assign(blocks + 1, above_negative);
    if constexpr (std::is_integral_v<Weight>) {
      // Exact: per-block sums in parallel, then their prefix sums. Summed
      // unsigned, each sum staying below 2^62 + 2^63 (no wrap-around) while
      // every count is non-negative and the running sums are checked.
      constexpr uint64_t limit = uint64_t{1} << 62;
      std::vector<uint64_t> block_positive(blocks, 0), block_negative(blocks, 0);
      std::vector<char> block_invalid(blocks, 0);
      parallel_for_dynamic(blocks, n_threads, [&](int64_t b) {
        uint64_t p = 0, n = 0;
        bool invalid = false;
        for (int64_t r = row_begin(b); r < row_end(b); ++r) {
          invalid |= (positive[r] < 0) | (negative[r] < 0) | (p >= limit) | (n >= limit);
          p += static_cast<uint64_t>(positive[r]);
          n += static_cast<uint64_t>(negative[r]);
        }
        block_positive[b] = p;
        block_negative[b] = n;
        block_invalid[b] = invalid | (p >= limit) | (n >= limit);
      });
      bool invalid = above_positive < 0 || above_negative < 0;
      uint64_t total = invalid ? 0 : static_cast<uint64_t>(above_positive) + static_cast<uint64_t>(above_negative);
      invalid |= total >= limit;
      for (int64_t b = 0; b < blocks && !invalid; ++b) {
        total += block_positive[b] + block_negative[b];  // each below 2^62 when valid: no wrap-around
        invalid = block_invalid[b] || total >= limit;
        if (invalid) break;
        entry_positive_[b + 1] = entry_positive_[b] + static_cast<Weight>(block_positive[b]);
        entry_negative_[b + 1] = entry_negative_[b] + static_cast<Weight>(block_negative[b]);
      }
      if (invalid || total >= limit) {
        throw std::invalid_argument("a count table needs non-negative counts totalling less than 2**62");
      }
    } else {
      // The running sums of one sequential pass (floating-point addition
      // does not regroup exactly).
      Weight p = above_positive, n = above_negative;
      for (int64_t b = 0; b < blocks; ++b) {
        for (int64_t r = row_begin(b); r < row_end(b); ++r) {
          p += positive[r];
          n += negative[r];
        }
        entry_positive_[b + 1] = p;
        entry_negative_[b + 1] = n;
      }
    }
  }

  int64_t block_count() const { return static_cast<int64_t>(entry_positive_.size()) - 1; }
  int64_t row_count() const { return rows_; }
  // Rows before block b (b == block_count() gives the row count).
  int64_t entry_row(int64_t b) const { return std::min(rows_, b * block_rows_); }
  // Cumulative weight before block b, offsets included.
  Weight entry_positive(int64_t b) const { return entry_positive_[b]; }
  Weight entry_negative(int64_t b) const { return entry_negative_[b]; }
  // Cumulative weight after the last row, offsets included.
  Weight total_positive() const { return entry_positive_.back(); }
  Weight total_negative() const { return entry_negative_.back(); }

  // Calls visit(row) for each row of block b with its cumulative weights.
  template <class Visit>
  void for_each_row_of_block(int64_t b, Visit&& visit) const {
    Weight p = entry_positive_[b], n = entry_negative_[b];
    const int64_t end = row_end(b);
    for (int64_t r = row_begin(b); r < end; ++r) {
      p += positive_[r];
      n += negative_[r];
      visit(TableRow{scores_[r], p, n});
    }
  }

  TableRow first_row(int64_t b) const {
    const int64_t r = row_begin(b);
    return TableRow{scores_[r], entry_positive_[b] + positive_[r], entry_negative_[b] + negative_[r]};
  }
  TableRow last_row(int64_t b) const {
    return TableRow{scores_[row_end(b) - 1], entry_positive_[b + 1], entry_negative_[b + 1]};
  }

 private:
  int64_t row_begin(int64_t b) const { return b * block_rows_; }
  int64_t row_end(int64_t b) const { return std::min(rows_, (b + 1) * block_rows_); }

  const Score* scores_;
  const Weight *positive_, *negative_;
  int64_t rows_;
  int64_t block_rows_;
  std::vector<Weight> entry_positive_, entry_negative_;
};

}  // namespace turbometrics::ranking
