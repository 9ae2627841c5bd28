// Run-length encoded binary masks in the COCO convention: the pixels of an
// H x W mask are read in column-major order (down the first column, then the
// next), and `counts` holds the lengths of alternating runs, starting with a
// run of zeros (so a mask whose first pixel is set starts with a 0 count).
//
// Every function reproduces pycocotools 2.0.11 (maskApi.c) exactly,
// including its 32-bit unsigned arithmetic: counts, areas and bounding-box
// corners are `unsigned int` there, so sums wrap modulo 2^32. Where
// pycocotools would crash, hang or read uninitialised memory, these
// functions throw std::invalid_argument instead. Nothing here holds global
// state; every function is safe to call from many threads at once.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace turbometrics::detection {

struct RunLengths {
  uint64_t height = 0, width = 0;
  std::vector<uint32_t> counts;  // alternating runs of 0s and 1s, zeros first
};

// [x, y, width, height] of a box, as pycocotools' doubles.
using Box = std::array<double, 4>;

// Sum of all counts (64-bit, no wrap-around): the number of pixels the runs
// cover. A well-formed RLE covers exactly height * width pixels.
inline uint64_t pixel_count(const RunLengths& rle) {
  uint64_t total = 0;
  for (const uint32_t c : rle.counts) total += c;
  return total;
}

// Number of set pixels: the sum of the odd-indexed counts, in 32-bit
// unsigned arithmetic like pycocotools' rleArea (wraps modulo 2^32).
inline uint32_t area(const RunLengths& rle) {
  uint32_t total = 0;
  const size_t m = rle.counts.size();
  for (size_t j = 1; j < m; j += 2) total += rle.counts[j];
  return total;
}

// Run-length encodes one mask of height * width bytes stored column-major.
// A new run starts wherever a byte differs from the previous one (the
// virtual pixel before the first is 0), exactly as pycocotools: masks should
// hold 0/1 (or bool) values; other nonzero values are not merged with 1s.
// A 0-pixel mask encodes as the single count 0. Throws when a run would be
// longer than 2^32 - 1 pixels (pycocotools' counts would wrap).
inline RunLengths encode(const uint8_t* mask, uint64_t height, uint64_t width) {
  RunLengths rle;
  rle.height = height;
  rle.width = width;
  const uint64_t n = height * width;
  if (height != 0 && n / height != width) throw std::invalid_argument("mask size overflows 64 bits");
  uint8_t current = 0;
  uint64_t run_start = 0;
  uint64_t i = 0;
  constexpr uint64_t ones = 0x0101010101010101ull;
  auto push = [&](uint64_t length) {
    if (length > std::numeric_limits<uint32_t>::max())
      throw std::invalid_argument("a run of more than 2^32 - 1 pixels does not fit an RLE count");
    rle.counts.push_back(static_cast<uint32_t>(length));
  };
  while (i < n) {
    // Skip eight equal bytes at a time through long runs.
    const uint64_t pattern = ones * current;
    while (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, mask + i, 8);
      if (word != pattern) break;
      i += 8;
    }
    while (i < n && mask[i] == current) ++i;
    if (i == n) break;
    push(i - run_start);
    run_start = i;
    current = mask[i];
  }
  push(n - run_start);
  return rle;
}

// Throws unless the counts cover exactly height * width pixels.
inline void check_covers_mask(const RunLengths& rle) {
  const uint64_t n = rle.height * rle.width;
  const uint64_t covered = pixel_count(rle);
  if (covered != n || (rle.height != 0 && n / rle.height != rle.width))
    throw std::invalid_argument("Invalid RLE mask representation: the counts cover " + std::to_string(covered) +
                                " pixels, the size " + std::to_string(rle.height) + "x" + std::to_string(rle.width) +
                                " has " + std::to_string(n));
}

// Writes height * width column-major bytes (0 or 1) to `out`. Throws
// std::invalid_argument unless the counts cover exactly height * width
// pixels (pycocotools raises for too many and leaves uninitialised memory
// for too few).
inline void decode(const RunLengths& rle, uint8_t* out) {
  check_covers_mask(rle);
  uint8_t value = 0;
  for (const uint32_t c : rle.counts) {
    if (c) std::memset(out, value, c);
    out += c;
    value ^= 1;
  }
}

// Bounding box [x, y, w, h] of the set pixels, with pycocotools' rleToBbox
// arithmetic: height and width are truncated to 32 bits, a trailing run of
// zeros is ignored, runs spanning several columns widen the box to the full
// height, and an RLE with at least two counts but no set pixel gives
// [W, H, 2^32 - W + 1, 2^32 - H + 1] (unsigned wrap-around). Fewer than two
// counts give [0, 0, 0, 0]. Throws where pycocotools divides by zero (a set
// pixel with a height that is 0 modulo 2^32).
inline Box to_bbox(const RunLengths& rle) {
  const uint32_t h = static_cast<uint32_t>(rle.height);
  const uint32_t w = static_cast<uint32_t>(rle.width);
  const size_t m = rle.counts.size() / 2 * 2;
  if (m == 0) return {0.0, 0.0, 0.0, 0.0};
  uint32_t x_min = w, y_min = h, x_max = 0, y_max = 0;
  uint32_t position = 0;  // start of the current run, modulo 2^32
  const uint32_t* c = rle.counts.data();
  for (size_t j = 0; j < m; j += 2) {
    const uint32_t run_start = position + c[j];
    position = run_start + c[j + 1];
    if (c[j + 1] == 0) continue;
    if (h == 0) throw std::invalid_argument("RLE with set pixels and a height of 0 (modulo 2^32)");
    const uint32_t last = position - 1;
    const uint32_t x_first = run_start / h, x_last = last / h;
    x_min = std::min(x_min, x_first);
    x_max = std::max(x_max, x_last);
    if (x_first < x_last) {
      y_min = 0;
      y_max = h - 1;
    } else {
      y_min = std::min(y_min, run_start % h);
      y_max = std::max(y_max, last % h);
    }
  }
  return {static_cast<double>(x_min), static_cast<double>(y_min), static_cast<double>(uint32_t(x_max - x_min + 1)),
          static_cast<double>(uint32_t(y_max - y_min + 1))};
}

}  // namespace turbometrics::detection
