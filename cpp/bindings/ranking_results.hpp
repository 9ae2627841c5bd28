// Results of the ranking sweeps as Python objects, for any table type (the
// sorted input table or a state's array table): each runs its sweep
// without the GIL and returns NumPy arrays and Python numbers.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "numpy_views.hpp"
#include "turbometrics/buffer.hpp"
#include "turbometrics/ranking/curves.hpp"
#include "turbometrics/ranking/delong.hpp"
#include "turbometrics/ranking/sweeps.hpp"
#include "turbometrics/ranking/thresholds.hpp"

namespace turbometrics::bindings {

// Faults in the pages of new output columns (see prefault_huge_pages);
// called without the GIL, on pointers taken with it.
template <class... T>
inline void prefault_columns(int64_t size, int n_threads, T*... columns) {
  (prefault_huge_pages(columns, sizeof(T) * static_cast<size_t>(size), n_threads), ...);
}

// (fpr, tpr, thresholds (float64, +inf first), total positive, total negative).
template <class Table>
py::object roc_curve_of(const Table& table, bool drop_intermediate, int n_threads) {
  std::optional<ranking::RocPoints<Table>> curve;
  {
    py::gil_scoped_release release;
    curve.emplace(table, drop_intermediate, n_threads);
  }
  const int64_t capacity = curve->capacity();
  py::array_t<double> fpr(capacity), tpr(capacity), thresholds(capacity);
  double* fpr_out = fpr.mutable_data();
  double* tpr_out = tpr.mutable_data();
  double* thresholds_out = thresholds.mutable_data();
  int64_t points;
  {
    py::gil_scoped_release release;
    prefault_columns(capacity, n_threads, fpr_out, tpr_out, thresholds_out);
    points = curve->write(fpr_out, tpr_out, thresholds_out, n_threads);
  }
  return py::make_tuple(bindings::leading_part(fpr, points), bindings::leading_part(tpr, points),
                        bindings::leading_part(thresholds, points), table.total_positive(), table.total_negative());
}

// (precision, recall, thresholds (the table's score type), total positive, total negative),
// by increasing threshold.
template <class Table>
py::object precision_recall_curve_of(const Table& table, bool drop_intermediate, int n_threads) {
  using Score = typename Table::ScoreType;
  std::optional<ranking::KeptRows<Table, ranking::PositiveChangeCorner>> kept;
  {
    py::gil_scoped_release release;
    kept.emplace(table, drop_intermediate, ranking::PositiveChangeCorner{}, std::nullopt, n_threads);
  }
  const int64_t points = kept->size();
  py::array_t<double> precision(points + 1), recall(points + 1);
  py::array_t<Score> thresholds(points);
  double* precision_out = precision.mutable_data();
  double* recall_out = recall.mutable_data();
  Score* thresholds_out = thresholds.mutable_data();
  {
    py::gil_scoped_release release;
    prefault_columns(points, n_threads, precision_out, recall_out, thresholds_out);
    ranking::write_precision_recall_points(table, *kept, precision_out, recall_out, thresholds_out, n_threads);
  }
  return py::make_tuple(precision, recall, thresholds, table.total_positive(), table.total_negative());
}

// (area, total positive, total negative) as roc_auc_score computes the
// area: np.trapezoid over roc_curve's points (drop_intermediate), cut at
// max_fpr when set, which `area()` computes (ranking::roc_auc_area or
// roc_auc_area_spending); NaN unless both totals are positive (the caller
// then follows scikit-learn on the curve).
template <class Table, class Area>
py::object sklearn_roc_auc_of(const Table& table, Area&& area) {
  double value = std::numeric_limits<double>::quiet_NaN();
  {
    py::gil_scoped_release release;
    if (table.total_positive() > 0 && table.total_negative() > 0) value = area();
  }
  return py::make_tuple(value, table.total_positive(), table.total_negative());
}

// (average precision, total positive, total negative) as
// average_precision_score computes it from precision_recall_curve.
template <class Table>
py::object sklearn_average_precision_of(const Table& table, int n_threads) {
  double value;
  {
    py::gil_scoped_release release;
    value = ranking::average_precision_area(table, n_threads);
  }
  return py::make_tuple(value, table.total_positive(), table.total_negative());
}

inline ranking::DecisionMetric decision_metric(const std::string& name) {
  if (name == "fbeta") return ranking::DecisionMetric::f_beta;
  if (name == "youden") return ranking::DecisionMetric::youden;
  if (name == "accuracy") return ranking::DecisionMetric::accuracy;
  if (name == "balanced_accuracy") return ranking::DecisionMetric::balanced_accuracy;
  if (name == "mcc") return ranking::DecisionMetric::mcc;
  throw std::invalid_argument("unknown decision metric: " + name);
}

// The best threshold of `metric` and the confusion at it, as a dict.
template <class Table>
py::object best_threshold_of(const Table& table, ranking::DecisionMetric chosen, double beta, int n_threads) {
  ranking::BestThreshold best;
  {
    py::gil_scoped_release release;
    best = ranking::best_threshold(table, chosen, beta, n_threads);
  }
  const auto& c = best.confusion;
  py::dict result;
  result["threshold"] = best.threshold;
  result["value"] = best.value;
  result["precision"] = c.precision();
  result["recall"] = c.tpr();
  result["tpr"] = c.tpr();
  result["fpr"] = c.fpr();
  result["tp"] = c.tp;
  result["fp"] = c.fp;
  result["tn"] = c.tn;
  result["fn"] = c.fn;
  return result;
}

// (AUC, DeLong's variance of it, total positive, total negative) of an
// unweighted table.
template <class Table>
py::object roc_auc_delong_of(const Table& table, int n_threads) {
  double auc, variance;
  {
    py::gil_scoped_release release;
    auc = ranking::roc_auc(table, n_threads);
    variance = ranking::delong_variance(table, auc, n_threads);
  }
  return py::make_tuple(auc, variance, table.total_positive(), table.total_negative());
}

}  // namespace turbometrics::bindings
