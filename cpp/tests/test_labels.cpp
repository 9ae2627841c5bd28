// Labels: the one-pass label scan (type_of_target's facts), the finiteness
// status, and the label encoder.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "support.hpp"
#include "turbometrics/labels/encode.hpp"
#include "turbometrics/labels/label_scan.hpp"

using namespace turbometrics::labels;

namespace {
template <class T>
const char* raw(const std::vector<T>& v) {
  return reinterpret_cast<const char*>(v.data());
}
}  // namespace

TEST_CASE("scan_labels: sorted distinct values, -0.0 equal to 0.0, NaN once and last") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> y = {1.0, -0.0, nan, 0.0, 1.0, nan, 2.5};
  for (int threads : {1, turbometrics::testing::many_threads}) {
    const LabelScan<double> scan = scan_labels<double>(raw(y), sizeof(double), 7, 8, threads);
    CHECK_FALSE(scan.overflowed);
    CHECK_FALSE(scan.integral);  // 2.5 and NaN are not integers
    REQUIRE(scan.distinct.size() == 4);
    CHECK(scan.distinct[0] == 0.0);
    CHECK(scan.distinct[1] == 1.0);
    CHECK(scan.distinct[2] == 2.5);
    CHECK(std::isnan(scan.distinct[3]));
  }
}

TEST_CASE("scan_labels: overflow past the limit, strided input, integral floats") {
  std::vector<int64_t> many(100);
  for (int64_t i = 0; i < 100; ++i) many[i] = i % 9;
  const LabelScan<int64_t> over = scan_labels<int64_t>(raw(many), sizeof(int64_t), 100, 8, 1);
  CHECK(over.overflowed);
  CHECK(over.distinct.empty());

  // Every other element of an interleaved array (stride 16 bytes).
  const std::vector<double> pairs = {3.0, 99.5, -1.0, 99.5, 3.0, 99.5};
  const LabelScan<double> strided = scan_labels<double>(raw(pairs), 2 * sizeof(double), 3, 8, 1);
  CHECK(strided.integral);
  CHECK(strided.distinct == std::vector<double>{-1.0, 3.0});

  CHECK(is_integral_value(-9223372036854775808.0));       // -2^63 fits int64
  CHECK_FALSE(is_integral_value(9223372036854775808.0));  // 2^63 does not
  CHECK_FALSE(is_integral_value(std::numeric_limits<double>::infinity()));
  CHECK_FALSE(is_integral_value(0.5f));
  CHECK(is_integral_value(-0.0));
}

TEST_CASE("finite_status: NaN before infinity, and the all-zero bit") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::vector<double> finite = {0.0, 1.0}, with_inf = {inf, 0.0, 1.0}, both = {inf, nan, 1.0},
                            zeros = {0.0, -0.0};
  for (int threads : {1, turbometrics::testing::many_threads}) {
    CHECK(finite_status<double>(raw(finite), 8, 2, threads) == 0);
    CHECK(finite_status<double>(raw(with_inf), 8, 3, threads) == 2);
    CHECK(finite_status<double>(raw(both), 8, 3, threads) == 1);
    CHECK(finite_status<double>(raw(zeros), 8, 2, threads) == 4);
  }
}

TEST_CASE("distinct_sorted and LabelEncoder: table and binary-search paths") {
  const std::vector<int64_t> y = {7, -3, 7, 1000, -3};
  for (int threads : {1, turbometrics::testing::many_threads}) {
    CHECK(distinct_sorted<int64_t>(raw(y), 8, 5, threads) == std::vector<int64_t>{-3, 7, 1000});
  }
  const LabelEncoder<int64_t> small({-3, 7, 1000});  // span 1003: lookup table
  CHECK(small.size() == 3);
  CHECK(small.code(-3) == 0);
  CHECK(small.code(7) == 1);
  CHECK(small.code(1000) == 2);
  CHECK(small.code(8) == -1);
  CHECK(small.code(-4) == -1);
  CHECK(small.code(1001) == -1);
  CHECK(small.label(2) == 1000);

  const int64_t big = int64_t{1} << 40;  // span past the table: binary search
  const LabelEncoder<int64_t> wide({-big, 0, big});
  CHECK(wide.code(-big) == 0);
  CHECK(wide.code(0) == 1);
  CHECK(wide.code(big) == 2);
  CHECK(wide.code(1) == -1);

  const LabelEncoder<uint64_t> unsigned_labels({0, std::numeric_limits<uint64_t>::max()});
  CHECK(unsigned_labels.code(std::numeric_limits<uint64_t>::max()) == 1);
  CHECK(unsigned_labels.code(1) == -1);

  const LabelEncoder<int64_t> none(std::vector<int64_t>{});
  CHECK(none.size() == 0);
  CHECK(none.code(0) == -1);
}
