// Conversions between pycocotools' Python RLE objects ({'size': [h, w],
// 'counts': bytes or str}) and detection::RunLengths, with the same Python
// exceptions as pycocotools' Cython layer for malformed objects, and
// std::invalid_argument (ValueError) for malformed count strings.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "turbometrics/detection/rle_string.hpp"

namespace turbometrics::bindings {

namespace py = pybind11;

namespace detail {

// A Python object as a Python int the way Cython converts it to a C
// integer: ints as they are, other objects through __int__ (2.7 gives 2).
inline py::object cython_int(py::handle value) {
  PyObject* object = value.ptr();
  if (PyLong_Check(object)) return py::reinterpret_borrow<py::object>(object);
  PyNumberMethods* methods = Py_TYPE(object)->tp_as_number;
  if (methods == nullptr || methods->nb_int == nullptr) throw py::type_error("an integer is required");
  py::object number = py::reinterpret_steal<py::object>(methods->nb_int(object));
  if (!number) throw py::error_already_set();
  if (!PyLong_Check(number.ptr())) throw py::type_error("__int__ returned non-int");
  return number;
}

[[noreturn]] inline void throw_overflow(const char* message) {
  PyErr_SetString(PyExc_OverflowError, message);
  throw py::error_already_set();
}

}  // namespace detail

// A Python object as pycocotools' `siz` (C unsigned long), with Cython's
// errors.
inline uint64_t as_siz(py::handle value) {
  const py::object number = detail::cython_int(value);
  int overflow = 0;
  const long long as_signed = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (as_signed == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow < 0 || (overflow == 0 && as_signed < 0)) detail::throw_overflow("can't convert negative value to siz");
  if (overflow == 0) return static_cast<uint64_t>(as_signed);
  const unsigned long long result = PyLong_AsUnsignedLongLong(number.ptr());
  if (result == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    detail::throw_overflow("Python int too large to convert to C unsigned long");
  }
  return static_cast<uint64_t>(result);
}

// A Python object as a C int, with Cython's errors.
inline int as_c_int(py::handle value) {
  const py::object number = detail::cython_int(value);
  int overflow = 0;
  const long long result = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (result == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0 || result < INT32_MIN || result > INT32_MAX)
    detail::throw_overflow("value too large to convert to int");
  return static_cast<int>(result);
}

// The texts and sizes of a sequence of RLE objects, read under the GIL. The
// byte strings stay alive as long as this object.
struct RleTexts {
  std::vector<py::object> owners;
  std::vector<std::string_view> texts;
  std::vector<uint64_t> heights, widths;
};

// Reads obj['counts'] (a str, encoded as UTF-8, or exactly bytes) and
// obj['size'][0], obj['size'][1] of every object, in order.
inline RleTexts read_rle_objects(py::handle objects) {
  RleTexts out;
  const size_t n = py::len(objects);
  out.owners.reserve(n);
  out.texts.reserve(n);
  out.heights.reserve(n);
  out.widths.reserve(n);
  const py::str counts_key("counts"), size_key("size");
  for (py::handle object : objects) {
    py::object counts = py::reinterpret_steal<py::object>(PyObject_GetItem(object.ptr(), counts_key.ptr()));
    if (!counts) throw py::error_already_set();
    if (Py_TYPE(counts.ptr()) == &PyUnicode_Type) {
      counts = py::reinterpret_steal<py::object>(PyUnicode_AsUTF8String(counts.ptr()));
      if (!counts) throw py::error_already_set();
    } else if (Py_TYPE(counts.ptr()) != &PyBytes_Type) {
      throw py::type_error(std::string("Expected bytes, got ") + Py_TYPE(counts.ptr())->tp_name);
    }
    char* data = nullptr;
    Py_ssize_t size = 0;
    if (PyBytes_AsStringAndSize(counts.ptr(), &data, &size) != 0) throw py::error_already_set();
    py::object shape = py::reinterpret_steal<py::object>(PyObject_GetItem(object.ptr(), size_key.ptr()));
    if (!shape) throw py::error_already_set();
    const uint64_t height = as_siz(shape[py::int_(0)]);
    const uint64_t width = as_siz(shape[py::int_(1)]);
    out.texts.emplace_back(data, static_cast<size_t>(size));
    out.owners.push_back(std::move(counts));
    out.heights.push_back(height);
    out.widths.push_back(width);
  }
  return out;
}

// Decodes the texts (no Python calls: run it without the GIL). Errors name
// the object's index.
inline std::vector<detection::RunLengths> decode_rle_texts(const RleTexts& in) {
  std::vector<detection::RunLengths> out(in.texts.size());
  for (size_t i = 0; i < in.texts.size(); ++i) {
    try {
      out[i] = detection::from_string(in.texts[i], in.heights[i], in.widths[i]);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("RLE object " + std::to_string(i) + ": " + e.what());
    }
  }
  return out;
}

// {'size': [h, w], 'counts': text} as pycocotools builds it.
inline py::dict rle_object(uint64_t height, uint64_t width, const std::string& text) {
  py::dict out;
  py::list size(2);
  size[0] = py::int_(height);
  size[1] = py::int_(width);
  out["size"] = size;
  out["counts"] = py::bytes(text);
  return out;
}

}  // namespace turbometrics::bindings
