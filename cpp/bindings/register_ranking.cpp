// Ranking kernels: build the sorted score table without holding the GIL,
// then run one sweep over it.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "numpy_views.hpp"
#include "python_interrupt.hpp"
#include "ranking_results.hpp"
#include "ranking_table_builds.hpp"
#include "turbometrics/ranking/bootstrap.hpp"
#include "turbometrics/ranking/delong.hpp"
#include "turbometrics/ranking/score_table.hpp"
#include "turbometrics/ranking/sweeps.hpp"
#include "turbometrics/ranking/thresholds.hpp"

namespace py = pybind11;
using namespace turbometrics;
using bindings::prefault_columns;
using bindings::view_1d;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace ranking_glue {

template <class Score, class Stored>
ranking::RankingInput<Score, Stored> make_input(const py::array& y_score, const py::array& is_positive,
                                                const std::optional<py::array>& weight) {
  const auto scores = view_1d(y_score, "y_score");
  const auto labels = view_1d(is_positive, "y_true");
  ranking::RankingInput<Score, Stored> input;
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

// How the bindings build unweighted tables: automatic, except while a test
// asks for sorting (_set_table_strategy, a test hook).
std::atomic<ranking::TableStrategy>& test_table_strategy() {
  static std::atomic<ranking::TableStrategy> strategy{ranking::TableStrategy::automatic};
  return strategy;
}

// Raised when the input holds values scikit-learn's validation rejects;
// Python turns it into scikit-learn's error (turbometrics.ranking._binary_input).
// (A strong reference kept for the life of the process, never released.)
PyObject*& invalid_values_error() {
  static PyObject* error = nullptr;  // set once, when the module is registered
  return error;
}

void raise_value_problems(const ranking::ValueProblems& problems) {
  if (!problems.any()) return;
  PyErr_SetObject(invalid_values_error(),
                  py::make_tuple(problems.scores, problems.weights, problems.all_weights_zero).ptr());
  throw py::error_already_set();
}

// Builds the table for the array's dtype and weighting (interruptible:
// KeyboardInterrupt on Ctrl-C), then calls sweep(table) with the GIL held;
// the sweep releases it while it runs.
template <class Sweep>
py::object with_table(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                      int n_threads, Sweep&& sweep, int checks = ranking::check_nothing) {
  return bindings::visit_score_dtype(y_score, [&](auto score_tag, auto stored_tag) -> py::object {
    using Score = decltype(score_tag);
    const auto input = make_input<Score, decltype(stored_tag)>(y_score, is_positive, weight);
    auto build = [&](auto weighted_tag) -> py::object {
      constexpr bool weighted = decltype(weighted_tag)::value;
      const auto table = bindings::interruptible([&](const Interrupt& interrupt) {
        return bindings::build_score_table<Score, decltype(stored_tag), weighted>(input, n_threads, checks, interrupt,
                                                                                  test_table_strategy().load());
      });
      raise_value_problems(table->problems());
      return sweep(*table);
    };
    if (weight) return build(std::true_type{});
    return build(std::false_type{});
  });
}

py::object roc_auc(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                   std::optional<double> max_fpr, int n_threads, int check_values) {
  return with_table(
      y_score, is_positive, weight, n_threads,
      [&](auto& table) {
        // The table's last use: the area's terms take its memory.
        return bindings::sklearn_roc_auc_of(table,
                                            [&] { return ranking::roc_auc_area_spending(table, max_fpr, n_threads); });
      },
      check_values);
}

py::object average_precision(const py::array& y_score, const py::array& is_positive,
                             const std::optional<py::array>& weight, int n_threads, int check_values) {
  return with_table(
      y_score, is_positive, weight, n_threads,
      [&](const auto& table) { return bindings::sklearn_average_precision_of(table, n_threads); }, check_values);
}

py::object roc_curve(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                     bool drop_intermediate, int n_threads, int check_values) {
  return with_table(
      y_score, is_positive, weight, n_threads,
      [&](const auto& table) { return bindings::roc_curve_of(table, drop_intermediate, n_threads); }, check_values);
}

py::object precision_recall_curve(const py::array& y_score, const py::array& is_positive,
                                  const std::optional<py::array>& weight, bool drop_intermediate, int n_threads,
                                  int check_values) {
  return bindings::with_scores_in_dtype_of(
      y_score,
      with_table(
          y_score, is_positive, weight, n_threads,
          [&](const auto& table) { return bindings::precision_recall_curve_of(table, drop_intermediate, n_threads); },
          check_values),
      2);
}

py::object det_curve(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                     bool drop_intermediate, int n_threads, int check_values) {
  return with_table(
      y_score, is_positive, weight, n_threads,
      [&](const auto& table) -> py::object {
        using Table = std::decay_t<decltype(table)>;
        using TableRow = typename Table::TableRow;
        std::optional<ranking::KeptRows<Table, ranking::PositiveChangeCorner>> kept;
        {
          py::gil_scoped_release release;
          // The point at +inf (no sample predicted positive) comes first.
          kept.emplace(table, drop_intermediate, ranking::PositiveChangeCorner{}, TableRow{}, n_threads);
        }
        const int64_t points = kept->size();
        py::array_t<double> negative(points), positive(points), thresholds(points);
        double* negative_out = negative.mutable_data();
        double* positive_out = positive.mutable_data();
        double* thresholds_out = thresholds.mutable_data();
        {
          py::gil_scoped_release release;
          prefault_columns(points, n_threads, negative_out, positive_out, thresholds_out);
          negative_out[0] = 0.0;
          positive_out[0] = 0.0;
          thresholds_out[0] = std::numeric_limits<double>::infinity();
          ranking::write_kept_rows(table, *kept, n_threads, [&](int64_t i, const auto& row) {
            negative_out[i] = static_cast<double>(row.negative);
            positive_out[i] = static_cast<double>(row.positive);
            thresholds_out[i] = static_cast<double>(row.score);
          });
        }
        return py::make_tuple(negative, positive, thresholds);
      },
      check_values);
}

py::object score_table(const py::array& y_score, const py::array& is_positive, const std::optional<py::array>& weight,
                       int n_threads, int check_values, bool per_row) {
  py::object columns = with_table(
      y_score, is_positive, weight, n_threads,
      [&](const auto& table) -> py::object {
        using Table = std::decay_t<decltype(table)>;
        using Score = typename Table::ScoreType;
        using Weight = typename Table::Weight;
        const int64_t rows = table.row_count();
        py::array_t<Score> scores(rows);
        py::array_t<Weight> positive(rows), negative(rows);
        Score* scores_out = scores.mutable_data();
        Weight* positive_out = positive.mutable_data();
        Weight* negative_out = negative.mutable_data();
        {
          py::gil_scoped_release release;
          prefault_columns(rows, n_threads, scores_out, positive_out, negative_out);
          parallel_for_dynamic(table.block_count(), n_threads, [&](int64_t b) {
            int64_t i = table.entry_row(b);
            // Per row: the difference from the previous row's cumulative weight.
            Weight positive_before = per_row ? table.entry_positive(b) : Weight{0};
            Weight negative_before = per_row ? table.entry_negative(b) : Weight{0};
            table.for_each_row_of_block(b, [&](const auto& row) {
              scores_out[i] = row.score;
              positive_out[i] = row.positive - positive_before;
              negative_out[i] = row.negative - negative_before;
              if (per_row) {
                positive_before = row.positive;
                negative_before = row.negative;
              }
              ++i;
            });
          });
        }
        return py::make_tuple(scores, positive, negative);
      },
      check_values);
  return bindings::with_scores_in_dtype_of(y_score, columns, 0);
}

py::object roc_auc_delong(const py::array& y_score, const py::array& is_positive, int n_threads) {
  return with_table(y_score, is_positive, std::nullopt, n_threads,
                    [&](const auto& table) { return bindings::roc_auc_delong_of(table, n_threads); });
}

py::object delong_components(const py::array& y_score, const py::array& is_positive, int n_threads) {
  return with_table(y_score, is_positive, std::nullopt, n_threads, [&](const auto& table) -> py::object {
    const int64_t rows = table.row_count();
    py::array_t<double> scores(rows), of_positive(rows), of_negative(rows);
    double* scores_out = scores.mutable_data();
    double* positive_out = of_positive.mutable_data();
    double* negative_out = of_negative.mutable_data();
    {
      py::gil_scoped_release release;
      parallel_for_dynamic(table.block_count(), n_threads, [&](int64_t b) {
        int64_t i = table.entry_row(b);
        ranking::for_each_component_of_block(
            table, b, [&](const auto& row, const ranking::StructuralComponents& v, double, double) {
              scores_out[i] = static_cast<double>(row.score);
              positive_out[i] = v.of_positive;
              negative_out[i] = v.of_negative;
              ++i;
            });
      });
    }
    return py::make_tuple(scores, of_positive, of_negative, table.total_positive(), table.total_negative());
  });
}

py::object best_threshold(const py::array& y_score, const py::array& is_positive,
                          const std::optional<py::array>& weight, const std::string& metric, double beta,
                          int n_threads) {
  const auto chosen = bindings::decision_metric(metric);
  return with_table(y_score, is_positive, weight, n_threads,
                    [&](const auto& table) { return bindings::best_threshold_of(table, chosen, beta, n_threads); });
}

py::object metrics_at_thresholds(const py::array& y_score, const py::array& is_positive,
                                 const std::optional<py::array>& weight, double beta, int n_threads) {
  return with_table(y_score, is_positive, weight, n_threads, [&](const auto& table) -> py::object {
    const int64_t rows = table.row_count();
    const char* names[] = {"thresholds", "tp", "fp", "tn", "fn", "precision", "recall", "fbeta", "fpr"};
    py::dict result;
    std::vector<double*> columns;
    for (const char* name : names) {
      py::array_t<double> column(rows);
      columns.push_back(column.mutable_data());
      result[name] = column;
    }
    {
      py::gil_scoped_release release;
      const ranking::ThresholdColumns out{columns[0], columns[1], columns[2], columns[3], columns[4],
                                          columns[5], columns[6], columns[7], columns[8]};
      ranking::metrics_at_thresholds(table, beta, out, n_threads);
    }
    return result;
  });
}

using DoubleColumn = py::array_t<double, py::array::c_style | py::array::forcecast>;
using CountColumn = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

ranking::TableMetric table_metric_named(const std::string& metric, double beta, double cutoff) {
  ranking::TableMetric table_metric{ranking::BootstrapMetric::decision};
  if (metric == "roc_auc") {
    table_metric.kind = ranking::BootstrapMetric::roc_auc;
  } else if (metric == "average_precision") {
    table_metric.kind = ranking::BootstrapMetric::average_precision;
  } else {
    table_metric.decision = bindings::decision_metric(metric);
    table_metric.beta = beta;
    table_metric.cutoff = cutoff;
  }
  return table_metric;
}

double table_metric(const DoubleColumn& scores, const CountColumn& positive, const CountColumn& negative,
                    const std::string& metric, double beta, double cutoff) {
  const int64_t rows = scores.shape(0);
  if (positive.shape(0) != rows || negative.shape(0) != rows) throw std::invalid_argument("table columns differ");
  const auto evaluate = table_metric_named(metric, beta, cutoff);
  return evaluate(ranking::CountTable(scores.data(), positive.data(), negative.data(), rows, 1));
}

py::array_t<double> bootstrap_table_metric(const DoubleColumn& scores, const CountColumn& positive,
                                           const CountColumn& negative, const std::string& metric, double beta,
                                           double cutoff, int64_t replicates, uint64_t seed, int n_threads) {
  const int64_t rows = scores.shape(0);
  if (positive.shape(0) != rows || negative.shape(0) != rows) throw std::invalid_argument("table columns differ");
  const auto table_metric = table_metric_named(metric, beta, cutoff);
  const std::vector<double> values = bindings::interruptible([&](const Interrupt& interrupt) {
    return ranking::bootstrap(scores.data(), positive.data(), negative.data(), rows, table_metric, replicates, seed,
                              n_threads, interrupt);
  });
  py::array_t<double> out(replicates);
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

}  // namespace ranking_glue
}  // namespace

void register_ranking(py::module_& m) {
  using namespace ranking_glue;
  const std::string error_name = py::str(m.attr("__name__")).cast<std::string>() + ".InvalidInputValues";
  invalid_values_error() = PyErr_NewExceptionWithDoc(
      error_name.c_str(),
      "Input values scikit-learn rejects: args are (score status, weight status, all weights zero); a status "
      "is 0 (finite), 1 (NaN) or 2 (infinity, no NaN).",
      PyExc_ValueError, nullptr);
  if (!invalid_values_error()) throw py::error_already_set();
  m.attr("InvalidInputValues") = py::reinterpret_borrow<py::object>(invalid_values_error());
  m.def(
      "_set_table_strategy",
      [](const std::string& name) {
        using ranking::TableStrategy;
        if (name != "automatic" && name != "always_sort") throw std::invalid_argument("unknown strategy: " + name);
        const TableStrategy previous =
            test_table_strategy().exchange(name == "automatic" ? TableStrategy::automatic : TableStrategy::always_sort);
        return std::string(previous == TableStrategy::automatic ? "automatic" : "always_sort");
      },
      py::arg("name"),
      "Testing only: 'automatic' (count unweighted input with few distinct scores) or 'always_sort'. Returns "
      "the previous strategy.");
  m.def("roc_auc", &roc_auc, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"), py::arg("max_fpr"),
        py::arg("n_threads"), py::arg("check_values") = 0);
  m.def("average_precision", &average_precision, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"),
        py::arg("n_threads"), py::arg("check_values") = 0);
  m.def("roc_curve", &roc_curve, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"),
        py::arg("drop_intermediate"), py::arg("n_threads"), py::arg("check_values") = 0);
  m.def("precision_recall_curve", &precision_recall_curve, py::arg("y_score"), py::arg("is_positive"),
        py::arg("sample_weight"), py::arg("drop_intermediate"), py::arg("n_threads"), py::arg("check_values") = 0);
  m.def("det_curve", &det_curve, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"),
        py::arg("drop_intermediate"), py::arg("n_threads"), py::arg("check_values") = 0);
  m.def("best_threshold", &best_threshold, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"),
        py::arg("metric"), py::arg("beta"), py::arg("n_threads"));
  m.def("metrics_at_thresholds", &metrics_at_thresholds, py::arg("y_score"), py::arg("is_positive"),
        py::arg("sample_weight"), py::arg("beta"), py::arg("n_threads"));
  m.def("bootstrap_table_metric", &bootstrap_table_metric, py::arg("scores"), py::arg("positive"), py::arg("negative"),
        py::arg("metric"), py::arg("beta"), py::arg("cutoff"), py::arg("replicates"), py::arg("seed"),
        py::arg("n_threads"), "Stratified bootstrap replicates of a metric of the table given by per-row counts.");
  m.def("table_metric", &table_metric, py::arg("scores"), py::arg("positive"), py::arg("negative"), py::arg("metric"),
        py::arg("beta"), py::arg("cutoff"), "A metric of the table given by per-row counts.");
  m.def("roc_auc_delong", &roc_auc_delong, py::arg("y_score"), py::arg("is_positive"), py::arg("n_threads"),
        "ROC AUC, DeLong's variance of it, and the class totals.");
  m.def("delong_components", &delong_components, py::arg("y_score"), py::arg("is_positive"), py::arg("n_threads"),
        "Distinct scores (float64, decreasing) with DeLong's structural components of a positive and of a "
        "negative at each, and the class totals.");
  m.def("score_table", &score_table, py::arg("y_score"), py::arg("is_positive"), py::arg("sample_weight"),
        py::arg("n_threads"), py::arg("check_values") = 0, py::arg("per_row") = false,
        "Distinct scores in descending order with the positive and negative weight at or above each (cumulative), "
        "or, with per_row, at each.");
}
