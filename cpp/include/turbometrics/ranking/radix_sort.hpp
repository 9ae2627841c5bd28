// Stable radix sort of small records on their integer `packed` field.
//
// Only the bits that vary within a run are visited, so runs of equal keys
// cost one read and short keys take few passes. Runs too long for one thread
// are first split on their top digit with every thread (an MSD step); the
// rest are sorted one run per thread by LSD passes.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "turbometrics/buffer.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::ranking {

template <class Key>
int bit_width(Key x) {
  int width = 0;
  while (x) {
    ++width;
    x >>= 1;
  }
  return width;
}

// Key bits in which any record of [data, data + count) differs from the
// first. Bit 0 of `packed` is the label, which the sort ignores: within a
// run of equal scores the label order does not matter.
template <class Item>
auto varying_bits(const Item* data, int64_t count) {
  using Key = decltype(data->packed);
  Key varying = 0;
  if (count == 0) return varying;
  const Key first = data[0].packed;
  for (int64_t i = 1; i < count; ++i) varying |= data[i].packed ^ first;
  return static_cast<Key>(varying & ~Key{1});
}

// Stable insertion sort, for very small runs.
template <class Item>
void insertion_sort(Item* data, int64_t count) {
  for (int64_t i = 1; i < count; ++i) {
    Item item = data[i];
    int64_t j = i;
    while (j > 0 && (data[j - 1].packed >> 1) > (item.packed >> 1)) {
      data[j] = data[j - 1];
      --j;
    }
    data[j] = item;
  }
}

// A contiguous range of records. `bucket` is the top-level bucket it lies
// in, which holds the key bits above the packed ones.
struct Run {
  int64_t begin;
  int64_t count;
  int64_t bucket;
};

// The digit that splits a run: the `digit_bits` highest bits that vary,
// never reaching down to the label bit (varying has bit 0 clear).
template <class Key>
struct Digit {
  int shift = 0;
  Key mask = 0;
  int64_t radix = 0;
  static Digit of(Key varying, int digit_bits) {
    Digit digit;
    const int high = bit_width(varying);
    const int bits = std::min(digit_bits, high - 1);
    digit.shift = high - bits;
    digit.radix = int64_t{1} << bits;
    digit.mask = static_cast<Key>(digit.radix - 1);
    return digit;
  }
  int64_t operator()(Key key) const { return static_cast<int64_t>((key >> shift) & mask); }
};

// Histograms of the `passes` digits of the keys shifted right by `low`,
// one read pass; the loop over digits is unrolled for each digit count.
template <int DigitBits, int Passes, class Item, class Counts>
void count_digits_unrolled(const Item* data, int64_t count, int low, Counts& counts) {
  using Key = decltype(data->packed);
  constexpr Key mask = (Key{1} << DigitBits) - 1;
  for (int64_t i = 0; i < count; ++i) {
    const Key key = data[i].packed >> low;
    for (int p = 0; p < Passes; ++p) ++counts[p][(key >> (p * DigitBits)) & mask];
  }
}

// count_digits_unrolled for 1 <= passes <= Max (the histograms' extent).
template <int DigitBits, int Max, class Item, class Counts>
void count_digits(const Item* data, int64_t count, int low, int passes, Counts& counts) {
  if constexpr (Max > 1) {
    if (passes < Max) return count_digits<DigitBits, Max - 1>(data, count, low, passes, counts);
  }
  count_digits_unrolled<DigitBits, Max>(data, count, low, counts);
}

// Sorts data[0, count) stably by LSD radix passes over the bits that vary,
// `digit_bits` at a time; temp must hold `count` records. The histograms of
// every digit are order-independent, so one read pass counts them all and
// each pass is then a single scatter.
template <class Item>
void lsd_radix_sort(Item* data, Item* temp, int64_t count) {
  constexpr int digit_bits = 8;
  constexpr int64_t radix = int64_t{1} << digit_bits;
  constexpr int64_t few_top_digits = 16;
  if (count <= 32) {
    insertion_sort(data, count);
    return;
  }
  using Key = decltype(data->packed);
  const Key varying = varying_bits(data, count);
  if (varying == 0) return;
  int low = 0;
  while (!((varying >> low) & 1)) ++low;
  const int high = bit_width(varying);
  const int passes = (high - low + digit_bits - 1) / digit_bits;
  constexpr int max_passes = (8 * sizeof(Key) + digit_bits - 1) / digit_bits;
  int64_t counts[max_passes][radix] = {};
  count_digits<digit_bits, max_passes>(data, count, low, passes, counts);
  // Few distinct top digits (rounded or clustered scores): split on the top
  // digit first, since sub-runs of equal keys then need no further pass.
  int64_t distinct_top_digits = 0;
  for (int64_t d = 0; d < radix; ++d) distinct_top_digits += counts[passes - 1][d] != 0;
  if (passes > 1 && distinct_top_digits <= few_top_digits) {
    const int shift = low + (passes - 1) * digit_bits;
    int64_t starts[radix + 1];
    starts[0] = 0;
    for (int64_t d = 0; d < radix; ++d) starts[d + 1] = starts[d] + counts[passes - 1][d];
    int64_t next[radix];
    std::memcpy(next, starts, sizeof next);
    for (int64_t i = 0; i < count; ++i) temp[next[(data[i].packed >> shift) & (radix - 1)]++] = data[i];
    std::memcpy(data, temp, sizeof(Item) * count);
    for (int64_t d = 0; d < radix; ++d) {
      if (starts[d + 1] - starts[d] > 1) lsd_radix_sort(data + starts[d], temp, starts[d + 1] - starts[d]);
    }
    return;
  }
  Item* source = data;
  Item* target = temp;
  for (int p = 0; p < passes; ++p) {
    int64_t* offsets = counts[p];
    int64_t running = 0;
    for (int64_t d = 0; d < radix; ++d) {
      const int64_t here = offsets[d];
      offsets[d] = running;
      running += here;
    }
    const int shift = low + p * digit_bits;
    for (int64_t i = 0; i < count; ++i) target[offsets[(source[i].packed >> shift) & (radix - 1)]++] = source[i];
    std::swap(source, target);
  }
  if (source != data) std::memcpy(data, source, sizeof(Item) * count);
}

// Splits data[run] stably on its highest varying bits with all threads,
// appending the resulting sub-runs (in order) to `out`; appends nothing
// once `interrupt` is requested (the data is then unspecified).
template <class Item>
void parallel_split(Item* data, Item* temp, Run run, int digit_bits, int n_threads, std::vector<Run>& out,
                    const Interrupt& interrupt) {
  using Key = decltype(data->packed);
  Item* base = data + run.begin;
  const int chunks = std::max(1, n_threads) * 4;
  std::vector<Key> partial_varying(chunks, 0);
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(run.count, chunks, static_cast<int>(c));
    Key varying = 0;
    for_each_stretch(begin, end, interrupt, [&](int64_t from, int64_t to) {
      for (int64_t i = from; i < to; ++i) varying |= base[i].packed ^ base[0].packed;
    });
    partial_varying[c] = varying;
  });
  if (interrupt.requested()) return;
  Key varying = 0;
  for (Key v : partial_varying) varying |= v;
  varying &= ~Key{1};
  if (varying == 0) {  // one key: already sorted
    out.push_back(run);
    return;
  }
  const auto digit = Digit<Key>::of(varying, digit_bits);
  std::vector<int64_t> offsets(static_cast<size_t>(chunks) * digit.radix, 0);
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(run.count, chunks, static_cast<int>(c));
    int64_t* local = offsets.data() + c * digit.radix;
    for_each_stretch(begin, end, interrupt, [&](int64_t from, int64_t to) {
      for (int64_t i = from; i < to; ++i) ++local[digit(base[i].packed)];
    });
  });
  if (interrupt.requested()) return;
  std::vector<int64_t> starts(digit.radix + 1, 0);
  int64_t running = 0;
  for (int64_t d = 0; d < digit.radix; ++d) {
    starts[d] = running;
    for (int c = 0; c < chunks; ++c) {
      const int64_t here = offsets[c * digit.radix + d];
      offsets[c * digit.radix + d] = running;
      running += here;
    }
  }
  starts[digit.radix] = running;
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(run.count, chunks, static_cast<int>(c));
    int64_t* local = offsets.data() + c * digit.radix;
    for_each_stretch(begin, end, interrupt, [&](int64_t from, int64_t to) {
      for (int64_t i = from; i < to; ++i) temp[local[digit(base[i].packed)]++] = base[i];
    });
  });
  if (interrupt.requested()) return;
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(run.count, chunks, static_cast<int>(c));
    std::memcpy(base + begin, temp + begin, sizeof(Item) * (end - begin));
  });
  for (int64_t d = 0; d < digit.radix; ++d) {
    if (starts[d + 1] > starts[d]) out.push_back({run.begin + starts[d], starts[d + 1] - starts[d], run.bucket});
  }
}

// Splits the runs of `runs` (disjoint ranges of data) that are longer than
// `parallel_run`, in parallel on their top digit (never separating equal
// keys), until none is, and returns the runs, in order, that the data then
// falls into. Runs of one key are left whole. Once `interrupt` is
// requested it stops between stretches of a pass and returns no runs (the
// data is then unspecified).
template <class Item>
std::vector<Run> split_long_runs(Item* data, std::vector<Run> runs, int64_t parallel_run, int n_threads,
                                 const Interrupt& interrupt) {
  int64_t largest = 0;
  for (const Run& run : runs) largest = std::max(largest, run.count);
  if (largest <= parallel_run) return runs;
  Buffer<Item> temp = make_buffer<Item>(largest);
  prefault_huge_pages(temp.get(), sizeof(Item) * static_cast<size_t>(largest), n_threads, interrupt);
  std::vector<Run> pending = std::move(runs), done;
  while (!pending.empty()) {
    std::vector<Run> next;
    for (const Run& run : pending) {
      if (run.count <= parallel_run) {
        done.push_back(run);
      } else {
        std::vector<Run> parts;
        parallel_split(data, temp.get(), run, 11, n_threads, parts, interrupt);
        if (interrupt.requested()) return {};
        if (parts.size() == 1) {
          done.push_back(run);  // all keys equal
        } else {
          next.insert(next.end(), parts.begin(), parts.end());
        }
      }
    }
    pending = std::move(next);
  }
  std::sort(done.begin(), done.end(), [](const Run& a, const Run& b) { return a.begin < b.begin; });
  return done;
}

// Sorts every run of `runs` stably, one run per thread, the runs handed out
// in order; right after run r is sorted (while it is in cache) the thread
// that sorted it calls after_sort(r). Runs longer than `parallel_run` must
// hold one key (see split_long_runs). The result does not depend on
// n_threads. Once `interrupt` is requested the remaining runs are skipped.
template <class Item, class AfterSort>
void sort_each_run(Item* data, const std::vector<Run>& runs, int64_t parallel_run, int n_threads,
                   const Interrupt& interrupt, AfterSort&& after_sort) {
  int64_t largest_small = 1;
  for (const Run& run : runs) {
    if (run.count <= parallel_run) largest_small = std::max(largest_small, run.count);
  }
  std::atomic<int64_t> next_run{0};
  const int64_t total = static_cast<int64_t>(runs.size());
  parallel_region(n_threads, [&](int, int) {
    Buffer<Item> temp = make_buffer<Item>(largest_small);
    for (int64_t r = next_run++; r < total; r = next_run++) {
      if (interrupt.requested()) return;
      const Run& run = runs[r];
      if (run.count > 1 && run.count <= parallel_run) lsd_radix_sort(data + run.begin, temp.get(), run.count);
      after_sort(r);
    }
  });
}

}  // namespace turbometrics::ranking
