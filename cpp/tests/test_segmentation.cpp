// Segmentation: the confusion counts of label maps (3-D strided views,
// skipped and invalid pixels, per image, every thread count, coherent and
// random maps, the Counter's layouts (four, two or one tables for mixed
// chunks, and fewer for random ones), the fold of the 32-bit tables and the
// block-uniform fast path of Counter::add).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "support.hpp"
#include "turbometrics/segmentation/label_confusion.hpp"

using namespace turbometrics::segmentation;

namespace {

template <class T>
MapView contiguous(const std::vector<T>& v, const MapShape& shape) {
  const int64_t item = sizeof(T);
  return MapView{reinterpret_cast<const char*>(v.data()), shape.rows * shape.columns * item, shape.columns * item,
                 item};
}

// The counts by the definition: one pixel at a time.
template <class True, class Pred>
std::vector<int64_t> by_hand(const std::vector<True>& t, const std::vector<Pred>& p, int64_t k, bool ignoring,
                             int64_t ignore) {
  std::vector<int64_t> out(static_cast<size_t>(k * k), 0);
  for (size_t i = 0; i < t.size(); ++i) {
    if (ignoring && static_cast<int64_t>(t[i]) == ignore) continue;
    out[static_cast<size_t>(static_cast<int64_t>(t[i]) * k + static_cast<int64_t>(p[i]))] += 1;
  }
  return out;
}

// by_hand() image after image (label k ignored): the per-image tables.
template <class T>
std::vector<int64_t> per_image_by_hand(const std::vector<T>& t, const std::vector<T>& p, const MapShape& shape,
                                       int64_t k) {
  std::vector<int64_t> images;
  const int64_t per = shape.rows * shape.columns;
  for (int64_t image = 0; image < shape.images; ++image) {
    const std::vector<T> ti(t.begin() + image * per, t.begin() + (image + 1) * per);
    const std::vector<T> pi(p.begin() + image * per, p.begin() + (image + 1) * per);
    const std::vector<int64_t> one = by_hand(ti, pi, k, true, k);
    images.insert(images.end(), one.begin(), one.end());
  }
  return images;
}

template <class True, class Pred>
std::vector<int64_t> counts(const std::vector<True>& t, const std::vector<Pred>& p, const MapShape& shape,
                            const LabelRules& rules, bool per_image, int threads, bool* valid = nullptr) {
  const int64_t cells = rules.classes * rules.classes;
  std::vector<int64_t> out(static_cast<size_t>((per_image ? shape.images : 1) * cells), 0);
  const bool ok = confusion_counts<True, Pred>(contiguous(t, shape), contiguous(p, shape), shape, rules, per_image,
                                               threads, out.data());
  if (valid) *valid = ok;
  return out;
}

}  // namespace

TEST_CASE("counts rows true, columns predicted; the ignore value skips a pixel whatever its prediction") {
  const std::vector<uint8_t> t = {0, 0, 1, 1, 2, 255}, p = {0, 1, 1, 1, 2, 77};
  const MapShape shape{1, 2, 3};
  for (int threads : {1, turbometrics::testing::many_threads}) {
    bool valid = false;
    CHECK(counts(t, p, shape, LabelRules{3, true, 255}, false, threads, &valid) ==
          std::vector<int64_t>{1, 1, 0, 0, 2, 0, 0, 0, 1});
    CHECK(valid);
    counts(t, p, shape, LabelRules{3, false, 0}, false, threads, &valid);
    CHECK_FALSE(valid);  // 255 is a label outside [0, 3) without the ignore value
  }
}

TEST_CASE(
    "negative and too large labels, true or predicted, are invalid; an ignore value no type holds skips nothing") {
  const MapShape shape{1, 1, 3};
  bool valid = true;
  counts(std::vector<int32_t>{0, -1, 1}, std::vector<int32_t>{0, 0, 1}, shape, LabelRules{2, false, 0}, false, 1,
         &valid);
  CHECK_FALSE(valid);
  counts(std::vector<int64_t>{0, 1, 1}, std::vector<uint16_t>{0, 2, 1}, shape, LabelRules{2, false, 0}, false, 1,
         &valid);
  CHECK_FALSE(valid);
  counts(std::vector<uint8_t>{0, 1, 1}, std::vector<uint8_t>{0, 1, 1}, shape, LabelRules{2, true, -1}, false, 1,
         &valid);
  CHECK(valid);
  CHECK(counts(std::vector<int64_t>{-7, 1, 1}, std::vector<int64_t>{9, 1, 0}, shape, LabelRules{2, true, -7}, false, 1,
               &valid) == std::vector<int64_t>{0, 0, 1, 1});
  CHECK(valid);
}

TEST_CASE("random and coherent maps of every dtype pair, per image and not, at every thread count") {
  std::mt19937 rng(7);
  const int64_t k = 11;
  const MapShape shape{3, 37, 129};
  const int64_t n = shape.pixels();
  std::vector<uint16_t> t(n), p(n);
  for (int64_t i = 0; i < n; ++i) {
    const bool coherent = (i / 4096) % 2 == 0;  // runs of equal cells, then noise
    t[i] = static_cast<uint16_t>(coherent ? (i / 300) % k : rng() % (k + 1));
    p[i] = static_cast<uint16_t>(coherent ? (i / 500) % k : rng() % k);
  }
  const LabelRules rules{k, true, k};  // label k is ignored
  const std::vector<int64_t> whole = by_hand(t, p, k, true, k);
  const std::vector<int64_t> images = per_image_by_hand(t, p, shape, k);
  const std::vector<uint8_t> t8(t.begin(), t.end()), p8(p.begin(), p.end());
  const std::vector<int32_t> t32(t.begin(), t.end());
  const std::vector<int64_t> p64(p.begin(), p.end());
  for (int threads : {1, 2, 3, turbometrics::testing::many_threads, 7}) {
    CHECK(counts(t, p, shape, rules, false, threads) == whole);
    CHECK(counts(t, p, shape, rules, true, threads) == images);
    CHECK(counts(t8, p8, shape, rules, false, threads) == whole);
    CHECK(counts(t32, p64, shape, rules, true, threads) == images);
    CHECK(counts(p64, t8, shape, LabelRules{k + 1, false, 0}, false, threads) == by_hand(p64, t8, k + 1, false, 0));
  }
}

TEST_CASE("a strided view: every other column of every other row") {
  const int64_t k = 3, rows = 4, columns = 6;
  std::vector<int32_t> t(rows * columns), p(rows * columns);
  for (int64_t i = 0; i < rows * columns; ++i) {
    t[i] = static_cast<int32_t>(i % k);
    p[i] = static_cast<int32_t>((i / 2) % k);
  }
  std::vector<int32_t> ts, ps;
  for (int64_t r = 0; r < rows; r += 2) {
    for (int64_t c = 0; c < columns; c += 2) {
      ts.push_back(t[r * columns + c]);
      ps.push_back(p[r * columns + c]);
    }
  }
  const MapShape shape{1, rows / 2, columns / 2};
  const MapView tv{reinterpret_cast<const char*>(t.data()), 0, 2 * columns * 4, 2 * 4};
  const MapView pv{reinterpret_cast<const char*>(p.data()), 0, 2 * columns * 4, 2 * 4};
  std::vector<int64_t> out(k * k, 0);
  CHECK(confusion_counts<int32_t, int32_t>(tv, pv, shape, LabelRules{k, false, 0}, false, 2, out.data()));
  CHECK(out == by_hand(ts, ps, k, false, 0));
}

TEST_CASE("the 32-bit tables are folded into the int64 totals") {
  const int64_t k = 2;
  std::vector<uint32_t> keys(1000);
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<uint32_t>((i / 100) % 4);
  detail::Counter folding(k, 300), plain(k);
  for (int r = 0; r < 10; ++r) {
    folding.add(keys.data(), 1000);
    plain.add(keys.data(), 1000);
  }
  std::vector<uint32_t> noisy(999);
  for (size_t i = 0; i < noisy.size(); ++i) noisy[i] = static_cast<uint32_t>((i * 7) % 5);  // 4: the spare cell
  folding.add(noisy.data(), 999);                                                           // cell by cell
  plain.add(noisy.data(), 999);
  std::vector<int64_t> a(4, 0), b(4, 0);
  folding.drain_into(a.data());
  plain.drain_into(b.data());
  CHECK(a == b);
  CHECK(a[0] == 10 * 300 + 200);
}

// Block-uniform fast path of Counter::add (chunks of Counter::chunk keys of
// one cell are added as runs): every case against a key-by-key count.
namespace {

std::vector<int64_t> naive_counts(const std::vector<uint32_t>& keys, int64_t k) {
  std::vector<int64_t> out(static_cast<size_t>(k * k), 0);
  for (uint32_t key : keys)
    if (key < k * k) ++out[key];  // k * k: the spare cell, not reported
  return out;
}

// keys added in calls of the sizes `splits` (cycled, each at most
// key_block as in count_pixels) into a Counter(k, fold_every).
constexpr auto& all_layouts = detail::Counter::layouts;

std::vector<int64_t> counter_counts(const std::vector<uint32_t>& keys, int64_t k, const std::vector<int64_t>& splits,
                                    int64_t fold_every = int64_t{1} << 31,
                                    detail::Counter::Layout layout = detail::Counter::Layout{4, 4}) {
  detail::Counter counter(k, fold_every, layout);
  size_t s = 0;
  for (int64_t i = 0, n = static_cast<int64_t>(keys.size()); i < n;) {
    const int64_t step = std::min(splits[s++ % splits.size()], n - i);
    counter.add(keys.data() + i, step);
    i += step;
  }
  std::vector<int64_t> out(static_cast<size_t>(k * k), 0);
  counter.drain_into(out.data());
  return out;
}

// Runs of random cells (lengths 1 to max_run), a fraction `noise` of the
// keys then replaced by random cells (the spare cell k * k included).
std::vector<uint32_t> runs_of(int64_t n, int64_t k, int64_t max_run, double noise, uint64_t seed) {
  turbometrics::testing::SplitMix rng(seed);
  std::vector<uint32_t> keys;
  while (static_cast<int64_t>(keys.size()) < n) {
    const uint32_t cell = static_cast<uint32_t>(rng.next() % static_cast<uint64_t>(k * k + 1));
    const int64_t length = 1 + static_cast<int64_t>(rng.next() % static_cast<uint64_t>(max_run));
    keys.insert(keys.end(), static_cast<size_t>(std::min(length, n - static_cast<int64_t>(keys.size()))), cell);
  }
  for (uint32_t& key : keys)
    if (static_cast<double>(rng.next() % 1000000) < noise * 1e6)
      key = static_cast<uint32_t>(rng.next() % static_cast<uint64_t>(k * k + 1));
  return keys;
}

}  // namespace

TEST_CASE("uniform chunks: runs across chunk boundaries and add() calls, every split") {
  const int64_t c = detail::Counter::chunk;
  for (int64_t k : {3, 1001}) {  // four tables and one
    // runs of lengths around the chunk's, so that they start and end
    // inside chunks, on their boundaries and span several
    std::vector<uint32_t> keys;
    uint32_t cell = 0;
    for (int64_t length :
         std::vector<int64_t>{c, c - 1, 1, c + 1, 3 * c, 2 * c - 1, 5, 7 * c + 3, c, c, 1000, 2500, 1, c / 2}) {
      keys.insert(keys.end(), static_cast<size_t>(length), cell);
      cell = (cell + 1) % static_cast<uint32_t>(k * k + 1);
    }
    const std::vector<int64_t> expected = naive_counts(keys, k);
    for (const std::vector<int64_t>& splits : std::vector<std::vector<int64_t>>{
             {detail::key_block}, {1}, {c}, {c - 1}, {c + 1}, {7, 100, 1024, 33}, {2 * c, 5, c * 3 + 1}}) {
      CAPTURE(k);
      CAPTURE(splits[0]);
      CHECK(counter_counts(keys, k, splits) == expected);
    }
  }
}

TEST_CASE("uniform chunks: a chunk uniform but for one key, the last or any other") {
  const int64_t c = detail::Counter::chunk, k = 4;
  for (int64_t odd = 0; odd < c; ++odd) {
    // a uniform chunk of cell 5 (a run), then one of cell 5 but for one key
    // of cell 6 (or of the spare cell 16), then a uniform one of cell 5
    for (uint32_t other : {6u, 16u}) {
      std::vector<uint32_t> keys(static_cast<size_t>(3 * c), 5u);
      keys[static_cast<size_t>(c + odd)] = other;
      CAPTURE(odd);
      const std::vector<int64_t> expected = naive_counts(keys, k);
      CHECK(expected[5] == 3 * c - 1);
      CHECK(counter_counts(keys, k, {detail::key_block}) == expected);
      CHECK(counter_counts(keys, k, {c}) == expected);
    }
  }
}

TEST_CASE("uniform chunks: n not a multiple of the chunk") {
  const int64_t c = detail::Counter::chunk, k = 3;
  for (int64_t n = 1; n <= 4 * c + 1; ++n) {
    std::vector<uint32_t> keys(static_cast<size_t>(n), 4u);
    if (n > 2) keys[static_cast<size_t>(n - 1)] = 2u;  // a tail key of another cell
    CAPTURE(n);
    const std::vector<int64_t> got = counter_counts(keys, k, {n});
    CHECK(got == naive_counts(keys, k));
    CHECK(got[4] == (n > 2 ? n - 1 : n));
  }
}

TEST_CASE("uniform chunks: small fold_every folds between the calls of one run") {
  const int64_t k = 2;
  const std::vector<uint32_t> long_run(5000, 3u);
  for (int64_t fold_every : {1, 5, 31, 64, 300, 1000}) {
    for (const std::vector<int64_t>& splits : std::vector<std::vector<int64_t>>{{1024}, {33}, {64}, {1, 999}}) {
      CAPTURE(fold_every);
      const std::vector<int64_t> got = counter_counts(long_run, k, splits, fold_every);
      CHECK(got[3] == 5000);
      CHECK(got == naive_counts(long_run, k));
    }
  }
  std::vector<uint32_t> mixed = runs_of(20000, k, 200, 0.05, 3);
  for (int64_t fold_every : {1, 17, 300})
    CHECK(counter_counts(mixed, k, {1024, 77}, fold_every) == naive_counts(mixed, k));
}

TEST_CASE("uniform chunks: random, coherent and noisy keys against a key-by-key count, every layout") {
  for (int64_t k : {2, 19, 150, 1001}) {
    const int64_t n = 60000;
    turbometrics::testing::SplitMix rng(static_cast<uint64_t>(k));
    std::vector<uint32_t> random(static_cast<size_t>(n));
    for (uint32_t& key : random) key = static_cast<uint32_t>(rng.next() % static_cast<uint64_t>(k * k + 1));
    // random keys then a long run in one call: the test resumes after the
    // mixed chunks that stop it
    std::vector<uint32_t> switching = random;
    std::fill(switching.begin() + 512, switching.begin() + 4096, 1u);
    // blocks of random keys between blocks of short runs (2 to 4 keys)
    std::vector<uint32_t> alternating = runs_of(n, k, 3, 0.0, 5);
    for (int64_t i = 0; i < n; i += 3 * detail::key_block)
      std::copy(random.begin() + i, random.begin() + std::min(n, i + detail::key_block), alternating.begin() + i);
    const std::vector<std::vector<uint32_t>> maps = {
        random,     runs_of(n, k, 400, 0.0, 1), runs_of(n, k, 400, 0.05, 2), runs_of(n, k, 40, 0.01, 4), switching,
        alternating};
    for (detail::Counter::Layout layout : all_layouts) {
      for (size_t m = 0; m < maps.size(); ++m) {
        CAPTURE(k);
        CAPTURE(layout.mixed * 10 + layout.random);
        CAPTURE(m);
        const std::vector<int64_t> expected = naive_counts(maps[m], k);
        CHECK(counter_counts(maps[m], k, {detail::key_block}, int64_t{1} << 31, layout) == expected);
        CHECK(counter_counts(maps[m], k, {1000, 3, 513}, 4096, layout) == expected);
        if (k <= 150) CHECK(counter_counts(maps[m], k, {detail::key_block, 64}, 1, layout) == expected);
      }
    }
  }
}

TEST_CASE("the layout by class count: four tables to 256 classes, two to 1000, one past; fewer for random chunks") {
  using Layout = detail::Counter::Layout;
  CHECK(detail::Counter::layout_for(1) == Layout{4, 4});
  CHECK(detail::Counter::layout_for(32) == Layout{4, 4});
  CHECK(detail::Counter::layout_for(33) == Layout{4, 2});
  CHECK(detail::Counter::layout_for(90) == Layout{4, 2});
  CHECK(detail::Counter::layout_for(91) == Layout{4, 1});
  CHECK(detail::Counter::layout_for(256) == Layout{4, 1});
  CHECK(detail::Counter::layout_for(257) == Layout{2, 1});
  CHECK(detail::Counter::layout_for(1000) == Layout{2, 1});
  CHECK(detail::Counter::layout_for(1001) == Layout{1, 1});
  for (int64_t k : {1, 32, 33, 90, 91, 256, 257, 1000, 1001}) {
    const Layout chosen = detail::Counter::layout_for(k);
    CHECK(std::find(std::begin(detail::Counter::layouts), std::end(detail::Counter::layouts), chosen) !=
          std::end(detail::Counter::layouts));
  }
}

TEST_CASE("random chunks: mixed chunks around the equal-neighbour bound, counted into either set of tables") {
  // Chunks with e equal neighbours (e from 0 to chunk - 1, so that the
  // sampled pairs of the chunk that stops the test hold 0 to 8 equal ones:
  // the map taken as random or not), in calls that give up the test and
  // calls that do not, folded and not: every key is counted once.
  const int64_t c = detail::Counter::chunk;
  for (int64_t k : {19, 64, 150}) {
    turbometrics::testing::SplitMix rng(static_cast<uint64_t>(k) + 11);
    std::vector<uint32_t> keys;
    for (int repeat = 0; repeat < 40; ++repeat) {
      for (int64_t e = 0; e < c; ++e) {
        // a chunk: c - e distinct cells (no two neighbours equal), then e
        // keys equal to their left neighbour
        uint32_t last = static_cast<uint32_t>(k * k + 1);
        for (int64_t j = 0; j < c; ++j) {
          uint32_t key = last;
          if (j == 0 || j >= e + 1) {
            do key = static_cast<uint32_t>(rng.next() % static_cast<uint64_t>(k * k + 1));
            while (key == last);
          }
          keys.push_back(key);
          last = key;
        }
      }
    }
    const std::vector<int64_t> expected = naive_counts(keys, k);
    for (detail::Counter::Layout layout : all_layouts) {
      for (const std::vector<int64_t>& splits :
           std::vector<std::vector<int64_t>>{{detail::key_block}, {c * 9}, {c}, {77}}) {
        for (int64_t fold_every : {int64_t{1} << 31, int64_t{1000}}) {
          CAPTURE(k);
          CAPTURE(layout.mixed * 10 + layout.random);
          CAPTURE(splits[0]);
          CHECK(counter_counts(keys, k, splits, fold_every, layout) == expected);
        }
      }
    }
  }
}

TEST_CASE("8-bit maps: cells in 16 bits up to 256 classes (the largest cell 65,535), wider past") {
  // Every pair of byte values in turn; with 255 and 256 classes, with and
  // without an ignored value, and with 200 classes (values 200 to 255
  // invalid, their 16-bit products wrapping).
  std::vector<uint8_t> t, p;
  for (int a = 0; a < 256; ++a)
    for (int b = 0; b < 256; ++b) {
      t.push_back(static_cast<uint8_t>(a));
      p.push_back(static_cast<uint8_t>((b * 7 + a) % 256));
    }
  const MapShape shape{1, 256, 256};
  for (int threads : {1, 3}) {
    CAPTURE(threads);
    CHECK(counts(t, p, shape, LabelRules{256, false, 0}, false, threads) == by_hand(t, p, 256, false, 0));
    CHECK(counts(t, p, shape, LabelRules{257, false, 0}, false, threads) == by_hand(t, p, 257, false, 0));
    CHECK(counts(t, p, shape, LabelRules{256, true, 255}, false, threads) == by_hand(t, p, 256, true, 255));
    std::vector<uint8_t> p255 = p, t255 = t;
    for (uint8_t& v : p255) v = static_cast<uint8_t>(v % 255);
    for (uint8_t& v : t255) v = static_cast<uint8_t>(v == 255 ? 7 : v);
    CHECK(counts(t255, p255, shape, LabelRules{255, false, 0}, false, threads) == by_hand(t255, p255, 255, false, 0));
    bool valid = true;
    counts(t, p, shape, LabelRules{200, false, 0}, false, threads, &valid);
    CHECK_FALSE(valid);
    std::vector<uint8_t> p200 = p;
    for (uint8_t& v : p200) v = static_cast<uint8_t>(v % 200);
    CHECK(counts(t, p200, shape, LabelRules{200, true, 250}, false, threads, &valid).size() == 40000);
    CHECK_FALSE(valid);  // true labels 200 to 255 other than 250
  }
}

TEST_CASE("random chunks with one random table: 16-bit cells that wrap past 65,535 add 2^16 to their totals") {
  // Three cells in turn (no two neighbours equal: taken as random), so that
  // each passes 2^16 and 2^17 in the 16-bit table; the spare cell wraps too.
  // Layouts with one random table and more mixed ones, folded or not.
  for (int64_t k : {2, 150}) {
    const uint32_t spare = static_cast<uint32_t>(k * k);
    std::vector<uint32_t> keys;
    for (int64_t i = 0; i < 3 * 140000; ++i) keys.push_back(i % 3 == 2 ? spare : static_cast<uint32_t>(i % 3));
    keys.resize(keys.size() + 5, 1);  // a tail of n % chunk keys
    const std::vector<int64_t> expected = naive_counts(keys, k);
    CHECK(expected[1] == 140005);
    for (detail::Counter::Layout layout : all_layouts) {
      if (layout.random != 1 || layout.mixed == 1) continue;
      for (int64_t fold_every : {int64_t{1} << 31, int64_t{100000}}) {
        CAPTURE(k);
        CAPTURE(layout.mixed);
        CAPTURE(fold_every);
        CHECK(counter_counts(keys, k, {detail::key_block, 77}, fold_every, layout) == expected);
      }
    }
  }
}

TEST_CASE("coherent rows with the ignore value inside runs, odd widths, every thread count") {
  const int64_t k = 5;
  for (int64_t columns : {1, 31, 32, 33, 100, 1500}) {
    const MapShape shape{2, 7, columns};
    const int64_t n = shape.pixels();
    std::vector<int16_t> t(static_cast<size_t>(n)), p(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      t[i] = static_cast<int16_t>((i / 90) % k);
      p[i] = static_cast<int16_t>((i / 70) % k);
      if (i % 211 == 50) t[i] = -1;  // ignored inside a run
    }
    for (int threads : {1, 2, 3, turbometrics::testing::many_threads}) {
      CAPTURE(columns);
      CHECK(counts(t, p, shape, LabelRules{k, true, -1}, false, threads) == by_hand(t, p, k, true, -1));
    }
  }
}

TEST_CASE("past 1000 classes one table; every layout for 150 classes and for 3") {
  for (int64_t k : {1001, 150, 3}) {
    for (detail::Counter::Layout layout : all_layouts) {
      std::vector<uint32_t> keys = {0, 0, 5, static_cast<uint32_t>(k * k), 5};
      detail::Counter counter = k == 1001 ? detail::Counter(k) : detail::Counter(k, int64_t{1} << 31, layout);
      counter.add(keys.data(), 5);
      std::vector<int64_t> out(static_cast<size_t>(k * k), 0);
      counter.drain_into(out.data());
      CHECK(out[0] == 2);
      CHECK(out[5] == 2);
    }
  }
}

TEST_CASE("random and coherent maps with 150 classes (the adaptive layout), per image and not, every thread count") {
  const int64_t k = 150;
  const MapShape shape{3, 40, 700};
  const int64_t n = shape.pixels();
  turbometrics::testing::SplitMix rng(150);
  std::vector<uint8_t> t(static_cast<size_t>(n)), p(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t part = (i / 5000) % 3;  // random, coherent, coherent with 5 % noise
    const bool random = part == 0, noisy = part == 2 && rng.next() % 20 == 0;
    t[i] = static_cast<uint8_t>(random ? rng.next() % (k + 1) : (i / 300) % k);  // label k is ignored
    p[i] = static_cast<uint8_t>(random || noisy ? rng.next() % k : (i / 260) % k);
  }
  const LabelRules rules{k, true, k};
  const std::vector<int64_t> images = per_image_by_hand(t, p, shape, k);
  for (int threads : {1, 2, 3, turbometrics::testing::many_threads}) {
    CAPTURE(threads);
    CHECK(counts(t, p, shape, rules, false, threads) == by_hand(t, p, k, true, k));
    CHECK(counts(t, p, shape, rules, true, threads) == images);
  }
}

TEST_CASE("empty maps count nothing") {
  std::vector<int64_t> out(4, 0);
  CHECK(confusion_counts<uint8_t, uint8_t>(MapView{}, MapView{}, MapShape{0, 5, 5}, LabelRules{2, false, 0}, true, 2,
                                           out.data()));
  CHECK(out == std::vector<int64_t>(4, 0));
}

// Surface distances (surface_distance.hpp): boundaries by erosion with the
// border as background, exact distances with spacing against brute force,
// empty classes, labels of no class and every thread count.
#include <cmath>
#include <limits>

#include "turbometrics/segmentation/surface_distance.hpp"

namespace {

// The boundary pixels (row-major indices) of class c of a rows x columns
// map, connectivity 1: a pixel of c with a 4-neighbour not c or outside.
std::vector<int64_t> boundary_by_hand(const std::vector<int32_t>& m, int64_t rows, int64_t columns, int64_t c) {
  std::vector<int64_t> out;
  auto at = [&](int64_t r, int64_t k) {
    return r >= 0 && r < rows && k >= 0 && k < columns && m[static_cast<size_t>(r * columns + k)] == c;
  };
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < columns; ++k)
      if (at(r, k) && !(at(r - 1, k) && at(r + 1, k) && at(r, k - 1) && at(r, k + 1))) out.push_back(r * columns + k);
  return out;
}

std::vector<double> directed_by_hand(const std::vector<int64_t>& from, const std::vector<int64_t>& to, int64_t columns,
                                     double s0, double s1) {
  std::vector<double> out;
  for (const int64_t f : from) {
    double best = std::numeric_limits<double>::infinity();
    for (const int64_t t : to) {
      const double d0 = s0 * static_cast<double>(f / columns - t / columns);
      const double d1 = s1 * static_cast<double>(f % columns - t % columns);
      best = std::min(best, d0 * d0 + d1 * d1);
    }
    out.push_back(std::sqrt(best));
  }
  return out;
}

std::vector<SurfaceDistances> surfaces(const std::vector<int32_t>& pred, const std::vector<int32_t>& truth,
                                       int64_t rows, int64_t columns, int64_t classes, double s0, double s1,
                                       int threads, int connectivity = 1) {
  const MapShape shape{1, rows, columns};
  SurfaceGrid grid;
  grid.connectivity = connectivity;
  grid.extent[1] = rows;
  grid.extent[2] = columns;
  grid.spacing[1] = s0;
  grid.spacing[2] = s1;
  std::vector<int64_t> wanted;
  for (int64_t c = 0; c < classes; ++c) wanted.push_back(c);
  std::vector<SurfaceDistances> out;
  surface_distances<int32_t, int32_t>(contiguous(pred, shape), contiguous(truth, shape), grid, classes, wanted, threads,
                                      out);
  return out;
}

}  // namespace

TEST_CASE("surface distances: a 2x2 square against a 4x4 one, with and without spacing") {
  std::vector<int32_t> a(36, 0), b(36, 0);
  for (int r = 1; r < 3; ++r)
    for (int k = 1; k < 3; ++k) a[static_cast<size_t>(r * 6 + k)] = 1;
  for (int r = 1; r < 5; ++r)
    for (int k = 1; k < 5; ++k) b[static_cast<size_t>(r * 6 + k)] = 1;
  const auto out = surfaces(a, b, 6, 6, 2, 1.0, 1.0, 1);
  CHECK(out[1].pred_boundary == 4);
  CHECK(out[1].true_boundary == 12);
  CHECK(out[1].pred_to_true == std::vector<double>{0.0, 0.0, 0.0, 1.0});
  CHECK(*std::max_element(out[1].true_to_pred.begin(), out[1].true_to_pred.end()) == std::sqrt(8.0));
  const auto spaced = surfaces(a, b, 6, 6, 2, 2.0, 0.5, 1);
  CHECK(spaced[1].pred_to_true[3] == 0.5);
}

TEST_CASE("surface distances: random maps against brute force, every thread count the same") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 13), columns = 1 + static_cast<int64_t>(rng() % 13);
    const int64_t classes = 1 + static_cast<int64_t>(rng() % 4);
    std::vector<int32_t> pred(static_cast<size_t>(rows * columns)), truth(pred.size());
    for (auto& v : pred) v = static_cast<int32_t>(rng() % (classes + 1));  // label `classes` is of no class
    for (auto& v : truth) v = static_cast<int32_t>(rng() % (classes + 1));
    const double s0 = 0.5 + static_cast<double>(rng() % 5) * 0.25, s1 = 1.0;
    const auto one = surfaces(pred, truth, rows, columns, classes, s0, s1, 1);
    const auto many = surfaces(pred, truth, rows, columns, classes, s0, s1, turbometrics::testing::many_threads);
    for (int64_t c = 0; c < classes; ++c) {
      const auto bp = boundary_by_hand(pred, rows, columns, c), bt = boundary_by_hand(truth, rows, columns, c);
      const SurfaceDistances& r = one[static_cast<size_t>(c)];
      REQUIRE(r.pred_boundary == static_cast<int64_t>(bp.size()));
      REQUIRE(r.true_boundary == static_cast<int64_t>(bt.size()));
      CHECK(r.pred_to_true == many[static_cast<size_t>(c)].pred_to_true);
      CHECK(r.true_to_pred == many[static_cast<size_t>(c)].true_to_pred);
      if (bp.empty() || bt.empty()) {
        for (const double d : r.pred_to_true) CHECK(std::isinf(d));
        for (const double d : r.true_to_pred) CHECK(std::isinf(d));
        continue;
      }
      const auto want = directed_by_hand(bp, bt, columns, s0, s1), back = directed_by_hand(bt, bp, columns, s0, s1);
      for (size_t i = 0; i < want.size(); ++i) CHECK(r.pred_to_true[i] == doctest::Approx(want[i]).epsilon(1e-14));
      for (size_t i = 0; i < back.size(); ++i) CHECK(r.true_to_pred[i] == doctest::Approx(back[i]).epsilon(1e-14));
    }
  }
}

TEST_CASE("surface distances: a single-pixel image and an empty class") {
  const std::vector<int32_t> one{0};
  const auto out = surfaces(one, one, 1, 1, 2, 1.0, 1.0, 1);
  CHECK(out[0].pred_boundary == 1);
  CHECK(out[0].pred_to_true == std::vector<double>{0.0});
  CHECK(out[1].pred_boundary == 0);
  CHECK(out[1].true_boundary == 0);
}

TEST_CASE("surface distances, connectivity 0: every pixel of a class is a boundary pixel") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 11), columns = 1 + static_cast<int64_t>(rng() % 11);
    std::vector<int32_t> pred(static_cast<size_t>(rows * columns)), truth(pred.size());
    for (auto& v : pred) v = static_cast<int32_t>(rng() % 4 == 0);  // sparse, and solid blocks below
    for (auto& v : truth) v = static_cast<int32_t>(rng() % 3 != 0);
    const double s0 = 0.5 + static_cast<double>(rng() % 5) * 0.25, s1 = 1.5;
    const auto out = surfaces(pred, truth, rows, columns, 2, s0, s1, 1, 0);
    std::vector<int64_t> bp, bt;
    for (int64_t i = 0; i < rows * columns; ++i) {
      if (pred[static_cast<size_t>(i)] == 1) bp.push_back(i);
      if (truth[static_cast<size_t>(i)] == 1) bt.push_back(i);
    }
    const SurfaceDistances& r = out[1];
    REQUIRE(r.pred_boundary == static_cast<int64_t>(bp.size()));
    REQUIRE(r.true_boundary == static_cast<int64_t>(bt.size()));
    if (bp.empty() || bt.empty()) continue;
    const auto want = directed_by_hand(bp, bt, columns, s0, s1), back = directed_by_hand(bt, bp, columns, s0, s1);
    for (size_t i = 0; i < want.size(); ++i) CHECK(r.pred_to_true[i] == doctest::Approx(want[i]).epsilon(1e-14));
    for (size_t i = 0; i < back.size(); ++i) CHECK(r.true_to_pred[i] == doctest::Approx(back[i]).epsilon(1e-14));
  }
}
