// Build facts about threading and instruction sets, for
// turbometrics._common.threads and the portable build's check (.ci/portable).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "turbometrics/isa.hpp"
#include "turbometrics/parallel.hpp"

namespace py = pybind11;

void register_threads(py::module_& m) {
  m.def("openmp_enabled", &turbometrics::openmp_enabled,
        "Whether the kernels were built with OpenMP (otherwise they run on std::thread).");
  m.def(
      "cpu_dispatch",
      [] {
        using namespace turbometrics;
        py::dict out;
        out["compiled"] = compiled_isas();
        out["best"] = isa_name(best_isa());
        out["dispatch"] = isa_name(dispatch_copy(best_isa()));
        out["dispatch_without_fma"] = isa_name(dispatch_without_fma_copy(best_isa()));
        return out;
      },
      "The instruction sets the kernels were compiled for, the best of them this processor has, and the copy each "
      "dispatch (isa.hpp) runs.");
}
