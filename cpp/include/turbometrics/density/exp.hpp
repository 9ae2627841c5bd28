// A branch-free exp() for non-positive arguments that GCC auto-vectorises
// (std::exp is a library call and blocks vectorisation without -ffast-math).
// Plain arithmetic without reassociation: on one machine a given call always
// computes the same bits (builds with FMA may differ from builds without it in
// the last bits).
#pragma once

#include <cstdint>
#include <cstring>

#include "turbometrics/isa.hpp"

namespace turbometrics::density {

// Arguments below this give 0: exp(-708) ~ 3e-308 is the smallest power
// kept in the normal range. Callers shift exponents so that the largest
// term of a sum is exp(0) = 1; dropped terms are then below 3e-308 relative.
constexpr double kExpFloor = -708.0;

// exp(x) for x <= 0 (x = -inf gives 0), relative error below 1e-14 (the
// truncation of the degree-11 series at |r| = ln(2) / 2 is 8.6e-15).
TURBOMETRICS_ALWAYS_INLINE inline double exp_nonpositive(double x) {
  constexpr double log2e = 1.4426950408889634074;
  constexpr double shifter = 6755399441055744.0;  // 1.5 * 2^52: rounds to an integer
  // Cody-Waite split of ln 2; ln2_hi has 32 trailing zero bits, so k * ln2_hi is exact.
  constexpr double ln2_hi = 6.93147180369123816490e-01;
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  const double t = x * log2e + shifter;
  const double k = t - shifter;                    // nearest integer to x / ln 2
  const double r = (x - k * ln2_hi) - k * ln2_lo;  // |r| <= 0.347
  // Taylor series of exp(r) to degree 11.
  double p = 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // Scale by 2^k: the low bits of t hold k; add k to p's exponent field.
  uint64_t t_bits, shifter_bits, p_bits;
  std::memcpy(&t_bits, &t, sizeof t);
  std::memcpy(&shifter_bits, &shifter, sizeof shifter);
  std::memcpy(&p_bits, &p, sizeof p);
  p_bits += (t_bits - shifter_bits) << 52;
  // Below the floor (and at -inf) the bits above are garbage: mask them to 0.
  // A mask rather than a branch keeps the loop vectorisable.
  p_bits &= -static_cast<uint64_t>(x >= kExpFloor);
  double result;
  std::memcpy(&result, &p_bits, sizeof result);
  return result;
}

}  // namespace turbometrics::density
