// Label encoding and confusion tables for the classification metrics.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <utility>

#include "numpy_views.hpp"
#include "python_interrupt.hpp"
#include "turbometrics/classification/confusion.hpp"
#include "turbometrics/classification/in_order_sums.hpp"
#include "turbometrics/labels/encode.hpp"

namespace py = pybind11;
using namespace turbometrics;
using bindings::view_1d;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace classification_glue {

// Calls f(Label{}) for the label dtypes the kernels read: integers, bool
// (as uint8), float64 and float32.
template <class F>
decltype(auto) visit_label_dtype(const py::dtype& dtype, F&& f) {
  return bindings::visit_integer_labels(dtype, f, [&](const py::dtype& other) -> decltype(f(int64_t{})) {
    if (other.kind() == 'f' && other.itemsize() == 8) return f(double{});
    if (other.kind() == 'f' && other.itemsize() == 4) return f(float{});
    throw py::type_error("unsupported label dtype: " + std::string(py::str(other)));
  });
}

void require_native(const py::array& a, const char* name) {
  if (!a.dtype().attr("isnative").cast<bool>()) throw py::type_error(std::string(name) + " must be native-endian");
}

py::array label_values(const py::array& y, int n_threads) {
  require_native(y, "labels");
  const auto view = view_1d(y, "labels");
  return visit_label_dtype(y.dtype(), [&](auto tag) -> py::array {
    using Label = decltype(tag);
    std::vector<Label> values;
    {
      py::gil_scoped_release release;
      values = labels::distinct_sorted<Label>(view.data, view.stride, view.size, n_threads);
    }
    py::array out(y.dtype(), std::vector<py::ssize_t>{static_cast<py::ssize_t>(values.size())});
    std::copy(values.begin(), values.end(), static_cast<Label*>(out.mutable_data()));
    return out;
  });
}

template <class Weight>
py::array_t<Weight> to_square(std::vector<Weight>&& table, int64_t k) {
  py::array_t<Weight> out({static_cast<py::ssize_t>(k), static_cast<py::ssize_t>(k)});
  std::copy(table.begin(), table.end(), out.mutable_data());
  return out;
}

// Pointer and byte stride of int64 sample weights, or (nullptr, 0).
std::pair<const int64_t*, int64_t> integer_weights(const py::array& weights, bool weighted) {
  if (!weighted) return {nullptr, 0};
  const auto w = view_1d(weights, "sample_weight");
  return {reinterpret_cast<const int64_t*>(w.data), w.stride};
}

// Confusion table over sorted distinct `labels` (same dtype as y_true and
// y_pred). sample_weight: None (int64 counts), int64 or float64 array.
py::array confusion_table(const py::array& y_true, const py::array& y_pred, const py::array& labels,
                          const py::object& sample_weight, int n_threads) {
  if (!y_true.dtype().is(y_pred.dtype()) && !y_true.dtype().equal(y_pred.dtype()))
    throw py::type_error("y_true and y_pred must share a dtype");
  if (!y_true.dtype().equal(labels.dtype())) throw py::type_error("labels must share the dtype of y_true");
  require_native(y_true, "y_true");
  const auto t = view_1d(y_true, "y_true");
  const auto p = view_1d(y_pred, "y_pred");
  const auto l = view_1d(labels, "labels");
  if (t.size != p.size) throw std::invalid_argument("y_true and y_pred differ in length");
  py::array weights;
  bool weighted = !sample_weight.is_none();
  bool float_weights = false;
  if (weighted) {
    weights = sample_weight.cast<py::array>();
    const auto w = view_1d(weights, "sample_weight");
    if (w.size != t.size) throw std::invalid_argument("sample_weight differs in length");
    const py::dtype wd = weights.dtype();
    if (wd.kind() == 'f' && wd.itemsize() == 8)
      float_weights = true;
    else if (!(wd.kind() == 'i' && wd.itemsize() == 8))
      throw py::type_error("sample_weight must be int64 or float64");
    require_native(weights, "sample_weight");
  }
  return visit_label_dtype(y_true.dtype(), [&](auto tag) -> py::array {
    using Label = decltype(tag);
    std::vector<Label> label_list(l.size);
    for (int64_t i = 0; i < l.size; ++i) label_list[i] = labels::load_label<Label>(l.data, l.stride, i);
    const classification::Strided yt{t.data, t.stride}, yp{p.data, p.stride};
    if (float_weights) {
      const auto w = view_1d(weights, "sample_weight");
      std::vector<double> table;
      {
        py::gil_scoped_release release;
        labels::LabelEncoder<Label> encoder(label_list);
        table = classification::confusion_table<Label, double>(yt, yp, t.size, reinterpret_cast<const double*>(w.data),
                                                               w.stride, encoder, n_threads);
      }
      return to_square(std::move(table), l.size);
    }
    const auto [wdata, wstride] = integer_weights(weights, weighted);
    std::vector<int64_t> table;
    {
      py::gil_scoped_release release;
      labels::LabelEncoder<Label> encoder(label_list);
      table = classification::confusion_table<Label, int64_t>(yt, yp, t.size, wdata, wstride, encoder, n_threads);
    }
    return to_square(std::move(table), l.size);
  });
}

// Per-column (weighted) counts of y_true != 0, y_pred != 0 and both, for
// 2-D indicator arrays of one dtype; shape (3, n_labels).
py::array indicator_sums(const py::array& y_true, const py::array& y_pred, const py::object& sample_weight,
                         int n_threads) {
  if (y_true.ndim() != 2 || y_pred.ndim() != 2) throw std::invalid_argument("indicator arrays must be 2-D");
  if (!y_true.dtype().equal(y_pred.dtype())) throw py::type_error("y_true and y_pred must share a dtype");
  require_native(y_true, "y_true");
  const int64_t n = y_true.shape(0), n_labels = y_true.shape(1);
  if (y_pred.shape(0) != n || y_pred.shape(1) != n_labels) throw std::invalid_argument("shapes differ");
  const char* td = static_cast<const char*>(y_true.data());
  const char* pd = static_cast<const char*>(y_pred.data());
  const int64_t tr = y_true.strides(0), tc = y_true.strides(1), pr = y_pred.strides(0), pc = y_pred.strides(1);
  py::array weights;
  bool float_weights = false;
  const bool weighted = !sample_weight.is_none();
  if (weighted) {
    weights = sample_weight.cast<py::array>();
    const auto w = view_1d(weights, "sample_weight");
    if (w.size != n) throw std::invalid_argument("sample_weight differs in length");
    const py::dtype wd = weights.dtype();
    if (wd.kind() == 'f' && wd.itemsize() == 8)
      float_weights = true;
    else if (!(wd.kind() == 'i' && wd.itemsize() == 8))
      throw py::type_error("sample_weight must be int64 or float64");
  }
  return visit_label_dtype(y_true.dtype(), [&](auto tag) -> py::array {
    using Label = decltype(tag);
    auto finish = [&](auto&& sums) -> py::array {
      using Weight = typename std::decay_t<decltype(sums)>::value_type;
      py::array_t<Weight> out({py::ssize_t{3}, static_cast<py::ssize_t>(n_labels)});
      std::copy(sums.begin(), sums.end(), out.mutable_data());
      return out;
    };
    if (float_weights) {
      const auto w = view_1d(weights, "sample_weight");
      std::vector<double> sums;
      {
        py::gil_scoped_release release;
        sums = classification::indicator_sums<Label, double>(
            td, tr, tc, pd, pr, pc, n, n_labels, reinterpret_cast<const double*>(w.data), w.stride, n_threads);
      }
      return finish(sums);
    }
    const auto [wdata, wstride] = integer_weights(weights, weighted);
    std::vector<int64_t> sums;
    {
      py::gil_scoped_release release;
      sums = classification::indicator_sums<Label, int64_t>(td, tr, tc, pd, pr, pc, n, n_labels, wdata, wstride,
                                                            n_threads);
    }
    return finish(sums);
  });
}

// (weighted) number of samples with y_true == y_pred and the total weight,
// for contiguous arrays of one integer dtype; weights None, int64 or float64.
py::tuple agreement(const py::array& y_true, const py::array& y_pred, const py::object& sample_weight, int n_threads) {
  if (!y_true.dtype().equal(y_pred.dtype())) throw py::type_error("y_true and y_pred must share a dtype");
  if (y_true.dtype().kind() == 'f') throw py::type_error("agreement takes integer labels");
  require_native(y_true, "y_true");
  const auto t = view_1d(y_true, "y_true");
  const auto p = view_1d(y_pred, "y_pred");
  if (t.size != p.size) throw std::invalid_argument("y_true and y_pred differ in length");
  if (t.stride != y_true.itemsize() || p.stride != y_pred.itemsize())
    throw std::invalid_argument("agreement needs contiguous arrays");
  py::array weights;
  if (!sample_weight.is_none()) {
    weights = sample_weight.cast<py::array>();
    const auto w = view_1d(weights, "sample_weight");
    if (w.size != t.size || w.stride != weights.itemsize())
      throw std::invalid_argument("sample_weight must be contiguous and as long as y_true");
  }
  return visit_label_dtype(y_true.dtype(), [&](auto tag) -> py::tuple {
    using Label = decltype(tag);
    const Label* yt = static_cast<const Label*>(y_true.data());
    const Label* yp = static_cast<const Label*>(y_pred.data());
    if (!sample_weight.is_none() && weights.dtype().kind() == 'f' && weights.itemsize() == 8) {
      classification::Agreement<Label, double> result;
      {
        py::gil_scoped_release release;
        result = classification::agreement<Label, double>(yt, yp, t.size, static_cast<const double*>(weights.data()),
                                                          n_threads);
      }
      return py::make_tuple(result.agree, result.total);
    }
    if (!sample_weight.is_none() && !(weights.dtype().kind() == 'i' && weights.itemsize() == 8))
      throw py::type_error("sample_weight must be int64 or float64");
    const int64_t* w = sample_weight.is_none() ? nullptr : static_cast<const int64_t*>(weights.data());
    classification::Agreement<Label, int64_t> result;
    {
      py::gil_scoped_release release;
      result = classification::agreement<Label, int64_t>(yt, yp, t.size, w, n_threads);
    }
    return py::make_tuple(result.agree, result.total);
  });
}

// Contiguous native float64 sample weights of length n (in_order_sums.hpp
// reads them in place).
const double* in_order_weights(const py::array& weights, int64_t n) {
  const auto w = view_1d(weights, "sample_weight");
  if (weights.dtype().kind() != 'f' || weights.itemsize() != 8 || w.stride != 8 || w.size != n)
    throw py::type_error("sample_weight must be a contiguous float64 array as long as y_true");
  require_native(weights, "sample_weight");
  return reinterpret_cast<const double*>(w.data);
}

// The K x K confusion table over sorted distinct `labels` with float64
// weights summed per cell in input order (scipy's coo -> dense), and with
// `marginals` the per-true-label and per-predicted-label sums in input order
// (np.bincount); (table, true_sums, pred_sums), the last two None without.
py::tuple confusion_in_order(const py::array& y_true, const py::array& y_pred, const py::array& labels,
                             const py::array& sample_weight, bool marginals, int n_threads) {
  if (!y_true.dtype().equal(y_pred.dtype()) || !y_true.dtype().equal(labels.dtype()))
    throw py::type_error("y_true, y_pred and labels must share a dtype");
  require_native(y_true, "y_true");
  const auto t = view_1d(y_true, "y_true");
  const auto p = view_1d(y_pred, "y_pred");
  const auto l = view_1d(labels, "labels");
  if (t.size != p.size) throw std::invalid_argument("y_true and y_pred differ in length");
  const double* weights = in_order_weights(sample_weight, t.size);
  const int64_t k = l.size;
  const std::vector<double> sums = visit_label_dtype(y_true.dtype(), [&](auto tag) {
    using Label = decltype(tag);
    std::vector<Label> label_list(k);
    for (int64_t i = 0; i < k; ++i) label_list[i] = labels::load_label<Label>(l.data, l.stride, i);
    return bindings::interruptible([&](const Interrupt& interrupt) {
      const labels::LabelEncoder<Label> encoder(label_list);
      auto true_at = [t](int64_t i) { return labels::load_label<Label>(t.data, t.stride, i); };
      auto pred_at = [p](int64_t i) { return labels::load_label<Label>(p.data, p.stride, i); };
      return classification::in_order_sums<Label>(t.size, true_at, pred_at, weights, encoder, marginals, n_threads,
                                                  interrupt);
    });
  });
  auto part = [&](int64_t offset, std::vector<py::ssize_t> shape) {
    py::array_t<double> out(shape);
    std::copy(sums.begin() + offset, sums.begin() + offset + out.size(), out.mutable_data());
    return out;
  };
  const py::ssize_t kk = static_cast<py::ssize_t>(k);
  if (!marginals) return py::make_tuple(part(0, {kk, kk}), py::none(), py::none());
  return py::make_tuple(part(0, {kk, kk}), part(k * k, {kk}), part(k * k + k, {kk}));
}

// Per-column sums of float64 weights of the rows where y_true != 0, y_pred
// != 0 and both, each in row order (scikit-learn's np.bincount over CSR
// indices); shape (3, n_labels).
py::array indicator_in_order(const py::array& y_true, const py::array& y_pred, const py::array& sample_weight,
                             int n_threads) {
  if (y_true.ndim() != 2 || y_pred.ndim() != 2) throw std::invalid_argument("indicator arrays must be 2-D");
  if (!y_true.dtype().equal(y_pred.dtype())) throw py::type_error("y_true and y_pred must share a dtype");
  require_native(y_true, "y_true");
  const int64_t n = y_true.shape(0), n_labels = y_true.shape(1);
  if (y_pred.shape(0) != n || y_pred.shape(1) != n_labels) throw std::invalid_argument("shapes differ");
  const double* weights = in_order_weights(sample_weight, n);
  const char* td = static_cast<const char*>(y_true.data());
  const char* pd = static_cast<const char*>(y_pred.data());
  const int64_t tr = y_true.strides(0), tc = y_true.strides(1), pr = y_pred.strides(0), pc = y_pred.strides(1);
  const std::vector<double> sums = visit_label_dtype(y_true.dtype(), [&](auto tag) {
    using Label = decltype(tag);
    return bindings::interruptible([&](const Interrupt& interrupt) {
      return classification::indicator_in_order_sums<Label>(td, tr, tc, pd, pr, pc, n, n_labels, weights, n_threads,
                                                            interrupt);
    });
  });
  py::array_t<double> out({py::ssize_t{3}, static_cast<py::ssize_t>(n_labels)});
  std::copy(sums.begin(), sums.end(), out.mutable_data());
  return out;
}

// np.average's two pairwise sums for accuracy: (sum of w * [y_true ==
// y_pred], sum of w), contiguous integer labels and float64 weights.
py::tuple agreement_pairwise(const py::array& y_true, const py::array& y_pred, const py::array& sample_weight,
                             int n_threads) {
  if (!y_true.dtype().equal(y_pred.dtype())) throw py::type_error("y_true and y_pred must share a dtype");
  if (y_true.dtype().kind() == 'f') throw py::type_error("agreement takes integer labels");
  require_native(y_true, "y_true");
  const auto t = view_1d(y_true, "y_true");
  const auto p = view_1d(y_pred, "y_pred");
  if (t.size != p.size || t.stride != y_true.itemsize() || p.stride != y_pred.itemsize())
    throw std::invalid_argument("agreement needs contiguous arrays of one length");
  const double* weights = in_order_weights(sample_weight, t.size);
  const auto sums = visit_label_dtype(y_true.dtype(), [&](auto tag) {
    using Label = decltype(tag);
    py::gil_scoped_release release;
    return classification::agreement_pairwise<Label>(
        static_cast<const Label*>(y_true.data()), static_cast<const Label*>(y_pred.data()), weights, t.size, n_threads);
  });
  return py::make_tuple(sums.first, sums.second);
}

}  // namespace classification_glue
}  // namespace

void register_classification(py::module_& m) {
  using namespace classification_glue;
  m.def("label_values", &label_values, py::arg("y"), py::arg("n_threads"),
        "Sorted distinct values of a 1-D numeric label array (floats must be integral).");
  m.def("confusion_table", &confusion_table, py::arg("y_true"), py::arg("y_pred"), py::arg("labels"),
        py::arg("sample_weight"), py::arg("n_threads"),
        "K x K confusion table over sorted labels; int64 counts, or sums of int64/float64 weights.");
  m.def("agreement", &agreement, py::arg("y_true"), py::arg("y_pred"), py::arg("sample_weight"), py::arg("n_threads"),
        "(Weighted) count of y_true == y_pred and the total weight, for integer labels.");
  m.def("indicator_sums", &indicator_sums, py::arg("y_true"), py::arg("y_pred"), py::arg("sample_weight"),
        py::arg("n_threads"), "Per-column weighted counts of true, predicted and both, shape (3, n_labels).");
  m.def("confusion_in_order", &confusion_in_order, py::arg("y_true"), py::arg("y_pred"), py::arg("labels"),
        py::arg("sample_weight"), py::arg("marginals"), py::arg("n_threads"),
        "(table, true_sums, pred_sums): float64 weights summed per cell (and per label) in input order.");
  m.def("indicator_in_order", &indicator_in_order, py::arg("y_true"), py::arg("y_pred"), py::arg("sample_weight"),
        py::arg("n_threads"), "Per-column float64 weight sums of true, predicted and both in row order, (3, L).");
  m.def("agreement_pairwise", &agreement_pairwise, py::arg("y_true"), py::arg("y_pred"), py::arg("sample_weight"),
        py::arg("n_threads"), "NumPy's pairwise sums of w * (y_true == y_pred) and of w, integer labels.");
}
