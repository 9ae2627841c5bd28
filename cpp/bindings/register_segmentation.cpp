// The segmentation kernels: the confusion counts of label maps and the
// surface distances of their classes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "python_interrupt.hpp"
#include "turbometrics/segmentation/label_confusion.hpp"
#include "turbometrics/segmentation/surface_distance.hpp"

namespace py = pybind11;
using namespace turbometrics;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace segmentation_glue {

// Calls f(Label{}) for the label map dtypes the kernel reads: uint8 (and
// bool), uint16, int32 and int64.
template <class F>
decltype(auto) visit_map_dtype(const py::array& map, const char* name, F&& f) {
  const py::dtype dtype = map.dtype();
  if (!dtype.attr("isnative").cast<bool>()) throw py::type_error(std::string(name) + " must be native-endian");
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  if ((kind == 'u' || kind == 'b') && size == 1) return f(uint8_t{});
  if (kind == 'u' && size == 2) return f(uint16_t{});
  if (kind == 'i' && size == 4) return f(int32_t{});
  if (kind == 'i' && size == 8) return f(int64_t{});
  throw py::type_error(std::string(name) + ": unsupported label map dtype " + std::string(py::str(dtype)));
}

segmentation::MapView view_of(const py::array& map, const char* name) {
  if (map.ndim() != 3) throw std::invalid_argument(std::string(name) + " must be viewed as (images, rows, columns)");
  return {static_cast<const char*>(map.data()), static_cast<int64_t>(map.strides(0)),
          static_cast<int64_t>(map.strides(1)), static_cast<int64_t>(map.strides(2))};
}

// (valid, counts): the confusion counts of two (images, rows, columns)
// maps, K x K or with per_image images x K x K; valid is false when a pixel
// not skipped holds a label outside [0, K) (the counts are then partial).
std::pair<bool, py::array_t<int64_t>> confusion_counts(const py::array& y_true, const py::array& y_pred,
                                                       int64_t classes, std::optional<int64_t> ignore, bool per_image,
                                                       int n_threads) {
  if (classes < 1 || classes > segmentation::max_classes) {
    throw std::invalid_argument("num_classes must be in [1, " + std::to_string(segmentation::max_classes) + "]");
  }
  const segmentation::MapView t = view_of(y_true, "y_true"), p = view_of(y_pred, "y_pred");
  for (int axis = 0; axis < 3; ++axis) {
    if (y_true.shape(axis) != y_pred.shape(axis)) throw std::invalid_argument("y_true and y_pred differ in shape");
  }
  const segmentation::MapShape shape{y_true.shape(0), y_true.shape(1), y_true.shape(2)};
  const segmentation::LabelRules rules{classes, ignore.has_value(), ignore.value_or(0)};
  std::vector<py::ssize_t> dims{classes, classes};
  if (per_image) dims.insert(dims.begin(), shape.images);
  py::array_t<int64_t> out(dims);
  int64_t* counts = out.mutable_data();
  std::fill(counts, counts + out.size(), int64_t{0});
  const bool valid = visit_map_dtype(y_true, "y_true", [&](auto true_tag) {
    return visit_map_dtype(y_pred, "y_pred", [&](auto pred_tag) {
      using True = decltype(true_tag);
      using Pred = decltype(pred_tag);
      return bindings::interruptible([&](const Interrupt& interrupt) {
        return segmentation::confusion_counts<True, Pred>(t, p, shape, rules, per_image, n_threads, counts, interrupt);
      });
    });
  });
  return {valid, out};
}

py::array_t<double> to_array(const std::vector<double>& values) {
  py::array_t<double> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

// [(pred boundary pixels, true boundary pixels, pred -> true distances,
// true -> pred distances)] for each class of `classes`, of two
// (planes, rows, columns) maps whose `dims` trailing axes are spatial.
py::list surface_distances(const py::array& y_pred, const py::array& y_true, int dims, std::vector<double> spacing,
                           int connectivity, int64_t num_classes, const std::vector<int64_t>& classes, int n_threads) {
  if (num_classes < 1) throw std::invalid_argument("num_classes must be at least 1");
  if (dims < 1 || dims > 3) throw std::invalid_argument("dims must be 1, 2 or 3");
  if (connectivity < 0) throw std::invalid_argument("connectivity must be at least 0");
  if (spacing.size() != 3) throw std::invalid_argument("spacing must hold 3 values");
  for (const int64_t c : classes) {
    if (c < 0 || c >= num_classes) throw std::invalid_argument("a class lies outside [0, num_classes)");
  }
  const segmentation::MapView p = view_of(y_pred, "y_pred"), t = view_of(y_true, "y_true");
  for (int axis = 0; axis < 3; ++axis) {
    if (y_true.shape(axis) != y_pred.shape(axis)) throw std::invalid_argument("y_true and y_pred differ in shape");
  }
  if (dims < 3 && y_pred.shape(0) != 1) throw std::invalid_argument("a map of fewer than 3 dims has one plane");
  if (dims < 2 && y_pred.shape(1) != 1) throw std::invalid_argument("a 1-D map has one row");
  segmentation::SurfaceGrid grid;
  grid.dims = dims;
  grid.connectivity = connectivity;
  for (int axis = 0; axis < 3; ++axis) {
    grid.extent[axis] = y_pred.shape(axis);
    grid.spacing[axis] = spacing[static_cast<size_t>(axis)];
    if (!(grid.spacing[axis] > 0) || !std::isfinite(grid.spacing[axis])) {
      throw std::invalid_argument("spacing must be finite and positive");
    }
  }
  std::vector<segmentation::SurfaceDistances> results;
  visit_map_dtype(y_pred, "y_pred", [&](auto pred_tag) {
    visit_map_dtype(y_true, "y_true", [&](auto true_tag) {
      using Pred = decltype(pred_tag);
      using True = decltype(true_tag);
      bindings::interruptible([&](const Interrupt& interrupt) {
        segmentation::surface_distances<Pred, True>(p, t, grid, num_classes, classes, n_threads, results, interrupt);
      });
    });
  });
  py::list out;
  for (const segmentation::SurfaceDistances& r : results) {
    out.append(py::make_tuple(r.pred_boundary, r.true_boundary, to_array(r.pred_to_true), to_array(r.true_to_pred)));
  }
  return out;
}

}  // namespace segmentation_glue
}  // namespace

void register_segmentation(py::module_& m) {
  using namespace segmentation_glue;
  m.def("confusion_counts", &confusion_counts, py::arg("y_true"), py::arg("y_pred"), py::arg("num_classes"),
        py::arg("ignore_index"), py::arg("per_image"), py::arg("n_threads"),
        "(valid, counts): int64 confusion counts of two (images, rows, columns) label maps, rows true; "
        "valid is False when a pixel not ignored holds a label outside [0, num_classes).");
  m.def("surface_distances", &surface_distances, py::arg("y_pred"), py::arg("y_true"), py::arg("dims"),
        py::arg("spacing"), py::arg("connectivity"), py::arg("num_classes"), py::arg("classes"), py::arg("n_threads"),
        "[(pred boundary pixels, true boundary pixels, pred->true distances, true->pred distances)] per class "
        "of two (planes, rows, columns) label maps whose `dims` trailing axes are spatial; float64 distances in "
        "C order of the boundary pixels, +inf towards an empty boundary. Connectivity 0: every pixel of a class "
        "is a boundary pixel.");
}
