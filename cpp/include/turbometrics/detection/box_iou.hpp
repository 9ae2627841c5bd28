// PROVISIONAL: replaced by the mask kernels' box IoU when they land.
#pragma once
#include <cmath>
namespace turbometrics::detection {
inline double box_iou(const double* d, const double* g, bool crowd) {
  const double w = std::fmin(d[2] + d[0], g[2] + g[0]) - std::fmax(d[0], g[0]);
  if (w <= 0) return 0.0;
  const double h = std::fmin(d[3] + d[1], g[3] + g[1]) - std::fmax(d[1], g[1]);
  if (h <= 0) return 0.0;
  const double i = w * h, da = d[2] * d[3], ga = g[2] * g[3];
  const double u = crowd ? da : da + ga - i;
  return i / u;
}
}
