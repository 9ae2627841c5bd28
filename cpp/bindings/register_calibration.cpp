// Calibration kernels: the per-bin table (the area's one primitive) and
// row-wise Hellinger distances. Inputs are read in place through strided
// views; float32 stays float32. The GIL is released around every kernel.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "numpy_views.hpp"
#include "turbometrics/calibration/bin_table.hpp"
#include "turbometrics/calibration/posterior.hpp"

namespace py = pybind11;
using namespace turbometrics;
using bindings::view_1d;

namespace {

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

py::tuple bin_table(const py::array& prob, const std::string& mode_name,
                              const std::optional<py::array>& labels, const std::optional<py::array>& weight,
                              const py::array_t<double, py::array::c_style | py::array::forcecast>& edges,
                              bool uniform, int n_threads) {
  calibration::Mode mode;
  if (mode_name == "binary") mode = calibration::Mode::binary;
  else if (mode_name == "top_label") mode = calibration::Mode::top_label;
  else if (mode_name == "classwise") mode = calibration::Mode::classwise;
  else throw std::invalid_argument("unknown calibration mode " + mode_name);
  return visit_float(prob, [&](auto tag) -> py::tuple {
    using T = decltype(tag);
    const auto view = matrix_view<T>(prob, "y_prob");
    if (mode == calibration::Mode::binary && view.cols != 1)
      throw std::invalid_argument("binary mode reads a 1-D y_prob");
    calibration::BinInput in;
    if (labels) {
      const auto l = view_1d(*labels, "y_true");
      if (l.size != view.rows) throw std::invalid_argument("y_true and y_prob differ in length");
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
      if (w.size != view.rows) throw std::invalid_argument("sample_weight and y_prob differ in length");
      if (!(weight->dtype().kind() == 'f' && weight->dtype().itemsize() == 8))
        throw py::type_error("sample_weight must be float64");
      in.weight = w.data;
      in.weight_stride = w.stride;
    }
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
    return py::make_tuple(out, table.invalid);
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

}  // namespace

void register_calibration(py::module_& m) {
  m.def("calibration_bin_table", &bin_table, py::arg("y_prob"), py::arg("mode"), py::arg("y_true"),
        py::arg("sample_weight"), py::arg("edges"), py::arg("uniform"), py::arg("n_threads"),
        "(table, invalid): per-bin (weight, sum of weighted confidence, sum of weighted correctness) of shape "
        "(tables, n_bins, 3), and whether some probability read was NaN or outside [0, 1].");
  m.def("hellinger_rows", &hellinger_rows, py::arg("p"), py::arg("q"), py::arg("n_threads"),
        "Hellinger distance of each pair of rows.");
}
