// Ranking kernels: build the sorted score table without holding the GIL,
// then run one sweep over it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "numpy_views.hpp"
#include "turbometrics/ranking/score_table.hpp"
#include "turbometrics/ranking/sweeps.hpp"

namespace py = pybind11;
using namespace turbometrics;
using bindings::view_1d;

namespace {

template <class Score>
ranking::RankingInput<Score> make_input(const py::array& y_score, const py::array& is_positive,
                                        const std::optional<py::array>& weight) {
  const auto scores = view_1d(y_score, "y_score");
  const auto labels = view_1d(is_positive, "y_true");
  ranking::RankingInput<Score> input;
  input.score = scores.data;
  input.score_stride = scores.stride;
  input.is_positive = labels.data;
  input.label_stride = labels.stride;
  input.size = scores.size;
  if (labels.size != scores.size) throw std::invalid_argument("y_true and y_score differ in length");
  if (weight) {
    const auto weights = view_1d(*weight, "sample_weight");
    if (weights.size != scores.size) throw std::invalid_argument("sample_weight and y_score differ in length");
    input.weight = weights.data;
    input.weight_stride = weights.stride;
  }
  return input;
}

// Builds the table for the array's dtype and weighting, then calls
// sweep(table) with the GIL held; the sweep releases it while it runs.
template <class Sweep>
py::object with_table(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                      int n_threads, Sweep&& sweep) {
  return bindings::visit_score_dtype(y_score, [&](auto score_tag) -> py::object {
    using Score = decltype(score_tag);
    const auto input = make_input<Score>(y_score, is_positive, weight);
    auto build = [&](auto weighted_tag) -> py::object {
      constexpr bool weighted = decltype(weighted_tag)::value;
      std::unique_ptr<ranking::SortedScores<Score, weighted>> table;
      {
        py::gil_scoped_release release;
        table = std::make_unique<ranking::SortedScores<Score, weighted>>(input, n_threads);
      }
      return sweep(*table);
    };
    if (weight) return build(std::true_type{});
    return build(std::false_type{});
  });
}

py::object roc_auc(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                   std::optional<double> max_fpr, int n_threads) {
  return with_table(y_score, is_positive, weight, n_threads, [&](const auto& table) -> py::object {
    using Table = std::decay_t<decltype(table)>;
    using Weight = typename Table::Weight;
    double value;
    Weight positives, negatives;
    {
      py::gil_scoped_release release;
      std::tie(positives, negatives) = table.totals();
      if (max_fpr) {
        ranking::PartialRocAreaSweep<Weight> sweep(positives, negatives, *max_fpr);
        table.for_each_row(sweep);
        value = sweep.value();
      } else {
        ranking::RocAucSweep<Weight> sweep(positives, negatives);
        table.for_each_row(sweep);
        value = sweep.value();
      }
    }
    return py::make_tuple(value, positives, negatives);
  });
}

py::object average_precision(const py::array& y_score, const py::array& is_positive,
                             const std::optional<py::array>& weight, int n_threads) {
  return with_table(y_score, is_positive, weight, n_threads, [&](const auto& table) -> py::object {
    using Weight = typename std::decay_t<decltype(table)>::Weight;
    double value;
    Weight positives, negatives;
    {
      py::gil_scoped_release release;
      std::tie(positives, negatives) = table.totals();
      ranking::AveragePrecisionSweep<Weight> sweep(positives);
      table.for_each_row(sweep);
      value = sweep.value();
    }
    return py::make_tuple(value, positives, negatives);
  });
}

py::object roc_curve(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                     bool drop_intermediate, int n_threads) {
  return with_table(y_score, is_positive, weight, n_threads, [&](const auto& table) -> py::object {
    using Table = std::decay_t<decltype(table)>;
    using Score = typename Table::ScoreType;
    using Weight = typename Table::Weight;
    int64_t rows;
    Weight positives, negatives;
    {
      py::gil_scoped_release release;
      rows = table.distinct_count(n_threads);
      std::tie(positives, negatives) = table.totals();
    }
    py::array_t<double> fpr(rows + 1), tpr(rows + 1), thresholds(rows + 1);
    int64_t points;
    {
      double* fpr_out = fpr.mutable_data();
      double* tpr_out = tpr.mutable_data();
      double* thresholds_out = thresholds.mutable_data();
      py::gil_scoped_release release;
      points = ranking::roc_curve_points<Score, Weight>(table, rows, drop_intermediate, positives, negatives,
                                                        fpr_out, tpr_out, thresholds_out);
    }
    return py::make_tuple(bindings::leading(fpr, points), bindings::leading(tpr, points),
                          bindings::leading(thresholds, points), positives, negatives);
  });
}

py::object precision_recall_curve(const py::array& y_score, const py::array& is_positive,
                                  const std::optional<py::array>& weight, bool drop_intermediate, int n_threads) {
  return with_table(y_score, is_positive, weight, n_threads, [&](const auto& table) -> py::object {
    using Table = std::decay_t<decltype(table)>;
    using Score = typename Table::ScoreType;
    using Weight = typename Table::Weight;
    int64_t rows;
    Weight positives, negatives;
    {
      py::gil_scoped_release release;
      rows = table.distinct_count(n_threads);
      std::tie(positives, negatives) = table.totals();
    }
    py::array_t<double> precision(rows + 1), recall(rows + 1);
    py::array_t<Score> thresholds(rows);
    int64_t first;
    {
      double* precision_out = precision.mutable_data();
      double* recall_out = recall.mutable_data();
      Score* thresholds_out = thresholds.mutable_data();
      py::gil_scoped_release release;
      first = ranking::precision_recall_points<Score, Weight>(table, rows, drop_intermediate, positives,
                                                              precision_out, recall_out, thresholds_out);
    }
    return py::make_tuple(bindings::trailing(precision, rows + 1 - first), bindings::trailing(recall, rows + 1 - first),
                          bindings::trailing(thresholds, rows - first), positives, negatives);
  });
}

py::object det_curve(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                     bool drop_intermediate, int n_threads) {
  return with_table(y_score, is_positive, weight, n_threads, [&](const auto& table) -> py::object {
    using Table = std::decay_t<decltype(table)>;
    using Score = typename Table::ScoreType;
    using Weight = typename Table::Weight;
    int64_t rows;
    {
      py::gil_scoped_release release;
      rows = table.distinct_count(n_threads);
    }
    py::array_t<double> negative(rows + 1), positive(rows + 1), thresholds(rows + 1);
    int64_t points;
    {
      double* negative_out = negative.mutable_data();
      double* positive_out = positive.mutable_data();
      double* thresholds_out = thresholds.mutable_data();
      py::gil_scoped_release release;
      points = ranking::det_points<Score, Weight>(table, rows, drop_intermediate, negative_out, positive_out,
                                                  thresholds_out);
    }
    return py::make_tuple(bindings::leading(negative, points), bindings::leading(positive, points),
                          bindings::leading(thresholds, points));
  });
}

py::object score_table(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                       int n_threads) {
  return with_table(y_score, is_positive, weight, n_threads, [&](const auto& table) -> py::object {
    using Table = std::decay_t<decltype(table)>;
    using Score = typename Table::ScoreType;
    using Weight = typename Table::Weight;
    int64_t rows;
    {
      py::gil_scoped_release release;
      rows = table.distinct_count(n_threads);
    }
    py::array_t<Score> scores(rows);
    py::array_t<Weight> positive(rows), negative(rows);
    {
      Score* scores_out = scores.mutable_data();
      Weight* positive_out = positive.mutable_data();
      Weight* negative_out = negative.mutable_data();
      py::gil_scoped_release release;
      ranking::materialize_table<Score, Weight>(table, scores_out, positive_out, negative_out);
    }
    return py::make_tuple(scores, positive, negative);
  });
}

}  // namespace

void register_ranking(py::module_& m) {
  m.def("roc_auc", &roc_auc, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"),
        py::arg("max_fpr"), py::arg("n_threads"));
  m.def("average_precision", &average_precision, py::arg("y_score"), py::arg("is_positive"),
        py::arg("sample_weight"), py::arg("n_threads"));
  m.def("roc_curve", &roc_curve, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"),
        py::arg("drop_intermediate"), py::arg("n_threads"));
  m.def("precision_recall_curve", &precision_recall_curve, py::arg("y_score"), py::arg("is_positive"),
        py::arg("sample_weight"), py::arg("drop_intermediate"), py::arg("n_threads"));
  m.def("det_curve", &det_curve, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"),
        py::arg("drop_intermediate"), py::arg("n_threads"));
  m.def("score_table", &score_table, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"),
        py::arg("n_threads"),
        "Distinct scores in descending order with cumulative positive and negative weight at each.");
}
