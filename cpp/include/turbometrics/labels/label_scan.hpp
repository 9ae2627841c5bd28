// One pass over a label array: its few distinct values and whether every
// value is an integer (the facts scikit-learn's type_of_target needs).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "turbometrics/isa.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::labels {

template <class Label>
struct LabelScan {
  std::vector<Label> distinct;  // sorted, NaN last; empty when overflowed
  bool overflowed = false;      // more than `limit` (at most 8) distinct values
  bool integral = true;         // every value equals its int64 cast
};

// True when a floating value survives a round trip through int64 unchanged,
// matching `x.astype(int64).astype(x.dtype) == x` (false for NaN and inf).
template <class Value>
bool is_integral_value(Value x) {
  if constexpr (std::is_floating_point_v<Value>) {
    constexpr double bound = 9223372036854775808.0;  // 2^63
    const double v = static_cast<double>(x);
    return v >= -bound && v < bound && std::trunc(v) == v;
  } else {
    return true;
  }
}

// Distinct values seen so far, with the unused slots repeating the first one
// so that "is x known?" is a fixed, branch-free set of comparisons.
template <class Label, int Slots>
struct KnownValues {
  Label slots[Slots];
  int count = 0;
  bool nan = false;

  bool contains(Label x) const {
    bool found = false;
    for (int s = 0; s < Slots; ++s) found |= (slots[s] == x);
    return found;
  }
  // Adds x; returns false when that would exceed `limit` values.
  bool add(Label x, int64_t limit) {
    if (x != x) {
      if (!nan) {
        nan = true;
        if (count + 1 > limit) return false;
        ++count;
      }
      return true;
    }
    const int stored = count - (nan ? 1 : 0);
    if (stored > 0 && contains(x)) return true;
    if (count + 1 > limit || stored + 1 > Slots) return false;
    slots[stored] = x;
    if (stored == 0) std::fill(slots + 1, slots + Slots, x);
    ++count;
    return true;
  }
};

// True when every value in [start, stop) is one of the stored values,
// comparing against only as many slots as are filled (two compares per
// value for binary labels instead of eight). With Wide, the flags are
// integers as wide as a label, which lets the compiler keep them in the
// lanes of the comparison; without it they are bools (better for 64-bit
// labels without SSE4.1's 64-bit compare).
template <int Used, bool Wide, class Label, int Slots, class At>
TURBOMETRICS_ALWAYS_INLINE inline bool first_slots_contain(const KnownValues<Label, Slots>& known, At at, int64_t start,
                                                           int64_t stop) {
  Label slots[Used];
  for (int s = 0; s < Used; ++s) slots[s] = known.slots[s];
  if constexpr (Wide) {
    using Flag = std::conditional_t<
        sizeof(Label) == 8, uint64_t,
        std::conditional_t<sizeof(Label) == 4, uint32_t, std::conditional_t<sizeof(Label) == 2, uint16_t, uint8_t>>>;
    Flag missing = 0;
    for (int64_t i = start; i < stop; ++i) {
      const Label x = at(i);
      Flag found = 0;
      for (int s = 0; s < Used; ++s) found |= static_cast<Flag>(slots[s] == x);
      missing |= found ^ Flag{1};
    }
    return missing == 0;
  } else {
    bool all = true;
    for (int64_t i = start; i < stop; ++i) {
      const Label x = at(i);
      bool found = false;
      for (int s = 0; s < Used; ++s) found |= (slots[s] == x);
      all &= found;
    }
    return all;
  }
}

template <bool Wide, class Label, int Slots, class At>
TURBOMETRICS_ALWAYS_INLINE inline bool block_known(const KnownValues<Label, Slots>& known, At at, int64_t start,
                                                   int64_t stop) {
  switch (known.count - (known.nan ? 1 : 0)) {
    case 1: return first_slots_contain<1, Wide>(known, at, start, stop);
    case 2: return first_slots_contain<2, Wide>(known, at, start, stop);
    case 3: return first_slots_contain<3, Wide>(known, at, start, stop);
    case 4: return first_slots_contain<4, Wide>(known, at, start, stop);
    default: {
      bool all = true;
      for (int64_t i = start; i < stop; ++i) all &= known.contains(at(i));
      return all;
    }
  }
}

constexpr int kScanSlots = 8;

template <class Label>
struct ScanPart {
  KnownValues<Label, kScanSlots> known;
  bool overflowed = false;
  bool integral = true;
};

// Scans values at(i), i in [begin, end), into `part`. Blocks whose values
// are all known take a vectorisable fast path.
template <bool Wide, class Label, class At>
TURBOMETRICS_ALWAYS_INLINE inline void scan_range(ScanPart<Label>& part, At at, int64_t begin, int64_t end,
                                                  int64_t limit) {
  constexpr int64_t block = 1024;
  for (int64_t start = begin; start < end; start += block) {
    const int64_t stop = std::min(end, start + block);
    bool all_known = part.known.count > 0 && !part.overflowed;
    bool all_integral = true;
    if (!part.overflowed) {
      const KnownValues<Label, kScanSlots> known = part.known;  // a local copy lets the loop vectorise
      all_known = all_known && block_known<Wide>(known, at, start, stop);
    }
    if constexpr (std::is_floating_point_v<Label>) {
      for (int64_t i = start; i < stop; ++i) all_integral &= is_integral_value(at(i));
    }
    part.integral = part.integral && all_integral;
    if (!all_known && !part.overflowed) {
      for (int64_t i = start; i < stop && !part.overflowed; ++i) part.overflowed = !part.known.add(at(i), limit);
    }
    if (part.overflowed && (!std::is_floating_point_v<Label> || !part.integral)) break;
  }
}

// Scans contiguous values, with the AVX2 copy where the processor has it:
// 64-bit compares and rounding vectorise only there, which makes int64 and
// float64 labels several times faster. The result is the same: only
// equality and integrality are tested.
template <class Label>
void scan_contiguous(Isa isa, ScanPart<Label>& part, const Label* values, int64_t begin, int64_t end, int64_t limit) {
  dispatch_without_fma(isa, [&](auto copy) TURBOMETRICS_ALWAYS_INLINE {
    constexpr bool wide = decltype(copy)::value == Isa::avx2 || sizeof(Label) < 8;
    scan_range<wide>(part, [values](int64_t i) TURBOMETRICS_ALWAYS_INLINE { return values[i]; }, begin, end, limit);
  });
}

// Distinct values (up to `limit`) of data[i * stride], i in [0, n), with
// stride in bytes. Equal-comparing values (-0.0, 0.0) count once; NaN counts
// once.
template <class Label>
LabelScan<Label> scan_labels(const char* data, int64_t stride, int64_t n, int64_t limit, int n_threads) {
  constexpr int slots = kScanSlots;
  limit = std::min<int64_t>(limit, slots);
  const int chunks = std::max(1, n_threads);
  std::vector<ScanPart<Label>> partial(chunks);
  const bool contiguous = stride == static_cast<int64_t>(sizeof(Label));
  const Isa isa = best_isa();
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(n, chunks, static_cast<int>(c));
    ScanPart<Label>& part = partial[c];
    if (contiguous) {
      scan_contiguous(isa, part, reinterpret_cast<const Label*>(data), begin, end, limit);
    } else {
      scan_range<false>(
          part, [data, stride](int64_t i) { return *reinterpret_cast<const Label*>(data + i * stride); }, begin, end,
          limit);
    }
  });
  KnownValues<Label, slots> merged;
  LabelScan<Label> result;
  for (const ScanPart<Label>& part : partial) {
    result.integral = result.integral && part.integral;
    result.overflowed = result.overflowed || part.overflowed;
    const int stored = part.known.count - (part.known.nan ? 1 : 0);
    for (int s = 0; s < stored && !result.overflowed; ++s) result.overflowed = !merged.add(part.known.slots[s], limit);
    if (part.known.nan && !result.overflowed)
      result.overflowed = !merged.add(std::numeric_limits<Label>::quiet_NaN(), limit);
  }
  if (!result.overflowed) {
    const int stored = merged.count - (merged.nan ? 1 : 0);
    result.distinct.assign(merged.slots, merged.slots + stored);
    std::sort(result.distinct.begin(), result.distinct.end());
    if (merged.nan) result.distinct.push_back(std::numeric_limits<Label>::quiet_NaN());  // NaN sorts last
  }
  return result;
}

// Bits 0-1: 0 when every value is finite, 1 when some value is NaN, 2 when
// some value is infinite and none is NaN (NaN is reported first, as
// scikit-learn does). Bit 2 (value 4): every value is zero.
template <class Value>
int finite_status(const char* data, int64_t stride, int64_t n, int n_threads) {
  const int chunks = std::max(1, n_threads);
  std::vector<int> status(chunks, 0);
  std::vector<char> nonzero(chunks, 0);
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(n, chunks, static_cast<int>(c));
    bool nan = false, inf = false, any_nonzero = false;
    for (int64_t i = begin; i < end; ++i) {
      const Value x = *reinterpret_cast<const Value*>(data + i * stride);
      nan |= (x != x);
      inf |= std::isinf(x);
      any_nonzero |= (x != Value{0});
    }
    status[c] = nan ? 1 : (inf ? 2 : 0);
    nonzero[c] = any_nonzero;
  });
  int result = 0;
  bool any_nonzero = false;
  for (int c = 0; c < chunks; ++c) {
    result = (result == 1 || status[c] == 1) ? 1 : std::max(result, status[c]);
    any_nonzero = any_nonzero || nonzero[c];
  }
  return result | (any_nonzero ? 0 : 4);
}

}  // namespace turbometrics::labels
