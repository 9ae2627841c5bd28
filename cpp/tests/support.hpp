// Helpers shared by the kernel tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace turbometrics::testing {

// The bits of a double: results promised bit for bit are compared this way
// (so that -0.0 != 0.0 and NaN == NaN of the same payload).
inline uint64_t bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// The thread counts every thread-count-invariance test compares: one
// thread and more threads than the machine may have.
inline constexpr int many_threads = 4;

// A deterministic pseudo-random sequence (splitmix64), so that tests need
// no seeds from the standard library, whose distributions vary by platform.
class SplitMix {
 public:
  explicit SplitMix(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  int64_t below(int64_t n) { return static_cast<int64_t>(next() % static_cast<uint64_t>(n)); }

 private:
  uint64_t state_;
};

}  // namespace turbometrics::testing
