// Stability: per-sample statistics of an ensemble's predictions (label
// stability, jitter, aleatoric and epistemic uncertainty, spread).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "support.hpp"
#include "turbometrics/stability/ensemble.hpp"

using namespace turbometrics::stability;
using turbometrics::testing::bits;

namespace {

// 4 models x 5 samples, row-major.
const std::vector<double> P = {0.1, 0.6, 0.5,  1.0, 0.0,  //
                               0.3, 0.4, 0.5,  1.0, 0.2,  //
                               0.2, 0.7, 0.49, 1.0, 0.9,  //
                               0.9, 0.8, 0.51, 1.0, 0.4};

Ensemble<double> row_major(const std::vector<double>& p, int64_t models, int64_t samples) {
  return Ensemble<double>{reinterpret_cast<const char*>(p.data()),        models,         samples,       1,
                          static_cast<int64_t>(samples * sizeof(double)), sizeof(double), sizeof(double)};
}

std::vector<double> statistic(const Ensemble<double>& e, Statistic stat, int threads = 1, bool* invalid = nullptr) {
  std::vector<double> out(static_cast<size_t>(e.samples));
  const bool bad = per_sample(e, stat, 0.5, out.data(), threads);
  if (invalid) *invalid = bad;
  return out;
}

}  // namespace

// Expected values: turbometrics.stability's functions (per_sample=True) on
// P, checked once against NumPy where NumPy has the statistic.
TEST_CASE("label stability and jitter are exact fractions") {
  const auto e = row_major(P, 4, 5);
  CHECK(statistic(e, Statistic::label_stability) == std::vector<double>{0.5, 0.5, 0.5, 1.0, 0.5});
  CHECK(statistic(e, Statistic::jitter) == std::vector<double>{0.5, 0.5, 0.5, 0.0, 0.5});
}

TEST_CASE("iqr equals numpy's percentile difference bit for bit") {
  const auto iqr = statistic(row_major(P, 4, 5), Statistic::iqr);
  const double expected[] = {0x1.199999999999ap-2, 0x1.6666666666664p-3, 0x1.47ae147ae1440p-8, 0.0,
                             0x1.8000000000000p-2};
  for (int j = 0; j < 5; ++j) CHECK(bits(iqr[j]) == bits(expected[j]));
}

TEST_CASE("variance, std, entropies (last bits may differ with FMA)") {
  const auto e = row_major(P, 4, 5);
  const auto variance = statistic(e, Statistic::variance);
  const double var_expected[] = {0x1.8cccccccccccfp-4, 0x1.6666666666666p-6, 0x1.a36e2eb1c433ap-15, 0.0,
                                 0x1.ca3d70a3d70a8p-4};  // np.var (ddof=0) to 1e-15
  const double std_expected[] = {0x1.7005efa0a2f40p-2, 0x1.5dc338d8781a3p-3, 0x1.0b8cb28fd8cf9p-7, 0.0,
                                 0x1.8b7d8511aea5cp-2};  // np.std(ddof=1)
  const auto std_dev = statistic(e, Statistic::std);
  const auto aleatoric = statistic(e, Statistic::aleatoric);
  const auto mutual_info = statistic(e, Statistic::mutual_info);
  const double aleatoric_expected[] = {0x1.4546600e7731ap-1, 0x1.c5c67f873effep-1, 0x1.ffed16cbc3ec7p-1, 0.0,
                                       0x1.14b84be7a0709p-1};
  const double mi_expected[] = {0x1.46ca659614c7ap-2, 0x1.17289a9214ac7p-4, 0x1.2e9343c138925p-13, 0.0,
                                0x1.a7e68de3c249cp-2};
  for (int j = 0; j < 5; ++j) {
    CAPTURE(j);
    CHECK(variance[j] == doctest::Approx(var_expected[j]).epsilon(1e-12));
    CHECK(std_dev[j] == doctest::Approx(std_expected[j]).epsilon(1e-12));
    CHECK(aleatoric[j] == doctest::Approx(aleatoric_expected[j]).epsilon(1e-12));
    CHECK(mutual_info[j] == doctest::Approx(mi_expected[j]).epsilon(1e-9));
  }
  CHECK(std::fabs(aleatoric[3]) == 0.0);  // all models say 1.0: no uncertainty
}

TEST_CASE("layouts: a transposed (strided) array gives the same bits") {
  std::vector<double> transposed(20);
  for (int m = 0; m < 4; ++m)
    for (int j = 0; j < 5; ++j) transposed[j * 4 + m] = P[m * 5 + j];
  const Ensemble<double> strided{
      reinterpret_cast<const char*>(transposed.data()), 4, 5, 1, sizeof(double), 4 * sizeof(double), sizeof(double)};
  for (Statistic stat : {Statistic::label_stability, Statistic::aleatoric, Statistic::variance, Statistic::iqr}) {
    CAPTURE(static_cast<int>(stat));
    const auto a = statistic(row_major(P, 4, 5), stat), b = statistic(strided, stat);
    bool same = true;
    for (int j = 0; j < 5; ++j) same = same && bits(a[j]) == bits(b[j]);
    CHECK(same);
  }
}

TEST_CASE("values that are not probabilities are flagged") {
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), 1.5, -0.25}) {
    std::vector<double> p = P;
    p[7] = bad;
    bool invalid = false;
    statistic(row_major(p, 4, 5), Statistic::variance, 1, &invalid);
    CHECK(invalid);
  }
  bool invalid = true;
  statistic(row_major(P, 4, 5), Statistic::iqr, 1, &invalid);
  CHECK_FALSE(invalid);
}

TEST_CASE("per-sample statistics are bit-identical at 1 and N threads") {
  turbometrics::testing::SplitMix random(29);
  const int64_t models = 7, samples = 10000;  // several blocks of 2048
  std::vector<double> p(static_cast<size_t>(models * samples));
  for (double& v : p) v = random.uniform();
  const auto e = row_major(p, models, samples);
  for (Statistic stat : {Statistic::label_stability, Statistic::jitter, Statistic::aleatoric, Statistic::mutual_info,
                         Statistic::variance, Statistic::std, Statistic::iqr}) {
    CAPTURE(static_cast<int>(stat));
    const auto one = statistic(e, stat, 1), more = statistic(e, stat, turbometrics::testing::many_threads);
    bool same = true;
    for (int64_t j = 0; j < samples; ++j) same = same && bits(one[j]) == bits(more[j]);
    CHECK(same);
  }
}
