// Stratified bootstrap of table metrics. A replicate redraws, with
// replacement, as many positives as there are among the positives and as
// many negatives among the negatives; since samples at one row are
// interchangeable, a replicate is a new count per row, and the metric is the
// usual sweep over the resampled table. Replicate r draws from its own
// generator seeded by (seed, r), so results do not depend on the thread
// count. Long runs stop early when interrupted (turbometrics/interrupt.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "turbometrics/interrupt.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/portable.hpp"
#include "turbometrics/ranking/array_table.hpp"
#include "turbometrics/ranking/sweeps.hpp"
#include "turbometrics/ranking/thresholds.hpp"

namespace turbometrics::ranking {

// A table given by per-row counts (rows in decreasing score order).
using CountTable = ArrayTable<double, int64_t>;

// splitmix64: a small, well-mixed 64-bit generator.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by the multiply-high method (bias below bound / 2^64).
  int64_t below(int64_t bound) { return static_cast<int64_t>(mul_high(next(), static_cast<uint64_t>(bound))); }

 private:
  uint64_t state_;
};

enum class BootstrapMetric { roc_auc, average_precision, decision };

// Metric of one (resampled) count table. `decision` evaluates `decision`
// for predicting positive at scores >= `cutoff` (binary predictions are
// tables with rows 1 and 0).
struct TableMetric {
  BootstrapMetric kind;
  DecisionMetric decision = DecisionMetric::f_beta;
  double beta = 1.0;
  double cutoff = 0.5;

  double operator()(const CountTable& table) const {
    switch (kind) {
      case BootstrapMetric::roc_auc: return roc_auc(table, 1);
      case BootstrapMetric::average_precision: return average_precision(table, 1);
      case BootstrapMetric::decision: break;
    }
    Confusion confusion{0.0, 0.0, static_cast<double>(table.total_positive()),
                        static_cast<double>(table.total_negative())};
    for (int64_t b = 0; b < table.block_count(); ++b) {
      table.for_each_row_of_block(b, [&](const CountTable::TableRow& row) {
        if (row.score >= cutoff) confusion = confusion_at(table, row);
      });
    }
    return confusion.value(decision, beta * beta);
  }
};

// Adds one to counts[rows_of_class[k]] for `draws` indices k drawn
// uniformly from rows_of_class; false (counts incomplete) if interrupted.
inline bool draw_counts(const std::vector<int64_t>& rows_of_class, int64_t draws, SplitMix64& generator,
                        int64_t* counts, const Interrupt& interrupt) {
  constexpr int64_t kDrawsBetweenPolls = int64_t{1} << 20;  // a few milliseconds
  const int64_t size = static_cast<int64_t>(rows_of_class.size());
  for (int64_t begin = 0; begin < draws; begin += kDrawsBetweenPolls) {
    if (interrupt.requested()) return false;
    const int64_t end = std::min(draws, begin + kDrawsBetweenPolls);
    for (int64_t i = begin; i < end; ++i) ++counts[rows_of_class[generator.below(size)]];
  }
  return true;
}

// `replicates` bootstrap values of `metric` over the table given by
// per-row counts. Replicates are handed out one at a time; once `interrupt`
// is requested the threads stop and the values are unspecified.
inline std::vector<double> bootstrap(const double* scores, const int64_t* positive, const int64_t* negative,
                                     int64_t rows, const TableMetric& metric, int64_t replicates, uint64_t seed,
                                     int n_threads, const Interrupt& interrupt = Interrupt::never()) {
  // The row of every positive and of every negative sample.
  std::vector<int64_t> positive_rows, negative_rows;
  for (int64_t r = 0; r < rows; ++r) {
    positive_rows.insert(positive_rows.end(), positive[r], r);
    negative_rows.insert(negative_rows.end(), negative[r], r);
  }
  std::vector<double> values(replicates);
  std::atomic<int64_t> next{0};
  parallel_region(replicates > 1 ? n_threads : 1, [&](int, int) {
    std::vector<int64_t> drawn_positive(rows), drawn_negative(rows);
    for (int64_t replicate = next.fetch_add(1); replicate < replicates; replicate = next.fetch_add(1)) {
      SplitMix64 generator(seed ^ (0xD1B54A32D192ED03ULL * static_cast<uint64_t>(replicate + 1)));
      std::fill(drawn_positive.begin(), drawn_positive.end(), 0);
      std::fill(drawn_negative.begin(), drawn_negative.end(), 0);
      if (!draw_counts(positive_rows, static_cast<int64_t>(positive_rows.size()), generator, drawn_positive.data(),
                       interrupt) ||
          !draw_counts(negative_rows, static_cast<int64_t>(negative_rows.size()), generator, drawn_negative.data(),
                       interrupt))
        return;
      values[replicate] = metric(CountTable(scores, drawn_positive.data(), drawn_negative.data(), rows, 1));
    }
  });
  return values;
}

}  // namespace turbometrics::ranking
