// Helpers shared by the binding files: zero-copy views of NumPy arrays and
// NumPy arrays that adopt C++ buffers.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

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

// Calls f(Score{}, Stored{}) with Stored the C++ type of a score array's
// dtype and Score the type a ranking table holds it in: Stored itself, or
// int64 for the narrower integers (which it holds exactly), so that tables
// and sweeps are compiled for four score types, not seven.
template <class F>
decltype(auto) visit_score_dtype(const py::array& array, F&& f) {
  const py::dtype dtype = array.dtype();
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if (kind == 'f' && size == 8) return f(double{}, double{});
  if (kind == 'f' && size == 4) return f(float{}, float{});
  if (kind == 'i' && size == 8) return f(int64_t{}, int64_t{});
  if (kind == 'i' && size == 4) return f(int64_t{}, int32_t{});
  if (kind == 'u' && size == 8) return f(uint64_t{}, uint64_t{});
  if (kind == 'u' && size == 4) return f(int64_t{}, uint32_t{});
  if ((kind == 'u' || kind == 'b') && size == 1) return f(int64_t{}, uint8_t{});
  throw py::type_error("unsupported dtype for a turbometrics kernel: " + std::string(py::str(dtype)));
}

// A score array in the type a ranking table holds it in: the array itself,
// or for the narrower integers an int64 copy.
inline py::array scores_in_table_type(const py::array& scores) {
  return visit_score_dtype(scores, [&](auto score_tag, auto stored_tag) -> py::array {
    using Score = decltype(score_tag);
    if constexpr (std::is_same_v<Score, decltype(stored_tag)>) {
      return scores;
    } else {
      return py::array(scores.attr("astype")(py::dtype::of<Score>()));
    }
  });
}

// A result tuple with its score column `column` (in a table's score type)
// back in the dtype of `scores`, the array the table was built from: an
// exact cast where the table held narrower integers as int64.
inline py::object with_scores_in_dtype_of(const py::array& scores, const py::object& result, size_t column) {
  py::list parts(result);
  parts[column] = parts[column].attr("astype")(scores.dtype(), py::arg("copy") = false);
  return py::tuple(parts);
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
