// Build facts about threading, for turbometrics._threads.
#include <pybind11/pybind11.h>

#include "turbometrics/parallel.hpp"

namespace py = pybind11;

void register_threads(py::module_& m) {
  m.def("openmp_enabled", &turbometrics::openmp_enabled, "Whether the kernels were built with OpenMP.");
  m.def("openmp_default_threads", &turbometrics::openmp_default_threads,
        "Threads the OpenMP runtime would use by default (1 without OpenMP).");
}
