// The compiled module turbometrics._core. Each area registers its functions
// from its own file.
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
  register_threads(m);
  register_labels(m);
  register_ranking(m);
  register_states(m);
  register_density(m);
  register_calibration(m);
  register_stability(m);
  register_classification(m);
  register_detection(m);
  register_coco_json(m);
  register_mask(m);
}
