// An ExactSum as a Python object: shared by the ranking tables' exact parts
// (register_ranking_tables.cpp) and the exact sums' module
// (register_exact_sums.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "turbometrics/exact_sum.hpp"

namespace turbometrics::bindings {

// An ExactSum's fixed-point integer as a Python int (value * 2**scale_bits).
inline pybind11::object exact_sum_int(const ExactSum& sum) {
  std::string bytes;  // little-endian two's complement
  for (uint64_t limb : sum.limbs()) {
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<char>((limb >> (8 * k)) & 0xFF));
  }
  return pybind11::module_::import("builtins")
      .attr("int")
      .attr("from_bytes")(pybind11::bytes(bytes), "little", pybind11::arg("signed") = true);
}

}  // namespace turbometrics::bindings
