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
// * roc_trapezoid_area is auc(fpr, tpr) (np.trapezoid), optionally over
//   the curve cut at max_fpr with the interpolated point
//   (_binary_roc_auc_score's partial area, before McClish's correction).
// * step_area is -np.sum(np.diff(recall) * precision[:-1]), clipped at 0
//   (average_precision_score).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

#include "../numpy_sum.hpp"
#include "sweeps.hpp"

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

  // Writes the points; `thresholds` may be null. Rates are NaN when their
  // total is not positive (scikit-learn's rule). Returns the number of
  // points.
  int64_t write(double* fpr, double* tpr, double* thresholds, int n_threads) const {
    const double positives = static_cast<double>(table_.total_positive());
    const double negatives = static_cast<double>(table_.total_negative());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto rate = [nan](double value, double total) { return total > 0 ? value / total : nan; };
    fpr[0] = rate(0.0, negatives);
    tpr[0] = rate(0.0, positives);
    if (thresholds) thresholds[0] = std::numeric_limits<double>::infinity();
    // Point i (after the one at +inf). (Captures by value, so that the
    // sweep keeps the output pointers in registers.)
    auto write_point = [=](int64_t i, const auto& row) {
      fpr[i] = rate(static_cast<double>(row.negative), negatives);
      tpr[i] = rate(static_cast<double>(row.positive), positives);
      if (thresholds) thresholds[i] = static_cast<double>(row.score);
    };
    if (!in_place_) {
      write_kept_rows(table_, kept_, n_threads, [&](int64_t i, const auto& row) { write_point(i + 1, row); });
      return kept_.size() + 1;
    }
    return write_kept_rows_in_place(table_, kept_, 1, n_threads, write_point,
                                    [&](int64_t from, int64_t to, int64_t count) {
                                      for (double* column : {fpr, tpr, thresholds}) {
                                        if (column) std::memmove(column + to, column + from, sizeof(double) * count);
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
// (precision 1, recall 0) at kept.size(); `thresholds` may be null.
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
    if (thresholds) thresholds[at] = row.score;
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

// np.trapezoid(tpr, fpr) over `points` points: np.sum of the terms
// (fpr[i + 1] - fpr[i]) * (tpr[i + 1] + tpr[i]) / 2.0. With max_fpr, over
// the first `stop` points (those with fpr <= max_fpr, fpr increasing) and
// the point (max_fpr, interpolated tpr), as _binary_roc_auc_score builds
// it. Needs fpr[points - 1] > max_fpr.
inline double roc_trapezoid_area(const double* fpr, const double* tpr, int64_t points, std::optional<double> max_fpr,
                                 int n_threads) {
  int64_t terms = points - 1;
  double last_term = 0.0;
  if (max_fpr) {
    const int64_t stop = std::upper_bound(fpr, fpr + points, *max_fpr) - fpr;
    if (stop <= 0 || stop >= points) return std::numeric_limits<double>::quiet_NaN();  // fpr not increasing
    const double tpr_at_max = interpolate(*max_fpr, fpr[stop - 1], fpr[stop], tpr[stop - 1], tpr[stop]);
    last_term = (*max_fpr - fpr[stop - 1]) * (tpr_at_max + tpr[stop - 1]) / 2.0;
    terms = stop;
  }
  const int64_t ordinary = max_fpr ? terms - 1 : terms;
  return numpy_sum(terms, n_threads, [&](int64_t begin, int64_t end, double* out) {
    for (int64_t i = begin; i < end; ++i) {
      out[i - begin] = i < ordinary ? (fpr[i + 1] - fpr[i]) * (tpr[i + 1] + tpr[i]) / 2.0 : last_term;
    }
  });
}

// average_precision_score's step integral of a precision-recall curve of
// `points` + 1 values: max(0, -np.sum(np.diff(recall) * precision[:-1])).
inline double step_area(const double* precision, const double* recall, int64_t points, int n_threads) {
  const double area = -numpy_sum(points, n_threads, [&](int64_t begin, int64_t end, double* out) {
    for (int64_t i = begin; i < end; ++i) out[i - begin] = (recall[i + 1] - recall[i]) * precision[i];
  });
  return area > 0.0 ? area : 0.0;
}

}  // namespace turbometrics::ranking
