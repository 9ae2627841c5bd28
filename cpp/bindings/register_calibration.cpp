// Calibration kernels: the per-bin table (the area's one primitive) and
// row-wise Hellinger distances. Inputs are read in place through strided
// views; float32 stays float32. The GIL is released around every kernel.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "numpy_loops.hpp"
#include "numpy_views.hpp"
#include "turbometrics/calibration/bin_table.hpp"
#include "turbometrics/calibration/exact_bin_table.hpp"
#include "turbometrics/calibration/posterior.hpp"
#include "turbometrics/calibration/proper_scores.hpp"
#include "turbometrics/calibration/smooth.hpp"
#include "turbometrics/labels/encode.hpp"

namespace py = pybind11;
using namespace turbometrics;
using bindings::view_1d;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace calibration_glue {

template <class T>
calibration::Matrix<T> matrix_view(const py::array& array, const char* name) {
  calibration::Matrix<T> view;
  view.data = static_cast<const char*>(array.data());
  if (array.ndim() == 1) {
    view.rows = array.shape(0);
    view.cols = 1;
    view.row_stride = array.strides(0);
    view.col_stride = 0;
  } else if (array.ndim() == 2) {
    view.rows = array.shape(0);
    view.cols = array.shape(1);
    view.row_stride = array.strides(0);
    view.col_stride = array.strides(1);
  } else {
    throw std::invalid_argument(std::string(name) + " must be one- or two-dimensional");
  }
  return view;
}

// Calls f(T{}) for a float64 or float32 array.
template <class F>
decltype(auto) visit_float(const py::array& array, F&& f) {
  const py::dtype dtype = array.dtype();
  if (dtype.kind() == 'f' && dtype.itemsize() == 8) return f(double{});
  if (dtype.kind() == 'f' && dtype.itemsize() == 4) return f(float{});
  throw py::type_error("calibration kernels read float64 or float32 probabilities, got " + std::string(py::str(dtype)));
}

// Points a BinInput at y_true when given (a bool mask for binary mode, int64
// class indices otherwise) and at float64 sample weights when given.
void attach_labels_and_weights(calibration::BinInput& in, calibration::Mode mode, int64_t rows, const py::array* labels,
                               const std::optional<py::array>& weight) {
  if (labels) {
    const auto l = view_1d(*labels, "y_true");
    if (l.size != rows) throw std::invalid_argument("y_true and y_prob differ in length");
    const py::dtype dtype = labels->dtype();
    const bool mask = dtype.itemsize() == 1 && (dtype.kind() == 'b' || dtype.kind() == 'u');
    const bool index = dtype.kind() == 'i' && dtype.itemsize() == 8;
    if (mode == calibration::Mode::binary ? !mask : !index)
      throw py::type_error("y_true must be a bool mask (binary) or int64 class indices");
    in.label = l.data;
    in.label_stride = l.stride;
  }
  if (weight) {
    const auto w = view_1d(*weight, "sample_weight");
    if (w.size != rows) throw std::invalid_argument("sample_weight and y_prob differ in length");
    if (!(weight->dtype().kind() == 'f' && weight->dtype().itemsize() == 8))
      throw py::type_error("sample_weight must be float64");
    in.weight = w.data;
    in.weight_stride = w.stride;
  }
}

// The BinInput of a one-table mode (binary or top_label) over `view`.
template <class T>
calibration::BinInput one_table_input(const calibration::Matrix<T>& view, calibration::Mode mode,
                                      const py::array& labels, const std::optional<py::array>& weight) {
  if (mode == calibration::Mode::binary && view.cols != 1)
    throw std::invalid_argument("binary mode reads a 1-D y_prob");
  calibration::BinInput in;
  attach_labels_and_weights(in, mode, view.rows, &labels, weight);
  return in;
}

calibration::Mode parse_mode(const std::string& mode_name) {
  if (mode_name == "binary") return calibration::Mode::binary;
  if (mode_name == "top_label") return calibration::Mode::top_label;
  if (mode_name == "classwise") return calibration::Mode::classwise;
  throw std::invalid_argument("unknown calibration mode " + mode_name);
}

py::tuple bin_table(const py::array& prob, const std::string& mode_name, const std::optional<py::array>& labels,
                    const std::optional<py::array>& weight,
                    const py::array_t<double, py::array::c_style | py::array::forcecast>& edges, bool uniform,
                    int n_threads) {
  const calibration::Mode mode = parse_mode(mode_name);
  return visit_float(prob, [&](auto tag) -> py::tuple {
    using T = decltype(tag);
    const auto view = matrix_view<T>(prob, "y_prob");
    if (mode == calibration::Mode::binary && view.cols != 1)
      throw std::invalid_argument("binary mode reads a 1-D y_prob");
    calibration::BinInput in;
    attach_labels_and_weights(in, mode, view.rows, labels ? &*labels : nullptr, weight);
    const int64_t tables = mode == calibration::Mode::classwise ? view.cols : 1;
    if (edges.ndim() == 1) {
      in.n_bins = edges.shape(0) - 1;
      in.edges_per_table = false;
    } else if (edges.ndim() == 2 && edges.shape(0) == tables) {
      in.n_bins = edges.shape(1) - 1;
      in.edges_per_table = true;
    } else {
      throw std::invalid_argument("edges must be 1-D or one row per table");
    }
    if (in.n_bins < 1) throw std::invalid_argument("at least one bin is needed");
    in.edges = edges.data();
    in.uniform = uniform;
    calibration::BinTable table;
    {
      py::gil_scoped_release release;
      table = calibration::bin_table(view, mode, in, n_threads);
    }
    py::array_t<double> out({static_cast<py::ssize_t>(tables), static_cast<py::ssize_t>(in.n_bins), py::ssize_t{3}});
    std::copy(table.cells.begin(), table.cells.end(), out.mutable_data());
    return py::make_tuple(out, table.invalid, table.invalid_label);
  });
}

// Per-bin ExactSums as an (n_bins, limbs) uint64 array (two's-complement
// fixed point, least significant limb first; value = integer * 2^-scale_bits).
py::array_t<uint64_t> limbs_array(const std::vector<ExactSum>& sums) {
  const auto limbs = static_cast<py::ssize_t>(ExactSum::limb_count);
  py::array_t<uint64_t> out({static_cast<py::ssize_t>(sums.size()), limbs});
  uint64_t* data = out.mutable_data();
  for (size_t b = 0; b < sums.size(); ++b) {
    const ExactSum::Limbs sum_limbs = sums[b].limbs();  // by value: one copy for begin and end
    std::copy(sum_limbs.begin(), sum_limbs.end(), data + b * limbs);
  }
  return out;
}

py::array_t<int64_t> int64_array(const std::vector<int64_t>& values) {
  py::array_t<int64_t> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

py::tuple exact_bin_table(const py::array& prob, const std::string& mode_name, const py::array& labels,
                          const std::optional<py::array>& weight,
                          const py::array_t<double, py::array::c_style | py::array::forcecast>& edges, int n_threads) {
  const calibration::Mode mode = parse_mode(mode_name);
  if (mode == calibration::Mode::classwise) throw std::invalid_argument("exact bin tables are binary or top_label");
  if (edges.ndim() != 1 || edges.shape(0) < 2) throw std::invalid_argument("edges must be 1-D with two or more");
  return visit_float(prob, [&](auto tag) -> py::tuple {
    using T = decltype(tag);
    const auto view = matrix_view<T>(prob, "y_prob");
    calibration::BinInput in = one_table_input(view, mode, labels, weight);
    in.n_bins = edges.shape(0) - 1;
    in.edges = edges.data();
    in.uniform = true;
    calibration::ExactBinTable table;
    {
      py::gil_scoped_release release;
      table = calibration::exact_bin_table(view, mode, in, n_threads);
    }
    const bool weighted = in.weight != nullptr;
    py::object weights = weighted ? py::object(limbs_array(table.weight)) : py::object(int64_array(table.count));
    py::object correct =
        weighted ? py::object(limbs_array(table.correct)) : py::object(int64_array(table.correct_count));
    return py::make_tuple(weights, limbs_array(table.confidence), correct, table.invalid, table.invalid_label);
  });
}

py::array_t<double> hellinger_rows(const py::array& p, const py::array& q, int n_threads) {
  if (p.dtype().kind() != q.dtype().kind() || p.dtype().itemsize() != q.dtype().itemsize())
    throw py::type_error("p and q must share a dtype");
  return visit_float(p, [&](auto tag) -> py::array_t<double> {
    using T = decltype(tag);
    const auto pv = matrix_view<T>(p, "p");
    const auto qv = matrix_view<T>(q, "q");
    if (pv.rows != qv.rows || pv.cols != qv.cols) throw std::invalid_argument("p and q differ in shape");
    py::array_t<double> out(static_cast<py::ssize_t>(pv.rows));
    double* o = out.mutable_data();
    {
      py::gil_scoped_release release;
      calibration::row_hellinger(pv, qv, o, n_threads);
    }
    return out;
  });
}

calibration::ProbRows prob_rows(const py::array& y_prob, bool two_column) {
  if (!(y_prob.dtype().kind() == 'f' && y_prob.dtype().itemsize() == 8))
    throw py::type_error("proper-score kernels read float64 probabilities");
  calibration::ProbRows rows;
  rows.m = matrix_view<double>(y_prob, "y_prob");
  rows.two_column = two_column;
  if (two_column && rows.m.cols != 1) throw std::invalid_argument("two_column reads a 1-D y_prob");
  return rows;
}

py::tuple probability_facts(const py::array& y_prob, bool check_rows, double rtol, double atol, int n_threads) {
  const auto rows = prob_rows(y_prob, y_prob.ndim() == 1 && check_rows);
  calibration::ProbabilityFacts facts;
  {
    py::gil_scoped_release release;
    facts = calibration::probability_facts(rows, check_rows, rtol, atol, n_threads);
  }
  return py::make_tuple(facts.status, facts.min, facts.max, facts.rows_sum_to_one);
}

enum class Output { sums, exact_sums, terms };

// Calls f(result) with the kernel that `output` picks (score_sums,
// exact_score_sums or score_terms), after checking and encoding the
// arguments.
template <class F>
py::tuple with_score_input(const py::array& y_prob, const py::array& labels, const py::array& classes,
                           const std::optional<py::array>& weight, const std::string& score, double eps, int n_threads,
                           Output output, F&& f) {
  const auto rows = prob_rows(y_prob, y_prob.ndim() == 1);
  if (!labels.dtype().equal(classes.dtype())) throw py::type_error("classes must share the dtype of the labels");
  if (!labels.dtype().attr("isnative").cast<bool>()) throw py::type_error("labels must be native-endian");
  const auto l = view_1d(labels, "labels");
  if (l.size != rows.m.rows) throw std::invalid_argument("labels and y_prob differ in length");
  const auto cl = view_1d(classes, "classes");
  if (cl.size != rows.cols()) throw std::invalid_argument("one class per column of y_prob is needed");
  const char* w = nullptr;
  int64_t w_stride = 0;
  if (weight) {
    const auto wv = view_1d(*weight, "sample_weight");
    if (wv.size != rows.m.rows) throw std::invalid_argument("sample_weight and y_prob differ in length");
    if (!(weight->dtype().kind() == 'f' && weight->dtype().itemsize() == 8))
      throw py::type_error("sample_weight must be float64");
    w = wv.data;
    w_stride = wv.stride;
  }
  calibration::Score kind;
  if (score == "brier")
    kind = calibration::Score::brier;
  else if (score == "log")
    kind = calibration::Score::log;
  else
    throw std::invalid_argument("unknown score " + score);
  const ElementwiseLoop log = kind == calibration::Score::log ? bindings::numpy_log_loop() : ElementwiseLoop{};
  return bindings::visit_integer_labels(
      labels.dtype(),
      [&](auto tag) -> py::tuple {
        using Label = decltype(tag);
        std::vector<Label> class_list(static_cast<size_t>(cl.size));
        for (int64_t i = 0; i < cl.size; ++i) class_list[i] = labels::load_label<Label>(cl.data, cl.stride, i);
        if (!std::is_sorted(class_list.begin(), class_list.end()) ||
            std::adjacent_find(class_list.begin(), class_list.end()) != class_list.end())
          throw std::invalid_argument("classes must be sorted and distinct");
        if (output == Output::terms) {
          py::array_t<double> terms(rows.m.rows);
          bool unknown = false;
          {
            py::gil_scoped_release release;
            labels::LabelEncoder<Label> encoder(class_list);
            unknown = calibration::score_terms<Label>(rows, l.data, l.stride, encoder, kind, eps, log, n_threads,
                                                      terms.mutable_data());
          }
          return py::make_tuple(terms, unknown);
        }
        if (output == Output::exact_sums) {
          calibration::ExactScoreSums sums;
          {
            py::gil_scoped_release release;
            labels::LabelEncoder<Label> encoder(class_list);
            sums = calibration::exact_score_sums<Label>(rows, l.data, l.stride, encoder, w, w_stride, kind, eps, log,
                                                        n_threads);
          }
          return f(sums);
        }
        calibration::ScoreSums sums;
        {
          py::gil_scoped_release release;
          labels::LabelEncoder<Label> encoder(class_list);
          sums =
              calibration::score_sums<Label>(rows, l.data, l.stride, encoder, w, w_stride, kind, eps, log, n_threads);
        }
        return f(sums);
      },
      [](const py::dtype& other) -> py::tuple {
        throw py::type_error("score kernels read integer or bool labels, got " + std::string(py::str(other)));
      });
}

struct ScoreSumsResult {
  py::tuple operator()(const calibration::ScoreSums& sums) const {
    return py::make_tuple(sums.total, sums.weight, sums.unknown_label);
  }
  py::tuple operator()(const calibration::ExactScoreSums& sums) const {
    return py::make_tuple(limbs_array({sums.total, sums.weight}), sums.unknown_label);
  }
};

py::tuple score_sums(const py::array& y_prob, const py::array& labels, const py::array& classes,
                     const std::optional<py::array>& weight, const std::string& score, double eps, int n_threads) {
  return with_score_input(y_prob, labels, classes, weight, score, eps, n_threads, Output::sums, ScoreSumsResult{});
}

py::tuple exact_score_sums(const py::array& y_prob, const py::array& labels, const py::array& classes,
                           const std::optional<py::array>& weight, const std::string& score, double eps,
                           int n_threads) {
  return with_score_input(y_prob, labels, classes, weight, score, eps, n_threads, Output::exact_sums,
                          ScoreSumsResult{});
}

py::tuple score_terms(const py::array& y_prob, const py::array& labels, const py::array& classes,
                      const std::string& score, double eps, int n_threads) {
  return with_score_input(y_prob, labels, classes, std::nullopt, score, eps, n_threads, Output::terms,
                          ScoreSumsResult{});
}

py::tuple smooth_deposit(const py::array& prob, const std::string& mode_name, const py::array& labels,
                         const std::optional<py::array>& weight, int64_t grid, int n_threads) {
  calibration::Mode mode;
  if (mode_name == "binary")
    mode = calibration::Mode::binary;
  else if (mode_name == "top_label")
    mode = calibration::Mode::top_label;
  else
    throw std::invalid_argument("smooth_deposit reads binary or top_label input");
  if (grid < 1) throw std::invalid_argument("the grid needs at least one step");
  return visit_float(prob, [&](auto tag) -> py::tuple {
    using T = decltype(tag);
    const auto view = matrix_view<T>(prob, "y_prob");
    const calibration::BinInput in = one_table_input(view, mode, labels, weight);
    calibration::Deposit d;
    {
      py::gil_scoped_release release;
      d = calibration::smooth_deposit(view, mode, in, grid, n_threads);
    }
    py::array_t<double> mass(static_cast<py::ssize_t>(d.mass.size())),
        residual(static_cast<py::ssize_t>(d.residual.size()));
    std::copy(d.mass.begin(), d.mass.end(), mass.mutable_data());
    std::copy(d.residual.begin(), d.residual.end(), residual.mutable_data());
    return py::make_tuple(mass, residual, d.total_weight, d.invalid, d.invalid_label);
  });
}

}  // namespace calibration_glue
}  // namespace

void register_calibration(py::module_& m) {
  using namespace calibration_glue;
  m.def("bin_table", &bin_table, py::arg("y_prob"), py::arg("mode"), py::arg("y_true"), py::arg("sample_weight"),
        py::arg("edges"), py::arg("uniform"), py::arg("n_threads"),
        "(table, invalid, invalid_label): per-bin (weight, sum of weighted confidence, sum of weighted "
        "correctness) of shape (tables, n_bins, 3), whether some probability read was NaN or outside [0, 1], and "
        "whether some int64 class index was outside [0, K).");
  m.def("exact_bin_table", &exact_bin_table, py::arg("y_prob"), py::arg("mode"), py::arg("y_true"),
        py::arg("sample_weight"), py::arg("edges"), py::arg("n_threads"),
        "(weight, confidence, correct, invalid, invalid_label): the uniform-bin table with exact sums, binary or "
        "top_label. weight and correct are int64 counts per bin when unweighted, else (n_bins, limbs) uint64 "
        "ExactSum limbs like confidence (value = signed integer * 2**-1100); invalid / invalid_label as in "
        "bin_table.");
  m.def("probability_facts", &probability_facts, py::arg("y_prob"), py::arg("check_rows"), py::arg("rtol"),
        py::arg("atol"), py::arg("n_threads"),
        "(status, min, max, rows_sum_to_one) of float64 probabilities in one pass: status 0 finite, 1 NaN, 2 "
        "infinity; whether every row (1-D: the pair 1 - p, p) sums to 1 within atol + rtol.");
  m.def("score_sums", &score_sums, py::arg("y_prob"), py::arg("labels"), py::arg("classes"), py::arg("sample_weight"),
        py::arg("score"), py::arg("eps"), py::arg("n_threads"),
        "(sum of w * loss, sum of w, some label not a class): Brier ('brier') or log loss ('log', probabilities "
        "clipped to [eps, 1 - eps]) of float64 probabilities (1-D: columns 1 - p, p) against integer labels "
        "encoded by the sorted distinct classes.");
  m.def("exact_score_sums", &exact_score_sums, py::arg("y_prob"), py::arg("labels"), py::arg("classes"),
        py::arg("sample_weight"), py::arg("score"), py::arg("eps"), py::arg("n_threads"),
        "(limbs, some label not a class): score_sums' two sums as exact sums, a (2, limbs) uint64 array of "
        "ExactSum limbs (row 0: sum of w * loss, each term as score_sums computes it; row 1: sum of w, zero when "
        "unweighted), independent of the order and split of the rows.");
  m.def("score_terms", &score_terms, py::arg("y_prob"), py::arg("labels"), py::arg("classes"), py::arg("score"),
        py::arg("eps"), py::arg("n_threads"),
        "(terms, some label not a class): the per-row losses of score_sums, unweighted, as a float64 array.");
  m.def("smooth_deposit", &smooth_deposit, py::arg("y_prob"), py::arg("mode"), py::arg("y_true"),
        py::arg("sample_weight"), py::arg("grid"), py::arg("n_threads"),
        "(mass, residual, total weight, invalid, invalid_label): the smECE grid deposit by linear interpolation.");
  m.def("hellinger_rows", &hellinger_rows, py::arg("p"), py::arg("q"), py::arg("n_threads"),
        "Hellinger distance of each pair of rows.");
}
