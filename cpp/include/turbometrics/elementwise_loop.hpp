// A strided element-wise loop with the signature of NumPy's ufunc inner
// loops, applied to contiguous float64 batches.
//
// scikit-learn takes logarithms with np.log, and NumPy's float64 log runs
// code that depends on the processor and on NPY_DISABLE_CPU_FEATURES (its
// own AVX-512 code where the processor has AVX-512F, the C library's log
// elsewhere). To give scikit-learn's bits on every machine the log loss
// calls the very loop np.log runs, which the bindings read from the ufunc
// (register_calibration.cpp); the kernels only see this pure C++ interface.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace turbometrics {

struct ElementwiseLoop {
  // NumPy's PyUFuncGenericFunction: args (input, output), dimensions[0] the
  // count, steps the byte strides, data the loop's own pointer.
  using Function = void (*)(char** args, const std::intptr_t* dimensions, const std::intptr_t* steps, void* data);

  Function function = nullptr;
  void* data = nullptr;

  // out[i] = f(in[i]) for i < n; in and out must not overlap.
  void operator()(const double* in, double* out, int64_t n) const {
    if (function == nullptr) throw std::logic_error("no element-wise loop was given");
    char* args[2] = {reinterpret_cast<char*>(const_cast<double*>(in)), reinterpret_cast<char*>(out)};
    const std::intptr_t dimensions[1] = {static_cast<std::intptr_t>(n)};
    const std::intptr_t steps[2] = {sizeof(double), sizeof(double)};
    function(args, dimensions, steps, data);
  }
};

}  // namespace turbometrics
