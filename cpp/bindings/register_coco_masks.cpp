// COCO mask kernels (turbometrics.coco.mask): pybind11 glue only. Python
// RLE objects are read once into an opaque RleBatch; NumPy inputs are read
// in place; the GIL is released around every kernel.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rle_objects.hpp"
#include "turbometrics/detection/rle.hpp"

namespace py = pybind11;
using namespace turbometrics;
using detection::RunLengths;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace coco_masks_glue {

// Parsed RLEs, kept on the C++ side between calls.
struct RleBatch {
  std::vector<RunLengths> rles;
};

RleBatch parse(const py::handle& objects) {
  const bindings::RleTexts texts = bindings::read_rle_objects(objects);
  RleBatch batch;
  py::gil_scoped_release release;
  batch.rles = bindings::decode_rle_texts(texts);
  return batch;
}

py::list to_objects(const std::vector<RunLengths>& rles, const std::vector<std::string>& texts) {
  py::list out(rles.size());
  for (size_t i = 0; i < rles.size(); ++i) out[i] = bindings::rle_object(rles[i].height, rles[i].width, texts[i]);
  return out;
}

std::vector<std::string> texts_of(const std::vector<RunLengths>& rles, int n_threads) {
  std::vector<std::string> texts(rles.size());
  detection::for_each_index(static_cast<int64_t>(rles.size()), n_threads,
                            [&](int64_t i) { texts[i] = detection::to_string(rles[i]); });
  return texts;
}

// masks: (h, w, n) uint8 or bool, Fortran-contiguous.
py::list encode(const py::array& masks, int n_threads) {
  if (masks.ndim() != 3) throw std::invalid_argument("encode reads an (h, w, n) array");
  const py::dtype dtype = masks.dtype();
  if (dtype.itemsize() != 1 || (dtype.kind() != 'u' && dtype.kind() != 'b'))
    throw py::type_error("encode reads uint8 or bool masks");
  if (!(masks.flags() & py::array::f_style)) throw std::invalid_argument("ndarray is not Fortran contiguous");
  const uint64_t h = masks.shape(0), w = masks.shape(1), n = masks.shape(2);
  const auto* data = static_cast<const uint8_t*>(masks.data());
  std::vector<RunLengths> rles(n);
  std::vector<std::string> texts;
  {
    py::gil_scoped_release release;
    detection::for_each_index(static_cast<int64_t>(n), n_threads,
                              [&](int64_t i) { rles[i] = detection::encode(data + i * h * w, h, w); });
    texts = texts_of(rles, n_threads);
  }
  return to_objects(rles, texts);
}

// (h, w, n) Fortran-ordered uint8 masks; every RLE must have the same size
// and cover it exactly.
py::array decode(const RleBatch& batch, int n_threads) {
  const auto& rles = batch.rles;
  if (rles.empty()) throw std::invalid_argument("decode needs at least one RLE");
  const uint64_t h = rles[0].height, w = rles[0].width;
  for (size_t i = 0; i < rles.size(); ++i) {
    if (rles[i].height != h || rles[i].width != w)
      throw std::invalid_argument("decode: RLE " + std::to_string(i) + " has size " + std::to_string(rles[i].height) +
                                  "x" + std::to_string(rles[i].width) + ", RLE 0 has " + std::to_string(h) + "x" +
                                  std::to_string(w) + "; all must have the same size");
    try {
      detection::check_covers_mask(rles[i]);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("RLE " + std::to_string(i) + ": " + e.what());
    }
  }
  py::array_t<uint8_t, py::array::f_style> out(
      {static_cast<py::ssize_t>(h), static_cast<py::ssize_t>(w), static_cast<py::ssize_t>(rles.size())});
  uint8_t* o = out.mutable_data();
  {
    py::gil_scoped_release release;
    detection::for_each_index(static_cast<int64_t>(rles.size()), n_threads,
                              [&](int64_t i) { detection::decode(rles[i], o + i * h * w); });
  }
  return out;
}

py::array_t<uint32_t> area(const py::handle& objects) {
  const RleBatch batch = parse(objects);
  py::array_t<uint32_t> out(static_cast<py::ssize_t>(batch.rles.size()));
  uint32_t* o = out.mutable_data();
  py::gil_scoped_release release;
  for (size_t i = 0; i < batch.rles.size(); ++i) o[i] = detection::area(batch.rles[i]);
  return out;
}

py::array_t<double> to_bbox(const py::handle& objects) {
  const RleBatch batch = parse(objects);
  py::array_t<double> out({static_cast<py::ssize_t>(batch.rles.size()), py::ssize_t{4}});
  double* o = out.mutable_data();
  py::gil_scoped_release release;
  for (size_t i = 0; i < batch.rles.size(); ++i) {
    try {
      const detection::Box box = detection::to_bbox(batch.rles[i]);
      std::copy(box.begin(), box.end(), o + 4 * i);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("RLE " + std::to_string(i) + ": " + e.what());
    }
  }
  return out;
}

// intersect is converted after parsing, as in pycocotools.
py::dict merge(const py::handle& objects, const py::handle& intersect_flag) {
  const RleBatch batch = parse(objects);
  const bool intersect = bindings::as_c_int(intersect_flag) != 0;
  RunLengths merged;
  std::string text;
  {
    py::gil_scoped_release release;
    merged = detection::merge(batch.rles.data(), batch.rles.size(), intersect);
    text = detection::to_string(merged);
  }
  return bindings::rle_object(merged.height, merged.width, text);
}

void check_crowd(const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& crowd, int64_t n_gt) {
  if (crowd.ndim() != 1 || crowd.shape(0) != n_gt) throw std::invalid_argument("iscrowd needs one flag per gt");
}

// (n_dt, n_gt) Fortran-ordered IoU matrix.
py::array rle_iou(const RleBatch& dt, const RleBatch& gt,
                  const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& crowd, int n_threads) {
  const auto m = static_cast<int64_t>(dt.rles.size()), n = static_cast<int64_t>(gt.rles.size());
  check_crowd(crowd, n);
  py::array_t<double, py::array::f_style> out({static_cast<py::ssize_t>(m), static_cast<py::ssize_t>(n)});
  double* o = out.mutable_data();
  const uint8_t* c = crowd.data();
  py::gil_scoped_release release;
  detection::rle_iou_matrix(dt.rles.data(), m, gt.rles.data(), n, c, o, n_threads);
  return out;
}

using Boxes = py::array_t<double, py::array::c_style | py::array::forcecast>;

py::array box_iou(const Boxes& dt, const Boxes& gt,
                  const py::array_t<uint8_t, py::array::c_style | py::array::forcecast>& crowd, int n_threads) {
  if (dt.ndim() != 2 || dt.shape(1) != 4 || gt.ndim() != 2 || gt.shape(1) != 4)
    throw std::invalid_argument("boxes must be (n, 4) arrays");
  const int64_t m = dt.shape(0), n = gt.shape(0);
  check_crowd(crowd, n);
  py::array_t<double, py::array::f_style> out({static_cast<py::ssize_t>(m), static_cast<py::ssize_t>(n)});
  double* o = out.mutable_data();
  const double *d = dt.data(), *g = gt.data();
  const uint8_t* c = crowd.data();
  py::gil_scoped_release release;
  detection::box_iou_matrix(d, m, g, n, c, o, n_threads);
  return out;
}

py::list from_bbox(const Boxes& boxes, uint64_t h, uint64_t w) {
  if (boxes.ndim() != 2 || boxes.shape(1) != 4) throw std::invalid_argument("boxes must be an (n, 4) array");
  const auto n = static_cast<size_t>(boxes.shape(0));
  const double* b = boxes.data();
  std::vector<RunLengths> rles(n);
  std::vector<std::string> texts;
  {
    py::gil_scoped_release release;
    for (size_t i = 0; i < n; ++i) {
      try {
        rles[i] = detection::from_bbox(b + 4 * i, h, w);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("box " + std::to_string(i) + ": " + e.what());
      }
    }
    texts = texts_of(rles, 1);
  }
  return to_objects(rles, texts);
}

// polygons: a sequence of objects each converted as np.array(p,
// dtype=np.double) and required to be 1-D (an odd last value is ignored);
// h and w are converted first, as pycocotools' Cython arguments.
py::list from_polygons(const py::handle& polygons, const py::handle& h_obj, const py::handle& w_obj) {
  const uint64_t h = bindings::as_siz(h_obj), w = bindings::as_siz(w_obj);
  std::vector<py::array_t<double, py::array::c_style | py::array::forcecast>> arrays;
  arrays.reserve(py::len(polygons));
  for (py::handle p : polygons) {
    arrays.emplace_back(py::reinterpret_borrow<py::object>(p));
    if (arrays.back().ndim() != 1)
      throw std::invalid_argument("Buffer has wrong number of dimensions (expected 1, got " +
                                  std::to_string(arrays.back().ndim()) + ")");
  }
  std::vector<std::pair<const double*, size_t>> views;
  views.reserve(arrays.size());
  for (const auto& a : arrays) views.emplace_back(a.data(), static_cast<size_t>(a.shape(0)) / 2);
  std::vector<RunLengths> rles(views.size());
  std::vector<std::string> texts;
  {
    py::gil_scoped_release release;
    for (size_t i = 0; i < views.size(); ++i) {
      try {
        rles[i] = detection::from_polygon(views[i].first, views[i].second, h, w);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("polygon " + std::to_string(i) + ": " + e.what());
      }
    }
    texts = texts_of(rles, 1);
  }
  return to_objects(rles, texts);
}

// One compressed RLE object from uncompressed uint32 counts.
py::dict from_counts(const py::array_t<uint32_t, py::array::c_style | py::array::forcecast>& counts, uint64_t h,
                     uint64_t w) {
  if (counts.ndim() != 1) throw std::invalid_argument("counts must be 1-D");
  RunLengths rle;
  rle.height = h;
  rle.width = w;
  rle.counts.assign(counts.data(), counts.data() + counts.shape(0));
  std::string text;
  {
    py::gil_scoped_release release;
    text = detection::to_string(rle);
  }
  return bindings::rle_object(h, w, text);
}

}  // namespace coco_masks_glue
}  // namespace

void register_coco_masks(py::module_& m) {
  using namespace coco_masks_glue;
  py::class_<RleBatch>(m, "RleBatch", "Parsed RLE masks (private).")
      .def("__len__", [](const RleBatch& b) { return b.rles.size(); })
      .def(
          "pixels",
          [](const RleBatch& b) {
            double total = 0;  // only sizes a thread count
            for (const auto& r : b.rles) total += static_cast<double>(r.height) * static_cast<double>(r.width);
            return total;
          },
          "Total number of pixels of the masks (approximate).");
  m.def("parse", &parse, py::arg("objects"),
        "Parse a sequence of {'size': [h, w], 'counts': bytes | str} objects (validated).");
  m.def("encode", &encode, py::arg("masks"), py::arg("n_threads"),
        "RLE objects of an (h, w, n) Fortran-ordered uint8/bool array.");
  m.def("decode", &decode, py::arg("rles"), py::arg("n_threads"), "(h, w, n) Fortran-ordered uint8 masks.");
  m.def("area", &area, py::arg("objects"), "uint32 areas (pycocotools' wrap-around sums) of RLE objects.");
  m.def("to_bbox", &to_bbox, py::arg("objects"), "(n, 4) float64 [x, y, w, h] boxes of RLE objects.");
  m.def("merge", &merge, py::arg("objects"), py::arg("intersect"),
        "Union (intersect converts to C int 0) or intersection of RLE objects, as an RLE object.");
  m.def("rle_iou", &rle_iou, py::arg("dt"), py::arg("gt"), py::arg("iscrowd"), py::arg("n_threads"),
        "(n_dt, n_gt) Fortran-ordered IoU of RLE masks.");
  m.def("box_iou", &box_iou, py::arg("dt"), py::arg("gt"), py::arg("iscrowd"), py::arg("n_threads"),
        "(n_dt, n_gt) Fortran-ordered IoU of [x, y, w, h] boxes.");
  m.def("from_bbox", &from_bbox, py::arg("boxes"), py::arg("h"), py::arg("w"), "RLE objects of (n, 4) float64 boxes.");
  m.def("from_polygons", &from_polygons, py::arg("polygons"), py::arg("h"), py::arg("w"),
        "RLE objects of polygons (sequences of x, y values).");
  m.def("from_counts", &from_counts, py::arg("counts"), py::arg("h"), py::arg("w"),
        "The compressed RLE object of uncompressed uint32 counts.");
}
