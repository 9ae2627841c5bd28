// Build facts about threading, for turbometrics._common.threads.
#include <pybind11/pybind11.h>

#include "turbometrics/parallel.hpp"

namespace py = pybind11;

void register_threads(py::module_& m) {
  m.def("openmp_enabled", &turbometrics::openmp_enabled, "Whether the kernels were built with OpenMP.");
}
