// Order-reversing integer keys for scores (the ranking tables and the COCO
// match tables sort by them): sorting keys in ascending order
// sorts scores in descending order. -0.0 and 0.0 map to the same key.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace turbometrics {

template <class Score>
struct ScoreKey;

template <>
struct ScoreKey<double> {
  using Key = uint64_t;
  static Key encode(double x) {
    if (x == 0.0) x = 0.0;  // folds -0.0 into +0.0
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const uint64_t ascending = (bits >> 63) ? ~bits : (bits | (uint64_t{1} << 63));
    return ~ascending;
  }
  static double decode(Key key) {
    const uint64_t ascending = ~key;
    const uint64_t bits = (ascending >> 63) ? (ascending & ~(uint64_t{1} << 63)) : ~ascending;
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }
};

template <>
struct ScoreKey<float> {
  using Key = uint32_t;
  static Key encode(float x) {
    if (x == 0.0f) x = 0.0f;
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const uint32_t ascending = (bits >> 31) ? ~bits : (bits | (uint32_t{1} << 31));
    return ~ascending;
  }
  static float decode(Key key) {
    const uint32_t ascending = ~key;
    const uint32_t bits = (ascending >> 31) ? (ascending & ~(uint32_t{1} << 31)) : ~ascending;
    float x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }
};

// Integer scores: flip the sign bit of signed types, then reverse the order.
template <class Int>
struct IntegerScoreKey {
  static_assert(std::is_integral_v<Int>);
  using Key = std::conditional_t<(sizeof(Int) > 4), uint64_t, uint32_t>;
  using Unsigned = std::make_unsigned_t<Int>;
  static constexpr Key sign_flip = std::is_signed_v<Int> ? Key{1} << (8 * sizeof(Key) - 1) : Key{0};
  static Key encode(Int x) {
    Key widened =
        std::is_signed_v<Int> ? static_cast<Key>(static_cast<int64_t>(x)) : static_cast<Key>(static_cast<Unsigned>(x));
    return ~(widened ^ sign_flip);
  }
  static Int decode(Key key) { return static_cast<Int>(static_cast<std::make_signed_t<Key>>(~key ^ sign_flip)); }
};

template <>
struct ScoreKey<int64_t> : IntegerScoreKey<int64_t> {};
template <>
struct ScoreKey<int32_t> : IntegerScoreKey<int32_t> {};
template <>
struct ScoreKey<uint64_t> : IntegerScoreKey<uint64_t> {};
template <>
struct ScoreKey<uint32_t> : IntegerScoreKey<uint32_t> {};
template <>
struct ScoreKey<uint8_t> : IntegerScoreKey<uint8_t> {};

}  // namespace turbometrics
