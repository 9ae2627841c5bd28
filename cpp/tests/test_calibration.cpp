// Calibration: the per-bin table (weight, weighted confidence, weighted
// correctness) that every calibration error is a pass over.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "support.hpp"
#include "turbometrics/calibration/bin_table.hpp"
#include "turbometrics/calibration/proper_scores.hpp"

using namespace turbometrics::calibration;

namespace {

// np.linspace(0, 1, n + 1): b * (1 / n), and 1 exactly at the end.
std::vector<double> linspace_edges(int64_t n) {
  std::vector<double> edges(static_cast<size_t>(n + 1));
  for (int64_t b = 0; b < n; ++b) edges[b] = static_cast<double>(b) * (1.0 / static_cast<double>(n));
  edges[n] = 1.0;
  return edges;
}

Matrix<double> column(const std::vector<double>& p) {
  return Matrix<double>{reinterpret_cast<const char*>(p.data()), static_cast<int64_t>(p.size()), 1, sizeof(double), 0};
}

// The (weight, confidence, correct) triple of bin b of table t.
std::vector<double> cell(const BinTable& table, int64_t n_bins, int64_t t, int64_t b) {
  const double* c = table.cells.data() + (t * n_bins + b) * 3;
  return {c[0], c[1], c[2]};
}

}  // namespace

TEST_CASE("bin lookup: searchsorted(edges, x, 'right') - 1, clipped") {
  const std::vector<double> edges = linspace_edges(10);
  CHECK(arithmetic_edges(edges.data(), 10));
  CHECK(uniform_bin(0.0, edges.data(), 10) == 0);
  CHECK(uniform_bin(0.1, edges.data(), 10) == 1);  // on an edge: the bin to its right
  CHECK(uniform_bin(0.3, edges.data(), 10) == 2);  // 0.3 < edges[3] == 0.30000000000000004
  CHECK(uniform_bin(1.0, edges.data(), 10) == 9);  // 1.0 lands in the last bin
  const std::vector<double> uneven = {0.0, 0.3, 0.7, 1.0};
  CHECK_FALSE(arithmetic_edges(uneven.data(), 3));
  CHECK(searched_bin(0.3, uneven.data(), 3) == 1);
  CHECK(searched_bin(-1.0, uneven.data(), 3) == 0);
  CHECK(searched_bin(1.0, uneven.data(), 3) == 2);
}

TEST_CASE("binary table: weights, confidence and correctness per bin") {
  const std::vector<double> p = {0.05, 0.15, 0.95, 1.0, 0.5};
  const std::vector<uint8_t> y = {0, 1, 1, 1, 0};
  const std::vector<double> w = {1.0, 2.0, 0.5, 0.25, 4.0};
  const std::vector<double> edges = linspace_edges(10);
  BinInput in;
  in.label = reinterpret_cast<const char*>(y.data());
  in.label_stride = 1;
  in.edges = edges.data();
  in.n_bins = 10;
  in.uniform = true;
  const BinTable counted = bin_table(column(p), Mode::binary, in, 1);
  CHECK_FALSE(counted.invalid);
  CHECK(cell(counted, 10, 0, 0) == std::vector<double>{1.0, 0.05, 0.0});
  CHECK(cell(counted, 10, 0, 1) == std::vector<double>{1.0, 0.15, 1.0});
  CHECK(cell(counted, 10, 0, 5) == std::vector<double>{1.0, 0.5, 0.0});
  CHECK(cell(counted, 10, 0, 9) == std::vector<double>{2.0, 0.95 + 1.0, 2.0});
  CHECK(cell(counted, 10, 0, 4) == std::vector<double>{0.0, 0.0, 0.0});

  in.weight = reinterpret_cast<const char*>(w.data());
  in.weight_stride = sizeof(double);
  const BinTable weighted = bin_table(column(p), Mode::binary, in, 1);
  CHECK(cell(weighted, 10, 0, 1) == std::vector<double>{2.0, 2.0 * 0.15, 2.0});
  CHECK(cell(weighted, 10, 0, 9) == std::vector<double>{0.75, 0.5 * 0.95 + 0.25 * 1.0, 0.75});

  // The same table from the edge array (not recognised as linspace).
  in.uniform = false;
  const BinTable searched = bin_table(column(p), Mode::binary, in, 1);
  CHECK(searched.cells == weighted.cells);
}

TEST_CASE("values outside [0, 1] or NaN are flagged") {
  const std::vector<double> edges = linspace_edges(4);
  const std::vector<uint8_t> y = {0, 1};
  BinInput in;
  in.label = reinterpret_cast<const char*>(y.data());
  in.label_stride = 1;
  in.edges = edges.data();
  in.n_bins = 4;
  in.uniform = true;
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), 1.0000000000000002, -0.0 - 1e-300}) {
    const std::vector<double> p = {0.5, bad};
    CHECK(bin_table(column(p), Mode::binary, in, 1).invalid);
  }
  const std::vector<double> fine = {0.5, -0.0};
  CHECK_FALSE(bin_table(column(fine), Mode::binary, in, 1).invalid);
}

TEST_CASE("top-label and classwise tables; class indices are range checked") {
  // 3 rows x 2 classes; row 1 ties (the first maximum wins).
  const std::vector<double> p = {0.2, 0.8, 0.5, 0.5, 0.9, 0.1};
  const Matrix<double> m{reinterpret_cast<const char*>(p.data()), 3, 2, 2 * sizeof(double), sizeof(double)};
  const std::vector<int64_t> y = {1, 1, 1};
  const std::vector<double> edges = linspace_edges(2);
  BinInput in;
  in.label = reinterpret_cast<const char*>(y.data());
  in.label_stride = sizeof(int64_t);
  in.edges = edges.data();
  in.n_bins = 2;
  in.uniform = true;
  const BinTable top = bin_table(m, Mode::top_label, in, 1);
  // confidences 0.8 (correct), 0.5 (argmax 0: wrong), 0.9 (wrong): all in bin 1
  CHECK(cell(top, 2, 0, 1) == std::vector<double>{3.0, 0.8 + 0.5 + 0.9, 1.0});
  CHECK(cell(top, 2, 0, 0) == std::vector<double>{0.0, 0.0, 0.0});

  const BinTable classwise = bin_table(m, Mode::classwise, in, 1);
  // class 0: 0.2 (bin 0), 0.5 and 0.9 (bin 1), never correct
  CHECK(cell(classwise, 2, 0, 0) == std::vector<double>{1.0, 0.2, 0.0});
  CHECK(cell(classwise, 2, 0, 1) == std::vector<double>{2.0, 0.5 + 0.9, 0.0});
  // class 1: 0.8 and 0.5 (bin 1), 0.1 (bin 0), always correct
  CHECK(cell(classwise, 2, 1, 0) == std::vector<double>{1.0, 0.1, 1.0});
  CHECK(cell(classwise, 2, 1, 1) == std::vector<double>{2.0, 0.8 + 0.5, 2.0});

  const std::vector<int64_t> out_of_range = {1, 2, 0};
  in.label = reinterpret_cast<const char*>(out_of_range.data());
  CHECK(bin_table(m, Mode::top_label, in, 1).invalid_label);
}

TEST_CASE("bin tables are bit-identical at 1 and N threads") {
  turbometrics::testing::SplitMix random(41);
  const int64_t n = 200000;  // several chunks
  std::vector<double> p(static_cast<size_t>(n)), w(static_cast<size_t>(n));
  std::vector<uint8_t> y(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    p[i] = random.uniform();
    w[i] = random.uniform();
    y[i] = random.uniform() < p[i];
  }
  const std::vector<double> edges = linspace_edges(15);
  BinInput in;
  in.label = reinterpret_cast<const char*>(y.data());
  in.label_stride = 1;
  in.weight = reinterpret_cast<const char*>(w.data());
  in.weight_stride = sizeof(double);
  in.edges = edges.data();
  in.n_bins = 15;
  in.uniform = true;
  const BinTable one = bin_table(column(p), Mode::binary, in, 1);
  const BinTable more = bin_table(column(p), Mode::binary, in, turbometrics::testing::many_threads);
  CHECK(one.cells == more.cells);
}

namespace {

// Stage 1 of the top label for a rows x cols matrix of T, through the row
// kernel that top_rows_for picks (unrolled, SSE2 or AVX2) and through the
// strided one: the confidences, the correctness and both flags must agree.
template <class T>
void check_top_rows_agree(int64_t cols, turbometrics::testing::SplitMix& random) {
  using namespace turbometrics::calibration::detail;
  const int64_t rows = 97;
  std::vector<T> p(static_cast<size_t>(rows * cols));
  std::vector<int64_t> y(static_cast<size_t>(rows));
  for (auto& v : p) v = static_cast<T>(std::floor(random.uniform() * 4.0) / 4.0);  // many ties
  for (int64_t r = 0; r < rows; ++r) y[r] = static_cast<int64_t>(random.uniform() * static_cast<double>(cols));
  const Matrix<T> m{reinterpret_cast<const char*>(p.data()), rows, cols, cols * static_cast<int64_t>(sizeof(T)),
                    static_cast<int64_t>(sizeof(T))};
  const Labels labels{reinterpret_cast<const char*>(y.data()), sizeof(int64_t)};
  std::vector<double> conf_fast(static_cast<size_t>(rows)), conf_strided(static_cast<size_t>(rows));
  std::vector<uint8_t> correct_fast(static_cast<size_t>(rows)), correct_strided(static_cast<size_t>(rows));
  bool low_fast = false, low_strided = false, bad_fast = false, bad_strided = false;
  top_rows_for(m)(m, 0, rows, labels, RowOut{conf_fast.data(), correct_fast.data()}, low_fast, bad_fast);
  top_rows_strided(m, 0, rows, labels, RowOut{conf_strided.data(), correct_strided.data()}, low_strided, bad_strided);
  CHECK(conf_fast == conf_strided);
  CHECK(correct_fast == correct_strided);
  CHECK(low_fast == low_strided);
  CHECK(bad_fast == bad_strided);
}

}  // namespace

TEST_CASE("every top-label row kernel (unrolled widths, SSE2, AVX2) agrees with the strided one") {
  turbometrics::testing::SplitMix random(7);
  for (int64_t cols : {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 64, 65, 100}) {
    CAPTURE(cols);
    check_top_rows_agree<double>(cols, random);
    check_top_rows_agree<float>(cols, random);
  }
}

namespace {

// The loop the bindings take from np.log, here the C library's log (NumPy's
// float64 log on processors without AVX-512F).
void c_library_log_loop(char** args, const std::intptr_t* dimensions, const std::intptr_t* steps, void*) {
  for (std::intptr_t i = 0; i < dimensions[0]; ++i) {
    const double x = *reinterpret_cast<const double*>(args[0] + i * steps[0]);
    *reinterpret_cast<double*>(args[1] + i * steps[1]) = std::log(x);
  }
}
const turbometrics::ElementwiseLoop c_library_log{c_library_log_loop, nullptr};

}  // namespace

TEST_CASE("the log loss takes the logarithms of the loop it is given") {
  const std::vector<double> p = {0.25, 0.5, 1e-300, 1.0};
  const std::vector<int64_t> y = {1, 0, 1, 1};
  const turbometrics::labels::LabelEncoder<int64_t> encoder(std::vector<int64_t>{0, 1});
  ProbRows rows;
  rows.m = Matrix<double>{reinterpret_cast<const char*>(p.data()), 4, 1, sizeof(double), 0};
  rows.two_column = true;
  const double eps = std::numeric_limits<double>::epsilon();
  const ScoreSums sums = score_sums<int64_t>(rows, reinterpret_cast<const char*>(y.data()), sizeof(int64_t), encoder,
                                             nullptr, 0, Score::log, eps, c_library_log, 1);
  // -log(0.25) - log(1 - 0.5) - log(eps) - log(1 - eps), summed in order (under 8 terms)
  CHECK(sums.total == ((-std::log(0.25) + -std::log(1.0 - 0.5)) + -std::log(eps)) + -std::log(1.0 - eps));
  CHECK(sums.weight == 4.0);
  // a loop that halves instead: the kernel has no logarithm of its own
  const turbometrics::ElementwiseLoop halve{
      [](char** args, const std::intptr_t* dimensions, const std::intptr_t* steps, void*) {
        for (std::intptr_t i = 0; i < dimensions[0]; ++i)
          *reinterpret_cast<double*>(args[1] + i * steps[1]) =
              0.5 * *reinterpret_cast<const double*>(args[0] + i * steps[0]);
      },
      nullptr};
  const ScoreSums halved = score_sums<int64_t>(rows, reinterpret_cast<const char*>(y.data()), sizeof(int64_t), encoder,
                                               nullptr, 0, Score::log, eps, halve, 1);
  CHECK(halved.total == ((-0.125 + -0.25) + -(0.5 * eps)) + -(0.5 * (1.0 - eps)));
}

TEST_CASE("exact score sums: any split adds up to the whole, at 1 and N threads") {
  turbometrics::testing::SplitMix random(43);
  const int64_t n = 100000;  // several chunks
  std::vector<double> p(static_cast<size_t>(n)), w(static_cast<size_t>(n));
  std::vector<int64_t> y(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    p[i] = random.uniform();
    w[i] = random.uniform() * 3.0;
    y[i] = random.uniform() < p[i];
  }
  const turbometrics::labels::LabelEncoder<int64_t> encoder(std::vector<int64_t>{0, 1});
  const auto rows = [&](int64_t begin, int64_t end) {
    ProbRows r;
    r.m = Matrix<double>{reinterpret_cast<const char*>(p.data() + begin), end - begin, 1, sizeof(double), 0};
    r.two_column = true;
    return r;
  };
  const auto sums = [&](int64_t begin, int64_t end, Score score, int threads) {
    return exact_score_sums<int64_t>(rows(begin, end), reinterpret_cast<const char*>(y.data() + begin), sizeof(int64_t),
                                     encoder, reinterpret_cast<const char*>(w.data() + begin), sizeof(double), score,
                                     std::numeric_limits<double>::epsilon(), c_library_log, threads);
  };
  for (Score score : {Score::brier, Score::log}) {
    const ExactScoreSums whole = sums(0, n, score, 1);
    const ExactScoreSums more = sums(0, n, score, turbometrics::testing::many_threads);
    ExactScoreSums split = sums(0, 12345, score, 1);
    split.add(sums(12345, n, score, 1));
    CHECK(whole.total.limbs() == more.total.limbs());
    CHECK(whole.total.limbs() == split.total.limbs());
    CHECK(whole.weight.limbs() == split.weight.limbs());
    CHECK_FALSE(whole.unknown_label);
    // The rounded quotient is the float kernel's to a few ulps.
    const ScoreSums rounded = score_sums<int64_t>(rows(0, n), reinterpret_cast<const char*>(y.data()), sizeof(int64_t),
                                                  encoder, reinterpret_cast<const char*>(w.data()), sizeof(double),
                                                  score, std::numeric_limits<double>::epsilon(), c_library_log, 1);
    CHECK(whole.total.value() == doctest::Approx(rounded.total).epsilon(1e-13));
    CHECK(whole.weight.value() == doctest::Approx(rounded.weight).epsilon(1e-13));
  }
}
