// Helpers shared by the binding files: zero-copy views of NumPy arrays and
// NumPy arrays that adopt C++ buffers.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace turbometrics::bindings {

namespace py = pybind11;

struct StridedView {
  const char* data;
  int64_t stride;  // bytes
  int64_t size;
};

// A read-only strided view of a 1-D array; no copy is made.
inline StridedView view_1d(const py::array& array, const char* name) {
  if (array.ndim() != 1) throw std::invalid_argument(std::string(name) + " must be one-dimensional");
  return {static_cast<const char*>(array.data()), static_cast<int64_t>(array.strides(0)),
          static_cast<int64_t>(array.shape(0))};
}

// The first `count` elements of a 1-D array that a kernel filled only
// partly: a view when most of it is used, else a compact copy, so that a
// short result does not pin a much larger allocation.
inline py::array leading_part(const py::array& array, int64_t count) {
  if (count == array.shape(0)) return array;
  py::array view = array[py::slice(0, count, 1)];
  return 2 * count < array.shape(0) ? py::array(view.attr("copy")()) : view;
}

// Calls f(T{}) with T the C++ type of a score array's dtype.
template <class F>
decltype(auto) visit_score_dtype(const py::array& array, F&& f) {
  const py::dtype dtype = array.dtype();
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'f' && size == 8) return f(double{});
  if (kind == 'f' && size == 4) return f(float{});
  if (kind == 'i' && size == 8) return f(int64_t{});
  if (kind == 'i' && size == 4) return f(int32_t{});
  if (kind == 'u' && size == 8) return f(uint64_t{});
  if (kind == 'u' && size == 4) return f(uint32_t{});
  if ((kind == 'u' || kind == 'b') && size == 1) return f(uint8_t{});
  throw py::type_error("unsupported dtype for a turbometrics kernel: " + std::string(py::str(dtype)));
}

// Calls f(Label{}) for integer and bool label dtypes (bool read as uint8);
// other dtypes go to otherwise(dtype).
template <class F, class Otherwise>
decltype(auto) visit_integer_labels(const py::dtype& dtype, F&& f, Otherwise&& otherwise) {
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'i' && size == 8) return f(int64_t{});
  if (kind == 'i' && size == 4) return f(int32_t{});
  if (kind == 'i' && size == 2) return f(int16_t{});
  if (kind == 'i' && size == 1) return f(int8_t{});
  if (kind == 'u' && size == 8) return f(uint64_t{});
  if (kind == 'u' && size == 4) return f(uint32_t{});
  if (kind == 'u' && size == 2) return f(uint16_t{});
  if ((kind == 'u' || kind == 'b') && size == 1) return f(uint8_t{});
  return otherwise(dtype);
}

}  // namespace turbometrics::bindings
