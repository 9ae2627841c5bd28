// Ensemble stability kernels: one per-sample statistic per call, read in
// place through a strided view (float32 stays float32), GIL released.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "turbometrics/stability/ensemble.hpp"

namespace py = pybind11;
using namespace turbometrics;

namespace {

stability::Statistic statistic_named(const std::string& name) {
  if (name == "label_stability") return stability::Statistic::label_stability;
  if (name == "jitter") return stability::Statistic::jitter;
  if (name == "aleatoric") return stability::Statistic::aleatoric;
  if (name == "mutual_info") return stability::Statistic::mutual_info;
  if (name == "variance") return stability::Statistic::variance;
  if (name == "std") return stability::Statistic::std;
  if (name == "iqr") return stability::Statistic::iqr;
  throw std::invalid_argument("unknown ensemble statistic " + name);
}

template <class T>
py::tuple run(const py::array& P, stability::Statistic stat, double threshold, int n_threads) {
  stability::Ensemble<T> view;
  view.data = static_cast<const char*>(P.data());
  view.models = P.shape(0);
  view.samples = P.shape(1);
  view.model_stride = P.strides(0);
  view.sample_stride = P.strides(1);
  if (P.ndim() == 3) {
    view.classes = P.shape(2);
    view.class_stride = P.strides(2);
  }
  if (view.models < 1 || view.classes < 1) throw std::invalid_argument("P needs at least one model and one class");
  const bool binary_only = stat == stability::Statistic::label_stability || stat == stability::Statistic::variance ||
                           stat == stability::Statistic::std || stat == stability::Statistic::iqr;
  if (P.ndim() == 3 && binary_only) throw std::invalid_argument("this statistic reads 2-D P");
  py::array_t<double> out(static_cast<py::ssize_t>(view.samples));
  double* o = out.mutable_data();
  bool invalid;
  {
    py::gil_scoped_release release;
    invalid = stability::per_sample(view, stat, threshold, o, n_threads);
  }
  return py::make_tuple(out, invalid);
}

py::tuple ensemble_per_sample(const py::array& P, const std::string& statistic, double threshold,
                                        int n_threads) {
  if (P.ndim() != 2 && P.ndim() != 3) throw std::invalid_argument("P must be 2-D or 3-D");
  const auto stat = statistic_named(statistic);
  const py::dtype dtype = P.dtype();
  if (dtype.kind() == 'f' && dtype.itemsize() == 8) return run<double>(P, stat, threshold, n_threads);
  if (dtype.kind() == 'f' && dtype.itemsize() == 4) return run<float>(P, stat, threshold, n_threads);
  throw py::type_error("stability kernels read float64 or float32, got " + std::string(py::str(dtype)));
}

}  // namespace

void register_stability(py::module_& m) {
  m.def("ensemble_per_sample", &ensemble_per_sample, py::arg("P"), py::arg("statistic"), py::arg("threshold"),
        py::arg("n_threads"),
        "(values, invalid): one statistic per sample, and whether some value was NaN or outside [0, 1].");
}
