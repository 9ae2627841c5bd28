// A branch-free natural logarithm for arguments in [0, 1] that compilers
// auto-vectorise (std::log is a library call and blocks vectorisation), and
// the entropy terms built on it.
//
// The algorithm is fdlibm's __ieee754_log (as in musl and FreeBSD): x =
// 2^k (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)), s = f / (2 + f), and
// log(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)) with a degree-7 polynomial R;
// its error is below 1 ulp (checked against std::log on 6e7 arguments: at
// most 1 ulp). Subnormal arguments are scaled by 2^54 first.
// Plain arithmetic without reassociation: on one machine a given call always
// computes the same bits (instruction sets with FMA may differ from builds
// without it in the last bit).
#pragma once

#include <cstdint>
#include <cstring>

#include "turbometrics/isa.hpp"

namespace turbometrics::stability {

namespace log_detail {
constexpr double ln2_hi = 6.93147180369123816490e-01;  // 0x3fe62e42fee00000
constexpr double ln2_lo = 1.90821492927058770002e-10;  // 0x3dea39ef35793c76
constexpr double Lg1 = 6.666666666666735130e-01;
constexpr double Lg2 = 3.999999999940941908e-01;
constexpr double Lg3 = 2.857142874366239149e-01;
constexpr double Lg4 = 2.222219843214978396e-01;
constexpr double Lg5 = 1.818357216161805012e-01;
constexpr double Lg6 = 1.531383769920937332e-01;
constexpr double Lg7 = 1.479819860511658591e-01;

TURBOMETRICS_ALWAYS_INLINE inline uint64_t bits_of(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
TURBOMETRICS_ALWAYS_INLINE inline double from_bits(uint64_t u) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// Splits x > 0 (finite) into the exponent k (as a double) and f = m - 1 with
// m in [sqrt(2)/2, sqrt(2)). Subnormals are scaled by 2^54 (k lowered by 54).
// The one condition selects between constants through a bit mask, so that
// it stays a select (compilers keep a floating-point selection as a branch
// when an arm could raise a floating-point exception) and loops vectorise.
TURBOMETRICS_ALWAYS_INLINE inline void split(double x, double& k, double& f) {
  // All ones below the normal range. Selections are masks on the bits.
  const uint64_t tiny = -static_cast<uint64_t>(x < 2.2250738585072014e-308);
  const double scale = from_bits((tiny & bits_of(18014398509481984.0)) | (~tiny & bits_of(1.0)));  // 2^54 or 1
  const double scaled = x * scale;
  // fdlibm: add (0x3ff00000 - 0x3fe6a09e) to the high word, so that the
  // exponent field holds k + 1023 for m in [sqrt(2)/2, sqrt(2)).
  const uint64_t u = bits_of(scaled) + (uint64_t{0x3ff00000 - 0x3fe6a09e} << 32);
  const uint64_t biased = u >> 52;  // k + 1023 (+ 54 for subnormals), in [0, 2047]
  // k as a double without an int64 conversion (none is vectorisable before
  // AVX-512): 2^52 + biased, minus 2^52 + 1023 (+ 54).
  const double offset =
      from_bits((tiny & bits_of(4503599627370496.0 + 1023.0 + 54.0)) | (~tiny & bits_of(4503599627370496.0 + 1023.0)));
  k = from_bits(biased | uint64_t{0x4330000000000000}) - offset;
  f = from_bits((u & uint64_t{0x000fffffffffffff}) + (uint64_t{0x3fe6a09e} << 32)) - 1.0;
}

// log(2^k (1 + f)) given s = f / (2 + f).
TURBOMETRICS_ALWAYS_INLINE inline double combine(double k, double f, double s) {
  const double hfsq = 0.5 * f * f;
  const double z = s * s;
  const double w = z * z;
  const double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
  const double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
  const double r = t2 + t1;
  return s * (hfsq + r) + k * ln2_lo - hfsq + f + k * ln2_hi;
}
}  // namespace log_detail

// log(x) for finite x > 0 (error below 1 ulp, as fdlibm's). Any x <= 0
// gives a finite meaningless value, never NaN or infinity.
TURBOMETRICS_ALWAYS_INLINE inline double log_positive(double x) {
  double k, f;
  log_detail::split(x, k, f);
  return log_detail::combine(k, f, f / (2.0 + f));
}

// x log x for x in [0, 1]: 0 log 0 = 0 needs no test, since log_positive(0)
// is finite (the product is -0.0, which sums like +0.0).
TURBOMETRICS_ALWAYS_INLINE inline double xlogx(double x) { return x * log_positive(x); }

}  // namespace turbometrics::stability
