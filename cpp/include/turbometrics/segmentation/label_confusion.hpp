// The segmentation primitive: the confusion matrix of two label maps, K x K
// int64 counts with rows the true label and columns the predicted one, for
// the whole input or per image. Every segmentation metric (IoU, Dice,
// accuracies, precision, recall) is a sweep over these counts.
//
// A map is read through a 3-D strided view (images x rows x columns, byte
// strides), so 2-D maps, 3-D volumes, batches and strided or read-only
// arrays are all read in place. A pixel whose true label equals the ignore
// value is skipped (its prediction is not read into the counts). Any other
// pixel whose true or predicted label lies outside [0, K) makes the result
// invalid: the kernel reports it and the caller names the first such pixel.
//
// Pixels are counted in blocks of at most 1024 along a row: the block's cell
// indices (true * K + predicted, or the spare cell K * K for skipped and
// invalid pixels) are computed into a small buffer (vectorised for
// contiguous rows), then added to 32-bit tables taking pixels in turn
// (neighbours that hit one cell, as in coherent maps, then do not wait on
// each other's increments). Block-uniform fast path: the cells are taken 32
// at a time, and 32 equal cells (the inside of a region of a coherent map)
// only lengthen a run kept in registers, added to the table once when the
// cell changes; after 8 mixed chunks in a row (random maps) the next 32
// chunks (the rest of a block) are not tested. The number of tables
// depends on K and on the chunks (Counter::Layout): four for the mixed
// chunks of coherent and noisy maps up to 256 classes (maps with 5 % salt
// noise: 0.53 ns per pixel of counting instead of 0.76 with two), and for
// the chunks of random maps, once a block looks random (few equal
// neighbours), as many as fit the caches: four up to 32 classes, two up to
// 90, then one of 16-bit cells, half the cache of a 32-bit one (a cell that
// wraps adds 2^16 to its total; docs/guide/segmentation.md). The tables are
// added into int64 totals (fold rule: once fold_every = 2^31 pixels were
// added since the last fold, so that no 32-bit cell can overflow).
// Labels of 8 bits with at most 256 classes give their cells in 16-bit
// arithmetic (twice the lanes per vector multiply).
// Counts are integers, so they are the same for every thread count and
// every split of the work.
//
// Peak memory beyond the output: per thread, 4 (K^2 + 1) uint32 cells up to
// 256 classes, 2 (K^2 + 1) up to 1000 and K^2 + 1 past that, K^2 + 1 uint16
// cells from 91 to 1000 classes, and K^2 + 1 int64 totals (for 150 classes:
// 360 KB + 45 KB + 180 KB); the fast path and the layout's choice add none
// (the run is two registers, the choice one flag). Each thread adds its
// totals into the output in turn, with no other copy.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>
#include <vector>

#include "turbometrics/interrupt.hpp"
#include "turbometrics/isa.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/portable.hpp"

namespace turbometrics::segmentation {

// The largest class count: cell indices and the spare cell fit in 32 bits.
constexpr int64_t max_classes = 65535;

// A label map viewed as images x rows x columns with byte strides.
struct MapView {
  const char* data = nullptr;
  int64_t image_stride = 0;
  int64_t row_stride = 0;
  int64_t column_stride = 0;
};

struct MapShape {
  int64_t images = 0;
  int64_t rows = 0;
  int64_t columns = 0;
  int64_t pixels() const { return images * rows * columns; }
};

struct LabelRules {
  int64_t classes = 1;
  bool has_ignore = false;
  int64_t ignore = 0;  // compared with the true labels
};

namespace detail {

// 32-bit arithmetic for the narrow label types, 64-bit for the others.
template <class T>
using Wide = std::conditional_t<(sizeof(T) <= 2), uint32_t, uint64_t>;

constexpr int64_t key_block = 1024;

// Calls body(i, value) for the values [0, n) of a row (byte step `step`):
// a loop the compiler vectorises when the row is contiguous.
template <class T, class Body>
TURBOMETRICS_ALWAYS_INLINE inline void for_each_value(const char* row, int64_t step, int64_t n, Body&& body) {
  if (step == static_cast<int64_t>(sizeof(T))) {
    for (int64_t i = 0; i < n; ++i) {
      T value;
      std::memcpy(&value, row + i * static_cast<int64_t>(sizeof(T)), sizeof value);
      body(i, value);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      T value;
      std::memcpy(&value, row + i * step, sizeof value);
      body(i, value);
    }
  }
}

// Whether a value of the row lies outside [0, k) or (with `ignoring`)
// equals `ignore`: comparisons in T's own width, so that narrow maps are
// checked many values per instruction.
template <class T>
TURBOMETRICS_ALWAYS_INLINE inline bool any_special(const char* row, int64_t step, int64_t n, int64_t k, bool ignoring,
                                                   T ignore) {
  using U = std::make_unsigned_t<T>;
  // k beyond U's values: only negative values are outside (unsigned T: none)
  const bool covers = static_cast<uint64_t>(k) > static_cast<uint64_t>(std::numeric_limits<U>::max());
  const U limit = covers ? std::numeric_limits<U>::max() : static_cast<U>(k);
  unsigned char found = 0;
  if (covers && !std::is_signed_v<T>) {
    if (!ignoring) return false;
    for_each_value<T>(row, step, n, [&](int64_t, T v) { found |= static_cast<unsigned char>(v == ignore); });
  } else if (covers) {
    for_each_value<T>(row, step, n, [&](int64_t, T v) {
      found |= static_cast<unsigned char>((v < T{0}) | (ignoring & (v == ignore)));
    });
  } else {
    for_each_value<T>(row, step, n, [&](int64_t, T v) {
      found |= static_cast<unsigned char>((static_cast<U>(v) >= limit) | (ignoring & (v == ignore)));
    });
  }
  return found != 0;
}

// The cells of the pixels [0, n) of one row into `keys`; returns whether
// one of them was invalid. The cells are computed as if every pixel were
// valid, the rows then checked in their own widths, and only a row
// holding a skipped or out-of-range label is gone over pixel by pixel.
// Each loop is one the compiler vectorises for the instruction set of its
// dispatch_without_fma() copy (flags are locals, so that the stores to `keys` cannot
// alias them).
template <class True, class Pred>
TURBOMETRICS_ALWAYS_INLINE inline bool cells_of(const char* t, int64_t t_step, const char* p, int64_t p_step, int64_t n,
                                                const LabelRules& rules, uint32_t* __restrict keys) {
  using W = std::conditional_t<(sizeof(Wide<True>) >= sizeof(Wide<Pred>)), Wide<True>, Wide<Pred>>;
  const W k = static_cast<W>(rules.classes);
  // An ignore value that no True holds skips nothing.
  const bool ignoring =
      rules.has_ignore && rules.ignore >= static_cast<int64_t>(std::numeric_limits<True>::min()) &&
      (std::is_same_v<True, int64_t> || rules.ignore <= static_cast<int64_t>(std::numeric_limits<True>::max()));
  const True ignore = ignoring ? static_cast<True>(rules.ignore) : True{0};
  auto cell = [k](True tv, Pred pv) TURBOMETRICS_ALWAYS_INLINE {
    return static_cast<uint32_t>(static_cast<W>(static_cast<std::make_signed_t<W>>(tv)) * k +
                                 static_cast<W>(static_cast<std::make_signed_t<W>>(pv)));
  };
  const bool contiguous = t_step == static_cast<int64_t>(sizeof(True)) && p_step == static_cast<int64_t>(sizeof(Pred));
  if (contiguous && sizeof(True) == 1 && sizeof(Pred) == 1 && rules.classes <= 256) {
    // 8-bit labels and at most 256 classes: every valid cell fits 16 bits,
    // so the products are 16-bit lanes (invalid pixels are re-done below)
    const uint16_t k16 = static_cast<uint16_t>(rules.classes);
    for (int64_t i = 0; i < n; ++i) {
      uint8_t tv, pv;
      std::memcpy(&tv, t + i, 1);
      std::memcpy(&pv, p + i, 1);
      keys[i] = static_cast<uint16_t>(tv * k16 + pv);
    }
  } else if (contiguous) {
    for (int64_t i = 0; i < n; ++i) {
      True tv;
      Pred pv;
      std::memcpy(&tv, t + i * static_cast<int64_t>(sizeof(True)), sizeof tv);
      std::memcpy(&pv, p + i * static_cast<int64_t>(sizeof(Pred)), sizeof pv);
      keys[i] = cell(tv, pv);
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      True tv;
      Pred pv;
      std::memcpy(&tv, t + i * t_step, sizeof tv);
      std::memcpy(&pv, p + i * p_step, sizeof pv);
      keys[i] = cell(tv, pv);
    }
  }
  const bool special = any_special<True>(t, t_step, n, rules.classes, ignoring, ignore) ||
                       any_special<Pred>(p, p_step, n, rules.classes, false, Pred{0});
  if (!special) return false;
  unsigned bad = 0;
  const W spare = k * k;
  for (int64_t i = 0; i < n; ++i) {
    True tv;
    Pred pv;
    std::memcpy(&tv, t + i * t_step, sizeof tv);
    std::memcpy(&pv, p + i * p_step, sizeof pv);
    const W ut = static_cast<W>(static_cast<std::make_signed_t<W>>(tv));
    const W up = static_cast<W>(static_cast<std::make_signed_t<W>>(pv));
    const bool skipped = ignoring & (tv == ignore);
    const bool valid = (ut < k) & (up < k);
    bad |= static_cast<unsigned>(!valid & !skipped);
    if (skipped | !valid) keys[i] = static_cast<uint32_t>(spare);
  }
  return bad != 0;
}

// One thread's counts: 32-bit tables of K^2 + 1 cells (the last one takes
// skipped and invalid pixels) folded into int64 totals before any cell can
// overflow. The mixed chunks of a map (those not of one cell) are spread
// over `mixed` tables, pixel j of a chunk into table j % mixed, so that
// neighbours hitting one cell (coherent and noisy maps) do not wait on each
// other's increments; once a block looks random (below), over `random`
// tables, as many as the caches hold for random increments. The layout by
// K (Counter::layout_for; docs/guide/segmentation.md has the timings):
//  - up to 32 classes, four tables for every chunk (four of 4 KB);
//  - up to 90, four for mixed chunks, two for random ones (random maps
//    with 64 classes: 0.44 ns per pixel of counting on two 16 KB tables,
//    0.75 on four);
//  - up to 256, four and one (150 classes: one 90 KB table, 1.25 ns per
//    pixel with two), the one of 16-bit cells (45 KB: 0.50 ns per pixel of
//    counting instead of 0.72-0.83 with 32-bit cells);
//  - up to 1000, two and one of 16-bit cells (four tables of 4 MB would
//    cost memory);
//  - past 1000, where the tables outgrow the caches, one.
// (16-bit cells folded every 65,535 pixels were measured and lost: the
// folds cost more than the smaller tables saved. The random table's cells
// instead add 2^16 to their totals when they wrap, a branch never taken
// but once in 65,536 increments of a cell.)
//
// Block-uniform fast path: the keys are taken in chunks of 32. A chunk whose
// keys are all one cell (a compare loop the compiler vectorises) only
// lengthens a run held in registers, added into the first table when the
// cell changes and at the end of add(); any other chunk is counted key by
// key. After 8 mixed chunks in a row (random maps) the rest of the call's
// keys, up to 32 chunks, are counted without the test. Random blocks (where
// the layout has fewer random tables than mixed ones): the 8th mixed chunk
// is sampled (8 pairs of neighbours); with fewer than 2 equal pairs the map
// is taken as random, and the mixed chunks go to the random tables until
// the next uniform chunk (across add() calls).
class Counter {
 public:
  // Keys per uniformity test (8 and 16 were slower on maps with 5 % noise,
  // 64 on coherent maps: docs/guide/segmentation.md).
  static constexpr int64_t chunk = 32;
  // Mixed chunks in a row after which the test stops, and for how many.
  static constexpr int64_t give_up_after = 8;
  static constexpr int64_t untested = 32;
  // Of the 8 sampled pairs of neighbours, a random chunk has fewer than
  // this many equal.
  static constexpr uint32_t random_below = 2;

  // The tables of the mixed chunks and of the random ones.
  struct Layout {
    int mixed;
    int random;
    friend bool operator==(Layout a, Layout b) { return a.mixed == b.mixed && a.random == b.random; }
  };
  // Every layout layout_for() chooses.
  static constexpr Layout layouts[] = {{4, 4}, {4, 2}, {4, 1}, {2, 1}, {1, 1}};

  // The layout for K classes.
  static Layout layout_for(int64_t classes) {
    if (classes <= 32) return {4, 4};
    if (classes <= 90) return {4, 2};
    if (classes <= 256) return {4, 1};
    return classes <= 1000 ? Layout{2, 1} : Layout{1, 1};
  }

  // fold_every (tests): fold once that many keys were added since the last
  // fold.
  explicit Counter(int64_t classes, int64_t fold_every = int64_t{1} << 31)
      : Counter(classes, fold_every, layout_for(classes)) {}
  Counter(int64_t classes, int64_t fold_every, Layout layout)
      : cells_(classes * classes),
        layout_(layout),
        fold_every_(fold_every),
        sub_(static_cast<size_t>(layout.mixed * (cells_ + 1)), 0),
        random_table_(layout.random == 1 && layout.mixed > 1 ? static_cast<size_t>(cells_ + 1) : 0, 0),
        totals_(static_cast<size_t>(cells_ + 1), 0) {}

  // Counts the cells keys[0, n). count_pixels calls it inside its
  // dispatch_without_fma() copy, so that the uniformity test is compiled
  // for that instruction set (a few vector compares per chunk).
  TURBOMETRICS_ALWAYS_INLINE void add(const uint32_t* keys, int64_t n) {
    const int layout = layout_.mixed * 8 + layout_.random;
    switch (layout) {
      case 4 * 8 + 4: add_chunked<4, 4>(keys, n); break;
      case 4 * 8 + 2: add_chunked<4, 2>(keys, n); break;
      case 4 * 8 + 1: add_chunked<4, 1>(keys, n); break;
      case 2 * 8 + 1: add_chunked<2, 1>(keys, n); break;
      default: add_chunked<1, 1>(keys, n); break;
    }
    // A run adds at most the keys of this call, counted here: the tables
    // are folded before a cell can pass 2^32 - 1.
    pending_ += n;
    if (pending_ >= fold_every_) fold();
  }

  // The tables added into the totals (and cleared).
  // (Loops over locals, so that the compiler vectorises them.)
  void fold() {
    const int64_t cells = cells_;
    int64_t* const totals = totals_.data();
    for (int64_t lane = 0; lane < layout_.mixed; ++lane) {
      const uint32_t* const table = sub_.data() + lane * (cells + 1);
      for (int64_t c = 0; c < cells; ++c) totals[c] += table[c];
    }
    std::fill(sub_.begin(), sub_.end(), 0u);
    if (!random_table_.empty()) {
      const uint16_t* const table = random_table_.data();
      for (int64_t c = 0; c < cells; ++c) totals[c] += table[c];
      std::fill(random_table_.begin(), random_table_.end(), uint16_t{0});
    }
    pending_ = 0;
  }

  // Folds, adds the totals into `out` (K^2 int64) and clears them.
  // (The tables are zero when nothing was added since the last fold.)
  void drain_into(int64_t* out) {
    if (pending_ > 0) fold();
    const int64_t cells = cells_;
    const int64_t* const totals = totals_.data();
    for (int64_t c = 0; c < cells; ++c) out[c] += totals[c];
    std::fill(totals_.begin(), totals_.end(), 0);
  }

 private:
  // The 32 keys from k, key j into table j % Lanes.
  template <int Lanes>
  TURBOMETRICS_ALWAYS_INLINE void spread(const uint32_t* k) {
    uint32_t* const first = sub_.data();
    const int64_t stride = cells_ + 1;
    for (int64_t j = 0; j < chunk; j += Lanes)
      for (int64_t lane = 0; lane < Lanes; ++lane) ++first[lane * stride + k[j + lane]];
  }

  // The 32 keys from k into the Random tables of a random chunk: with one,
  // the 16-bit table (a cell that wraps to 0 adds 2^16 to its total).
  template <int Random>
  TURBOMETRICS_ALWAYS_INLINE void spread_random(const uint32_t* k) {
    if constexpr (Random == 1) {
      uint16_t* const table = random_table_.data();
      const auto increment = [&](uint32_t key) TURBOMETRICS_ALWAYS_INLINE {
        const uint16_t now = static_cast<uint16_t>(table[key] + 1);
        table[key] = now;
        if (TURBOMETRICS_UNLIKELY(now == 0)) totals_[key] += int64_t{1} << 16;
      };
      // unrolled by hand: the branch keeps compilers from doing it
      for (int64_t j = 0; j < chunk; j += 4) {
        increment(k[j]);
        increment(k[j + 1]);
        increment(k[j + 2]);
        increment(k[j + 3]);
      }
    } else {
      spread<Random>(k);
    }
  }

  // keys[0, n) chunk by chunk: a chunk of one cell lengthens the run, any
  // other is spread over the Mixed tables (over the Random ones while the
  // map is taken as random); the last n % chunk keys go to the first table
  // one by one.
  template <int Mixed, int Random>
  TURBOMETRICS_ALWAYS_INLINE void add_chunked(const uint32_t* keys, int64_t n) {
    constexpr bool adaptive = Random < Mixed;
    uint32_t* const first = sub_.data();
    uint32_t run_cell = 0;
    uint32_t run_length = 0;  // at most n (count_pixels: key_block) keys
    const int64_t whole = n - n % chunk;
    int64_t misses = 0;
    bool random = random_;  // whether the mixed chunks go to the Random tables
    for (int64_t i = 0; i < whole;) {
      if (misses >= give_up_after) {
        const int64_t stop = std::min(whole, i + untested * chunk);
        if (adaptive && random) {
          for (; i < stop; i += chunk) spread_random<Random>(keys + i);
        } else {
          for (; i < stop; i += chunk) spread<Mixed>(keys + i);
        }
        misses = 0;
        continue;
      }
      const uint32_t* const k = keys + i;
      uint32_t differ = 0;
      for (int64_t j = 0; j < chunk; ++j) differ |= k[j] ^ k[0];
      if (differ == 0) {
        if (k[0] != run_cell) {
          first[run_cell] += run_length;
          run_cell = k[0];
          run_length = 0;
        }
        run_length += static_cast<uint32_t>(chunk);
        misses = 0;
        random = false;
      } else {
        if constexpr (adaptive) {
          if (misses == give_up_after - 1) {
            // the chunk that stops the test: sampled pairs of neighbours
            uint32_t same = 0;
            for (int64_t j = 0; j < chunk; j += 4) same += static_cast<uint32_t>(k[j] == k[j + 1]);
            random = same < random_below;
          }
          if (random)
            spread_random<Random>(k);
          else
            spread<Mixed>(k);
        } else {
          spread<Mixed>(k);
        }
        ++misses;
      }
      i += chunk;
    }
    random_ = random;
    first[run_cell] += run_length;
    for (int64_t i = whole; i < n; ++i) ++first[keys[i]];
  }

  int64_t cells_;
  Layout layout_;
  int64_t fold_every_;
  std::vector<uint32_t> sub_;
  std::vector<uint16_t> random_table_;  // the random chunks' table when Random is 1 (else empty)
  std::vector<int64_t> totals_;         // K^2 + 1: the spare cell's wraps land in the last
  int64_t pending_ = 0;
  bool random_ = false;  // whether the map was taken as random at the end of the last add()
};

// Counts the pixels [first, last) of the rows from `base_unit` on (pixel
// i is column i % columns of unit base_unit + i / columns; unit u is row
// u % rows of image u / rows) into `counter`; returns whether a pixel was
// invalid. Stops between blocks of pixels once `interrupt` is requested
// (asked every 16 blocks: at most 16,384 pixels, microseconds of work).
template <class True, class Pred>
bool count_pixels(const MapView& y_true, const MapView& y_pred, const MapShape& shape, const LabelRules& rules,
                  int64_t base_unit, int64_t first, int64_t last, Counter& counter, Isa isa,
                  const Interrupt& interrupt) {
  constexpr int64_t blocks_per_poll = 16;
  uint32_t keys[key_block];
  bool bad = false;
  // the position of pixel i, moved on block by block (no divisions per block)
  const int64_t start_unit = base_unit + first / shape.columns;
  int64_t image = start_unit / shape.rows, row = start_unit % shape.rows, column = first % shape.columns;
  for (int64_t i = first, block = 0; i < last; ++block) {
    if (block % blocks_per_poll == 0 && interrupt.requested()) break;
    const int64_t n = std::min({key_block, shape.columns - column, last - i});
    const char* t = y_true.data + image * y_true.image_stride + row * y_true.row_stride + column * y_true.column_stride;
    const char* p = y_pred.data + image * y_pred.image_stride + row * y_pred.row_stride + column * y_pred.column_stride;
    // Integer arithmetic: the generic and AVX2 copies (AVX-512 gains little
    // here, and every copy is 16 dtype pairs of compile time).
    bad |= dispatch_without_fma(isa, [&](auto) TURBOMETRICS_ALWAYS_INLINE {
      const bool invalid = cells_of<True, Pred>(t, y_true.column_stride, p, y_pred.column_stride, n, rules, keys);
      counter.add(keys, n);
      return invalid;
    });
    i += n;
    column += n;
    if (column == shape.columns) {
      column = 0;
      if (++row == shape.rows) {
        row = 0;
        ++image;
      }
    }
  }
  return bad;
}

}  // namespace detail

// Adds the confusion counts of the two maps (same shape) into `out`: one
// K x K table, or with `per_image` one per image (images x K x K), int64,
// row-major, rows the true label. Returns false when a pixel that is not
// skipped holds a label outside [0, K) (`out` is then incomplete). Images
// are split among threads when there are enough of them (per image), else
// the rows are.
template <class True, class Pred>
bool confusion_counts(const MapView& y_true, const MapView& y_pred, const MapShape& shape, const LabelRules& rules,
                      bool per_image, int n_threads, int64_t* out, const Interrupt& interrupt = Interrupt::never()) {
  const int64_t cells = rules.classes * rules.classes;
  if (shape.pixels() == 0) return true;
  const int threads = std::max(1, n_threads);
  const Isa isa = best_isa();
  std::vector<char> bad(static_cast<size_t>(threads), 0);
  if (per_image && shape.images >= threads) {
    // Whole images per thread, each drained into its own table.
    parallel_region(threads, [&](int thread, int count) {  // OpenMP may give fewer threads than asked
      detail::Counter counter(rules.classes);
      for (int64_t image = thread; image < shape.images && !interrupt.requested(); image += count) {
        bad[thread] |= detail::count_pixels<True, Pred>(y_true, y_pred, shape, rules, image * shape.rows, 0,
                                                        shape.rows * shape.columns, counter, isa, interrupt);
        counter.drain_into(out + image * cells);
      }
    });
    return std::none_of(bad.begin(), bad.end(), [](char b) { return b != 0; });
  }
  // Pixels split among threads, image by image (per image) or all at once:
  // each thread counts into a counter of its own (on its stack, so that no
  // two threads' counters share a cache line) and adds its totals into
  // `out` in turn (integer sums: the same in any order).
  const int64_t passes = per_image ? shape.images : 1;
  const int64_t pixels = (per_image ? shape.rows : shape.images * shape.rows) * shape.columns;
  std::mutex adding;
  for (int64_t pass = 0; pass < passes && !interrupt.requested(); ++pass) {
    const int64_t base = pass * shape.rows;
    const int parts = static_cast<int>(std::min<int64_t>(threads, pixels));
    int64_t* const table = out + (per_image ? pass * cells : 0);
    parallel_region(parts, [&](int thread, int count) {
      detail::Counter counter(rules.classes);
      const auto [first, last] = chunk_bounds(pixels, count, thread);
      bad[thread] |=
          detail::count_pixels<True, Pred>(y_true, y_pred, shape, rules, base, first, last, counter, isa, interrupt);
      counter.fold();
      const std::lock_guard<std::mutex> lock(adding);
      counter.drain_into(table);
    });
  }
  return std::none_of(bad.begin(), bad.end(), [](char b) { return b != 0; });
}

}  // namespace turbometrics::segmentation
