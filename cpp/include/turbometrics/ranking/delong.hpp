// DeLong's variance of the ROC AUC from the score table (Sun and Xu, 2014).
// A positive's structural component is the share of negatives it
// outranks, ties counting one half; a negative's is the share of positives
// that outrank it. All samples of one class at one distinct score share it,
// so the components and their variances are one pass over the rows.
#pragma once

#include <cstdint>
#include <vector>

#include "turbometrics/parallel.hpp"
#include "turbometrics/ranking/sweeps.hpp"

namespace turbometrics::ranking {

struct StructuralComponents {
  double of_positive;  // V10 of a positive sample at the row
  double of_negative;  // V01 of a negative sample at the row
};

// Components at a row, given the cumulative counts of the previous row.
template <class Table, class Row>
StructuralComponents structural_components(const Table& table, double previous_positive, double previous_negative,
                                           const Row& row) {
  const double positives = static_cast<double>(table.total_positive());
  const double negatives = static_cast<double>(table.total_negative());
  const double positive = static_cast<double>(row.positive), negative = static_cast<double>(row.negative);
  return {(negatives - 0.5 * (negative + previous_negative)) / negatives,
          0.5 * (positive + previous_positive) / positives};
}

// Calls visit(row, components, positives_at_row, negatives_at_row) for the
// rows of block b.
template <class Table, class Visit>
void for_each_component_of_block(const Table& table, int64_t b, Visit&& visit) {
  double previous_positive = static_cast<double>(table.entry_positive(b));
  double previous_negative = static_cast<double>(table.entry_negative(b));
  table.for_each_row_of_block(b, [&](const auto& row) {
    const double positive = static_cast<double>(row.positive), negative = static_cast<double>(row.negative);
    visit(row, structural_components(table, previous_positive, previous_negative, row), positive - previous_positive,
          negative - previous_negative);
    previous_positive = positive;
    previous_negative = negative;
  });
}

// DeLong's variance of the AUC: S10 / P + S01 / N with S10 and S01 the
// sample variances (ddof 1) of the positives' and negatives' components
// around `auc`.
template <class Table>
double delong_variance(const Table& table, double auc, int n_threads) {
  struct Sums {
    double positive = 0.0, negative = 0.0;
  };
  const auto parts = sweep_blocks(table, n_threads, [&](int64_t b) {
    CompensatedSum positive, negative;
    for_each_component_of_block(
        table, b, [&](const auto&, const StructuralComponents& v, double at_positive, double at_negative) {
          positive.add(at_positive * (v.of_positive - auc) * (v.of_positive - auc));
          negative.add(at_negative * (v.of_negative - auc) * (v.of_negative - auc));
        });
    return Sums{positive.value(), negative.value()};
  });
  std::vector<double> positive_parts, negative_parts;
  for (const Sums& part : parts) {
    positive_parts.push_back(part.positive);
    negative_parts.push_back(part.negative);
  }
  const double positives = static_cast<double>(table.total_positive());
  const double negatives = static_cast<double>(table.total_negative());
  return sum_in_order(positive_parts) / (positives - 1.0) / positives +
         sum_in_order(negative_parts) / (negatives - 1.0) / negatives;
}

}  // namespace turbometrics::ranking
