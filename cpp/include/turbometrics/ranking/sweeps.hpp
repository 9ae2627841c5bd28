// Sweeps over the score table. Each one is a visitor for
// SortedScores::for_each_row, so every metric is one pass over the same rows.
//
// Arithmetic mirrors scikit-learn's: rates are cumulative weight divided by
// the total, and differences are taken between rounded rates, so values agree
// with scikit-learn to a few ulps and collinear-point decisions agree exactly.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

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

// Area under the ROC curve by the trapezoid rule over the rows, starting
// from (0, 0). For integer counts the area is accumulated exactly as the
// rank-sum statistic (ties count one half) and divided once at the end.
template <class Weight>
class RocAucSweep {
 public:
  RocAucSweep(Weight total_positive, Weight total_negative)
      : total_positive_(total_positive), total_negative_(total_negative) {}

  template <class Score>
  void operator()(Score, Weight positive, Weight negative) {
    if constexpr (std::is_integral_v<Weight>) {
      const uint64_t new_negative = static_cast<uint64_t>(negative - previous_negative_);
      const uint64_t twice_height = static_cast<uint64_t>(positive + previous_positive_);
      exact_twice_area_ += static_cast<Wide>(new_negative) * twice_height;
    } else {
      const double fpr = negative / total_negative_, tpr = positive / total_positive_;
      area_.add((fpr - previous_fpr_) * (tpr + previous_tpr_) / 2.0);
      previous_fpr_ = fpr;
      previous_tpr_ = tpr;
    }
    previous_positive_ = positive;
    previous_negative_ = negative;
  }

  double value() const {
    if constexpr (std::is_integral_v<Weight>) {
      return static_cast<double>(exact_twice_area_) /
             (2.0 * static_cast<double>(total_positive_) * static_cast<double>(total_negative_));
    } else {
      return area_.value();
    }
  }

 private:
#ifdef __SIZEOF_INT128__
  using Wide = unsigned __int128;
#else
  using Wide = long double;
#endif
  Weight total_positive_, total_negative_;
  Weight previous_positive_ = 0, previous_negative_ = 0;
  Wide exact_twice_area_ = 0;
  double previous_fpr_ = 0.0, previous_tpr_ = 0.0;
  CompensatedSum area_;
};

// Unnormalised area under the ROC curve up to fpr = max_fpr, with the last
// segment linearly interpolated (as np.interp does) at max_fpr.
template <class Weight>
class PartialRocAreaSweep {
 public:
  PartialRocAreaSweep(Weight total_positive, Weight total_negative, double max_fpr)
      : total_positive_(static_cast<double>(total_positive)),
        total_negative_(static_cast<double>(total_negative)),
        max_fpr_(max_fpr) {}

  template <class Score>
  void operator()(Score, Weight positive, Weight negative) {
    if (done_) return;
    const double fpr = static_cast<double>(negative) / total_negative_;
    const double tpr = static_cast<double>(positive) / total_positive_;
    if (fpr > max_fpr_) {
      const double slope = (tpr - previous_tpr_) / (fpr - previous_fpr_);
      const double tpr_at_max = slope * (max_fpr_ - previous_fpr_) + previous_tpr_;
      area_.add((max_fpr_ - previous_fpr_) * (tpr_at_max + previous_tpr_) / 2.0);
      done_ = true;
      return;
    }
    area_.add((fpr - previous_fpr_) * (tpr + previous_tpr_) / 2.0);
    previous_fpr_ = fpr;
    previous_tpr_ = tpr;
  }

  double value() const { return area_.value(); }

 private:
  double total_positive_, total_negative_, max_fpr_;
  double previous_fpr_ = 0.0, previous_tpr_ = 0.0;
  bool done_ = false;
  CompensatedSum area_;
};

// Average precision: the sum over thresholds of (R_n - R_{n-1}) * P_n.
// With no positive weight, recall is 1 everywhere (scikit-learn's rule).
template <class Weight>
class AveragePrecisionSweep {
 public:
  explicit AveragePrecisionSweep(Weight total_positive) : total_positive_(static_cast<double>(total_positive)) {}

  template <class Score>
  void operator()(Score, Weight positive, Weight negative) {
    const double tps = static_cast<double>(positive);
    const double predicted = tps + static_cast<double>(negative);
    const double precision = predicted != 0.0 ? tps / predicted : 0.0;
    const double recall = total_positive_ == 0.0 ? 1.0 : tps / total_positive_;
    sum_.add((recall - previous_recall_) * precision);
    previous_recall_ = recall;
  }

  double value() const { return std::fmax(0.0, sum_.value()); }

 private:
  double total_positive_;
  double previous_recall_ = 0.0;
  CompensatedSum sum_;
};

// Decides which rows a curve keeps under drop_intermediate, one row late:
// a row is kept when it is the first or last, or when `changes(prev, row,
// next)` says it is a corner. Calls emit(row) for every kept row in order.
template <class Row, class Changes, class Emit>
class IntermediateDropper {
 public:
  IntermediateDropper(int64_t rows, bool drop, Changes changes, Emit emit)
      : rows_(rows), drop_(drop && rows > 2), changes_(changes), emit_(emit) {}

  void push(const Row& row) {
    if (!drop_) {
      emit_(row);
      return;
    }
    if (seen_ == 0) {
      emit_(row);
    } else if (seen_ >= 2 && changes_(before_, middle_, row)) {
      emit_(middle_);
    }
    before_ = middle_;
    middle_ = row;
    ++seen_;
    if (seen_ == rows_) emit_(row);
  }

 private:
  int64_t rows_;
  bool drop_;
  Changes changes_;
  Emit emit_;
  Row before_{}, middle_{};
  int64_t seen_ = 0;
};

template <class Score>
struct CurveRow {
  Score threshold;
  double positive;
  double negative;
};

// ROC rule: a row is a corner unless it is collinear with its neighbours
// (second differences of both cumulative weights are zero).
struct RocCorner {
  template <class Row>
  bool operator()(const Row& a, const Row& b, const Row& c) const {
    return ((c.negative - b.negative) - (b.negative - a.negative)) != 0.0 ||
           ((c.positive - b.positive) - (b.positive - a.positive)) != 0.0;
  }
};

// Precision-recall and DET rule: a row is kept when the positive weight
// changes on either side of it.
struct PositiveChangeCorner {
  template <class Row>
  bool operator()(const Row& a, const Row& b, const Row& c) const {
    return (b.positive - a.positive) != 0.0 || (c.positive - b.positive) != 0.0;
  }
};

// ROC curve: writes (fpr, tpr, threshold) for the kept rows after a leading
// (0, 0, +inf) point. Rates are NaN when their total is not positive.
// Returns the number of points written; outputs need rows + 1 slots.
template <class Score, class Weight, class Table>
int64_t roc_curve_points(const Table& table, int64_t rows, bool drop_intermediate, Weight total_positive,
                         Weight total_negative, double* fpr, double* tpr, double* thresholds) {
  const double positives = static_cast<double>(total_positive), negatives = static_cast<double>(total_negative);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  int64_t written = 0;
  auto emit = [&](const CurveRow<Score>& row) {
    fpr[written] = negatives > 0 ? row.negative / negatives : nan;
    tpr[written] = positives > 0 ? row.positive / positives : nan;
    thresholds[written] = static_cast<double>(row.threshold);
    ++written;
  };
  emit(CurveRow<Score>{Score{}, 0.0, 0.0});
  thresholds[0] = std::numeric_limits<double>::infinity();
  IntermediateDropper<CurveRow<Score>, RocCorner, decltype(emit)&> dropper(rows, drop_intermediate, RocCorner{},
                                                                           emit);
  table.for_each_row([&](Score score, Weight positive, Weight negative) {
    dropper.push(CurveRow<Score>{score, static_cast<double>(positive), static_cast<double>(negative)});
  });
  return written;
}

// Precision-recall curve in increasing-threshold order, written backwards so
// that the kept points end at index `rows - 1`; index `rows` holds the final
// (precision 1, recall 0) point. Returns the index of the first point.
template <class Score, class Weight, class Table>
int64_t precision_recall_points(const Table& table, int64_t rows, bool drop_intermediate, Weight total_positive,
                                double* precision, double* recall, Score* thresholds) {
  const double positives = static_cast<double>(total_positive);
  int64_t next = rows - 1;
  auto emit = [&](const CurveRow<Score>& row) {
    const double predicted = row.positive + row.negative;
    precision[next] = predicted != 0.0 ? row.positive / predicted : 0.0;
    recall[next] = positives == 0.0 ? 1.0 : row.positive / positives;
    thresholds[next] = row.threshold;
    --next;
  };
  precision[rows] = 1.0;
  recall[rows] = 0.0;
  IntermediateDropper<CurveRow<Score>, PositiveChangeCorner, decltype(emit)&> dropper(
      rows, drop_intermediate, PositiveChangeCorner{}, emit);
  table.for_each_row([&](Score score, Weight positive, Weight negative) {
    dropper.push(CurveRow<Score>{score, static_cast<double>(positive), static_cast<double>(negative)});
  });
  return next + 1;
}

// DET curve points before normalisation: a leading (0, 0, +inf) row and then
// the table rows, with drop_intermediate applied to all of them (scikit-learn
// prepends before dropping). Writes cumulative negative and positive weight
// and the threshold; outputs need rows + 1 slots. Returns the count written.
template <class Score, class Weight, class Table>
int64_t det_points(const Table& table, int64_t rows, bool drop_intermediate, double* negative, double* positive,
                   double* thresholds) {
  int64_t written = 0;
  auto emit = [&](const CurveRow<double>& row) {
    negative[written] = row.negative;
    positive[written] = row.positive;
    thresholds[written] = row.threshold;
    ++written;
  };
  IntermediateDropper<CurveRow<double>, PositiveChangeCorner, decltype(emit)&> dropper(
      rows + 1, drop_intermediate, PositiveChangeCorner{}, emit);
  dropper.push(CurveRow<double>{std::numeric_limits<double>::infinity(), 0.0, 0.0});
  table.for_each_row([&](Score score, Weight pos, Weight neg) {
    dropper.push(CurveRow<double>{static_cast<double>(score), static_cast<double>(pos), static_cast<double>(neg)});
  });
  return written;
}

// Stores the rows in three arrays of length `rows`.
template <class Score, class Weight, class Table>
void materialize_table(const Table& table, Score* scores, Weight* positive, Weight* negative) {
  int64_t i = 0;
  table.for_each_row([&](Score score, Weight pos, Weight neg) {
    scores[i] = score;
    positive[i] = pos;
    negative[i] = neg;
    ++i;
  });
}

}  // namespace turbometrics::ranking
