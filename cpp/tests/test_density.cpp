// Density: the log kernel sum (every KDE estimate normalises it) and the
// binned method's grid helpers.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "support.hpp"
#include "turbometrics/density/binning.hpp"
#include "turbometrics/density/kernel_sum.hpp"

using namespace turbometrics::density;
using turbometrics::testing::bits;

namespace {

// Contiguous 1-D or row-major data.
DataView rows_view(const std::vector<double>& x, int dims, const std::vector<double>* w = nullptr) {
  DataView v;
  v.at = x.data();
  v.point_stride = dims;
  v.coordinate_stride = 1;
  v.weights = w ? w->data() : nullptr;
  v.size = static_cast<int64_t>(x.size()) / dims;
  v.dims = dims;
  return v;
}

std::vector<double> log_sums(const DataView& data, const std::vector<double>& points, Kernel kernel, double h,
                             int threads = 1) {
  const SortedSample sorted(data);
  const Queries q{points.data(), static_cast<int64_t>(points.size()) / data.dims, data.dims};
  std::vector<double> out(static_cast<size_t>(q.size));
  log_kernel_sums(sorted, q, kernel, h, out.data(), threads);
  return out;
}

}  // namespace

TEST_CASE("compact kernels: the support is open, empty sums are -inf") {
  const std::vector<double> x = {3.0, 0.0, 1.0};
  const auto tophat = log_sums(rows_view(x, 1), {0.0, 2.0, 4.5, 10.0}, Kernel::tophat, 1.5);
  CHECK(tophat[0] == std::log(2.0));                             // 0 and 1
  CHECK(tophat[1] == std::log(2.0));                             // 1 and 3
  CHECK(tophat[2] == -std::numeric_limits<double>::infinity());  // |4.5 - 3| == h is outside
  CHECK(tophat[3] == -std::numeric_limits<double>::infinity());
  const auto epanechnikov = log_sums(rows_view(x, 1), {0.5}, Kernel::epanechnikov, 1.0);
  CHECK(epanechnikov[0] == doctest::Approx(std::log(0.75 + 0.75)));
  const auto linear = log_sums(rows_view(x, 1), {0.25}, Kernel::linear, 1.0);
  CHECK(linear[0] == doctest::Approx(std::log(0.75 + 0.25)));
}

TEST_CASE("gaussian and exponential sums never underflow far from the data") {
  const std::vector<double> x = {0.0, 1.0};
  const auto near = log_sums(rows_view(x, 1), {0.0}, Kernel::gaussian, 1.0);
  CHECK(near[0] == doctest::Approx(std::log(1.0 + std::exp(-0.5))));
  const auto far = log_sums(rows_view({0.0}, 1), {1000.0}, Kernel::gaussian, 1.0);
  CHECK(far[0] == -500000.0);  // the exact log-sum-exp, not log(0)
  const auto exponential = log_sums(rows_view({0.0}, 1), {-2000.0}, Kernel::exponential, 2.0);
  CHECK(exponential[0] == -1000.0);
  const auto at_point = log_sums(rows_view({0.0}, 1), {0.0}, Kernel::gaussian, 0.5);
  CHECK(bits(at_point[0]) == bits(0.0));  // K(0) = 1
}

TEST_CASE("weights: zero-weight points are dropped; all zero gives -inf everywhere") {
  const std::vector<double> x = {0.0, 100.0}, w = {2.0, 0.0}, zero = {0.0, 0.0};
  const auto weighted = log_sums(rows_view(x, 1, &w), {0.0}, Kernel::tophat, 1.0);
  CHECK(weighted[0] == std::log(2.0));
  const auto none = log_sums(rows_view(x, 1, &zero), {0.0, 50.0}, Kernel::gaussian, 1.0);
  CHECK(none[0] == -std::numeric_limits<double>::infinity());
  CHECK(none[1] == -std::numeric_limits<double>::infinity());
}

TEST_CASE("kernel sums are bit-identical at 1 and N threads (2-D, every kernel)") {
  turbometrics::testing::SplitMix random(17);
  std::vector<double> x(2 * 3000), w(3000), points(2 * 300);
  for (double& v : x) v = random.uniform() * 4.0;
  for (double& v : w) v = random.uniform();
  for (double& v : points) v = random.uniform() * 5.0 - 0.5;
  for (Kernel kernel :
       {Kernel::gaussian, Kernel::tophat, Kernel::epanechnikov, Kernel::exponential, Kernel::linear, Kernel::cosine}) {
    CAPTURE(static_cast<int>(kernel));
    const auto one = log_sums(rows_view(x, 2, &w), points, kernel, 0.3, 1);
    const auto more = log_sums(rows_view(x, 2, &w), points, kernel, 0.3, turbometrics::testing::many_threads);
    bool same = true;
    for (size_t i = 0; i < one.size(); ++i) same = same && bits(one[i]) == bits(more[i]);
    CHECK(same);
  }
}

TEST_CASE("bad arguments throw std::invalid_argument") {
  CHECK_THROWS_AS(kernel_from_name("triangle"), std::invalid_argument);
  CHECK(kernel_from_name("cosine") == Kernel::cosine);
  const std::vector<double> x = {0.0, 1.0};
  const SortedSample sorted(rows_view(x, 1));
  const std::vector<double> points = {0.0, 0.0};
  const Queries two_d{points.data(), 1, 2};
  double out = 0.0;
  CHECK_THROWS_AS(log_kernel_sums(sorted, two_d, Kernel::gaussian, 1.0, &out, 1), std::invalid_argument);
}

TEST_CASE("linear_bin: weights split between the two nodes, with the correction terms") {
  Grid grid;
  grid.low[0] = 0.0;
  grid.delta = 1.0;
  grid.size[0] = 4;
  std::vector<double> out(2 * 4, 0.0);
  const std::vector<double> x = {1.25};
  linear_bin(rows_view(x, 1), grid, out.data());
  CHECK(out == std::vector<double>{0.0, 0.75, 0.25, 0.0, 0.0, 0.0703125, 0.0234375, 0.0});

  // 2-D: one point at the centre of cell (0, 0) spreads a quarter to each corner.
  Grid plane;
  plane.dims = 2;
  plane.delta = 1.0;
  plane.size[0] = plane.size[1] = 2;
  std::vector<double> cells(3 * 4, 0.0);
  const std::vector<double> p = {0.5, 0.5}, w = {2.0};
  linear_bin(rows_view(p, 2, &w), plane, cells.data());
  CHECK(cells[0] == 0.5);
  CHECK(cells[3] == 0.5);
  CHECK(cells[4] == 0.0625);  // 2 * 0.25 * 0.5 * 0.25 (c0 * share)
}

TEST_CASE("cubic_interpolate: exact on cubics, NaN near the edges, clipped at 0") {
  Grid grid;
  grid.delta = 1.0;
  grid.size[0] = 8;
  std::vector<double> cube(8), negative(8);
  for (int k = 0; k < 8; ++k) {
    cube[k] = static_cast<double>(k * k * k);
    negative[k] = -static_cast<double>(k);
  }
  const std::vector<double> points = {3.5, 0.5, 5.5, 6.5};
  const Queries q{points.data(), 4, 1};
  std::vector<double> values(4);
  cubic_interpolate(cube.data(), grid, q, values.data(), 1);
  CHECK(values[0] == doctest::Approx(42.875));
  CHECK(std::isnan(values[1]));                  // fewer than 2 nodes to the left
  CHECK(values[2] == doctest::Approx(166.375));  // nodes 4..7
  CHECK(std::isnan(values[3]));                  // fewer than 2 nodes to the right
  cubic_interpolate(negative.data(), grid, q, values.data(), 1);
  CHECK(bits(values[0]) == bits(0.0));
}
