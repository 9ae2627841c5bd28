// An exact sum of doubles: a two's-complement fixed-point integer whose
// lowest bit is worth 2^-scale_bits, held as 32-bit digits with lazy
// carries (an addition is three integer additions). Every finite double is
// an integer multiple of 2^-1074 below 2^1024, so with scale_bits = 1100
// and 2240 bits
// every finite double, and any sum of up to 2^62 of them, is held exactly;
// the order of additions (and any grouping of partial sums) does not change
// the result. value() rounds the exact sum to the nearest double, ties to
// even, like Python's math.fsum. Non-finite addends are summed apart (in
// double arithmetic) and, when there are any, value() returns their sum.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace turbometrics {

class ExactSum {
 public:
  static constexpr int scale_bits = 1100;  // the value is integer() * 2^-scale_bits
  static constexpr int limb_count = 35;    // 2240 bits
  using Limbs = std::array<uint64_t, limb_count>;

  // Adds a double exactly: its 53-bit mantissa, shifted to its place, goes
  // into three 32-bit digits held in 64-bit words, without carrying (the
  // words absorb 2^30 additions before carries must be propagated).
  void add(double x) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const int biased_exponent = static_cast<int>((bits >> 52) & 0x7FF);
    if (biased_exponent == 0x7FF) {  // infinity or NaN
      non_finite_ += x;
      return;
    }
    uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
    if (biased_exponent != 0) mantissa |= uint64_t{1} << 52;
    // x = +-mantissa * 2^exponent with exponent >= -1074: the mantissa's
    // lowest bit is bit `position` (>= 26) of the fixed-point integer.
    const int position = (biased_exponent == 0 ? 1 : biased_exponent) - 1075 + scale_bits;
    const int digit = position >> 5, offset = position & 31;
    const uint64_t low = mantissa << offset, high = (mantissa >> 1) >> (63 - offset);
    const int64_t sign = -static_cast<int64_t>(bits >> 63);  // 0 or -1
    digits_[digit] += (static_cast<int64_t>(low & 0xFFFFFFFF) ^ sign) - sign;
    digits_[digit + 1] += (static_cast<int64_t>(low >> 32) ^ sign) - sign;
    digits_[digit + 2] += (static_cast<int64_t>(high) ^ sign) - sign;
    if (++pending_ == max_pending) normalize();
  }

  void add(const ExactSum& other) {
    normalize();
    for (int i = 0; i < digit_count; ++i) digits_[i] += other.digits_[i];
    pending_ = other.pending_ + 2;  // bounds |digit| / 2^32 as pending additions do
    if (pending_ >= max_pending) normalize();
    non_finite_ += other.non_finite_;
  }

  // The exact sum rounded to the nearest double (ties to even); +-inf when
  // it overflows; the sum of the non-finite addends when there were any.
  double value() const {
    if (non_finite_ != 0.0 || std::isnan(non_finite_)) return non_finite_;
    return rounded(limbs());
  }

  // The fixed-point integer's limbs, least significant first, two's complement.
  Limbs limbs() const {
    ExactSum normal = *this;
    normal.normalize();
    Limbs limbs;
    for (int j = 0; j < limb_count; ++j) {
      limbs[j] =
          static_cast<uint64_t>(normal.digits_[2 * j]) | (static_cast<uint64_t>(normal.digits_[2 * j + 1]) << 32);
    }
    return limbs;
  }

 private:
  static constexpr int digit_count = 2 * limb_count;  // 32-bit digits
  static constexpr int64_t max_pending = int64_t{1} << 30;

  // Propagates carries: every digit in [0, 2^32) but the top one, which
  // keeps the sign.
  void normalize() {
    int64_t carry = 0;
    for (int i = 0; i + 1 < digit_count; ++i) {
      const int64_t v = digits_[i] + carry;
      digits_[i] = v & 0xFFFFFFFF;
      carry = v >> 32;  // arithmetic: floor division by 2^32
    }
    digits_[digit_count - 1] += carry;
    pending_ = 0;
  }

  static double rounded(Limbs magnitude) {
    const bool negative = magnitude[limb_count - 1] >> 63;
    if (negative) negate(magnitude);
    int top = limb_count - 1;
    while (top >= 0 && magnitude[top] == 0) --top;
    if (top < 0) return 0.0;
    const int top_bit = 64 * top + 63 - count_leading_zeros(magnitude[top]);
    // Lowest bit kept: 53 significant bits, but none below 2^-1074
    // (subnormal results keep fewer).
    constexpr int lowest_subnormal_bit = scale_bits - 1074;
    int lowest = top_bit - 52;
    if (lowest < lowest_subnormal_bit) lowest = lowest_subnormal_bit;
    uint64_t kept = bits_from(magnitude, lowest, top_bit - lowest + 1);
    const bool round_bit = bit(magnitude, lowest - 1);
    const bool sticky = any_bit_below(magnitude, lowest - 1);
    if (round_bit && (sticky || (kept & 1))) ++kept;  // may carry to 2^53: still exact below
    const double result = std::ldexp(static_cast<double>(kept), lowest - scale_bits);
    return negative ? -result : result;
  }

  static void negate(Limbs& limbs) {
    uint64_t carry = 1;
    for (uint64_t& limb : limbs) {
      limb = ~limb + carry;
      carry = carry && limb == 0;
    }
  }

  static int count_leading_zeros(uint64_t x) {  // x != 0
    int n = 0;
    while (!(x >> 63)) {
      x <<= 1;
      ++n;
    }
    return n;
  }

  static bool bit(const Limbs& limbs, int position) { return (limbs[position / 64] >> (position % 64)) & 1; }

  static bool any_bit_below(const Limbs& limbs, int position) {
    const int limb = position / 64, offset = position % 64;
    if (offset != 0 && (limbs[limb] & ((uint64_t{1} << offset) - 1)) != 0) return true;
    for (int i = 0; i < limb; ++i) {
      if (limbs[i] != 0) return true;
    }
    return false;
  }

  // `count` (<= 53) bits starting at bit `lowest`.
  static uint64_t bits_from(const Limbs& limbs, int lowest, int count) {
    const int limb = lowest / 64, offset = lowest % 64;
    uint64_t value = limbs[limb] >> offset;
    if (offset != 0 && limb + 1 < limb_count) value |= limbs[limb + 1] << (64 - offset);
    return count >= 64 ? value : value & ((uint64_t{1} << count) - 1);
  }

  std::array<int64_t, digit_count> digits_{};
  int64_t pending_ = 0;
  double non_finite_ = 0.0;
};

// An ExactSum fed through a small buffer: zeros are dropped without a
// branch, and the rest are added in a tight loop of their own, apart from
// the caller's loop (about twice as fast in a table sweep).
class BufferedExactSum {
 public:
  void add(double x) {
    buffer_[count_] = x;
    count_ += x != 0.0;  // NaN is kept
    if (count_ == capacity) flush();
  }

  // The sum of everything added.
  const ExactSum& total() {
    flush();
    return sum_;
  }

 private:
  static constexpr int capacity = 256;

  void flush() {
    for (int i = 0; i < count_; ++i) sum_.add(buffer_[i]);
    count_ = 0;
  }

  double buffer_[capacity];
  int count_ = 0;
  ExactSum sum_;
};

}  // namespace turbometrics
