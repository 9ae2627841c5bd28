// Merging two score tables given by arrays (scores in descending order,
// per-row weights): one linear merge, rows of equal score (-0.0 == 0.0)
// coalescing into one row whose weights are the sums. The merge of the
// tables of two data sets is the table of their concatenation.
#pragma once

#include <cstdint>

namespace turbometrics::ranking {

// Writes the merged table to the output arrays (room for rows_a + rows_b
// rows) and returns its row count. Equal adjacent scores within an input
// (after a widening of its score type) coalesce too. A coalesced row
// reports the score of its last contribution, `b`'s before `a`'s: with `a`
// the earlier data, a zero row carries the sign of the last zero, as the
// table of the concatenated data does.
template <class Score, class Weight>
int64_t merge_tables(const Score* scores_a, const Weight* positive_a, const Weight* negative_a, int64_t rows_a,
                     const Score* scores_b, const Weight* positive_b, const Weight* negative_b, int64_t rows_b,
                     Score* scores, Weight* positive, Weight* negative) {
  int64_t out = 0;
  auto append = [&](Score score, Weight p, Weight n) {
    if (out > 0 && scores[out - 1] == score) {
      scores[out - 1] = score;
      positive[out - 1] += p;
      negative[out - 1] += n;
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

}  // namespace turbometrics::ranking
