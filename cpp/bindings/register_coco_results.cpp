// COCO detection results JSON read into columns (for
// turbometrics.coco._results_reader). The text is read in place from any
// contiguous bytes-like object with the GIL released; every column is a
// NumPy array that adopts the kernel's buffer (no copy).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "turbometrics/detection/results_json.hpp"

namespace py = pybind11;
using namespace turbometrics;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace coco_results_glue {

// A contiguous buffer export of a bytes-like object, released on scope exit.
class ByteView {
 public:
  explicit ByteView(const py::object& source) {
    if (PyObject_GetBuffer(source.ptr(), &view_, PyBUF_SIMPLE) != 0) {
      PyErr_Clear();
      throw py::type_error("read_results reads a contiguous bytes-like object (bytes, memoryview, uint8 array), got " +
                           std::string(py::str(py::type::of(source).attr("__name__"))));
    }
  }
  ByteView(const ByteView&) = delete;
  ByteView& operator=(const ByteView&) = delete;
  ~ByteView() { PyBuffer_Release(&view_); }
  const char* data() const { return static_cast<const char*>(view_.buf); }
  std::size_t size() const { return static_cast<std::size_t>(view_.len); }

 private:
  Py_buffer view_{};
};

// A NumPy array owning the column's malloc'ed buffer.
template <class T>
py::array adopt(detection::Column<T>& column, std::vector<py::ssize_t> shape) {
  py::capsule owner(column.data.get(), [](void* pointer) { std::free(pointer); });
  T* data = column.data.release();  // the capsule frees it from now on
  return py::array_t<T>(std::move(shape), data, owner);
}

template <class T>
py::array adopt_1d(detection::Column<T>& column) {
  return adopt(column, {static_cast<py::ssize_t>(column.size)});
}

py::dict read_coco_results(const py::object& data) {
  detection::ResultsColumns c;
  {
    ByteView bytes(data);
    py::gil_scoped_release release;
    c = detection::read_results_json(bytes.data(), bytes.size());
  }
  const auto n = static_cast<py::ssize_t>(c.n_rows);
  py::dict out;
  out["n_rows"] = c.n_rows;
  out["image_id"] = adopt_1d(c.image_id);
  out["category_id"] = adopt_1d(c.category_id);
  out["score"] = adopt_1d(c.score);
  out["bbox"] = adopt(c.bbox, {n, 4});
  out["present"] = adopt_1d(c.present);
  out["area"] = adopt_1d(c.area);
  out["id"] = adopt_1d(c.id);
  out["iscrowd"] = adopt_1d(c.iscrowd);
  out["segmentation_kind"] = adopt_1d(c.segmentation_kind);
  out["segmentation_size"] = adopt(c.segmentation_size, {n, 2});
  out["rle_chars"] = adopt_1d(c.rle_chars);
  out["rle_chars_offsets"] = adopt_1d(c.rle_chars_offsets);
  out["rle_counts"] = adopt_1d(c.rle_counts);
  out["rle_counts_offsets"] = adopt_1d(c.rle_counts_offsets);
  out["polygon_coords"] = adopt_1d(c.polygon_coords);
  out["polygon_offsets"] = adopt_1d(c.polygon_offsets);
  out["polygon_row_offsets"] = adopt_1d(c.polygon_row_offsets);
  out["keypoints"] = adopt_1d(c.keypoints);
  out["keypoint_offsets"] = adopt_1d(c.keypoint_offsets);
  out["columnar_complete"] = c.columnar_complete;
  return out;
}

}  // namespace coco_results_glue
}  // namespace

void register_coco_results(py::module_& m) {
  using namespace coco_results_glue;
  m.def("read_results", &read_coco_results, py::arg("data"),
        "Columns of a COCO detection results JSON text (a top-level array of objects), as a dict of NumPy arrays; "
        "ValueError for malformed text.");
}
