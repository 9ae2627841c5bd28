// Decision metrics at every threshold of the score table: predicting
// "positive" for scores at or above a row's score gives the confusion
// counts tp = positive weight at or above, fp = negative weight at or above,
// fn = P - tp, tn = N - fp. Ratios whose denominator is zero are 0.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "turbometrics/ranking/sweeps.hpp"

namespace turbometrics::ranking {

enum class DecisionMetric { f_beta, youden, accuracy, balanced_accuracy, mcc };

struct Confusion {
  double tp, fp, fn, tn;

  static double ratio(double numerator, double denominator) {
    return denominator != 0.0 ? numerator / denominator : 0.0;
  }
  double precision() const { return ratio(tp, tp + fp); }
  double tpr() const { return ratio(tp, tp + fn); }  // recall
  double fpr() const { return ratio(fp, fp + tn); }
  double tnr() const { return ratio(tn, tn + fp); }
  // (1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp), the F-beta of precision and recall.
  double f_beta(double beta_squared) const {
    return ratio((1.0 + beta_squared) * tp, (1.0 + beta_squared) * tp + beta_squared * fn + fp);
  }
  double accuracy() const { return ratio(tp + tn, tp + fp + fn + tn); }
  double mcc() const {
    const double denominator = std::sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
    return ratio(tp * tn - fp * fn, denominator);
  }
  double value(DecisionMetric metric, double beta_squared) const {
    switch (metric) {
      case DecisionMetric::f_beta: return f_beta(beta_squared);
      case DecisionMetric::youden: return tpr() - fpr();
      case DecisionMetric::accuracy: return accuracy();
      case DecisionMetric::balanced_accuracy: return (tpr() + tnr()) / 2.0;
      case DecisionMetric::mcc: return mcc();
    }
    return 0.0;
  }
};

template <class Table, class Row>
Confusion confusion_at(const Table& table, const Row& row) {
  const double tp = static_cast<double>(row.positive), fp = static_cast<double>(row.negative);
  return {tp, fp, static_cast<double>(table.total_positive()) - tp, static_cast<double>(table.total_negative()) - fp};
}

struct BestThreshold {
  double threshold = std::numeric_limits<double>::infinity();  // +inf: nothing predicted positive
  double value = -std::numeric_limits<double>::infinity();
  Confusion confusion{0, 0, 0, 0};
};

// The threshold maximising `metric`, over +inf (nothing predicted positive)
// and every distinct score. Ties go to the highest threshold; NaN values
// never win.
template <class Table>
BestThreshold best_threshold(const Table& table, DecisionMetric metric, double beta, int n_threads) {
  const double beta_squared = beta * beta;
  auto consider = [&](BestThreshold& best, double threshold, const Confusion& confusion) {
    const double value = confusion.value(metric, beta_squared);
    if (value > best.value) best = {threshold, value, confusion};
  };
  BestThreshold best;
  const double positives = static_cast<double>(table.total_positive());
  const double negatives = static_cast<double>(table.total_negative());
  consider(best, std::numeric_limits<double>::infinity(), Confusion{0.0, 0.0, positives, negatives});
  const auto per_block = sweep_blocks(table, n_threads, [&](int64_t b) {
    BestThreshold block_best;
    table.for_each_row_of_block(
        b, [&](const auto& row) { consider(block_best, static_cast<double>(row.score), confusion_at(table, row)); });
    return block_best;
  });
  for (const BestThreshold& candidate : per_block) {
    if (candidate.value > best.value) best = candidate;
  }
  return best;
}

// Output arrays of `metrics_at_thresholds`, each of length row_count().
struct ThresholdColumns {
  double *thresholds, *tp, *fp, *tn, *fn, *precision, *recall, *f_beta, *fpr;
};

template <class Table>
void metrics_at_thresholds(const Table& table, double beta, const ThresholdColumns& out, int n_threads) {
  const double beta_squared = beta * beta;
  parallel_for_dynamic(table.block_count(), n_threads, [&](int64_t b) {
    int64_t i = table.entry_row(b);
    table.for_each_row_of_block(b, [&](const auto& row) {
      const Confusion c = confusion_at(table, row);
      out.thresholds[i] = static_cast<double>(row.score);
      out.tp[i] = c.tp;
      out.fp[i] = c.fp;
      out.tn[i] = c.tn;
      out.fn[i] = c.fn;
      out.precision[i] = c.precision();
      out.recall[i] = c.tpr();
      out.f_beta[i] = c.f_beta(beta_squared);
      out.fpr[i] = c.fpr();
      ++i;
    });
  });
}

}  // namespace turbometrics::ranking
