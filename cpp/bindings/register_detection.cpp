// COCO evaluation: grouping annotations into (category, image) blocks, the
// per-block matching into a match table, and accumulation. NumPy arrays are
// read in place (the Python layer hands over contiguous arrays of the right
// dtype); kernels run without the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "python_interrupt.hpp"
#include "turbometrics/detection/accumulation.hpp"
#include "turbometrics/detection/iou_sources.hpp"
#include "turbometrics/detection/match_table.hpp"

namespace py = pybind11;
using namespace turbometrics;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace detection_glue {
using namespace turbometrics::detection;

template <class T>
using Array = py::array_t<T, py::array::c_style | py::array::forcecast>;

template <class T>
const T* checked(const Array<T>& array, int64_t size, const char* name) {
  if (array.size() != size) throw std::invalid_argument(std::string(name) + " has the wrong size");
  return array.data();
}

// Stable counting sort of `keys` into `n_keys` groups; negative keys are left
// out. Returns (offsets[n_keys + 1], members).
py::tuple group_by_key(const Array<int64_t>& keys, int64_t n_keys) {
  if (n_keys < 0) throw std::invalid_argument("n_keys must be non-negative");
  const int64_t n = keys.size();
  const int64_t* k = keys.data();
  Array<int64_t> offsets(static_cast<py::ssize_t>(n_keys + 1));
  int64_t* off = offsets.mutable_data();
  std::vector<int64_t> members;
  {
    py::gil_scoped_release release;
    std::fill(off, off + n_keys + 1, 0);
    for (int64_t i = 0; i < n; ++i) {
      if (k[i] >= n_keys) throw std::out_of_range("group key out of range");
      if (k[i] >= 0) ++off[k[i] + 1];
    }
    for (int64_t g = 0; g < n_keys; ++g) off[g + 1] += off[g];
    members.resize(static_cast<size_t>(off[n_keys]));
    std::vector<int64_t> cursor(off, off + n_keys);
    for (int64_t i = 0; i < n; ++i)
      if (k[i] >= 0) members[cursor[k[i]]++] = i;
  }
  return py::make_tuple(offsets, Array<int64_t>(static_cast<py::ssize_t>(members.size()), members.data()));
}

// Indices as pycocotools' accumulate builds them (k_list, a_list, i_list,
// the m values); an evalImgs index past the end raises IndexError.
void accumulate_table(const MatchTable& table, Array<int64_t> k_rows, Array<int64_t> a_rows, Array<int64_t> i_rows,
                      int64_t evaluated_areas, int64_t evaluated_images, Array<int64_t> max_detections,
                      Array<double> recall_thresholds, py::array_t<double, py::array::c_style> precision,
                      py::array_t<double, py::array::c_style> recall, py::array_t<double, py::array::c_style> scores,
                      int n_threads) {
  if (precision.ndim() != 5 || recall.ndim() != 4 || scores.ndim() != 5)
    throw std::invalid_argument("outputs must be (T, R, K, A, M) and (T, K, A, M) arrays");
  AccumulationLayout layout{k_rows.data(),
                            k_rows.size(),
                            a_rows.data(),
                            a_rows.size(),
                            i_rows.data(),
                            i_rows.size(),
                            evaluated_areas,
                            evaluated_images,
                            max_detections.data(),
                            max_detections.size(),
                            recall_thresholds.data(),
                            recall_thresholds.size(),
                            precision.shape(0),
                            precision.shape(1),
                            precision.shape(2),
                            precision.shape(3),
                            precision.shape(4)};
  const int64_t n_images = evaluated_images, n_areas = evaluated_areas;
  if (n_areas != table.n_area_ranges || n_images < 0 || (n_images > 0 && table.n_blocks % n_images != 0))
    throw std::invalid_argument("evaluated areas and images disagree with the match table");
  const int64_t n_entries = table.n_blocks * n_areas;  // len(evalImgs)
  auto check = [&](const Array<int64_t>& rows) {
    for (int64_t i = 0; i < rows.size(); ++i)
      if (rows.data()[i] < 0) throw py::index_error("list index out of range");
  };
  check(k_rows);
  check(a_rows);
  check(i_rows);
  // a cell's entries name distinct (area, block) pairs, so its regular
  // ground truths sum within the table's total
  for (int64_t i = 1; i < i_rows.size(); ++i)
    if (i_rows.data()[i] <= i_rows.data()[i - 1]) throw std::invalid_argument("i_rows must increase");
  if (layout.n_categories && layout.n_areas && layout.n_entries) {
    // the largest evalImgs index any cell reads
    const int64_t k = *std::max_element(k_rows.data(), k_rows.data() + k_rows.size());
    const int64_t a = *std::max_element(a_rows.data(), a_rows.data() + a_rows.size());
    const int64_t i = *std::max_element(i_rows.data(), i_rows.data() + i_rows.size());
    if ((k * n_areas + a) * n_images + i >= n_entries) throw py::index_error("list index out of range");
  }
  for (int i = 0; i < 5; ++i)
    if (scores.shape(i) != precision.shape(i)) throw std::invalid_argument("scores and precision shapes differ");
  if (recall.shape(0) != layout.out_T || recall.shape(1) != layout.out_K || recall.shape(2) != layout.out_A ||
      recall.shape(3) != layout.out_M || layout.out_R != layout.n_recall_thresholds ||
      layout.out_T < table.n_thresholds || layout.n_categories > layout.out_K || layout.n_areas > layout.out_A ||
      layout.n_max_detections > layout.out_M)
    throw std::invalid_argument("accumulation outputs have the wrong shape");
  // nothing to write; otherwise the recall output holds at least the
  // table's thresholds, which bounds the kernel's per-threshold buffers
  if (!layout.n_categories || !layout.n_areas || !layout.n_max_detections) return;
  double* p = precision.mutable_data();
  double* r = recall.mutable_data();
  double* s = scores.mutable_data();
  py::gil_scoped_release release;
  detection::accumulate(table, layout, p, r, s, n_threads);
}

template <class T>
py::array_t<T> to_array(const std::vector<T>& values, std::vector<py::ssize_t> shape) {
  py::array_t<T> out(shape);
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

// A match table as NumPy arrays (copies): row_offsets (B + 1), present (B),
// score (rows), true_positive / false_positive (A, rows, groups) and
// regular_gts (A, B).
py::dict table_arrays(const MatchTable& table) {
  const py::ssize_t A = table.n_area_ranges, B = table.n_blocks, rows = table.n_rows(), G = table.n_groups();
  py::dict out;
  out["n_thresholds"] = table.n_thresholds;
  out["row_offsets"] = to_array(table.row_offsets, {B + 1});
  out["present"] = to_array(table.present, {B});
  out["score"] = to_array(table.score, {rows});
  out["true_positive"] = to_array(table.true_positive, {A, rows, G});
  out["false_positive"] = to_array(table.false_positive, {A, rows, G});
  out["regular_gts"] = to_array(table.regular_gts, {A, B});
  return out;
}

template <class T>
std::vector<T> from_array(const Array<T>& array, int64_t size, const char* name) {
  const T* data = checked(array, size, name);
  return std::vector<T>(data, data + size);
}

// The inverse of table_arrays, validated so that accumulation stays in
// bounds whatever the arrays hold.
std::shared_ptr<MatchTable> table_from_arrays(int64_t n_thresholds, Array<int64_t> row_offsets, Array<uint8_t> present,
                                              Array<double> score, Array<uint64_t> true_positive,
                                              Array<uint64_t> false_positive, Array<int64_t> regular_gts) {
  auto table = std::make_shared<MatchTable>();
  if (n_thresholds < 0 || n_thresholds > std::numeric_limits<int64_t>::max() - 63 || row_offsets.size() < 1 ||
      regular_gts.ndim() != 2)
    throw std::invalid_argument("malformed match table");
  table->n_thresholds = n_thresholds;
  table->n_blocks = row_offsets.size() - 1;
  table->n_area_ranges = regular_gts.shape(0);
  const int64_t B = table->n_blocks, A = table->n_area_ranges;
  table->row_offsets = from_array(row_offsets, B + 1, "row_offsets");
  if (table->row_offsets[0] != 0) throw std::invalid_argument("row_offsets must start at 0");
  for (int64_t b = 0; b < B; ++b)
    if (table->row_offsets[b + 1] < table->row_offsets[b]) throw std::invalid_argument("row_offsets must not decrease");
  const int64_t rows = table->n_rows(), G = table->n_groups();
  table->present = from_array(present, B, "present");
  table->score = from_array(score, rows, "score");
  int64_t masks = 0;
  if (mul_overflow(A, rows, &masks) || mul_overflow(masks, G, &masks))
    throw std::invalid_argument("true_positive has the wrong size");
  table->true_positive = from_array(true_positive, masks, "true_positive");
  table->false_positive = from_array(false_positive, masks, "false_positive");
  table->regular_gts = from_array(regular_gts, A * B, "regular_gts");
  check_match_table(*table);
  return table;
}

// One evaluation: the annotations' columns, their blocks, the parameters, the
// IoU source and, once matched, the match table.
class Evaluation {
 public:
  Evaluation(Array<double> gt_id, Array<double> gt_area, Array<uint8_t> gt_ignore, Array<uint8_t> gt_crowd,
             Array<double> dt_id, Array<double> dt_area, Array<double> dt_score, Array<int64_t> gt_offsets,
             Array<int64_t> gt_members, Array<int64_t> dt_offsets, Array<int64_t> dt_members,
             Array<double> iou_thresholds, Array<double> area_ranges, int64_t max_detections)
      : gt_id_(gt_id),
        gt_area_(gt_area),
        gt_ignore_(gt_ignore),
        gt_crowd_(gt_crowd),
        dt_id_(dt_id),
        dt_area_(dt_area),
        dt_score_(dt_score),
        gt_offsets_(gt_offsets),
        gt_members_(gt_members),
        dt_offsets_(dt_offsets),
        dt_members_(dt_members),
        iou_thresholds_(iou_thresholds),
        area_ranges_(area_ranges) {
    const int64_t n_gt = gt_id.size(), n_dt = dt_id.size();
    gts_ = {gt_id.data(), checked(gt_area, n_gt, "gt_area"), checked(gt_ignore, n_gt, "gt_ignore"),
            checked(gt_crowd, n_gt, "gt_crowd")};
    dts_ = {dt_id.data(), checked(dt_area, n_dt, "dt_area"), checked(dt_score, n_dt, "dt_score")};
    if (gt_offsets.size() < 1 || gt_offsets.size() != dt_offsets.size())
      throw std::invalid_argument("block offsets disagree");
    blocks_ = {gt_offsets.data(), gt_members.data(), dt_offsets.data(), dt_members.data(), gt_offsets.size() - 1};
    check_members(gt_offsets_, gt_members_, n_gt);
    check_members(dt_offsets_, dt_members_, n_dt);
    if (area_ranges.ndim() != 2 || area_ranges.shape(1) != 2)
      throw std::invalid_argument("area ranges must be an (A, 2) array");
    params_ = {iou_thresholds.data(), iou_thresholds.size(), area_ranges.data(), area_ranges.shape(0), max_detections};
  }

  void use_boxes(Array<double> dt_boxes, Array<double> gt_boxes) {
    checked(dt_boxes, 4 * dt_id_.size(), "dt_boxes");
    checked(gt_boxes, 4 * gt_id_.size(), "gt_boxes");
    keep_ = {dt_boxes, gt_boxes};
    source_ = BoxIous{dt_boxes.data(), gt_boxes.data(), gts_.crowd};
  }

  // values: per block, (block's detections in input order) x (its ground
  // truths); offsets[block] < 0 where there is no matrix.
  void use_precomputed(Array<double> values, Array<int64_t> offsets) {
    checked(offsets, blocks_.n_blocks, "offsets");
    for (int64_t b = 0; b < blocks_.n_blocks; ++b) {
      const int64_t o = offsets.data()[b];
      const int64_t need =
          (blocks_.dt_offsets[b + 1] - blocks_.dt_offsets[b]) * (blocks_.gt_offsets[b + 1] - blocks_.gt_offsets[b]);
      if (o >= 0 && o + need > values.size()) throw std::invalid_argument("precomputed IoUs are too short");
    }
    keep_ = {values, offsets};
    source_ = PrecomputedIous{values.data(), offsets.data()};
  }

  // Matches every block; with a progress callback, in about 100 steps,
  // calling progress(done_blocks, total_blocks) with the GIL held after each.
  // Masks as compressed RLE text: counts of object i at
  // text[offsets[i]:offsets[i + 1]], size sizes[i] = (h, w). Decoded in
  // parallel; ValueError("mask <i>: ...") names the first malformed one.
  void use_masks(py::bytes dt_text, Array<int64_t> dt_offsets, Array<int64_t> dt_sizes, py::bytes gt_text,
                 Array<int64_t> gt_offsets, Array<int64_t> gt_sizes, int n_threads) {
    auto prepare_side = [&](const py::bytes& text, const Array<int64_t>& offsets, const Array<int64_t>& sizes,
                            int64_t n, const char* side) {
      checked(offsets, n + 1, side);
      checked(sizes, 2 * n, side);
      const std::string_view view(text);
      const int64_t* o = offsets.data();
      for (int64_t i = 0; i < n; ++i)
        if (o[i] < 0 || o[i + 1] < o[i] || o[i + 1] > static_cast<int64_t>(view.size()))
          throw std::invalid_argument(std::string(side) + " offsets are inconsistent");
      for (int64_t i = 0; i < 2 * n; ++i)
        if (sizes.data()[i] < 0) throw std::invalid_argument("mask sizes must be non-negative");
      py::gil_scoped_release release;
      try {
        return std::make_shared<PreparedMasks>(view.data(), o, sizes.data(), n, n_threads);
      } catch (const std::invalid_argument& error) {
        throw std::invalid_argument(std::string(side) + ": " + error.what());
      }
    };
    auto dts = prepare_side(dt_text, dt_offsets, dt_sizes, dt_id_.size(), "detection masks");
    auto gts = prepare_side(gt_text, gt_offsets, gt_sizes, gt_id_.size(), "ground-truth masks");
    keep_masks_ = {dts, gts};
    source_ = MaskIous{dts->prepared.data(), gts->prepared.data(), gts_.crowd};
  }

  void match(int n_threads, const py::object& progress) {
    auto& source = require_source();
    table_.reset();
    auto table = std::make_shared<MatchTable>(empty_match_table(blocks_, params_));
    const int64_t total = blocks_.n_blocks;
    const int64_t step = progress.is_none() ? std::max<int64_t>(total, 1) : std::max<int64_t>(total / 100, 4096);
    for (int64_t begin = 0; begin < total; begin += step) {
      const int64_t end = std::min(total, begin + step);
      bindings::interruptible([&](const Interrupt& interrupt) {
        std::visit(
            [&](const auto& s) {
              match_blocks(*table, begin, end, blocks_, gts_, dts_, params_, s, n_threads, interrupt);
            },
            source);
      });
      if (!progress.is_none()) progress(end, total);
    }
    table_ = table;
  }

  // The matching of one block in full, for evalImgs and ious: a dict with the
  // kept detections (column indices, best first), the IoU matrix (or None)
  // and, per area range, the ground-truth order, the number of regular
  // ground truths, matched_gt (T x D), last_dt (T x G) and dt_ignored (T x D).
  py::dict block(int64_t b) {
    if (b < 0 || b >= blocks_.n_blocks) throw std::out_of_range("block out of range");
    auto& source = require_source();
    BlockMatcher matcher;
    const int64_t g0 = blocks_.gt_offsets[b], d0 = blocks_.dt_offsets[b];
    std::visit(
        [&](const auto& s) {
          matcher.load(b, gts_, dts_, blocks_.gt_members + g0, blocks_.gt_offsets[b + 1] - g0, blocks_.dt_members + d0,
                       blocks_.dt_offsets[b + 1] - d0, params_, s);
        },
        source);
    const int64_t D = matcher.n_dt(), G = matcher.n_gt(), T = params_.n_thresholds;
    py::dict out;
    out["detections"] = Array<int64_t>(static_cast<py::ssize_t>(D), matcher.detections());
    if (matcher.has_ious())
      out["ious"] = Array<double>({static_cast<py::ssize_t>(D), static_cast<py::ssize_t>(G)}, matcher.ious());
    else
      out["ious"] = py::none();
    py::list areas;
    for (int64_t a = 0; a < params_.n_area_ranges; ++a) {
      matcher.match(a);
      Array<int64_t> matched({T, D}), last({T, G});
      py::array_t<bool> ignored({T, D});
      for (int64_t t = 0; t < T; ++t) {
        for (int64_t d = 0; d < D; ++d) {
          matched.mutable_data()[t * D + d] = matcher.matched_gt(t, d);
          ignored.mutable_data()[t * D + d] = matcher.dt_ignored(t, d);
        }
        for (int64_t j = 0; j < G; ++j) last.mutable_data()[t * G + j] = matcher.last_dt(t, j);
      }
      py::dict area;
      area["gt_order"] = Array<int64_t>(static_cast<py::ssize_t>(G), matcher.gt_order());
      area["n_regular"] = matcher.n_regular_gts();
      area["matched_gt"] = matched;
      area["last_dt"] = last;
      area["dt_ignored"] = ignored;
      areas.append(area);
    }
    out["areas"] = areas;
    return out;
  }

  std::shared_ptr<MatchTable> table() const {
    require_table();
    return table_;
  }
  int64_t n_blocks() const { return blocks_.n_blocks; }
  bool matched() const { return static_cast<bool>(table_); }
  bool block_present(int64_t b) const {
    const MatchTable& table = require_table();
    if (b < 0 || b >= table.n_blocks) throw std::out_of_range("block out of range");
    return table.present[b] != 0;
  }

 private:
  static void check_members(const Array<int64_t>& offsets, const Array<int64_t>& members, int64_t n) {
    const int64_t* o = offsets.data();
    const int64_t blocks = offsets.size() - 1;
    if (o[0] != 0 || o[blocks] != members.size()) throw std::invalid_argument("block offsets are inconsistent");
    for (int64_t b = 0; b < blocks; ++b)
      if (o[b + 1] < o[b]) throw std::invalid_argument("block offsets must not decrease");
    for (int64_t i = 0; i < members.size(); ++i)
      if (members.data()[i] < 0 || members.data()[i] >= n) throw std::out_of_range("block member out of range");
  }
  const std::variant<BoxIous, PrecomputedIous, MaskIous>& require_source() const {
    if (!source_) throw std::logic_error("no IoU source set");
    return *source_;
  }
  const MatchTable& require_table() const {
    if (!table_) throw std::logic_error("evaluate() has not run");
    return *table_;
  }

  Array<double> gt_id_, gt_area_;
  Array<uint8_t> gt_ignore_, gt_crowd_;
  Array<double> dt_id_, dt_area_, dt_score_;
  Array<int64_t> gt_offsets_, gt_members_, dt_offsets_, dt_members_;
  Array<double> iou_thresholds_, area_ranges_;
  std::vector<py::object> keep_;  // arrays the IoU source reads
  GroundTruthColumns gts_{};
  DetectionColumns dts_{};
  BlockMembers blocks_{};
  MatchingParams params_{};
  std::optional<std::variant<BoxIous, PrecomputedIous, MaskIous>> source_;
  std::vector<std::shared_ptr<PreparedMasks>> keep_masks_;  // what a MaskIous source reads
  std::shared_ptr<MatchTable> table_;
};

}  // namespace detection_glue
}  // namespace

void register_detection(py::module_& m) {
  using namespace detection_glue;
  m.def("group_by_key", &group_by_key, py::arg("keys"), py::arg("n_keys"),
        "(offsets, members): a stable counting sort of keys into n_keys groups; negative keys are left out.");
  py::class_<MatchTable, std::shared_ptr<MatchTable>>(m, "MatchTable",
                                                      "Matched detections: the rows accumulation sweeps.")
      .def(py::init(&table_from_arrays), py::arg("n_thresholds"), py::arg("row_offsets"), py::arg("present"),
           py::arg("score"), py::arg("true_positive"), py::arg("false_positive"), py::arg("regular_gts"))
      .def("arrays", &table_arrays)
      .def("accumulate", &accumulate_table, py::arg("k_rows"), py::arg("a_rows"), py::arg("i_rows"),
           py::arg("evaluated_areas"), py::arg("evaluated_images"), py::arg("max_detections"),
           py::arg("recall_thresholds"), py::arg("precision"), py::arg("recall"), py::arg("scores"),
           py::arg("n_threads"));
  py::class_<Evaluation>(m, "Evaluation")
      .def(py::init<Array<double>, Array<double>, Array<uint8_t>, Array<uint8_t>, Array<double>, Array<double>,
                    Array<double>, Array<int64_t>, Array<int64_t>, Array<int64_t>, Array<int64_t>, Array<double>,
                    Array<double>, int64_t>(),
           py::arg("gt_id"), py::arg("gt_area"), py::arg("gt_ignore"), py::arg("gt_crowd"), py::arg("dt_id"),
           py::arg("dt_area"), py::arg("dt_score"), py::arg("gt_offsets"), py::arg("gt_members"), py::arg("dt_offsets"),
           py::arg("dt_members"), py::arg("iou_thresholds"), py::arg("area_ranges"), py::arg("max_detections"))
      .def("use_boxes", &Evaluation::use_boxes, py::arg("dt_boxes"), py::arg("gt_boxes"))
      .def("use_precomputed", &Evaluation::use_precomputed, py::arg("values"), py::arg("offsets"))
      .def("use_masks", &Evaluation::use_masks, py::arg("dt_text"), py::arg("dt_offsets"), py::arg("dt_sizes"),
           py::arg("gt_text"), py::arg("gt_offsets"), py::arg("gt_sizes"), py::arg("n_threads"))
      .def("match", &Evaluation::match, py::arg("n_threads"), py::arg("progress") = py::none())
      .def_property_readonly("table", &Evaluation::table)
      .def("block", &Evaluation::block, py::arg("block"))
      .def("block_present", &Evaluation::block_present, py::arg("block"))
      .def_property_readonly("n_blocks", &Evaluation::n_blocks)
      .def_property_readonly("matched", &Evaluation::matched);
}
