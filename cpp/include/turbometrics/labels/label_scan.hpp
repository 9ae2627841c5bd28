// One pass over a label array: its few distinct values and whether every
// value is an integer (the facts scikit-learn's type_of_target needs).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "../parallel.hpp"

namespace turbometrics::labels {

template <class Label>
struct LabelScan {
  std::vector<Label> distinct;  // sorted; complete only when !overflowed
  bool overflowed = false;      // more than `limit` distinct values
  bool integral = true;         // every value equals its int64 cast
};

// True when a floating value survives a round trip through int64 unchanged,
// matching `x.astype(int64).astype(x.dtype) == x` for finite values.
template <class Value>
bool is_integral_value(Value x) {
  if constexpr (std::is_floating_point_v<Value>) {
    constexpr double lowest = -9223372036854775808.0;  // -2^63, representable
    const double v = static_cast<double>(x);
    if (!(v >= lowest && v < -lowest)) return false;  // NaN, inf, out of range
    return static_cast<double>(static_cast<int64_t>(v)) == v;
  } else {
    return true;
  }
}

// Distinct values (up to `limit`) of data[i * stride], i in [0, n), with
// stride in bytes. Equal-comparing values (-0.0, 0.0) count once; NaN is
// recorded once. Chunks are merged in order, so the result is deterministic.
template <class Label>
LabelScan<Label> scan_labels(const char* data, int64_t stride, int64_t n, int64_t limit, int n_threads) {
  const int chunks = std::max(1, n_threads);
  std::vector<LabelScan<Label>> partial(chunks);
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(n, chunks, static_cast<int>(c));
    LabelScan<Label>& scan = partial[c];
    bool has_nan = false;
    for (int64_t i = begin; i < end; ++i) {
      const Label x = *reinterpret_cast<const Label*>(data + i * stride);
      if (scan.integral && !is_integral_value(x)) scan.integral = false;
      if (scan.overflowed) {
        // Past the limit only the integrality of floats is still unknown.
        if (!scan.integral || !std::is_floating_point_v<Label>) break;
        continue;
      }
      if (x != x) {  // NaN
        if (!has_nan) {
          has_nan = true;
          scan.distinct.push_back(x);
        }
      } else if (std::find(scan.distinct.begin(), scan.distinct.end(), x) == scan.distinct.end()) {
        scan.distinct.push_back(x);
      }
      if (static_cast<int64_t>(scan.distinct.size()) > limit) scan.overflowed = true;
    }
  });
  LabelScan<Label> merged;
  bool has_nan = false;
  for (const auto& scan : partial) {
    merged.integral = merged.integral && scan.integral;
    merged.overflowed = merged.overflowed || scan.overflowed;
    for (const Label x : scan.distinct) {
      if (x != x) {
        if (!has_nan) merged.distinct.push_back(x);
        has_nan = true;
      } else if (std::find(merged.distinct.begin(), merged.distinct.end(), x) == merged.distinct.end()) {
        merged.distinct.push_back(x);
      }
    }
  }
  if (static_cast<int64_t>(merged.distinct.size()) > limit) merged.overflowed = true;
  // NaN sorts last, as in np.unique.
  std::sort(merged.distinct.begin(), merged.distinct.end(), [](Label a, Label b) {
    if (a != a) return false;
    if (b != b) return true;
    return a < b;
  });
  return merged;
}

// 0 when every value is finite, 1 when some value is NaN, 2 when some value
// is infinite and none is NaN (NaN is reported first, as scikit-learn does).
template <class Value>
int finite_status(const char* data, int64_t stride, int64_t n, int n_threads) {
  const int chunks = std::max(1, n_threads);
  std::vector<int> status(chunks, 0);
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(n, chunks, static_cast<int>(c));
    bool nan = false, inf = false;
    for (int64_t i = begin; i < end; ++i) {
      const Value x = *reinterpret_cast<const Value*>(data + i * stride);
      nan |= (x != x);
      inf |= std::isinf(x);
    }
    status[c] = nan ? 1 : (inf ? 2 : 0);
  });
  int result = 0;
  for (int s : status) {
    if (s == 1) return 1;
    result = std::max(result, s);
  }
  return result;
}

}  // namespace turbometrics::labels
