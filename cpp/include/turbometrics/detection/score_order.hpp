// The detection order of pycocotools: a stable sort on -score, so scores
// descend, ties keep their input order, -0.0 equals 0.0 and NaN sorts last
// (NumPy's order for NaN).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "turbometrics/score_keys.hpp"

namespace turbometrics::detection {

// Ascending keys give descending scores; NaN gets the largest key.
inline uint64_t descending_score_key(double score) {
  if (std::isnan(score)) return std::numeric_limits<uint64_t>::max();
  return ScoreKey<double>::encode(score);
}

// A detection's place in a stable descending-score order: compare keys, then
// input positions.
struct OrderedDetection {
  uint64_t key;
  int64_t position;
  bool operator<(const OrderedDetection& other) const {
    return key != other.key ? key < other.key : position < other.position;
  }
};

}  // namespace turbometrics::detection
