// Density kernel: the log kernel sum over query points (exact KDE). The data
// (n, d) float64 are read in place in any layout, once, into the sorted copy
// the sums read; points arrive as C-ordered float64 rows (m, d).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "python_interrupt.hpp"
#include "turbometrics/density/binning.hpp"
#include "turbometrics/density/kernel_sum.hpp"

namespace py = pybind11;
using namespace turbometrics;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace density_glue {

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A zero-copy view of float64 data (n, d) in the caller's layout.
density::DataView data_view(const py::array& data, const std::optional<DoubleArray>& weights) {
  if (data.ndim() != 2) throw std::invalid_argument("data must be two-dimensional (n, d)");
  if (!data.dtype().equal(py::dtype::of<double>())) throw py::type_error("data must be float64");
  constexpr auto item = static_cast<py::ssize_t>(sizeof(double));
  if (data.strides(0) % item != 0 || data.strides(1) % item != 0)
    throw std::invalid_argument("data must be aligned to float64 elements");
  density::DataView view;
  view.at = static_cast<const double*>(data.data());
  view.size = static_cast<int64_t>(data.shape(0));
  view.dims = static_cast<int>(data.shape(1));
  view.point_stride = static_cast<int64_t>(data.strides(0) / item);
  view.coordinate_stride = static_cast<int64_t>(data.strides(1) / item);
  if (weights) {
    if (weights->ndim() != 1 || weights->shape(0) != view.size)
      throw std::invalid_argument("weights must be one-dimensional with one weight per data point");
    view.weights = weights->data();
  }
  return view;
}

density::Grid make_grid(const std::vector<double>& low, double delta, const std::vector<int64_t>& size) {
  if (low.size() != size.size() || low.empty() || low.size() > 2)
    throw std::invalid_argument("a grid has one or two axes");
  density::Grid grid;
  grid.dims = static_cast<int>(low.size());
  grid.delta = delta;
  for (int k = 0; k < grid.dims; ++k) {
    if (size[k] < 4) throw std::invalid_argument("a grid axis needs at least 4 nodes");
    grid.low[k] = low[k];
    grid.size[k] = size[k];
  }
  return grid;
}

py::array_t<double> kde_linear_bin(const py::array& data, const std::optional<DoubleArray>& weights,
                                   const std::vector<double>& low, double delta, const std::vector<int64_t>& size) {
  const density::DataView view = data_view(data, weights);
  const density::Grid grid = make_grid(low, delta, size);
  if (view.dims != grid.dims) throw std::invalid_argument("data and grid differ in dimension");
  std::vector<py::ssize_t> shape{grid.dims + 1};
  for (int k = 0; k < grid.dims; ++k) shape.push_back(static_cast<py::ssize_t>(grid.size[k]));
  py::array_t<double> out(shape);
  double* out_data = out.mutable_data();
  {
    py::gil_scoped_release release;
    std::fill(out_data, out_data + (grid.dims + 1) * grid.nodes(), 0.0);
    density::linear_bin(view, grid, out_data);
  }
  return out;
}

py::array_t<double> kde_grid_interpolate(const DoubleArray& values_on_grid, const std::vector<double>& low,
                                         double delta, const DoubleArray& points, int n_threads) {
  std::vector<int64_t> size;
  for (py::ssize_t k = 0; k < values_on_grid.ndim(); ++k) size.push_back(values_on_grid.shape(k));
  const density::Grid grid = make_grid(low, delta, size);
  if (points.ndim() != 2 || points.shape(1) != grid.dims)
    throw std::invalid_argument("points must be (m, d) with d the grid's dimension");
  const density::Queries queries{points.data(), static_cast<int64_t>(points.shape(0)), grid.dims};
  py::array_t<double> out(queries.size);
  double* out_data = out.mutable_data();
  {
    py::gil_scoped_release release;
    density::cubic_interpolate(values_on_grid.data(), grid, queries, out_data, n_threads);
  }
  return out;
}

py::array_t<double> kde_log_sums(const py::array& data, const std::optional<DoubleArray>& weights,
                                 const DoubleArray& points, const std::string& kernel_name, double bandwidth,
                                 int n_threads) {
  if (points.ndim() != 2) throw std::invalid_argument("points must be two-dimensional (m, d)");
  const density::Kernel kernel = density::kernel_from_name(kernel_name);
  const density::DataView sample = data_view(data, weights);
  density::Queries queries{points.data(), static_cast<int64_t>(points.shape(0)), static_cast<int>(points.shape(1))};
  if (queries.dims != sample.dims) throw std::invalid_argument("data and points differ in dimension");
  if (sample.size < 1 || sample.dims < 1) throw std::invalid_argument("data must hold at least one point");
  if (!(bandwidth > 0)) throw std::invalid_argument("bandwidth must be positive");
  py::array_t<double> out(queries.size);
  double* out_data = out.mutable_data();
  bindings::interruptible([&](const Interrupt& interrupt) {
    const density::SortedSample sorted(sample);
    density::log_kernel_sums(sorted, queries, kernel, bandwidth, out_data, n_threads, interrupt);
  });
  return out;
}

}  // namespace density_glue
}  // namespace

void register_density(py::module_& m) {
  using namespace density_glue;
  m.def("log_sums", &kde_log_sums, py::arg("data"), py::arg("weights"), py::arg("points"), py::arg("kernel"),
        py::arg("bandwidth"), py::arg("n_threads"),
        "log sum_j w_j K(||x_j - p_i|| / h) for every point p_i (unnormalised kernel, K(0) = 1).");
  m.def("linear_bin", &kde_linear_bin, py::arg("data"), py::arg("weights"), py::arg("low"), py::arg("delta"),
        py::arg("size"), "Linearly binned weights and second-order correction weights, shape (1 + d, *size).");
  m.def("grid_interpolate", &kde_grid_interpolate, py::arg("values_on_grid"), py::arg("low"), py::arg("delta"),
        py::arg("points"), py::arg("n_threads"),
        "Cubic interpolation of a grid at points (NaN within 2 nodes of the edge), clipped below at 0.");
}
