// Ranking: the score table (distinct scores, descending, with cumulative
// positive and negative weight), its value checks, and the areas swept
// from it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "support.hpp"
#include "turbometrics/ranking/curves.hpp"
#include "turbometrics/ranking/score_table.hpp"
#include "turbometrics/ranking/score_table_builder.hpp"
#include "turbometrics/ranking/sweeps.hpp"

using turbometrics::testing::bits;
using namespace turbometrics::ranking;

namespace {

struct Samples {
  std::vector<double> score;
  std::vector<char> label;
  std::vector<double> weight;  // empty: unweighted

  RankingInput<double> input() const {
    RankingInput<double> in;
    in.score = reinterpret_cast<const char*>(score.data());
    in.score_stride = sizeof(double);
    in.is_positive = label.data();
    in.label_stride = 1;
    if (!weight.empty()) {
      in.weight = reinterpret_cast<const char*>(weight.data());
      in.weight_stride = sizeof(double);
    }
    in.size = static_cast<int64_t>(score.size());
    return in;
  }
};

template <class Table>
std::vector<typename Table::TableRow> rows_of(const Table& table) {
  std::vector<typename Table::TableRow> rows;
  for (int64_t b = 0; b < table.block_count(); ++b) {
    table.for_each_row_of_block(b, [&](const typename Table::TableRow& row) { rows.push_back(row); });
  }
  return rows;
}

template <class Row>
bool same_rows(const std::vector<Row>& a, const std::vector<Row>& b) {
  if (a.size() != b.size()) return false;
  for (size_t r = 0; r < a.size(); ++r) {
    if (bits(a[r].score) != bits(b[r].score)) return false;
    if (bits(static_cast<double>(a[r].positive)) != bits(static_cast<double>(b[r].positive))) return false;
    if (bits(static_cast<double>(a[r].negative)) != bits(static_cast<double>(b[r].negative))) return false;
  }
  return true;
}

// A table of `input` built by `strategy`.
template <class Score, bool Weighted, class Input>
SortedScores<Score, Weighted> table_by(const Input& input, int n_threads, TableStrategy strategy) {
  return sorted_scores<Weighted>(input, n_threads, check_nothing, turbometrics::Interrupt::never(), strategy);
}

Samples random_samples(int64_t n, uint64_t seed, bool weighted, int64_t distinct) {
  turbometrics::testing::SplitMix random(seed);
  Samples s;
  for (int64_t i = 0; i < n; ++i) {
    const double u = random.uniform();
    s.score.push_back(distinct > 0 ? static_cast<double>(random.below(distinct)) / distinct - 0.5 : u - 0.5);
    s.label.push_back(random.uniform() < 0.3 ? 1 : 0);
    if (weighted) s.weight.push_back(random.below(10) == 0 ? 0.0 : random.uniform() * 3.0);
  }
  return s;
}

}  // namespace

TEST_CASE("unweighted table: one row per distinct score, ties merged, -0.0 with 0.0") {
  const Samples s{{0.5, 0.1, 0.5, 0.9, -0.0, 0.0, 0.3, 0.3}, {1, 0, 0, 1, 0, 1, 1, 0}, {}};
  for (TableStrategy strategy : {TableStrategy::automatic, TableStrategy::always_sort}) {
    const auto table = table_by<double, false>(s.input(), 1, strategy);
    const auto rows = rows_of(table);
    REQUIRE(rows.size() == 5);
    const double scores[] = {0.9, 0.5, 0.3, 0.1, 0.0};
    const int64_t positives[] = {1, 2, 3, 3, 4}, negatives[] = {0, 1, 2, 3, 4};
    for (size_t r = 0; r < rows.size(); ++r) {
      CAPTURE(r);
      CHECK(bits(rows[r].score) == bits(scores[r]));  // the last zero in the input is +0.0
      CHECK(rows[r].positive == positives[r]);
      CHECK(rows[r].negative == negatives[r]);
    }
    CHECK(table.size() == 8);
    CHECK(table.row_count() == 5);
    CHECK(table.total_positive() == 4);
    CHECK(table.total_negative() == 4);
    CHECK_FALSE(table.problems().any());
  }
}

TEST_CASE("the zero row carries the sign of the last zero in the input") {
  const Samples s{{0.0, 1.0, -0.0}, {1, 0, 0}, {}};
  for (TableStrategy strategy : {TableStrategy::automatic, TableStrategy::always_sort}) {
    const auto rows = rows_of(table_by<double, false>(s.input(), 1, strategy));
    REQUIRE(rows.size() == 2);
    CHECK(bits(rows[1].score) == bits(-0.0));
  }
}

TEST_CASE("weighted table: zero weights dropped, sums in sorted sample order") {
  const Samples s{{0.5, 0.1, 0.5, 0.9, -0.0, 0.0, 0.3, 0.3, -0.0},
                  {1, 0, 0, 1, 0, 1, 1, 0, 1},
                  {1.5, 0.25, 2.0, 0.1, 3.0, 0.7, 0.0, 1.1, 0.0}};
  const auto table = sorted_scores<true>(s.input(), 1);
  const auto rows = rows_of(table);
  REQUIRE(rows.size() == 5);
  // Sorted: 0.9 (+0.1), 0.5 (+1.5, -2.0), 0.3 (-1.1; the zero-weight
  // positive dropped), 0.1 (-0.25), 0.0 (-3.0, +0.7; the zero-weight -0.0
  // dropped, so the last zero kept is +0.0).
  const double scores[] = {0.9, 0.5, 0.3, 0.1, 0.0};
  const double positives[] = {0.1, 0.1 + 1.5, 0.1 + 1.5, 0.1 + 1.5, 0.1 + 1.5 + 0.7};
  const double negatives[] = {0.0, 2.0, 2.0 + 1.1, 2.0 + 1.1 + 0.25, 2.0 + 1.1 + 0.25 + 3.0};
  for (size_t r = 0; r < rows.size(); ++r) {
    CAPTURE(r);
    CHECK(bits(rows[r].score) == bits(scores[r]));
    CHECK(bits(rows[r].positive) == bits(positives[r]));
    CHECK(bits(rows[r].negative) == bits(negatives[r]));
  }
  CHECK(table.size() == 7);
}

TEST_CASE("value checks: NaN, infinity and all-zero weights leave the table empty") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  {
    const Samples s{{0.5, nan, inf}, {1, 0, 1}, {}};
    const auto table = sorted_scores<false>(s.input(), 1, check_scores);
    CHECK(table.problems().scores == 1);  // some NaN
    CHECK(table.size() == 0);
    CHECK(rows_of(table).empty());
  }
  {
    const Samples s{{0.5, -inf}, {1, 0}, {}};
    CHECK(sorted_scores<false>(s.input(), 1, check_scores).problems().scores == 2);  // infinity, no NaN
    CHECK(sorted_scores<false>(s.input(), 1, check_nothing).problems().scores == 0);
  }
  {
    // A non-finite score of a zero-weight sample is still rejected, as
    // scikit-learn checks before dropping zero weights.
    const Samples s{{0.5, nan}, {1, 0}, {1.0, 0.0}};
    CHECK(sorted_scores<true>(s.input(), 1, check_scores).problems().scores == 1);
  }
  {
    const Samples s{{0.5, 0.2}, {1, 0}, {1.0, inf}};
    const auto table = sorted_scores<true>(s.input(), 1, check_weights);
    CHECK(table.problems().weights == 2);
    CHECK_FALSE(table.problems().all_weights_zero);
  }
  {
    const Samples s{{0.5, 0.2}, {1, 0}, {0.0, -0.0}};
    const auto table = sorted_scores<true>(s.input(), 1, check_weights);
    CHECK(table.problems().all_weights_zero);
    CHECK(table.problems().weights == 0);
  }
}

TEST_CASE("empty input gives an empty table") {
  const Samples s;
  const auto table = sorted_scores<false>(s.input(), 1, check_scores);
  CHECK(table.size() == 0);
  CHECK(table.row_count() == 0);
  CHECK(rows_of(table).empty());
}

TEST_CASE("float32 and integer scores") {
  const std::vector<float> score = {2.5f, -1.0f, 2.5f};
  const std::vector<char> label = {1, 0, 0};
  RankingInput<float> in;
  in.score = reinterpret_cast<const char*>(score.data());
  in.score_stride = sizeof(float);
  in.is_positive = label.data();
  in.label_stride = 1;
  in.size = 3;
  const auto rows = rows_of(sorted_scores<false>(in, 1));
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].score == 2.5f);
  CHECK(rows[0].positive == 1);
  CHECK(rows[0].negative == 1);
  CHECK(rows[1].score == -1.0f);

  const std::vector<int64_t> integers = {-3, 7, 7, std::numeric_limits<int64_t>::min()};
  const std::vector<char> labels = {1, 1, 0, 1};
  RankingInput<int64_t> ints;
  ints.score = reinterpret_cast<const char*>(integers.data());
  ints.score_stride = sizeof(int64_t);
  ints.is_positive = labels.data();
  ints.label_stride = 1;
  ints.size = 4;
  const auto int_rows = rows_of(sorted_scores<false>(ints, 1));
  REQUIRE(int_rows.size() == 3);
  CHECK(int_rows[0].score == 7);
  CHECK(int_rows[2].score == std::numeric_limits<int64_t>::min());
  CHECK(int_rows[2].positive == 3);
}

// The rows of `values` (as Stored) read into a table of int64 scores.
template <class Stored>
std::vector<Row<int64_t, int64_t>> rows_read_as_int64(const std::vector<Stored>& values,
                                                      const std::vector<char>& labels, TableStrategy strategy) {
  RankingInput<int64_t, Stored> in;
  in.score = reinterpret_cast<const char*>(values.data());
  in.score_stride = sizeof(Stored);
  in.is_positive = labels.data();
  in.label_stride = 1;
  in.size = static_cast<int64_t>(values.size());
  return rows_of(table_by<int64_t, false>(in, 2, strategy));
}

TEST_CASE("int32, uint32 and uint8 scores read as int64 give the rows of their int64 values") {
  // 70,000 samples: past sample_planning_from, so that buckets are planned
  // from a sample; counted (few distinct scores) and sorted.
  const int64_t n = 70000;
  std::vector<int32_t> i32(n);
  std::vector<uint32_t> u32(n);
  std::vector<uint8_t> u8(n);
  std::vector<char> labels(n);
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t h = (static_cast<uint64_t>(i) + 1) * 0x9E3779B97F4A7C15ULL;
    i32[i] = static_cast<int32_t>(h >> 32);  // both signs, extremes likely
    u32[i] = static_cast<uint32_t>(h >> 16);
    u8[i] = static_cast<uint8_t>(h >> 56);
    labels[i] = static_cast<char>((h >> 7) & 1);
  }
  i32[0] = std::numeric_limits<int32_t>::min();
  i32[1] = std::numeric_limits<int32_t>::max();
  u32[0] = std::numeric_limits<uint32_t>::max();
  for (TableStrategy strategy : {TableStrategy::automatic, TableStrategy::always_sort}) {
    CHECK(same_rows(rows_read_as_int64(i32, labels, strategy),
                    rows_read_as_int64(std::vector<int64_t>(i32.begin(), i32.end()), labels, strategy)));
    CHECK(same_rows(rows_read_as_int64(u32, labels, strategy),
                    rows_read_as_int64(std::vector<int64_t>(u32.begin(), u32.end()), labels, strategy)));
    const auto rows = rows_read_as_int64(u8, labels, strategy);
    CHECK(same_rows(rows, rows_read_as_int64(std::vector<int64_t>(u8.begin(), u8.end()), labels, strategy)));
    REQUIRE(rows.size() == 256);
    CHECK(rows.front().score == 255);
    CHECK(rows.back().score == 0);
    CHECK(rows.back().positive + rows.back().negative == n);
  }
}

TEST_CASE("large tables: counted, sorted and weighted rows are bit-identical at 1 and N threads") {
  const int many = turbometrics::testing::many_threads;
  // Past sample_planning_from (2^16) so that buckets are planned from a
  // sample; few distinct scores (counted) and many (sorted).
  for (int64_t distinct : {int64_t{100}, int64_t{0}}) {
    CAPTURE(distinct);
    const Samples s = random_samples(200000, 11 + distinct, false, distinct);
    const auto one = rows_of(sorted_scores<false>(s.input(), 1));
    const auto more = rows_of(sorted_scores<false>(s.input(), many));
    CHECK(same_rows(one, more));
    CHECK(same_rows(one, rows_of(table_by<double, false>(s.input(), many, TableStrategy::always_sort))));
  }
  const Samples w = random_samples(200000, 5, true, 0);
  const auto one = sorted_scores<true>(w.input(), 1);
  const auto more = sorted_scores<true>(w.input(), many);
  CHECK(same_rows(rows_of(one), rows_of(more)));
  CHECK(bits(roc_auc(one, 1)) == bits(roc_auc(more, many)));
  CHECK(bits(average_precision_area(one, 1)) == bits(average_precision_area(more, many)));
  CHECK(bits(roc_auc_area(one, std::nullopt, 1)) == bits(roc_auc_area(more, std::nullopt, many)));
}

TEST_CASE("areas equal scikit-learn's bits") {
  // roc_auc_score / average_precision_score on these inputs, computed once
  // with scikit-learn 1.9.1.
  const Samples simple{{0.1, 0.4, 0.35, 0.8}, {0, 0, 1, 1}, {}};
  const auto table = sorted_scores<false>(simple.input(), 1);
  CHECK(bits(roc_auc(table, 1)) == bits(0x1.8000000000000p-1));  // 0.75
  CHECK(bits(roc_auc_area(table, std::nullopt, 1)) == bits(0x1.8000000000000p-1));
  CHECK(bits(average_precision_area(table, 1)) == bits(0x1.aaaaaaaaaaaaap-1));

  const Samples tied{
      {0.5, 0.1, 0.5, 0.9, -0.0, 0.0, 0.3, 0.3}, {1, 0, 0, 1, 0, 1, 1, 0}, {1.5, 0.25, 2.0, 0.1, 3.0, 0.7, 0.0, 1.1}};
  Samples unweighted = tied;
  unweighted.weight.clear();
  const auto plain = sorted_scores<false>(unweighted.input(), 1);
  CHECK(bits(roc_auc_area(plain, std::nullopt, 1)) == bits(0x1.5000000000000p-1));
  CHECK(bits(average_precision_area(plain, 1)) == bits(0x1.6222222222222p-1));
  const auto weighted = sorted_scores<true>(tied.input(), 1);
  CHECK(bits(roc_auc_area(weighted, std::nullopt, 1)) == bits(0x1.546603ae5181ap-1));
  CHECK(bits(average_precision_area(weighted, 1)) == bits(0x1.a8334c7468921p-2));
}

TEST_CASE("roc_auc_area over the table's own records equals it with the terms kept aside, bit for bit") {
  // The spending sweep writes the trapezoids over the sorted records as it
  // reads them: 8-byte records (float64), 16-byte (weighted) and 4-byte
  // (float32, where terms beyond half a block's records spill into a
  // vector: alternating labels make every row a corner), counted tables
  // (no records to overwrite), with and without max_fpr, at 1 and N threads.
  const int many = turbometrics::testing::many_threads;
  auto check = [&](auto make_table) {
    for (std::optional<double> max_fpr : {std::optional<double>{}, std::optional<double>{0.25}}) {
      for (int threads : {1, many}) {
        CAPTURE(threads);
        CAPTURE(max_fpr.value_or(-1.0));
        const auto kept_aside = make_table(threads);
        const double expected = roc_auc_area(*kept_aside, max_fpr, threads);
        auto spent = make_table(threads);
        CHECK(bits(roc_auc_area_spending(*spent, max_fpr, threads)) == bits(expected));
        CHECK(bits(expected) == bits(roc_auc_area(*make_table(1), max_fpr, 1)));
      }
    }
  };
  for (int64_t distinct : {int64_t{100}, int64_t{0}}) {
    CAPTURE(distinct);
    const Samples s = random_samples(300000, 21 + distinct, false, distinct);
    check([&](int threads) {
      return std::make_unique<SortedScores<double, false>>(sorted_scores<false>(s.input(), threads));
    });
  }
  const Samples w = random_samples(300000, 7, true, 0);
  check([&](int threads) {
    return std::make_unique<SortedScores<double, true>>(sorted_scores<true>(w.input(), threads));
  });
  // float32 scores: 4-byte records. Alternating labels in score order keep
  // every row; random labels keep fewer than half.
  for (bool alternating : {true, false}) {
    CAPTURE(alternating);
    const Samples s = random_samples(300000, 3, false, 0);
    std::vector<float> scores(s.score.begin(), s.score.end());
    std::vector<char> labels = s.label;
    if (alternating) {
      std::vector<int64_t> order(scores.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
      std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return scores[a] < scores[b]; });
      for (size_t i = 0; i < order.size(); ++i) labels[order[i]] = static_cast<char>(i % 2);
    }
    RankingInput<float> in;
    in.score = reinterpret_cast<const char*>(scores.data());
    in.score_stride = sizeof(float);
    in.is_positive = labels.data();
    in.label_stride = 1;
    in.size = static_cast<int64_t>(scores.size());
    check([&](int threads) { return std::make_unique<SortedScores<float, false>>(sorted_scores<false>(in, threads)); });
  }
}
