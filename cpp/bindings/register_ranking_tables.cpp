// Kernels of the streaming ranking state (turbometrics.states.RankingState):
// every metric is the usual sweep over the state's table, read in place from
// its arrays (distinct scores descending, per-row int64 counts or float64
// weights); merging is a linear merge of two tables.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "exact_sum_objects.hpp"
#include "numpy_views.hpp"
#include "ranking_results.hpp"
#include "turbometrics/exact_sum.hpp"
#include "turbometrics/ranking/array_table.hpp"
#include "turbometrics/ranking/table_merge.hpp"

namespace py = pybind11;
using namespace turbometrics;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace ranking_tables_glue {

// A contiguous 1-D array's data, checked to be of type T.
template <class T>
const T* column_data(const py::array& array, int64_t rows, const char* name) {
  if (array.ndim() != 1 || array.shape(0) != rows) throw std::invalid_argument(std::string(name) + ": wrong shape");
  if (!py::isinstance<py::array_t<T>>(array) || !(array.flags() & py::array::c_style)) {
    throw std::invalid_argument(std::string(name) + ": wrong dtype or not contiguous");
  }
  return static_cast<const T*>(array.data());
}

// Calls f(scores, positive, negative, rows) with typed pointers for the
// table's score type and weight dtype (int64 counts or float64 weights).
// Scores of the narrower integers are read from an int64 copy, as ranking
// tables hold them (bindings::visit_score_dtype).
template <class F>
py::object visit_state_table(const py::array& scores, const py::array& positive, const py::array& negative, F&& f) {
  const int64_t rows = scores.ndim() == 1 ? scores.shape(0) : -1;
  const py::array table_scores = bindings::scores_in_table_type(scores);
  return bindings::visit_score_dtype(table_scores, [&](auto score_tag, auto) -> py::object {
    using Score = decltype(score_tag);
    const Score* score_data = column_data<Score>(table_scores, rows, "scores");
    auto typed = [&](auto weight_tag) -> py::object {
      using Weight = decltype(weight_tag);
      return f(score_data, column_data<Weight>(positive, rows, "positive"),
               column_data<Weight>(negative, rows, "negative"), rows);
    };
    if (positive.dtype().kind() == 'f') return typed(double{});
    return typed(int64_t{});
  });
}

// Calls f(table) with the state's table, offsets included, built without
// the GIL.
template <class F>
py::object with_state_table(const py::array& scores, const py::array& positive, const py::array& negative,
                            int n_threads, F&& f, const py::object& above_positive = py::int_(0),
                            const py::object& above_negative = py::int_(0)) {
  return visit_state_table(scores, positive, negative, [&](const auto* s, const auto* p, const auto* n, int64_t rows) {
    using Score = std::remove_cv_t<std::remove_pointer_t<decltype(s)>>;
    using Weight = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
    const Weight above_p = above_positive.cast<Weight>(), above_n = above_negative.cast<Weight>();
    std::optional<ranking::ArrayTable<Score, Weight>> table;
    {
      py::gil_scoped_release release;
      table.emplace(s, p, n, rows, n_threads, above_p, above_n);
    }
    return f(*table);
  });
}

py::object state_roc_auc(const py::array& scores, const py::array& positive, const py::array& negative,
                         std::optional<double> max_fpr, int n_threads) {
  return with_state_table(scores, positive, negative, n_threads, [&](const auto& table) {
    return bindings::sklearn_roc_auc_of(table, [&] { return ranking::roc_auc_area(table, max_fpr, n_threads); });
  });
}

py::object state_average_precision(const py::array& scores, const py::array& positive, const py::array& negative,
                                   int n_threads) {
  return with_state_table(scores, positive, negative, n_threads,
                          [&](const auto& table) { return bindings::sklearn_average_precision_of(table, n_threads); });
}

py::object state_roc_curve(const py::array& scores, const py::array& positive, const py::array& negative,
                           bool drop_intermediate, int n_threads) {
  return with_state_table(scores, positive, negative, n_threads, [&](const auto& table) {
    return bindings::roc_curve_of(table, drop_intermediate, n_threads);
  });
}

py::object state_precision_recall_curve(const py::array& scores, const py::array& positive, const py::array& negative,
                                        bool drop_intermediate, int n_threads) {
  return bindings::with_scores_in_dtype_of(
      scores,
      with_state_table(
          scores, positive, negative, n_threads,
          [&](const auto& table) { return bindings::precision_recall_curve_of(table, drop_intermediate, n_threads); }),
      2);
}

py::object state_best_threshold(const py::array& scores, const py::array& positive, const py::array& negative,
                                const std::string& metric, double beta, int n_threads) {
  const auto chosen = bindings::decision_metric(metric);
  return with_state_table(scores, positive, negative, n_threads, [&](const auto& table) {
    return bindings::best_threshold_of(table, chosen, beta, n_threads);
  });
}

py::object state_roc_auc_delong(const py::array& scores, const py::array& positive, const py::array& negative,
                                int n_threads) {
  return with_state_table(scores, positive, negative, n_threads,
                          [&](const auto& table) { return bindings::roc_auc_delong_of(table, n_threads); });
}

// An unsigned 128-bit count as a Python int.
py::object python_int(const ranking::WideCount& value) {
  const py::int_ high(high64(value)), low(low64(value));
  return (high.attr("__lshift__")(64)).attr("__or__")(low);
}

py::object state_roc_auc_part(const py::array& scores, const py::array& positive, const py::array& negative,
                              const py::object& above_positive, const py::object& above_negative, int n_threads) {
  return with_state_table(
      scores, positive, negative, n_threads,
      [&](const auto& table) -> py::object {
        using Weight = typename std::decay_t<decltype(table)>::Weight;
        std::conditional_t<std::is_integral_v<Weight>, ranking::WideCount, double> twice_area;
        {
          py::gil_scoped_release release;
          twice_area = ranking::twice_rank_area(table, n_threads);
        }
        if constexpr (std::is_integral_v<Weight>) {
          return python_int(twice_area);
        } else {
          return py::float_(twice_area);
        }
      },
      above_positive, above_negative);
}

py::object state_average_precision_part(const py::array& scores, const py::array& positive, const py::array& negative,
                                        const py::object& above_positive, const py::object& above_negative,
                                        double total_positive, int n_threads) {
  return with_state_table(
      scores, positive, negative, n_threads,
      [&](const auto& table) -> py::object {
        ExactSum sum;
        {
          py::gil_scoped_release release;
          sum = ranking::average_precision_terms(table, total_positive, n_threads);
        }
        return bindings::exact_sum_int(sum);
      },
      above_positive, above_negative);
}

py::object merge_state_tables(const py::array& scores_a, const py::array& positive_a, const py::array& negative_a,
                              const py::array& scores_b, const py::array& positive_b, const py::array& negative_b,
                              int n_threads) {
  if (!scores_a.dtype().equal(scores_b.dtype()) || !positive_a.dtype().equal(positive_b.dtype())) {
    throw std::invalid_argument("merged tables differ in dtype");
  }
  const py::array table_scores_b = bindings::scores_in_table_type(scores_b);
  const py::object merged = visit_state_table(
      scores_a, positive_a, negative_a,
      [&](const auto* sa, const auto* pa, const auto* na, int64_t rows_a) -> py::object {
        using Score = std::remove_cv_t<std::remove_pointer_t<decltype(sa)>>;
        using Weight = std::remove_cv_t<std::remove_pointer_t<decltype(pa)>>;
        const int64_t rows_b = table_scores_b.ndim() == 1 ? table_scores_b.shape(0) : -1;
        const Score* sb = column_data<Score>(table_scores_b, rows_b, "scores");
        const Weight* pb = column_data<Weight>(positive_b, rows_b, "positive");
        const Weight* nb = column_data<Weight>(negative_b, rows_b, "negative");
        py::array_t<Score> scores(rows_a + rows_b);
        py::array_t<Weight> positive(rows_a + rows_b), negative(rows_a + rows_b);
        Score* so = scores.mutable_data();
        Weight* po = positive.mutable_data();
        Weight* no = negative.mutable_data();
        int64_t rows;
        {
          py::gil_scoped_release release;
          rows = ranking::merge_tables_parallel(sa, pa, na, rows_a, sb, pb, nb, rows_b, so, po, no, n_threads);
        }
        return py::make_tuple(bindings::leading_part(scores, rows), bindings::leading_part(positive, rows),
                              bindings::leading_part(negative, rows));
      });
  return bindings::with_scores_in_dtype_of(scores_a, merged, 0);
}

}  // namespace ranking_tables_glue
}  // namespace

void register_ranking_tables(py::module_& m) {
  using namespace ranking_tables_glue;
  m.def("roc_auc", &state_roc_auc, py::arg("scores"), py::arg("positive"), py::arg("negative"), py::arg("max_fpr"),
        py::arg("n_threads"), "roc_auc over a state's table: (area, positives, negatives).");
  m.def("average_precision", &state_average_precision, py::arg("scores"), py::arg("positive"), py::arg("negative"),
        py::arg("n_threads"));
  m.def("roc_curve", &state_roc_curve, py::arg("scores"), py::arg("positive"), py::arg("negative"),
        py::arg("drop_intermediate"), py::arg("n_threads"));
  m.def("precision_recall_curve", &state_precision_recall_curve, py::arg("scores"), py::arg("positive"),
        py::arg("negative"), py::arg("drop_intermediate"), py::arg("n_threads"));
  m.def("best_threshold", &state_best_threshold, py::arg("scores"), py::arg("positive"), py::arg("negative"),
        py::arg("metric"), py::arg("beta"), py::arg("n_threads"));
  m.def("roc_auc_delong", &state_roc_auc_delong, py::arg("scores"), py::arg("positive"), py::arg("negative"),
        py::arg("n_threads"));
  m.def("roc_auc_part", &state_roc_auc_part, py::arg("scores"), py::arg("positive"), py::arg("negative"),
        py::arg("above_positive"), py::arg("above_negative"), py::arg("n_threads"),
        "Twice the rank-sum area of the rows given the weight above them: an exact int when unweighted.");
  m.def("average_precision_part", &state_average_precision_part, py::arg("scores"), py::arg("positive"),
        py::arg("negative"), py::arg("above_positive"), py::arg("above_negative"), py::arg("total_positive"),
        py::arg("n_threads"), "The exact sum of the rows' AP terms times 2**EXACT_SUM_SCALE_BITS, as an int.");
  m.def("merge_tables", &merge_state_tables, py::arg("scores_a"), py::arg("positive_a"), py::arg("negative_a"),
        py::arg("scores_b"), py::arg("positive_b"), py::arg("negative_b"), py::arg("n_threads"),
        "The table of two tables' data: a linear merge coalescing equal scores.");
}
