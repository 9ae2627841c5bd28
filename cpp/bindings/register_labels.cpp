// Label scanning and finiteness checks.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "numpy_views.hpp"
#include "turbometrics/labels/label_scan.hpp"

namespace py = pybind11;
using namespace turbometrics;
using bindings::view_1d;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace labels_glue {

template <class Label>
py::tuple scan(const py::array& y, int64_t limit, int n_threads) {
  const auto view = view_1d(y, "labels");
  labels::LabelScan<Label> result;
  {
    py::gil_scoped_release release;
    result = labels::scan_labels<Label>(view.data, view.stride, view.size, limit, n_threads);
  }
  py::object distinct = py::none();
  if (!result.overflowed) {
    py::array_t<Label> values(static_cast<py::ssize_t>(result.distinct.size()));
    std::copy(result.distinct.begin(), result.distinct.end(), values.mutable_data());
    distinct = values;
  }
  return py::make_tuple(distinct, result.integral);
}

py::tuple scan_labels(const py::array& y, int64_t limit, int n_threads) {
  const py::dtype dtype = y.dtype();
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'f' && size == 8) return scan<double>(y, limit, n_threads);
  if (kind == 'f' && size == 4) return scan<float>(y, limit, n_threads);
  if (kind == 'i' && size == 8) return scan<int64_t>(y, limit, n_threads);
  if (kind == 'i' && size == 4) return scan<int32_t>(y, limit, n_threads);
  if (kind == 'i' && size == 2) return scan<int16_t>(y, limit, n_threads);
  if (kind == 'i' && size == 1) return scan<int8_t>(y, limit, n_threads);
  if (kind == 'u' && size == 8) return scan<uint64_t>(y, limit, n_threads);
  if (kind == 'u' && size == 4) return scan<uint32_t>(y, limit, n_threads);
  if (kind == 'u' && size == 2) return scan<uint16_t>(y, limit, n_threads);
  if ((kind == 'u' || kind == 'b') && size == 1) return scan<uint8_t>(y, limit, n_threads);
  throw py::type_error("unsupported label dtype: " + std::string(py::str(dtype)));
}

int finite_status(const py::array& x, int n_threads) {
  const auto view = view_1d(x, "values");
  const py::dtype dtype = x.dtype();
  py::gil_scoped_release release;
  if (dtype.kind() == 'f' && dtype.itemsize() == 8)
    return labels::finite_status<double>(view.data, view.stride, view.size, n_threads);
  if (dtype.kind() == 'f' && dtype.itemsize() == 4)
    return labels::finite_status<float>(view.data, view.stride, view.size, n_threads);
  return 0;
}

}  // namespace labels_glue
}  // namespace

void register_labels(py::module_& m) {
  using namespace labels_glue;
  m.def("scan", &scan_labels, py::arg("y"), py::arg("limit"), py::arg("n_threads"),
        "Sorted distinct values of a 1-D array (None past `limit`) and whether all values are integral.");
  m.def("finite_status", &finite_status, py::arg("x"), py::arg("n_threads"),
        "Bits 0-1: 0 if all values are finite, 1 if any is NaN, 2 if any is infinite (and none NaN); "
        "bit 2 (4): every value is zero. Non-float arrays give 0.");
}
