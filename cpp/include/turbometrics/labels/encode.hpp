// Label encoding for any number of classes: the sorted distinct values of a
// label array, and an encoder that maps each value to its dense code (its
// index among sorted labels) or -1 when the value is not a label.
//
// Integer labels (and integral float labels, which scikit-learn's
// type_of_target guarantees before encoding) spanning a small range use a
// direct lookup table indexed by value - min; wider ranges fall back to a
// sort of the distinct values and a binary search.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "turbometrics/parallel.hpp"

namespace turbometrics::labels {

// The integer a label is compared by: labels of unsigned types keep the
// full uint64 range, others go through int64 (floats are integral here).
template <class Label>
using LabelKey = std::conditional_t<std::is_unsigned_v<Label>, uint64_t, int64_t>;

template <class Label>
inline LabelKey<Label> label_key(Label x) {
  return static_cast<LabelKey<Label>>(x);
}

template <class Label>
inline Label load_label(const char* data, int64_t stride, int64_t i) {
  return *reinterpret_cast<const Label*>(data + i * stride);
}

// Largest value range (max - min) encoded through a lookup table.
inline uint64_t table_span_limit(int64_t n) {
  const uint64_t by_size = static_cast<uint64_t>(std::max<int64_t>(4096, 4 * n));
  return std::min<uint64_t>(by_size, uint64_t{1} << 22);
}

template <class Label>
struct KeyRange {
  LabelKey<Label> lo{};
  LabelKey<Label> hi{};
  bool empty = true;
};

// Minimum and maximum key over one or two arrays, in one parallel pass each.
template <class Label>
KeyRange<Label> key_range(const char* data, int64_t stride, int64_t n, int n_threads) {
  using Key = LabelKey<Label>;
  KeyRange<Label> range;
  if (n <= 0) return range;
  const int chunks = std::max(1, n_threads);
  std::vector<Key> lo(chunks, label_key(load_label<Label>(data, stride, 0)));
  std::vector<Key> hi(lo);
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(n, chunks, static_cast<int>(c));
    Key l = lo[c], h = hi[c];
    if (stride == static_cast<int64_t>(sizeof(Label))) {
      const Label* values = reinterpret_cast<const Label*>(data);
      for (int64_t i = begin; i < end; ++i) {
        const Key k = label_key(values[i]);
        l = k < l ? k : l;
        h = k > h ? k : h;
      }
    } else {
      for (int64_t i = begin; i < end; ++i) {
        const Key k = label_key(load_label<Label>(data, stride, i));
        l = k < l ? k : l;
        h = k > h ? k : h;
      }
    }
    lo[c] = l;
    hi[c] = h;
  });
  range.empty = false;
  range.lo = *std::min_element(lo.begin(), lo.end());
  range.hi = *std::max_element(hi.begin(), hi.end());
  return range;
}

// One pass for the common case: every key lies within a window of 4096
// around the first one. Fills `out` (sorted) and returns true, or returns
// false when some key falls outside.
template <class Label>
bool distinct_in_window(const char* data, int64_t stride, int64_t n, int n_threads, std::vector<Label>& out) {
  using Key = LabelKey<Label>;
  constexpr uint64_t window = 4096;
  const uint64_t base = static_cast<uint64_t>(label_key(load_label<Label>(data, stride, 0))) - window / 2;
  const int chunks = std::max(1, n_threads);
  std::vector<std::vector<uint8_t>> seen(chunks);
  std::vector<uint8_t> outside(chunks, 0);
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    // Plain copies: lambdas capture structured bindings only from C++20.
    const auto bounds = chunk_bounds(n, chunks, static_cast<int>(c));
    const int64_t begin = bounds.first, end = bounds.second;
    std::vector<uint8_t> local(window, 0);
    bool out_of_window = false;
    auto scan = [&](auto at) {
      for (int64_t i = begin; i < end; ++i) {
        const uint64_t slot = static_cast<uint64_t>(label_key(at(i))) - base;
        if (slot < window) {
          local[slot] = 1;
        } else {
          out_of_window = true;
          break;
        }
      }
    };
    if (stride == static_cast<int64_t>(sizeof(Label))) {
      const Label* values = reinterpret_cast<const Label*>(data);
      scan([values](int64_t i) { return values[i]; });
    } else {
      scan([data, stride](int64_t i) { return load_label<Label>(data, stride, i); });
    }
    seen[c] = std::move(local);
    outside[c] = out_of_window;
  });
  for (uint8_t o : outside)
    if (o) return false;
  std::vector<Key> keys;
  for (uint64_t slot = 0; slot < window; ++slot) {
    bool any = false;
    for (const auto& local : seen) any = any || local[slot];
    if (any) keys.push_back(static_cast<Key>(base + slot));
  }
  std::sort(keys.begin(), keys.end());  // the window may wrap around the key range
  out.clear();
  for (Key k : keys) out.push_back(static_cast<Label>(k));
  return true;
}

// Sorted distinct values of data[i * stride], i in [0, n).
template <class Label>
std::vector<Label> distinct_sorted(const char* data, int64_t stride, int64_t n, int n_threads) {
  using Key = LabelKey<Label>;
  std::vector<Label> out;
  if (n > 0 && distinct_in_window<Label>(data, stride, n, n_threads, out)) return out;
  const KeyRange<Label> range = key_range<Label>(data, stride, n, n_threads);
  if (range.empty) return out;
  const uint64_t span = static_cast<uint64_t>(range.hi) - static_cast<uint64_t>(range.lo);
  if (span < table_span_limit(n)) {
    // Presence table; concurrent stores of the same byte value are done
    // with relaxed atomics.
    std::vector<uint8_t> seen(span + 1, 0);
    uint8_t* table = seen.data();
    const Key lo = range.lo;
    const int chunks = std::max(1, n_threads);
    parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
      auto [begin, end] = chunk_bounds(n, chunks, static_cast<int>(c));
      for (int64_t i = begin; i < end; ++i) {
        const uint64_t slot =
            static_cast<uint64_t>(label_key(load_label<Label>(data, stride, i))) - static_cast<uint64_t>(lo);
        if (!__atomic_load_n(table + slot, __ATOMIC_RELAXED)) __atomic_store_n(table + slot, 1, __ATOMIC_RELAXED);
      }
    });
    for (uint64_t s = 0; s <= span; ++s)
      if (seen[s]) out.push_back(static_cast<Label>(static_cast<Key>(static_cast<uint64_t>(lo) + s)));
    return out;
  }
  std::vector<Key> keys(n);
  for (int64_t i = 0; i < n; ++i) keys[i] = label_key(load_label<Label>(data, stride, i));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  out.reserve(keys.size());
  for (Key k : keys) out.push_back(static_cast<Label>(k));
  return out;
}

// Maps a label to its index among `labels` (sorted, distinct), -1 if absent.
template <class Label>
class LabelEncoder {
 public:
  using Key = LabelKey<Label>;

  explicit LabelEncoder(const std::vector<Label>& labels) : labels_(labels) {
    keys_.reserve(labels.size());
    for (Label x : labels) keys_.push_back(label_key(x));
    if (keys_.empty()) return;
    lo_ = keys_.front();
    const uint64_t span = static_cast<uint64_t>(keys_.back()) - static_cast<uint64_t>(lo_);
    if (span < (uint64_t{1} << 22)) {
      table_.assign(span + 1, -1);
      for (size_t c = 0; c < keys_.size(); ++c)
        table_[static_cast<uint64_t>(keys_[c]) - static_cast<uint64_t>(lo_)] = static_cast<int32_t>(c);
      table_size_ = span + 1;
    }
  }

  int64_t size() const { return static_cast<int64_t>(keys_.size()); }
  Label label(int64_t code) const { return labels_[code]; }

  int32_t code(Label x) const {
    const Key k = label_key(x);
    if (table_size_) {
      const uint64_t slot = static_cast<uint64_t>(k) - static_cast<uint64_t>(lo_);
      return slot < table_size_ ? table_[slot] : -1;
    }
    auto it = std::lower_bound(keys_.begin(), keys_.end(), k);
    return (it != keys_.end() && *it == k) ? static_cast<int32_t>(it - keys_.begin()) : -1;
  }

 private:
  std::vector<Label> labels_;
  std::vector<Key> keys_;
  std::vector<int32_t> table_;
  uint64_t table_size_ = 0;
  Key lo_{};
};

}  // namespace turbometrics::labels
