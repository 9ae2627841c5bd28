// The compiled module turbometrics._core: one submodule per area
// (turbometrics._core.ranking, ...), each registered from its own file.
// def_submodule adds the submodule to sys.modules, so
// `import turbometrics._core.ranking` works although _core is no package.
// Their stubs are python/turbometrics/_core/<area>.pyi, checked by .ci/stubtest.
#include <pybind11/pybind11.h>

namespace py = pybind11;

void register_threads(py::module_& m);
void register_labels(py::module_& m);
void register_ranking(py::module_& m);
void register_ranking_tables(py::module_& m);
void register_exact_sums(py::module_& m);
void register_density(py::module_& m);
void register_calibration(py::module_& m);
void register_stability(py::module_& m);
void register_classification(py::module_& m);
void register_detection(py::module_& m);
void register_coco_results(py::module_& m);
void register_coco_masks(py::module_& m);
void register_segmentation(py::module_& m);

PYBIND11_MODULE(_core, m) {
  m.doc() = "turbometrics compiled kernels (private; use the turbometrics package).";
  py::module_ threads = m.def_submodule("threads", "Build facts about threading.");
  register_threads(threads);
  py::module_ labels = m.def_submodule("labels", "Label scanning and finiteness checks.");
  register_labels(labels);
  py::module_ ranking = m.def_submodule("ranking", "Ranking metrics of scores against binary targets.");
  register_ranking(ranking);
  py::module_ ranking_tables = m.def_submodule(
      "ranking_tables", "The mergeable ranking states' tables (sorted distinct scores): their metrics and merge.");
  register_ranking_tables(ranking_tables);
  py::module_ exact_sums = m.def_submodule("exact_sums", "Exact sums of floats, shared by the areas.");
  register_exact_sums(exact_sums);
  py::module_ density = m.def_submodule("density", "Kernel density estimation.");
  register_density(density);
  py::module_ calibration = m.def_submodule("calibration", "Calibration metrics and proper scores.");
  register_calibration(calibration);
  py::module_ stability = m.def_submodule("stability", "Prediction stability across models.");
  register_stability(stability);
  py::module_ classification = m.def_submodule("classification", "Confusion tables and label sums.");
  register_classification(classification);
  // Detection: the area's kernels (matching, the per-detection match table,
  // accumulation), then the COCO format's (results JSON, RLE masks).
  py::module_ detection = m.def_submodule("detection", "Detection evaluation: matching and the match tables.");
  register_detection(detection);
  py::module_ coco_results = m.def_submodule("coco_results", "COCO results JSON read into columns.");
  register_coco_results(coco_results);
  py::module_ coco_masks = m.def_submodule("coco_masks", "COCO run-length encoded masks.");
  register_coco_masks(coco_masks);
  py::module_ segmentation = m.def_submodule("segmentation", "Segmentation: the confusion counts of label maps.");
  register_segmentation(segmentation);
}
