// Merging two score tables given by arrays (scores in descending order,
// per-row weights): one linear merge, rows of equal score (-0.0 == 0.0)
// coalescing into one row whose weights are the sums. The merge of the
// tables of two data sets is the table of their concatenation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "turbometrics/parallel.hpp"

namespace turbometrics::ranking {

// Writes the merged table to the output arrays (room for rows_a + rows_b
// rows) and returns its row count. Equal adjacent scores within an input
// (after a widening of its score type) coalesce too. A coalesced row
// reports the score of its last contribution, `b`'s before `a`'s: with `a`
// the earlier data, a zero row carries the sign of the last zero, as the
// table of the concatenated data does. Integer weights that a coalescing
// sum would overflow set `overflow` (and are left as they were).
template <class Score, class Weight>
int64_t merge_tables(const Score* scores_a, const Weight* positive_a, const Weight* negative_a, int64_t rows_a,
                     const Score* scores_b, const Weight* positive_b, const Weight* negative_b, int64_t rows_b,
                     Score* scores, Weight* positive, Weight* negative, bool& overflow) {
  int64_t out = 0;
  auto add = [&](Weight& into, Weight value) {  // `overflow` is unused for floating weights
    if constexpr (std::is_integral_v<Weight>) {
      if (value > 0 ? into > std::numeric_limits<Weight>::max() - value
                    : into < std::numeric_limits<Weight>::min() - value) {
        overflow = true;
        return;
      }
    }
    into += value;
  };
  auto append = [&](Score score, Weight p, Weight n) {
    if (out > 0 && scores[out - 1] == score) {  // rare: the only place weights are summed
      scores[out - 1] = score;
      add(positive[out - 1], p);
      add(negative[out - 1], n);
      return;
    }
    scores[out] = score;
    positive[out] = p;
    negative[out] = n;
    ++out;
  };
  int64_t a = 0, b = 0;
  while (a < rows_a && b < rows_b) {
    if (scores_b[b] > scores_a[a]) {
      append(scores_b[b], positive_b[b], negative_b[b]);
      ++b;
    } else {  // a's row first; an equal b row coalesces with it next
      append(scores_a[a], positive_a[a], negative_a[a]);
      ++a;
    }
  }
  for (; a < rows_a; ++a) append(scores_a[a], positive_a[a], negative_a[a]);
  for (; b < rows_b; ++b) append(scores_b[b], positive_b[b], negative_b[b]);
  return out;
}

// merge_tables in parallel: the inputs are cut at the same score values
// (pivots taken from the longer input; rows of one score never straddle a
// cut), the pieces are merged in parallel, each into the output from its
// largest possible start, and the gaps that coalesced rows leave are then
// closed in order. The result does not depend on the thread count.
// Inputs that are not in descending order give a meaningless table but no
// access outside the arrays (the cuts are kept non-decreasing); integer
// weights whose sums overflow throw std::invalid_argument.
template <class Score, class Weight>
int64_t merge_tables_parallel(const Score* scores_a, const Weight* positive_a, const Weight* negative_a, int64_t rows_a,
                              const Score* scores_b, const Weight* positive_b, const Weight* negative_b, int64_t rows_b,
                              Score* scores, Weight* positive, Weight* negative, int n_threads) {
  constexpr int64_t min_piece = int64_t{1} << 16;
  const int64_t pieces =
      std::max<int64_t>(1, std::min<int64_t>(int64_t{4} * std::max(1, n_threads), (rows_a + rows_b) / min_piece));
  const Score* longer = rows_a >= rows_b ? scores_a : scores_b;
  const int64_t longer_rows = std::max(rows_a, rows_b);
  std::vector<int64_t> cut_a(pieces + 1, rows_a), cut_b(pieces + 1, rows_b);
  cut_a[0] = cut_b[0] = 0;
  for (int64_t k = 1; k < pieces; ++k) {
    const Score pivot = longer[k * longer_rows / pieces];
    auto at_or_above = [pivot](Score score) { return score >= pivot; };  // scores descend
    cut_a[k] = std::partition_point(scores_a, scores_a + rows_a, at_or_above) - scores_a;
    cut_b[k] = std::partition_point(scores_b, scores_b + rows_b, at_or_above) - scores_b;
    cut_a[k] = std::max(cut_a[k], cut_a[k - 1]);  // no-ops for descending inputs
    cut_b[k] = std::max(cut_b[k], cut_b[k - 1]);
  }
  std::vector<int64_t> written(pieces);
  std::vector<char> overflowed(pieces, 0);
  parallel_for_dynamic(pieces, n_threads, [&](int64_t k) {
    const int64_t a = cut_a[k], b = cut_b[k], start = a + b;
    bool overflow = false;
    written[k] =
        merge_tables(scores_a + a, positive_a + a, negative_a + a, cut_a[k + 1] - a, scores_b + b, positive_b + b,
                     negative_b + b, cut_b[k + 1] - b, scores + start, positive + start, negative + start, overflow);
    overflowed[k] = overflow;
  });
  if (std::find(overflowed.begin(), overflowed.end(), 1) != overflowed.end()) {
    throw std::invalid_argument("merged counts overflow int64");
  }
  int64_t rows = 0;
  for (int64_t k = 0; k < pieces; ++k) {
    const int64_t start = cut_a[k] + cut_b[k];
    if (start != rows && written[k] > 0) {
      std::memmove(scores + rows, scores + start, sizeof(Score) * written[k]);
      std::memmove(positive + rows, positive + start, sizeof(Weight) * written[k]);
      std::memmove(negative + rows, negative + start, sizeof(Weight) * written[k]);
    }
    rows += written[k];
  }
  return rows;
}

}  // namespace turbometrics::ranking
