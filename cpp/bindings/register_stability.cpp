// Ensemble stability kernels: one per-sample statistic per call, read in
// place through a strided view (float32 stays float32), GIL released.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "turbometrics/stability/ensemble.hpp"
#include "turbometrics/stability/selection.hpp"

namespace py = pybind11;
using namespace turbometrics;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace stability_glue {

stability::Statistic statistic_named(const std::string& name) {
  if (name == "label_stability") return stability::Statistic::label_stability;
  if (name == "jitter") return stability::Statistic::jitter;
  if (name == "aleatoric") return stability::Statistic::aleatoric;
  if (name == "mutual_info") return stability::Statistic::mutual_info;
  if (name == "variance") return stability::Statistic::variance;
  if (name == "std") return stability::Statistic::std;
  if (name == "iqr") return stability::Statistic::iqr;
  throw std::invalid_argument("unknown ensemble statistic " + name);
}

template <class T>
py::tuple run(const py::array& P, stability::Statistic stat, double threshold, int n_threads) {
  stability::Ensemble<T> view;
  view.data = static_cast<const char*>(P.data());
  view.models = P.shape(0);
  view.samples = P.shape(1);
  view.model_stride = P.strides(0);
  view.sample_stride = P.strides(1);
  if (P.ndim() == 3) {
    view.classes = P.shape(2);
    view.class_stride = P.strides(2);
  }
  if (view.models < 1 || view.classes < 1) throw std::invalid_argument("P needs at least one model and one class");
  const bool binary_only = stat == stability::Statistic::label_stability || stat == stability::Statistic::variance ||
                           stat == stability::Statistic::std || stat == stability::Statistic::iqr;
  if (P.ndim() == 3 && binary_only) throw std::invalid_argument("this statistic reads 2-D P");
  py::array_t<double> out(static_cast<py::ssize_t>(view.samples));
  double* o = out.mutable_data();
  bool invalid;
  {
    py::gil_scoped_release release;
    invalid = stability::per_sample(view, stat, threshold, o, n_threads);
  }
  return py::make_tuple(out, invalid);
}

py::tuple ensemble_per_sample(const py::array& P, const std::string& statistic, double threshold, int n_threads) {
  if (P.ndim() != 2 && P.ndim() != 3) throw std::invalid_argument("P must be 2-D or 3-D");
  const auto stat = statistic_named(statistic);
  const py::dtype dtype = P.dtype();
  if (dtype.kind() == 'f' && dtype.itemsize() == 8) return run<double>(P, stat, threshold, n_threads);
  if (dtype.kind() == 'f' && dtype.itemsize() == 4) return run<float>(P, stat, threshold, n_threads);
  throw py::type_error("stability kernels read float64 or float32, got " + std::string(py::str(dtype)));
}

// Per row of a 1-D (one row) or 2-D label array: the (weighted) number of
// labels equal to pos_label, and the total weight. pos_label is given as a
// value of the labels' dtype (a 0-d array).
py::tuple selected_sums(const py::array& y, const py::array& pos_label, const std::optional<py::array>& weight,
                        int n_threads) {
  if (y.ndim() != 1 && y.ndim() != 2) throw std::invalid_argument("y_pred must be 1-D or 2-D");
  if (!y.dtype().equal(pos_label.dtype()) || pos_label.size() != 1)
    throw py::type_error("pos_label must be one value of the labels' dtype");
  if (!y.dtype().attr("isnative").cast<bool>()) throw py::type_error("labels must be native-endian");
  const int64_t rows = y.ndim() == 2 ? y.shape(0) : 1;
  const int64_t cols = y.shape(y.ndim() - 1);
  const char* w = nullptr;
  int64_t w_stride = 0;
  if (weight) {
    if (weight->ndim() != 1 || weight->shape(0) != cols) throw std::invalid_argument("sample_weight differs in length");
    if (!(weight->dtype().kind() == 'f' && weight->dtype().itemsize() == 8))
      throw py::type_error("sample_weight must be float64");
    w = static_cast<const char*>(weight->data());
    w_stride = weight->strides(0);
  }
  py::array_t<double> out(static_cast<py::ssize_t>(rows));
  double total = 0.0;
  auto run = [&](auto tag) {
    using Label = decltype(tag);
    stability::LabelRows<Label> view;
    view.data = static_cast<const char*>(y.data());
    view.rows = rows;
    view.cols = cols;
    view.row_stride = y.ndim() == 2 ? y.strides(0) : 0;
    view.col_stride = y.strides(y.ndim() - 1);
    const Label pos = *static_cast<const Label*>(pos_label.data());
    double* o = out.mutable_data();
    py::gil_scoped_release release;
    stability::selected_sums<Label>(view, pos, w, w_stride, o, total, n_threads);
  };
  const py::dtype dtype = y.dtype();
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'i' && size == 8)
    run(int64_t{});
  else if (kind == 'i' && size == 4)
    run(int32_t{});
  else if (kind == 'i' && size == 2)
    run(int16_t{});
  else if (kind == 'i' && size == 1)
    run(int8_t{});
  else if (kind == 'u' && size == 8)
    run(uint64_t{});
  else if (kind == 'u' && size == 4)
    run(uint32_t{});
  else if (kind == 'u' && size == 2)
    run(uint16_t{});
  else if ((kind == 'u' || kind == 'b') && size == 1)
    run(uint8_t{});
  else if (kind == 'f' && size == 8)
    run(double{});
  else if (kind == 'f' && size == 4)
    run(float{});
  else
    throw py::type_error("selection rate kernels read integer, bool or float labels");
  return py::make_tuple(out, total);
}

}  // namespace stability_glue
}  // namespace

void register_stability(py::module_& m) {
  using namespace stability_glue;
  m.def("ensemble_per_sample", &ensemble_per_sample, py::arg("P"), py::arg("statistic"), py::arg("threshold"),
        py::arg("n_threads"),
        "(values, invalid): one statistic per sample, and whether some value was NaN or outside [0, 1].");
  m.def("selected_sums", &selected_sums, py::arg("y_pred"), py::arg("pos_label"), py::arg("sample_weight"),
        py::arg("n_threads"),
        "(per-row sums, total weight): per row the (weighted) number of labels equal to pos_label.");
}
