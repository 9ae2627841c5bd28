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
        const auto& choice = isa_detail::choice();
        out["detected"] = isa_name(choice.detected);
        out["cap"] = choice.cap.empty() ? py::object(py::none()) : py::object(py::str(choice.cap));
        out["cap_recognised"] = choice.cap_recognised;
        out["best"] = isa_name(best_isa());
        out["dispatch"] = isa_name(dispatch_copy(best_isa()));
        out["dispatch_without_fma"] = isa_name(dispatch_without_fma_copy(best_isa()));
        return out;
      },
      "The instruction sets the kernels were compiled for, the best of them this processor has ('detected'), the "
      "value of TURBOMETRICS_CPU_DISPATCH ('cap', None when unset or empty; 'cap_recognised': whether it names a "
      "set, otherwise it is ignored), the set used ('best': the lower of 'detected' and the cap), and the copy each "
      "dispatch (isa.hpp) runs.");
}
