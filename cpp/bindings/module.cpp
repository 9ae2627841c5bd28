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
void register_states(py::module_& m);
void register_density(py::module_& m);
void register_calibration(py::module_& m);
void register_stability(py::module_& m);
void register_classification(py::module_& m);
void register_detection(py::module_& m);
void register_coco_json(py::module_& m);
void register_mask(py::module_& m);

PYBIND11_MODULE(_core, m) {
  m.doc() = "turbometrics compiled kernels (private; use the turbometrics package).";
  py::module_ threads = m.def_submodule("threads", "Build facts about threading.");
  register_threads(threads);
  py::module_ labels = m.def_submodule("labels", "Label scanning and finiteness checks.");
  register_labels(labels);
  py::module_ ranking = m.def_submodule("ranking", "Ranking metrics of scores against binary targets.");
  register_ranking(ranking);
  py::module_ states = m.def_submodule("states", "Mergeable ranking states: metrics of sorted score tables.");
  register_states(states);
  py::module_ density = m.def_submodule("density", "Kernel density estimation.");
  register_density(density);
  py::module_ calibration = m.def_submodule("calibration", "Calibration metrics and proper scores.");
  register_calibration(calibration);
  py::module_ stability = m.def_submodule("stability", "Prediction stability across models.");
  register_stability(stability);
  py::module_ classification = m.def_submodule("classification", "Confusion tables and label sums.");
  register_classification(classification);
  py::module_ coco = m.def_submodule("coco", "COCO detection evaluation and results reading.");
  register_detection(coco);
  register_coco_json(coco);
  py::module_ mask = m.def_submodule("mask", "COCO run-length encoded masks.");
  register_mask(mask);
}
