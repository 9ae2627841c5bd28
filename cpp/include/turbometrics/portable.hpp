// Compiler-portable integer helpers: an unsigned 128-bit integer, the
// count of trailing zero bits, overflow-checked int64 arithmetic and a
// prefetch hint. Each has the GCC/Clang builtin (or unsigned __int128) where
// the compiler has it, an MSVC intrinsic where MSVC has one, and a plain C++
// fallback otherwise; every path gives the same bits (cpp/tests/test_common.cpp
// checks the fallbacks against the builtins).
//
// TURBOMETRICS_PORTABLE_INT128 (a -D define) makes turbometrics::uint128 the
// plain C++ struct even where the compiler has unsigned __int128, so that a
// GCC or Clang build runs the code MSVC would compile; TURBOMETRICS_PORTABLE_BITS
// does the same for the builtins (ctz, overflow checks).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

#if defined(__SIZEOF_INT128__) && !defined(TURBOMETRICS_PORTABLE_INT128)
#define TURBOMETRICS_HAS_INT128 1
#endif

#if defined(__GNUC__) && !defined(TURBOMETRICS_PORTABLE_BITS)
#define TURBOMETRICS_HAS_GNU_BUILTINS 1
#endif

// A read-prefetch hint with temporal locality LOCALITY (0 to 3, GCC's
// meaning); nothing where the compiler has no such builtin.
#if defined(__GNUC__)
#define TURBOMETRICS_PREFETCH(ADDRESS, LOCALITY) __builtin_prefetch(ADDRESS, 0, LOCALITY)
#else
#define TURBOMETRICS_PREFETCH(ADDRESS, LOCALITY) ((void)(ADDRESS))
#endif

// A condition the compiler is told is almost never true (so that its code
// is laid out off the hot path); the plain condition elsewhere.
#if defined(__GNUC__)
#define TURBOMETRICS_UNLIKELY(CONDITION) __builtin_expect(static_cast<bool>(CONDITION), 0)
#else
#define TURBOMETRICS_UNLIKELY(CONDITION) static_cast<bool>(CONDITION)
#endif

namespace turbometrics {
namespace portable {

// An unsigned 128-bit integer, arithmetic modulo 2^128 (the operations
// turbometrics uses, with unsigned __int128's results).
struct UInt128 {
  uint64_t lo = 0, hi = 0;

  constexpr UInt128() = default;
  constexpr UInt128(uint64_t low) : lo(low), hi(0) {}  // NOLINT: implicit, as for unsigned __int128
  constexpr UInt128(uint64_t high, uint64_t low) : lo(low), hi(high) {}

  UInt128& operator+=(const UInt128& other) {
    const uint64_t low = lo + other.lo;
    hi += other.hi + (low < lo ? 1 : 0);
    lo = low;
    return *this;
  }
  friend UInt128 operator+(UInt128 a, const UInt128& b) { return a += b; }
  // Two's complement negation (modulo 2^128).
  friend UInt128 operator-(const UInt128& a) {
    const uint64_t low = ~a.lo + 1;
    return UInt128(~a.hi + (low == 0 ? 1 : 0), low);
  }
  UInt128& operator>>=(int shift) {  // 0 <= shift < 128
    if (shift >= 64) {
      lo = hi >> (shift - 64);
      hi = 0;
    } else if (shift > 0) {
      lo = (lo >> shift) | (hi << (64 - shift));
      hi >>= shift;
    }
    return *this;
  }
  friend UInt128 operator>>(UInt128 a, int shift) { return a >>= shift; }
  friend bool operator==(const UInt128& a, const UInt128& b) { return a.lo == b.lo && a.hi == b.hi; }
  friend bool operator!=(const UInt128& a, const UInt128& b) { return !(a == b); }
};

// Trailing zero bits of x != 0 (a de Bruijn multiplication).
inline int ctz64(uint64_t x) {
  static constexpr int kIndex[64] = {0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28,
                                     62, 5,  39, 46, 44, 42, 22, 9,  24, 35, 59, 56, 49, 18, 29, 11,
                                     63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
                                     51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
  return kIndex[((x & (0 - x)) * 0x022FDD63CC95386Dull) >> 58];
}

// Leading zero bits of x != 0.
inline int clz64(uint64_t x) {
  int n = 0;
  for (int step = 32; step > 0; step >>= 1)
    if ((x >> (64 - step)) == 0) {
      n += step;
      x <<= step;
    }
  return n;
}

// The full product a * b.
inline UInt128 mul_wide(uint64_t a, uint64_t b) {
  const uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
  const uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
  const uint64_t middle = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);  // < 3 * 2^32
  return UInt128(hh + (lh >> 32) + (hl >> 32) + (middle >> 32), (middle << 32) | (ll & 0xFFFFFFFFu));
}

// x rounded to the nearest double, ties to even (as a conversion of an
// unsigned __int128 in the default rounding mode).
inline double round_to_double(const UInt128& x) {
  if (x.hi == 0) return static_cast<double>(x.lo);
  // The top 64 bits, with a sticky bit for the rest in bit 0: the 64-bit
  // conversion rounds at bit 11, so bit 0 only breaks exact ties.
  const int shift = 64 - clz64(x.hi);  // 1..64
  const uint64_t top = shift == 64 ? x.hi : (x.hi << (64 - shift)) | (x.lo >> shift);
  const uint64_t rest = shift == 64 ? x.lo : x.lo << (64 - shift);
  return std::ldexp(static_cast<double>(top | (rest != 0 ? 1 : 0)), shift);
}

// total = a + b, true where the exact sum is outside int64's range (total
// then holds it modulo 2^64).
inline bool add_overflow(int64_t a, int64_t b, int64_t* total) {
  const uint64_t sum = static_cast<uint64_t>(a) + static_cast<uint64_t>(b);
  *total = static_cast<int64_t>(sum);
  // Overflow: both operands have the same sign and the sum the other one.
  return ((~(static_cast<uint64_t>(a) ^ static_cast<uint64_t>(b)) & (static_cast<uint64_t>(a) ^ sum)) >> 63) != 0;
}

// product = a * b, true where the exact product is outside int64's range
// (product then holds it modulo 2^64).
inline bool mul_overflow(int64_t a, int64_t b, int64_t* product) {
  const bool negative = (a < 0) != (b < 0);
  const uint64_t ua = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  const uint64_t ub = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  const UInt128 magnitude = mul_wide(ua, ub);
  *product = static_cast<int64_t>(negative ? 0 - magnitude.lo : magnitude.lo);
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  return magnitude.hi != 0 || magnitude.lo > limit;
}

}  // namespace portable

// The unsigned 128-bit integer of this build: the compiler's where it has
// one, else the struct above.
#ifdef TURBOMETRICS_HAS_INT128
using uint128 = unsigned __int128;
inline uint128 mul_wide(uint64_t a, uint64_t b) { return static_cast<uint128>(a) * b; }
inline uint64_t low64(uint128 x) { return static_cast<uint64_t>(x); }
inline uint64_t high64(uint128 x) { return static_cast<uint64_t>(x >> 64); }
inline double to_double(uint128 x) { return static_cast<double>(x); }
#else
using uint128 = portable::UInt128;
inline uint128 mul_wide(uint64_t a, uint64_t b) {
#if defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64)
  uint64_t high;
  const uint64_t low = _umul128(a, b, &high);
  return uint128(high, low);
#else
  return portable::mul_wide(a, b);
#endif
}
inline uint64_t low64(const uint128& x) { return x.lo; }
inline uint64_t high64(const uint128& x) { return x.hi; }
inline double to_double(const uint128& x) { return portable::round_to_double(x); }
#endif

// x sign-extended to 128 bits (two's complement).
inline uint128 sign_extend(int64_t x) {
  const uint64_t low = static_cast<uint64_t>(x);
  return x < 0 ? -uint128(0 - low) : uint128(low);
}

// The high 64 bits of a * b.
inline uint64_t mul_high(uint64_t a, uint64_t b) { return high64(mul_wide(a, b)); }

// Trailing zero bits of x != 0.
inline int ctz64(uint64_t x) {
#ifdef TURBOMETRICS_HAS_GNU_BUILTINS
  return __builtin_ctzll(x);
#elif defined(_MSC_VER) && !defined(__clang__) && defined(_M_X64)
  unsigned long index;
  _BitScanForward64(&index, x);
  return static_cast<int>(index);
#else
  return portable::ctz64(x);
#endif
}

// total = a + b; true on int64 overflow.
inline bool add_overflow(int64_t a, int64_t b, int64_t* total) {
#ifdef TURBOMETRICS_HAS_GNU_BUILTINS
  return __builtin_add_overflow(a, b, total);
#else
  return portable::add_overflow(a, b, total);
#endif
}

// product = a * b; true on int64 overflow.
inline bool mul_overflow(int64_t a, int64_t b, int64_t* product) {
#ifdef TURBOMETRICS_HAS_GNU_BUILTINS
  return __builtin_mul_overflow(a, b, product);
#else
  return portable::mul_overflow(a, b, product);
#endif
}

}  // namespace turbometrics
