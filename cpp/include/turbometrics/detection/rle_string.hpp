// The compressed text form of COCO run lengths (pycocotools' rleToString /
// rleFrString). Each count is written as a signed integer in groups of five
// bits, least significant group first, one character per group: the group
// plus 0x20 when more groups follow, plus 48, so every character lies in
// '0' (48) .. 'o' (111). From the fourth count on, the difference to the
// count two places earlier is written instead of the count itself. The last
// group's bit 0x10 is the sign bit.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "turbometrics/detection/run_lengths.hpp"

namespace turbometrics::detection {

inline std::string to_string(const RunLengths& rle) {
  std::string out;
  const auto& c = rle.counts;
  out.reserve(c.size() * 2);
  for (size_t i = 0; i < c.size(); ++i) {
    int64_t value = c[i];
    if (i > 2) value -= c[i - 2];
    for (;;) {
      int group = static_cast<int>(value & 0x1f);
      value >>= 5;  // arithmetic shift: keeps the sign
      const bool done = (group & 0x10) ? value == -1 : value == 0;
      if (!done) group |= 0x20;
      out.push_back(static_cast<char>(group + 48));
      if (done) break;
    }
  }
  return out;
}

// Parses a compressed count string. Unlike pycocotools, which reads past
// the end of a truncated string and lets invalid characters or negative
// counts wrap around, this throws std::invalid_argument with the position
// of the problem when the text is not a valid encoding: a character outside
// '0'..'o', a value whose last character says more follow, a value longer
// than 12 characters, or a decoded count outside 0 .. 2^32 - 1. The counts
// are not checked against height * width (see check_covers_mask).
inline RunLengths from_string(std::string_view text, uint64_t height, uint64_t width) {
  RunLengths rle;
  rle.height = height;
  rle.width = width;
  rle.counts.reserve(text.size());
  const size_t n = text.size();
  size_t pos = 0;
  while (pos < n) {
    const size_t value_start = pos;
    uint64_t bits = 0;
    int shift = 0;
    int group;
    do {
      if (pos == n)
        throw std::invalid_argument("invalid RLE string: it ends inside a value (the value starting at character " +
                                    std::to_string(value_start) + " is truncated)");
      const unsigned char ch = static_cast<unsigned char>(text[pos]);
      if (ch < 48 || ch > 111)
        throw std::invalid_argument("invalid RLE string: character " + std::to_string(pos) + " (byte " +
                                    std::to_string(ch) + ") is outside '0'..'o'");
      if (shift >= 60)
        throw std::invalid_argument("invalid RLE string: the value starting at character " +
                                    std::to_string(value_start) + " is longer than 12 characters");
      group = ch - 48;
      bits |= static_cast<uint64_t>(group & 0x1f) << shift;
      shift += 5;
      ++pos;
    } while (group & 0x20);
    if (group & 0x10) bits |= ~uint64_t{0} << shift;  // negative: sign-extend
    int64_t value = static_cast<int64_t>(bits);
    const size_t index = rle.counts.size();
    if (index > 2) value += rle.counts[index - 2];
    if (value < 0 || value > static_cast<int64_t>(std::numeric_limits<uint32_t>::max()))
      throw std::invalid_argument("invalid RLE string: count " + std::to_string(index) + " (at character " +
                                  std::to_string(value_start) + ") decodes to " + std::to_string(value) +
                                  ", outside 0 .. 2^32 - 1");
    rle.counts.push_back(static_cast<uint32_t>(value));
  }
  return rle;
}

}  // namespace turbometrics::detection
