// Grid helpers of the binned KDE (turbometrics.density._binned): linear binning with
// second-order correction weights, and 4-point (cubic Lagrange) interpolation
// of a grid density at arbitrary points. One and two dimensions.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "turbometrics/density/kernel_sum.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::density {

struct Grid {
  int dims = 1;
  double low[2] = {0, 0};  // coordinate of node 0 along each axis
  double delta = 1;        // node spacing (both axes)
  int64_t size[2] = {1, 1};
  int64_t nodes() const { return dims == 1 ? size[0] : size[0] * size[1]; }
};

namespace detail {
// Cell of a coordinate: node index in [0, size - 2] and fraction in the cell.
inline void locate(double x, double low, double delta, int64_t size, int64_t& left, double& frac) {
  const double position = (x - low) / delta;
  left = std::min<int64_t>(std::max<int64_t>(static_cast<int64_t>(std::floor(position)), 0), size - 2);
  frac = position - static_cast<double>(left);
}
}  // namespace detail

// out holds 1 + dims grids of grid.nodes() values, zeroed by the caller:
// out[0] the linearly binned weights; out[1 + k] the weights times
// a (1 - a) delta^2 / 2 for the fraction a along axis k (the coefficient of
// the leading binning error, which the caller removes with a second
// convolution). Serial, so the sums are in data order.
inline void linear_bin(const DataView& data, const Grid& grid, double* out) {
  const int64_t nodes = grid.nodes();
  const double half_delta2 = 0.5 * grid.delta * grid.delta;
  double* binned = out;
  for (int64_t j = 0; j < data.size; ++j) {
    const double w = data.weights ? data.weights[j] : 1.0;
    int64_t left0, left1 = 0;
    double f0, f1 = 0;
    detail::locate(data(j, 0), grid.low[0], grid.delta, grid.size[0], left0, f0);
    const double c0 = w * f0 * (1.0 - f0) * half_delta2;
    if (grid.dims == 1) {
      binned[left0] += w * (1.0 - f0);
      binned[left0 + 1] += w * f0;
      out[nodes + left0] += c0 * (1.0 - f0);
      out[nodes + left0 + 1] += c0 * f0;
      continue;
    }
    detail::locate(data(j, 1), grid.low[1], grid.delta, grid.size[1], left1, f1);
    const double c1 = w * f1 * (1.0 - f1) * half_delta2;
    const int64_t stride = grid.size[1];
    const double wx[2] = {1.0 - f0, f0}, wy[2] = {1.0 - f1, f1};
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) {
        const int64_t at = (left0 + a) * stride + left1 + b;
        const double share = wx[a] * wy[b];
        binned[at] += w * share;
        out[nodes + at] += c0 * share;
        out[2 * nodes + at] += c1 * share;
      }
  }
}

// values[i] = cubic interpolation of the grid at point i, clipped below at
// 0; NaN for points too close to the grid's edge (fewer than 2 nodes on a
// side), which the caller evaluates otherwise.
inline void cubic_interpolate(const double* values_on_grid, const Grid& grid, const Queries& points, double* values,
                              int n_threads) {
  const int64_t tiles = (points.size + 1023) / 1024;
  parallel_for_dynamic(tiles, n_threads, [&](int64_t t) {
    const int64_t end = std::min(points.size, (t + 1) * 1024);
    for (int64_t i = t * 1024; i < end; ++i) {
      const double* p = points.rows + i * points.dims;
      int64_t base[2] = {0, 0};
      double weight[2][4];
      bool inside = true;
      for (int k = 0; k < grid.dims; ++k) {
        const double position = (p[k] - grid.low[k]) / grid.delta;
        const double floor_position = std::floor(position);
        inside = inside && floor_position >= 1 && floor_position <= static_cast<double>(grid.size[k] - 3);
        base[k] = inside ? static_cast<int64_t>(floor_position) : 1;
        const double s = position - floor_position;
        weight[k][0] = -s * (s - 1.0) * (s - 2.0) / 6.0;
        weight[k][1] = (s + 1.0) * (s - 1.0) * (s - 2.0) / 2.0;
        weight[k][2] = -(s + 1.0) * s * (s - 2.0) / 2.0;
        weight[k][3] = (s + 1.0) * s * (s - 1.0) / 6.0;
      }
      if (!inside) {
        values[i] = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
      double value = 0.0;
      if (grid.dims == 1) {
        for (int a = 0; a < 4; ++a) value += weight[0][a] * values_on_grid[base[0] - 1 + a];
      } else {
        for (int a = 0; a < 4; ++a) {
          const double* row = values_on_grid + (base[0] - 1 + a) * grid.size[1] + base[1] - 1;
          double along = 0.0;
          for (int b = 0; b < 4; ++b) along += weight[1][b] * row[b];
          value += weight[0][a] * along;
        }
      }
      values[i] = value > 0.0 ? value : 0.0;
    }
  });
}

}  // namespace turbometrics::density
