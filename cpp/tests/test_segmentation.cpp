// Segmentation: the confusion counts of label maps (3-D strided views,
// skipped and invalid pixels, per image, every thread count, coherent and
// random maps, one table or two and the fold of the 32-bit tables).
#include <doctest/doctest.h>

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
  std::vector<int64_t> images;
  const int64_t per = shape.rows * shape.columns;
  for (int64_t image = 0; image < shape.images; ++image) {
    const std::vector<uint16_t> ti(t.begin() + image * per, t.begin() + (image + 1) * per);
    const std::vector<uint16_t> pi(p.begin() + image * per, p.begin() + (image + 1) * per);
    const std::vector<int64_t> one = by_hand(ti, pi, k, true, k);
    images.insert(images.end(), one.begin(), one.end());
  }
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

TEST_CASE("past 1000 classes one table") {
  const int64_t k = 1001;
  std::vector<uint32_t> keys = {0, 0, 5, static_cast<uint32_t>(k * k), 5};
  detail::Counter counter(k);
  counter.add(keys.data(), 5);
  std::vector<int64_t> out(static_cast<size_t>(k * k), 0);
  counter.drain_into(out.data());
  CHECK(out[0] == 2);
  CHECK(out[5] == 2);
}

TEST_CASE("empty maps count nothing") {
  std::vector<int64_t> out(4, 0);
  CHECK(confusion_counts<uint8_t, uint8_t>(MapView{}, MapView{}, MapShape{0, 5, 5}, LabelRules{2, false, 0}, true, 2,
                                           out.data()));
  CHECK(out == std::vector<int64_t>(4, 0));
}
