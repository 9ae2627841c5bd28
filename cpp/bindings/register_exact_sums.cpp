// Exact sums of floats (turbometrics/exact_sum.hpp), the fixed-point
// arithmetic the areas share: the ranking states' exact average-precision
// parts, the calibration states' bin sums, the Evaluator's Brier and log-loss
// sums. Its constants, and the exact sum of an array for the tests.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>

#include "exact_sum_objects.hpp"
#include "turbometrics/exact_sum.hpp"

namespace py = pybind11;
using turbometrics::ExactSum;

namespace {
// Named too: a unity build joins the binding files, whose unnamed namespaces are one.
namespace exact_sums_glue {

// The exact sum of float64 values, correctly rounded and as the fixed-point
// Python int.
py::object exact_sum(const py::array_t<double, py::array::c_style | py::array::forcecast>& values) {
  ExactSum sum;
  for (int64_t i = 0; i < values.shape(0); ++i) sum.add(values.data()[i]);
  return py::make_tuple(sum.value(), turbometrics::bindings::exact_sum_int(sum));
}

}  // namespace exact_sums_glue
}  // namespace

void register_exact_sums(py::module_& m) {
  using namespace exact_sums_glue;
  m.attr("SCALE_BITS") = ExactSum::scale_bits;
  m.attr("LIMBS") = ExactSum::limb_count;
  m.def("exact_sum", &exact_sum, py::arg("values"),
        "(correctly rounded exact sum, exact sum * 2**SCALE_BITS as an int) of a 1-D array.");
}
