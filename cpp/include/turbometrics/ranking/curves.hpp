// The ROC and precision-recall curves of a score table as scikit-learn's
// roc_curve and precision_recall_curve return them, and the areas
// scikit-learn computes from those arrays, in its float operations and its
// order (NumPy's pairwise sums), so that they are its bits.
//
// * RocPoints writes the ROC curve: the point (0, 0) at +inf, then one
//   point per kept row (drop_intermediate's rule), rates = cumulative
//   weight / total.
// * write_precision_recall_points writes the precision-recall curve by
//   increasing threshold, then (precision 1, recall 0).
// * roc_auc_area is auc(fpr, tpr) (np.trapezoid) of that curve, optionally
//   cut at max_fpr with the interpolated point (_binary_roc_auc_score's
//   partial area, before McClish's correction), and average_precision_area
//   -np.sum(np.diff(recall) * precision[:-1]) clipped at 0
//   (average_precision_score), without writing the curve: the ROC area's
//   trapezoids are streamed into NumPy's summation tree (no memory per
//   row), the precision-recall terms written (8 bytes a row) and summed.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "turbometrics/buffer.hpp"

#include "turbometrics/numpy_sum.hpp"
#include "turbometrics/ranking/sweeps.hpp"

namespace turbometrics::ranking {

// The ROC curve of a table: which rows it keeps, and how its points are
// written (into caller-provided columns of capacity() values).
template <class Table>
class RocPoints {
 public:
  RocPoints(const Table& table, bool drop_intermediate, int n_threads)
      : table_(table), kept_(table, drop_intermediate, RocCorner{}, std::nullopt, n_threads, false) {
    // When every row of the first blocks is kept (as with continuous
    // weights) the points are written in place, without a counting sweep;
    // else (as with unit weights, where runs of one class are collinear)
    // counted first, so that the outputs have their final size and
    // nothing has to be moved.
    in_place_ = kept_.kept_fraction_of_first_rows(int64_t{1} << 16) == 1.0;
    if (!in_place_) kept_.count_kept(n_threads);
  }

  // Values each output column must hold (at least the number of points).
  int64_t capacity() const { return (in_place_ ? table_.row_count() : kept_.size()) + 1; }

  // Writes the points. Rates are NaN when their
  // total is not positive (scikit-learn's rule). Returns the number of
  // points.
  int64_t write(double* fpr, double* tpr, double* thresholds, int n_threads) const {
    const double positives = static_cast<double>(table_.total_positive());
    const double negatives = static_cast<double>(table_.total_negative());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto rate = [nan](double value, double total) { return total > 0 ? value / total : nan; };
    fpr[0] = rate(0.0, negatives);
    tpr[0] = rate(0.0, positives);
    thresholds[0] = std::numeric_limits<double>::infinity();
    // Point i (after the one at +inf). (Captures by value, so that the
    // sweep keeps the output pointers in registers.)
    auto write_point = [=](int64_t i, const auto& row) {
      fpr[i] = rate(static_cast<double>(row.negative), negatives);
      tpr[i] = rate(static_cast<double>(row.positive), positives);
      thresholds[i] = static_cast<double>(row.score);
    };
    if (!in_place_) {
      write_kept_rows(table_, kept_, n_threads, [&](int64_t i, const auto& row) { write_point(i + 1, row); });
      return kept_.size() + 1;
    }
    return write_kept_rows_in_place(table_, kept_, 1, n_threads, write_point,
                                    [&](int64_t from, int64_t to, int64_t count) {
                                      for (double* column : {fpr, tpr, thresholds}) {
                                        std::memmove(column + to, column + from, sizeof(double) * count);
                                      }
                                    });
  }

 private:
  const Table& table_;
  KeptRows<Table, RocCorner> kept_;
  bool in_place_ = false;
};

// Writes the precision-recall curve of the rows `kept` keeps: point
// kept.size() - 1 - i for kept row i (increasing threshold), then
// (precision 1, recall 0) at kept.size().
// Precision is 0 where nothing is predicted positive; with no positive
// weight recall is 1 (scikit-learn's rules).
template <class Table, class Score>
void write_precision_recall_points(const Table& table, const KeptRows<Table, PositiveChangeCorner>& kept,
                                   double* precision, double* recall, Score* thresholds, int n_threads) {
  const int64_t points = kept.size();
  const double positives = static_cast<double>(table.total_positive());
  precision[points] = 1.0;
  recall[points] = 0.0;
  write_kept_rows(table, kept, n_threads, [=](int64_t i, const auto& row) {
    const int64_t at = points - 1 - i;
    const double tps = static_cast<double>(row.positive);
    const double predicted = tps + static_cast<double>(row.negative);
    precision[at] = predicted != 0.0 ? tps / predicted : 0.0;
    recall[at] = positives == 0.0 ? 1.0 : tps / positives;
    thresholds[at] = row.score;
  });
}

// np.interp(x, [x0, x1], [y0, y1]) for x0 <= x < x1.
inline double interpolate(double x, double x0, double x1, double y0, double y1) {
  if (x0 == x) return y0;
  const double slope = (y1 - y0) / (x1 - x0);
  const double y = slope * (x - x0) + y0;
  if (!std::isnan(y)) return y;
  const double other = slope * (x - x1) + y1;
  return std::isnan(other) && y0 == y1 ? y0 : other;
}

// roc_auc_score's area: np.trapezoid(tpr, fpr) over roc_curve's points
// (drop_intermediate), i.e. np.sum of (fpr[i + 1] - fpr[i]) * (tpr[i + 1] +
// tpr[i]) / 2.0; with max_fpr, over the points with fpr <= max_fpr and the
// point (max_fpr, np.interp's tpr), as _binary_roc_auc_score builds it.
// Both class totals must be positive; the weights must not be negative
// (then fpr never decreases; callers take scikit-learn's own arithmetic on
// the curve otherwise). NaN when no point has fpr > max_fpr.
//
// One parallel sweep decides each block's kept points and keeps their
// trapezoids (the first of a block, whose left point lies in an earlier
// block, is put right afterwards); the block counts then fix NumPy's
// summation tree, and a second parallel pass sums the kept terms in it
// (NumpyStreamedSum). The terms are written over the block's own records
// where `spent(b)` (a SpentBlock) allows it, each over records already read
// (a record per sample unweighted, so the rows' counts tell how many; a
// weighted row has at least one): a term waits in a vector until records
// are free for it, and the terms still waiting at the block's end stay in
// the vector. With the 8-byte records of float64 scores no term waits;
// with the 4-byte ones of float32 scores only those of a block's corners
// beyond half its samples stay.
template <class Table, class Spent>
double roc_auc_area_over(const Table& table, std::optional<double> max_fpr, int n_threads, Spent&& spent) {
  using TableRow = typename Table::TableRow;
  const double positives = static_cast<double>(table.total_positive());
  const double negatives = static_cast<double>(table.total_negative());
  const KeptRows<Table, RocCorner> kept(table, true, RocCorner{}, std::nullopt, n_threads, false);
  const int64_t blocks = table.block_count();
  struct Point {
    double fpr = 0.0, tpr = 0.0;
  };
  auto trapezoid = [](const Point& a, const Point& b) { return (b.fpr - a.fpr) * (b.tpr + a.tpr) / 2.0; };
  const double limit = max_fpr.value_or(std::numeric_limits<double>::infinity());
  // Per block: its terms (the first `in_place` over its records, the rest in
  // `spilled`), its first and last kept points, and with max_fpr the kept
  // points with fpr <= max_fpr, the last of them and the first beyond.
  struct BlockTerms {
    int64_t kept = 0, in_place = 0, within = 0;
    std::vector<double> spilled;
    bool has_beyond = false;
    Point first, last, last_within, first_beyond;
  };
  auto sweep_block = [&](int64_t b, auto with_limit) {
    constexpr bool limited = decltype(with_limit)::value;
    BlockTerms result;
    const SpentBlock memory = spent(b);
    // Records read: at least the rows read; unweighted, where a record is a
    // sample, exactly the counts the rows have added.
    using Weight = typename Table::Weight;
    const Weight entry_samples = table.entry_positive(b) + table.entry_negative(b);
    int64_t rows_read = 0;
    auto records_read = [&](const TableRow& row) -> int64_t {
      if constexpr (std::is_integral_v<Weight>) {
        return static_cast<int64_t>(row.positive + row.negative - entry_samples);
      } else {
        return rows_read;
      }
    };
    // The kept points are gathered branch-free (every row is written, only
    // a kept row is counted: the decisions are unpredictable on random
    // data) into chunks, whose rates and trapezoids are then straight loops
    // the compiler vectorises. Slot 0 holds the kept point before the chunk
    // (before the first chunk a stand-in: that term is put afterwards).
    constexpr int64_t chunk = 256;
    double fpr[chunk + 1], tpr[chunk + 1], terms[chunk];
    fpr[0] = tpr[0] = 0.0;
    int64_t gathered = 0;
    // Terms not yet over the records (waiting for room), in order from
    // `waiting_from`.
    std::vector<double> waiting;
    size_t waiting_from = 0;
    auto place = [&](const double* terms_in, int64_t count, int64_t records_read) {
      if (count > 0) waiting.insert(waiting.end(), terms_in, terms_in + count);
      const int64_t room = memory.doubles_over(records_read) - result.in_place;
      const int64_t placed = std::clamp<int64_t>(room, 0, static_cast<int64_t>(waiting.size() - waiting_from));
      if (placed == 0) return;
      std::memcpy(memory.data + sizeof(double) * result.in_place, waiting.data() + waiting_from,
                  sizeof(double) * placed);
      result.in_place += placed;
      waiting_from += placed;
      if (waiting_from == waiting.size()) {
        waiting.clear();
        waiting_from = 0;
      }
    };
    auto flush = [&](int64_t records_read) {
      if (gathered == 0) return place(terms, 0, records_read);
      for (int64_t k = 1; k <= gathered; ++k) {
        fpr[k] /= negatives;
        tpr[k] /= positives;
      }
      for (int64_t k = 0; k < gathered; ++k) terms[k] = trapezoid(Point{fpr[k], tpr[k]}, Point{fpr[k + 1], tpr[k + 1]});
      if (result.kept == 0) result.first = Point{fpr[1], tpr[1]};
      if constexpr (limited) {
        for (int64_t k = 1; k <= gathered; ++k) {
          if (fpr[k] <= limit) {
            ++result.within;
            result.last_within = Point{fpr[k], tpr[k]};
          } else if (!result.has_beyond) {
            result.has_beyond = true;
            result.first_beyond = Point{fpr[k], tpr[k]};
          }
        }
      }
      place(terms, gathered, records_read);
      result.kept += gathered;
      result.last = Point{fpr[gathered], tpr[gathered]};
      fpr[0] = fpr[gathered];
      tpr[0] = tpr[gathered];
      gathered = 0;
    };
    kept.for_each_row_of_block(b, [&](const TableRow& row, bool keep) {
      ++rows_read;
      fpr[gathered + 1] = static_cast<double>(row.negative);
      tpr[gathered + 1] = static_cast<double>(row.positive);
      gathered += keep;
      if (gathered == chunk) flush(records_read(row));
    });
    flush(memory.items);  // every record read: what still waits has no room
    result.spilled.assign(waiting.begin() + static_cast<std::ptrdiff_t>(waiting_from), waiting.end());
    return result;
  };
  std::vector<BlockTerms> parts =
      max_fpr ? sweep_blocks(table, n_threads, [&](int64_t b) { return sweep_block(b, std::true_type{}); })
              : sweep_blocks(table, n_threads, [&](int64_t b) { return sweep_block(b, std::false_type{}); });
  std::vector<int64_t> offsets(blocks + 1, 0);  // kept points before block b
  for (int64_t b = 0; b < blocks; ++b) offsets[b + 1] = offsets[b] + parts[b].kept;
  // Each block's first term, from the last kept point before it.
  Point previous{0.0 / negatives, 0.0 / positives};
  for (int64_t b = 0; b < blocks; ++b) {
    if (parts[b].kept == 0) continue;
    const double first_term = trapezoid(previous, parts[b].first);
    if (parts[b].in_place > 0) {
      std::memcpy(spent(b).data, &first_term, sizeof first_term);
    } else {
      parts[b].spilled[0] = first_term;
    }
    previous = parts[b].last;
  }
  // Terms to sum (term g: the trapezoid from kept point g to g + 1, point 0
  // being the one at +inf), and with max_fpr the one replaced.
  int64_t terms = offsets.back(), replaced = -1;
  double replacement = 0.0;
  if (max_fpr) {
    // Points (the one at +inf first) with fpr <= max_fpr: np.searchsorted's
    // `stop`, fpr never decreasing.
    int64_t stop = 1;
    Point left{0.0, 0.0}, right;
    bool beyond = false;
    for (int64_t b = 0; b < blocks; ++b) {
      stop += parts[b].within;
      if (parts[b].within > 0) left = parts[b].last_within;
      if (!beyond && parts[b].has_beyond) {
        right = parts[b].first_beyond;
        beyond = true;
      }
    }
    if (!beyond) return std::numeric_limits<double>::quiet_NaN();
    if (!(left.fpr <= *max_fpr && *max_fpr < right.fpr)) return std::numeric_limits<double>::quiet_NaN();
    const double tpr_at_max = interpolate(*max_fpr, left.fpr, right.fpr, left.tpr, right.tpr);
    terms = stop;
    replaced = stop - 1;
    replacement = trapezoid(left, Point{*max_fpr, tpr_at_max});
    for (int64_t& offset : offsets) offset = std::min(offset, terms);
  }
  NumpyStreamedSum sum(offsets);
  parallel_for_dynamic(blocks, n_threads, [&](int64_t b) {
    const int64_t count = offsets[b + 1] - offsets[b];
    if (count == 0) return;  // no term, or none summed
    NumpyStreamedSum::Part part(sum, b, replaced, replacement);
    // The terms over the records, copied out by bytes (the memory holds
    // records of another type), then the spilled ones.
    const int64_t in_place = std::min(count, parts[b].in_place);
    const char* stored = spent(b).data;
    double copied[256];
    for (int64_t done = 0; done < in_place; done += 256) {
      const int64_t n = std::min<int64_t>(256, in_place - done);
      std::memcpy(copied, stored + sizeof(double) * done, sizeof(double) * n);
      part.put_counted(copied, n);
    }
    part.put_counted(parts[b].spilled.data(), count - in_place);
    part.finish();
  });
  return sum.total();
}

// roc_auc_area_over without overwriting the table (the terms in vectors).
template <class Table>
double roc_auc_area(const Table& table, std::optional<double> max_fpr, int n_threads) {
  return roc_auc_area_over(table, max_fpr, n_threads, [](int64_t) { return SpentBlock{}; });
}

// roc_auc_area_over as the table's last use: the terms are written over its
// sorted records (SortedScores::spend_block), which are unusable after.
template <class Table>
double roc_auc_area_spending(Table& table, std::optional<double> max_fpr, int n_threads) {
  return roc_auc_area_over(table, max_fpr, n_threads, [&](int64_t b) { return table.spend_block(b); });
}

// average_precision_score's step integral of precision_recall_curve's
// points: max(0, -np.sum(np.diff(recall) * precision[:-1])) with the
// arrays by increasing threshold, i.e. -np.sum over rows from the last to
// the first of (R_{r-1} - R_r) * P_r (R_{-1} = 0; precision 0 where nothing
// is predicted positive; with no positive weight recall is 1). One
// parallel sweep writes the terms in that order; then NumPy's sum.
template <class Table>
double average_precision_area(const Table& table, int n_threads) {
  const double positives = static_cast<double>(table.total_positive());
  const int64_t rows = table.row_count();
  auto recall_of = [&](double tps) { return positives == 0.0 ? 1.0 : tps / positives; };
  auto terms = make_buffer<double>(std::max<int64_t>(1, rows));
  prefault_huge_pages(terms.get(), sizeof(double) * static_cast<size_t>(rows), n_threads);
  double* const out = terms.get();
  parallel_for_dynamic(table.block_count(), n_threads, [&](int64_t b) {
    int64_t r = table.entry_row(b);
    double previous_recall = r == 0 ? 0.0 : recall_of(static_cast<double>(table.entry_positive(b)));
    table.for_each_row_of_block(b, [&](const auto& row) {
      const double tps = static_cast<double>(row.positive);
      const double predicted = tps + static_cast<double>(row.negative);
      const double precision = predicted != 0.0 ? tps / predicted : 0.0;
      const double recall = recall_of(tps);
      out[rows - 1 - r] = (previous_recall - recall) * precision;
      previous_recall = recall;
      ++r;
    });
  });
  const double area = -numpy_sum(rows, n_threads, [&](int64_t begin, int64_t end, double* sum_out) {
    std::memcpy(sum_out, out + begin, sizeof(double) * static_cast<size_t>(end - begin));
  });
  return area > 0.0 ? area : 0.0;
}

}  // namespace turbometrics::ranking
