// Classification: confusion counts (general K x K, the 2 x 2 fast path,
// strided and weighted input), agreement, multilabel indicator sums.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "support.hpp"
#include "turbometrics/classification/confusion.hpp"

using namespace turbometrics::classification;
using turbometrics::labels::LabelEncoder;

namespace {
template <class T>
Strided strided(const std::vector<T>& v, int64_t step = 1) {
  return Strided{reinterpret_cast<const char*>(v.data()), static_cast<int64_t>(sizeof(T)) * step};
}
}  // namespace

TEST_CASE("confusion_table counts (true, pred) pairs; unknown labels are skipped") {
  const std::vector<int64_t> t = {0, 1, 2, 2, 1, 0, 5}, p = {0, 2, 2, 1, 1, 1, 0};
  const LabelEncoder<int64_t> encoder({0, 1, 2});
  for (int threads : {1, turbometrics::testing::many_threads}) {
    const std::vector<int64_t> table =
        confusion_table<int64_t, int64_t>(strided(t), strided(p), 7, nullptr, 0, encoder, threads);
    // rows: true 0, 1, 2; the sample with true label 5 is not counted
    CHECK(table == std::vector<int64_t>{1, 1, 0, 0, 1, 1, 0, 1, 1});
  }
}

TEST_CASE("confusion_table: binary fast path, weights and strides agree with the general path") {
  const std::vector<int32_t> t = {3, 8, 8, 3, 8}, p = {3, 3, 8, 8, 8};
  const std::vector<double> w = {0.5, 1.25, 2.0, 0.125, 4.0};
  const LabelEncoder<int32_t> encoder({3, 8});
  const std::vector<double> table =
      confusion_table<int32_t, double>(strided(t), strided(p), 5, w.data(), sizeof(double), encoder, 1);
  CHECK(table == std::vector<double>{0.5, 0.125, 1.25, 2.0 + 4.0});
  const std::vector<int64_t> counts =
      confusion_table<int32_t, int64_t>(strided(t), strided(p), 5, nullptr, 0, encoder, 1);
  CHECK(counts == std::vector<int64_t>{1, 1, 1, 2});

  // The same samples interleaved with junk (stride 2): the general path.
  const std::vector<int32_t> t2 = {3, 0, 8, 0, 8, 0, 3, 0, 8, 0}, p2 = {3, 9, 3, 9, 8, 9, 8, 9, 8, 9};
  const std::vector<double> w2 = {0.5, -1, 1.25, -1, 2.0, -1, 0.125, -1, 4.0, -1};
  const std::vector<double> table2 =
      confusion_table<int32_t, double>(strided(t2, 2), strided(p2, 2), 5, w2.data(), 2 * sizeof(double), encoder, 1);
  CHECK(table2 == table);

  // A value outside {lo, hi} sends the binary path back to the general one.
  const std::vector<int32_t> t3 = {3, 8, 4}, p3 = {3, 8, 8};
  const std::vector<int64_t> skipped =
      confusion_table<int32_t, int64_t>(strided(t3), strided(p3), 3, nullptr, 0, encoder, 1);
  CHECK(skipped == std::vector<int64_t>{1, 0, 0, 1});
}

TEST_CASE("confusion tables are bit-identical at 1 and N threads") {
  turbometrics::testing::SplitMix random(3);
  const int64_t n = 300000;
  std::vector<int64_t> t(n), p(n);
  std::vector<double> w(n);
  for (int64_t i = 0; i < n; ++i) {
    t[i] = random.below(5);
    p[i] = random.below(5);
    w[i] = random.uniform();
  }
  const LabelEncoder<int64_t> five({0, 1, 2, 3, 4});
  const auto one = confusion_table<int64_t, double>(strided(t), strided(p), n, w.data(), 8, five, 1);
  const auto more = confusion_table<int64_t, double>(strided(t), strided(p), n, w.data(), 8, five,
                                                     turbometrics::testing::many_threads);
  CHECK(one == more);  // exact ==: same chunks, same order
  for (int64_t i = 0; i < n; ++i) {
    t[i] = t[i] % 2;
    p[i] = p[i] % 2;
  }
  const LabelEncoder<int64_t> two({0, 1});
  CHECK(confusion_table<int64_t, double>(strided(t), strided(p), n, w.data(), 8, two, 1) ==
        confusion_table<int64_t, double>(strided(t), strided(p), n, w.data(), 8, two,
                                         turbometrics::testing::many_threads));
}

TEST_CASE("agreement: matches and total weight") {
  const std::vector<int64_t> t = {1, 2, 3, 4}, p = {1, 0, 3, 0};
  const std::vector<double> w = {0.5, 1.0, 2.0, 4.0};
  const auto weighted = agreement<int64_t, double>(t.data(), p.data(), 4, w.data(), 1);
  CHECK(weighted.agree == 2.5);
  CHECK(weighted.total == 7.5);
  const auto counted = agreement<int64_t, int64_t>(t.data(), p.data(), 4, nullptr, 2);
  CHECK(counted.agree == 2);
  CHECK(counted.total == 4);
  const auto empty = agreement<int64_t, int64_t>(t.data(), p.data(), 0, nullptr, 1);
  CHECK(empty.total == 0);
}

TEST_CASE("indicator_sums: per label true, predicted and both") {
  // 3 samples x 2 labels, row-major
  const std::vector<uint8_t> t = {1, 0, 1, 1, 0, 1}, p = {1, 1, 0, 1, 0, 0};
  const std::vector<int64_t> sums =
      indicator_sums<uint8_t, int64_t>(reinterpret_cast<const char*>(t.data()), 2, 1,
                                       reinterpret_cast<const char*>(p.data()), 2, 1, 3, 2, nullptr, 0, 1);
  CHECK(sums == std::vector<int64_t>{2, 2, 1, 2, 1, 1});
}
