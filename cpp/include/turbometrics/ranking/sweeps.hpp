// Sweeps over the score table. Each sweep runs over the table's blocks in
// parallel, every block starting from its entry totals, and combines the
// blocks' results in block order, so results do not depend on the thread
// count.
//
// Arithmetic mirrors scikit-learn's: rates are cumulative weight divided by
// the total, and differences are taken between rounded rates, so
// collinear-point decisions agree exactly. The areas here are exact sums
// rounded once (the states' range parts, intervals, bootstrap); the
// in-memory functions' areas, in scikit-learn's order, are in curves.hpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "turbometrics/exact_sum.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/portable.hpp"
#include "turbometrics/ranking/score_table.hpp"

namespace turbometrics::ranking {

// Neumaier-compensated sum, so long sweeps do not accumulate rounding error.
class CompensatedSum {
 public:
  void add(double x) {
    const double t = sum_ + x;
    if (std::fabs(sum_) >= std::fabs(x)) {
      compensation_ += (sum_ - t) + x;
    } else {
      compensation_ += (x - t) + sum_;
    }
    sum_ = t;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0.0;
  double compensation_ = 0.0;
};

// Runs block_sweep(b) for every block in parallel and returns the results
// in block order.
template <class Table, class BlockSweep>
auto sweep_blocks(const Table& table, int n_threads, BlockSweep&& block_sweep) {
  using Result = decltype(block_sweep(int64_t{0}));
  std::vector<Result> results(table.block_count());
  parallel_for_dynamic(table.block_count(), n_threads, [&](int64_t b) { results[b] = block_sweep(b); });
  return results;
}

// Compensated sum of per-block partial sums, in block order.
inline double sum_in_order(const std::vector<double>& parts) {
  CompensatedSum sum;
  for (double part : parts) sum.add(part);
  return sum.value();
}

// Trapezoid area under the ROC curve over fpr in [0, max_fpr]; the segment
// that crosses max_fpr is interpolated linearly (as np.interp does).
template <class Table>
double roc_area_up_to(const Table& table, double max_fpr, int n_threads) {
  const double positives = static_cast<double>(table.total_positive());
  const double negatives = static_cast<double>(table.total_negative());
  const auto parts = sweep_blocks(table, n_threads, [&](int64_t b) {
    CompensatedSum area;
    double previous_fpr = static_cast<double>(table.entry_negative(b)) / negatives;
    double previous_tpr = static_cast<double>(table.entry_positive(b)) / positives;
    bool done = previous_fpr > max_fpr;  // crossed in an earlier block
    table.for_each_row_of_block(b, [&](const auto& row) {
      if (done) return;
      const double fpr = static_cast<double>(row.negative) / negatives;
      const double tpr = static_cast<double>(row.positive) / positives;
      if (fpr > max_fpr) {
        const double slope = (tpr - previous_tpr) / (fpr - previous_fpr);
        const double tpr_at_max = slope * (max_fpr - previous_fpr) + previous_tpr;
        area.add((max_fpr - previous_fpr) * (tpr_at_max + previous_tpr) / 2.0);
        done = true;
        return;
      }
      area.add((fpr - previous_fpr) * (tpr + previous_tpr) / 2.0);
      previous_fpr = fpr;
      previous_tpr = tpr;
    });
    return area.value();
  });
  return sum_in_order(parts);
}

// Unsigned __int128, or a portable struct with the same results (portable.hpp).
using WideCount = uint128;

// Twice the area under the (unnormalised) ROC step curve of the table's
// rows: the sum over rows of negative_r * (positive_above_r + positive_at_or_above_r),
// i.e. the rank-sum statistic with ties counted one half, times two,
// cumulative weights including the table's entry offsets. Exact (in
// 128-bit integers) for integer weights, a compensated sum in weight units
// otherwise; block parts are combined in block order.
template <class Table>
auto twice_rank_area(const Table& table, int n_threads) {
  using Weight = typename Table::Weight;
  using Sum = std::conditional_t<std::is_integral_v<Weight>, WideCount, double>;
  const auto parts = sweep_blocks(table, n_threads, [&](int64_t b) -> Sum {
    Weight previous_positive = table.entry_positive(b), previous_negative = table.entry_negative(b);
    if constexpr (std::is_integral_v<Weight>) {
      WideCount twice_area = 0;
      table.for_each_row_of_block(b, [&](const auto& row) {
        twice_area += mul_wide(static_cast<uint64_t>(row.negative - previous_negative),
                               static_cast<uint64_t>(row.positive + previous_positive));
        previous_positive = row.positive;
        previous_negative = row.negative;
      });
      return twice_area;
    } else {
      CompensatedSum twice_area;
      table.for_each_row_of_block(b, [&](const auto& row) {
        twice_area.add((row.negative - previous_negative) * (row.positive + previous_positive));
        previous_positive = row.positive;
        previous_negative = row.negative;
      });
      return twice_area.value();
    }
  });
  if constexpr (std::is_integral_v<Weight>) {
    WideCount twice_area = 0;
    for (const WideCount& part : parts) twice_area += part;
    return twice_area;
  } else {
    return sum_in_order(parts);
  }
}

// Area under the ROC curve by the trapezoid rule, from (0, 0). Unweighted,
// the area is accumulated exactly in integers as the rank-sum statistic
// (ties count one half) and divided once; weighted, it is a compensated sum
// of trapezoids between the rounded rates.
template <class Table>
double roc_auc(const Table& table, int n_threads) {
  using Weight = typename Table::Weight;
  if constexpr (std::is_integral_v<Weight>) {
    return to_double(twice_rank_area(table, n_threads)) /
           (2.0 * static_cast<double>(table.total_positive()) * static_cast<double>(table.total_negative()));
  } else {
    return roc_area_up_to(table, std::numeric_limits<double>::infinity(), n_threads);
  }
}

// The per-row terms of the average precision, (R_r - R_{r-1}) * P_r with
// R = cumulative positive weight / `positives` and P = cumulative positive
// / cumulative total weight (0 where nothing is predicted positive), summed
// exactly. Rows continue the table's entry offsets; R_{-1} is 0 for a table
// without positive offset. With no positive weight recall is 1 everywhere
// (scikit-learn's rule). Each term is rounded as in double arithmetic, but
// their sum is exact, so any partition of the rows into tables gives parts
// whose exact sum is the whole table's.
template <class Table>
ExactSum average_precision_terms(const Table& table, double positives, int n_threads) {
  auto recall_of = [&](double tps) { return positives == 0.0 ? 1.0 : tps / positives; };
  const auto parts = sweep_blocks(table, n_threads, [&](int64_t b) {
    BufferedExactSum sum;
    const double entry = static_cast<double>(table.entry_positive(b));
    double previous_recall = b == 0 && entry == 0.0 ? 0.0 : recall_of(entry);
    table.for_each_row_of_block(b, [&](const auto& row) {
      const double tps = static_cast<double>(row.positive);
      const double predicted = tps + static_cast<double>(row.negative);
      const double precision = predicted != 0.0 ? tps / predicted : 0.0;
      const double recall = recall_of(tps);
      sum.add((recall - previous_recall) * precision);
      previous_recall = recall;
    });
    return sum.total();
  });
  ExactSum total;
  for (const ExactSum& part : parts) total.add(part);
  return total;
}

// Average precision: the sum over thresholds of (R_n - R_{n-1}) * P_n,
// correctly rounded from the exact sum of the terms, clipped at 0.
template <class Table>
double average_precision(const Table& table, int n_threads) {
  const double positives = static_cast<double>(table.total_positive());
  return std::fmax(0.0, average_precision_terms(table, positives, n_threads).value());
}

// ROC rule: a row is a corner unless it is collinear with its neighbours
// (second differences of both cumulative weights are zero). Integer counts
// (below 2**53, so exact as doubles, as scikit-learn takes them) are
// compared in integers, which decides the same and is cheaper.
struct RocCorner {
  template <class Row>
  bool operator()(const Row& a, const Row& b, const Row& c) const {
    if constexpr (std::is_integral_v<decltype(a.negative)>) {
      return (((c.negative - b.negative) - (b.negative - a.negative)) |
              ((c.positive - b.positive) - (b.positive - a.positive))) != 0;
    }
    const double a_neg = a.negative, b_neg = b.negative, c_neg = c.negative;
    const double a_pos = a.positive, b_pos = b.positive, c_pos = c.positive;
    return (((c_neg - b_neg) - (b_neg - a_neg)) != 0.0) | (((c_pos - b_pos) - (b_pos - a_pos)) != 0.0);
  }
};

// Precision-recall and DET rule: a row is kept when the positive weight
// changes on either side of it.
struct PositiveChangeCorner {
  template <class Row>
  bool operator()(const Row& a, const Row& b, const Row& c) const {
    const double a_pos = a.positive, b_pos = b.positive, c_pos = c.positive;
    return ((b_pos - a_pos) != 0.0) | ((c_pos - b_pos) != 0.0);
  }
};

// drop_intermediate for curves: the rows a curve keeps, found per block in
// parallel. A row is kept when dropping is off, when it is the first or
// last point of the curve, or when `corner(previous, row, next)` holds.
// `leading` is an extra first point placed before the table's rows (the
// DET curve's point at +inf), which takes part in the rule.
template <class Table, class Corner>
class KeptRows {
 public:
  using TableRow = typename Table::TableRow;

  // Without dropping every row is kept and the offsets are the table's; with
  // dropping, one sweep counts each block's kept rows (unless `count` is
  // false: then only the decisions are available, for write_kept_rows_in_place,
  // until count_kept is called).
  KeptRows(const Table& table, bool drop_intermediate, Corner corner, std::optional<TableRow> leading, int n_threads,
           bool count = true)
      : table_(table), corner_(corner), leading_(leading) {
    const int64_t points = table.row_count() + (leading ? 1 : 0);
    drop_ = drop_intermediate && points > 2;
    const int64_t blocks = table.block_count();
    offsets_.assign(blocks + 1, leading ? 1 : 0);
    for (int64_t b = 0; b <= blocks; ++b) offsets_[b] += table.entry_row(b);
    // The row before each block, read now: a sweep may overwrite a block
    // it has read (SortedScores::spend_block) while the next is read.
    previous_rows_.resize(blocks);
    for (int64_t b = 0; b < blocks; ++b)
      previous_rows_[b] = b > 0 ? table.last_row(b - 1) : leading.value_or(TableRow{});
    if (count) count_kept(n_threads);
  }

  // The counting sweep (for rows kept by a constructor told not to count).
  void count_kept(int n_threads) {
    if (!drop_) return;
    const auto counts = sweep_blocks(table_, n_threads, [&](int64_t b) {
      int64_t kept = 0;
      for_each_row_of_block(b, [&](const TableRow&, bool keep) { kept += keep; });
      return kept;
    });
    for (int64_t b = 0; b < table_.block_count(); ++b) offsets_[b + 1] = offsets_[b] + counts[b];
  }

  // The fraction of rows kept among the first blocks' rows (at least
  // `sample_rows` of them, or all): whether writing in place pays.
  double kept_fraction_of_first_rows(int64_t sample_rows) const {
    if (!drop_) return 1.0;
    int64_t rows = 0, kept = 0;
    for (int64_t b = 0; b < table_.block_count() && rows < sample_rows; ++b) {
      for_each_row_of_block(b, [&](const TableRow&, bool keep) {
        ++rows;
        kept += keep;
      });
    }
    return rows == 0 ? 1.0 : static_cast<double>(kept) / static_cast<double>(rows);
  }

  // Number of kept points, including the leading one.
  int64_t size() const { return offsets_.back(); }
  // Index of block b's first kept point among all kept points.
  int64_t offset(int64_t b) const { return offsets_[b]; }

  // Calls visit(row, keep) for each row of block b, in order; `keep` says
  // whether the curve keeps it. (Deciding without a branch and letting the
  // caller skip rows branch-free is much faster on unpredictable curves.)
  template <class Visit>
  void for_each_row_of_block(int64_t b, Visit&& visit) const {
    const int64_t blocks = table_.block_count();
    // The row before block b (the leading point, or the previous block's
    // last row) and the row after it; `has_*` say whether they exist.
    bool has_previous = b > 0 || leading_.has_value();
    TableRow previous = previous_rows_[b];
    const bool has_after = b + 1 < blocks;
    const TableRow after = has_after ? table_.first_row(b + 1) : TableRow{};
    bool has_pending = false;
    TableRow pending{};
    table_.for_each_row_of_block(b, [&](const TableRow& row) {
      if (has_pending) {
        visit(pending, !drop_ | !has_previous | corner_(previous, pending, row));
        previous = pending;
        has_previous = true;
      }
      pending = row;
      has_pending = true;
    });
    if (has_pending) visit(pending, !drop_ || !has_previous || !has_after || corner_(previous, pending, after));
  }

 private:
  const Table& table_;
  Corner corner_;
  std::optional<TableRow> leading_;
  bool drop_ = false;
  std::vector<int64_t> offsets_;
  std::vector<TableRow> previous_rows_;
};

// Calls write(index, row) for every kept row, in parallel over blocks;
// indices count from the first kept point (the leading one is index 0).
template <class Table, class Corner, class Write>
void write_kept_rows(const Table& table, const KeptRows<Table, Corner>& kept, int n_threads, Write&& write) {
  parallel_for_dynamic(table.block_count(), n_threads, [&](int64_t b) {
    int64_t index = kept.offset(b);
    const int64_t end = kept.offset(b + 1);
    kept.for_each_row_of_block(b, [&](const auto& row, bool keep) {
      if (index < end) write(index, row);  // a dropped row is overwritten by the next kept one
      index += keep;
    });
  });
}

// Writes every kept row in one sweep, without counting first: block b
// writes from index leading + entry_row(b) (the most it can need), then the
// blocks' outputs are moved down in block order to close the gaps, with
// move_down(from, to, count). Cheaper than counting when most rows are kept.
// Returns the number of points, including a leading one at index 0.
template <class Table, class Corner, class Write, class MoveDown>
int64_t write_kept_rows_in_place(const Table& table, const KeptRows<Table, Corner>& decisions, int64_t leading,
                                 int n_threads, Write&& write, MoveDown&& move_down) {
  const int64_t blocks = table.block_count();
  std::vector<int64_t> written(blocks, 0);
  parallel_for_dynamic(blocks, n_threads, [&](int64_t b) {
    const int64_t start = leading + table.entry_row(b);
    const int64_t end = leading + table.entry_row(b + 1);
    int64_t index = start;
    decisions.for_each_row_of_block(b, [&](const auto& row, bool keep) {
      if (index < end) write(index, row);  // a dropped row is overwritten by the next kept one
      index += keep;
    });
    written[b] = index - start;
  });
  int64_t points = leading;
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t start = leading + table.entry_row(b);
    if (start != points && written[b] > 0) move_down(start, points, written[b]);
    points += written[b];
  }
  return points;
}

}  // namespace turbometrics::ranking
