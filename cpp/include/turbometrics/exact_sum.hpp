// An exact sum of doubles: a two's-complement fixed-point integer whose
// lowest bit is worth 2^-scale_bits. Every finite double is an integer
// multiple of 2^-1074 below 2^1024, so with scale_bits = 1100 and 2240 bits
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

  void add(double x) {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const int biased_exponent = static_cast<int>((bits >> 52) & 0x7FF);
    uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
    if (biased_exponent == 0x7FF) {  // infinity or NaN
      non_finite_ += x;
      return;
    }
    if (biased_exponent != 0) mantissa |= uint64_t{1} << 52;
    if (mantissa == 0) return;
    // x = +-mantissa * 2^(exponent), exponent >= -1074; bit position of the
    // mantissa's lowest bit in the fixed-point integer:
    const int exponent = (biased_exponent == 0 ? 1 : biased_exponent) - 1075;
    const int position = exponent + scale_bits;  // >= 26
    const int limb = position / 64, offset = position % 64;
    const uint64_t low = mantissa << offset;
    const uint64_t high = offset == 0 ? 0 : mantissa >> (64 - offset);
    if (bits >> 63) {
      subtract_at(limb, low, high);
    } else {
      add_at(limb, low, high);
    }
  }

  void add(const ExactSum& other) {
    uint64_t carry = 0;
    for (int i = 0; i < limb_count; ++i) {
      const uint64_t sum = limbs_[i] + other.limbs_[i];
      const uint64_t carry_out = sum < limbs_[i];
      limbs_[i] = sum + carry;
      carry = carry_out | (limbs_[i] < sum);
    }
    non_finite_ += other.non_finite_;
  }

  // The exact sum rounded to the nearest double (ties to even); +-inf when
  // it overflows; the sum of the non-finite addends when there were any.
  double value() const {
    if (non_finite_ != 0.0 || std::isnan(non_finite_)) return non_finite_;
    const bool negative = limbs_[limb_count - 1] >> 63;
    Limbs magnitude = limbs_;
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
    if (lowest > 0) {
      const bool round_bit = bit(magnitude, lowest - 1);
      const bool sticky = any_bit_below(magnitude, lowest - 1);
      if (round_bit && (sticky || (kept & 1))) ++kept;  // may carry to 2^53: still exact below
    }
    const double result = std::ldexp(static_cast<double>(kept), lowest - scale_bits);
    return negative ? -result : result;
  }

  // The fixed-point integer's limbs, least significant first, two's complement.
  const Limbs& limbs() const { return limbs_; }

 private:
  void add_at(int limb, uint64_t low, uint64_t high) {
    uint64_t sum = limbs_[limb] + low;
    uint64_t carry = sum < low;
    limbs_[limb] = sum;
    if (limb + 1 >= limb_count) return;
    sum = limbs_[limb + 1] + high;
    uint64_t carry2 = sum < high;
    limbs_[limb + 1] = sum + carry;
    carry = carry2 | (limbs_[limb + 1] < sum);
    for (int i = limb + 2; carry != 0 && i < limb_count; ++i) carry = ++limbs_[i] == 0;
  }

  void subtract_at(int limb, uint64_t low, uint64_t high) {
    uint64_t borrow = limbs_[limb] < low;
    limbs_[limb] -= low;
    if (limb + 1 >= limb_count) return;
    const uint64_t before = limbs_[limb + 1];
    const uint64_t difference = before - high;
    const uint64_t borrow2 = before < high;
    limbs_[limb + 1] = difference - borrow;
    borrow = borrow2 | (difference < borrow);
    for (int i = limb + 2; borrow != 0 && i < limb_count; ++i) borrow = limbs_[i]-- == 0;
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

  Limbs limbs_{};
  double non_finite_ = 0.0;
};

}  // namespace turbometrics
