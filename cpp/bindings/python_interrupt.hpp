// Ctrl-C for the binding files: runs a kernel without the GIL under an
// Interrupt (turbometrics/interrupt.hpp) whose poll takes the GIL briefly
// on the calling thread and runs Python's signal handlers. When a handler
// raises (KeyboardInterrupt from SIGINT), the kernel stops and the binding
// raises that exception once the kernel has returned.
#pragma once

#include <pybind11/pybind11.h>

#include <type_traits>

#include "turbometrics/interrupt.hpp"

namespace turbometrics::bindings {

namespace py = pybind11;

// Runs Python's signal handlers; true if one raised (the error stays set).
inline bool python_signal_raised() {
  py::gil_scoped_acquire acquire;
  return PyErr_CheckSignals() != 0;
}

// Calls body(interrupt) with the GIL released (call it holding the GIL)
// and returns its result, or throws error_already_set with the handler's
// exception if a signal handler raised while the body ran.
template <class Body>
auto interruptible(Body&& body) {
  const Interrupt interrupt(&python_signal_raised);
  auto run = [&] {
    py::gil_scoped_release release;
    return body(interrupt);
  };
  if constexpr (std::is_void_v<decltype(run())>) {
    run();
    if (interrupt.stopped()) throw py::error_already_set();
  } else {
    auto result = run();
    if (interrupt.stopped()) throw py::error_already_set();
    return result;
  }
}

}  // namespace turbometrics::bindings
