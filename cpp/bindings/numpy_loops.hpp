// NumPy's own inner loops, read from its ufunc objects, for kernels that
// must round as a NumPy function does on this processor (elementwise_loop.hpp).
//
// A ufunc keeps its loops in the public fields of PyUFuncObject
// (numpy/ufuncobject.h: nin, nout, nargs, identity, functions, data,
// ntypes, reserved1, name, types, in that order since NumPy 1.0, part of
// NumPy's ABI). NumPy stores in `functions` the loop it dispatched for this
// processor when it was imported (after NPY_DISABLE_CPU_FEATURES), and
// np.log(float64) runs the first loop whose types are (float64, float64).
// The fields are read through a mirror of that prefix, which is checked
// against what the ufunc reports to Python before any pointer is used.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "turbometrics/elementwise_loop.hpp"

namespace turbometrics::bindings {

namespace numpy_loops_detail {

namespace py = pybind11;

struct UfuncPrefix {  // the leading fields of PyUFuncObject
  PyObject_HEAD int nin, nout, nargs;
  int identity;
  ElementwiseLoop::Function* functions;
  void* const* data;
  int ntypes;
  int reserved1;
  const char* name;
  const char* types;  // nargs type numbers per loop
};

inline ElementwiseLoop unary_float64_loop(const py::object& ufunc, const char* expected_name) {
  const py::module_ numpy = py::module_::import("numpy");
  const auto fail = [&](const std::string& what) {
    return std::runtime_error("cannot use NumPy's " + std::string(expected_name) + " loop (NumPy " +
                              py::str(numpy.attr("__version__")).cast<std::string>() + "): " + what);
  };
  if (!py::isinstance(ufunc, numpy.attr("ufunc"))) throw fail("not a ufunc");
  const auto* u = reinterpret_cast<const UfuncPrefix*>(ufunc.ptr());
  const py::list type_strings = ufunc.attr("types");
  if (u->nin != 1 || u->nout != 1 || u->nargs != 2 || u->nin != ufunc.attr("nin").cast<int>() ||
      u->ntypes != ufunc.attr("ntypes").cast<int>() || u->ntypes != static_cast<int>(type_strings.size()) ||
      u->name == nullptr || std::strcmp(u->name, expected_name) != 0 || u->functions == nullptr || u->types == nullptr)
    throw fail("the ufunc's fields are not laid out as expected");
  const py::object dtype = numpy.attr("dtype");
  const int float64 = dtype("float64").attr("num").cast<int>();
  for (int i = 0; i < u->ntypes; ++i) {
    // "d->d": each side's type character, checked against the type numbers
    const std::string signature = type_strings[static_cast<size_t>(i)].cast<std::string>();
    const int in = dtype(signature.substr(0, 1)).attr("num").cast<int>();
    const int out = dtype(signature.substr(signature.size() - 1)).attr("num").cast<int>();
    if (in != static_cast<unsigned char>(u->types[2 * i]) || out != static_cast<unsigned char>(u->types[2 * i + 1]))
      throw fail("the ufunc's type table is not laid out as expected");
    if (in == float64 && out == float64) {
      if (u->functions[i] == nullptr) throw fail("no float64 loop");
      return ElementwiseLoop{u->functions[i], u->data == nullptr ? nullptr : u->data[i]};
    }
  }
  throw fail("no float64 loop");
}

}  // namespace numpy_loops_detail

// The loop np.log runs on float64 arrays in this process.
inline ElementwiseLoop numpy_log_loop() {
  return numpy_loops_detail::unary_float64_loop(pybind11::module_::import("numpy").attr("log"), "log");
}

}  // namespace turbometrics::bindings
