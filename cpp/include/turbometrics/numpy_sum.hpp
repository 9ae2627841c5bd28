// NumPy's summation order for float64: what np.sum / np.add.reduce returns
// for a 1-D contiguous array (and along the last axis of a C-ordered one),
// reproduced bit for bit so that in-memory results equal scikit-learn's.
//
// NumPy sums a run of fewer than 8 values sequentially, a run of up to 128
// with 8 interleaved partial sums (values i, i + 8, i + 16, ... into partial
// i % 8) combined as ((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7)) and
// then the last n % 8 values added in turn, and a longer run as the sum of
// its two halves, cut at n / 2 rounded down to a multiple of 8. The
// reduction starts from 0.0, so a zero sum is +0.0.
//
// numpy_sum evaluates that tree in parallel: the subtrees of at most
// `numpy_sum_grain` values are summed independently (their terms produced
// into a scratch buffer by the caller's fill function) and combined in the
// tree's order, so the result does not depend on the thread count.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "parallel.hpp"

namespace turbometrics {

// NumPy's pairwise sum of a[0], ..., a[n - 1] (without the reduction's
// starting 0.0).
inline double numpy_pairwise_sum(const double* a, int64_t n) {
  if (n < 8) {
    double sum = -0.0;
    for (int64_t i = 0; i < n; ++i) sum += a[i];
    return sum;
  }
  if (n <= 128) {
    double partial[8];
    for (int j = 0; j < 8; ++j) partial[j] = a[j];
    const int64_t whole = n - n % 8;
    int64_t i = 8;
    for (; i < whole; i += 8) {
      for (int j = 0; j < 8; ++j) partial[j] += a[i + j];
    }
    double sum = ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
                 ((partial[4] + partial[5]) + (partial[6] + partial[7]));
    for (; i < n; ++i) sum += a[i];
    return sum;
  }
  int64_t half = n / 2;
  half -= half % 8;
  return numpy_pairwise_sum(a, half) + numpy_pairwise_sum(a + half, n - half);
}

inline constexpr int64_t numpy_sum_grain = int64_t{1} << 14;

namespace detail {

// The subtrees of NumPy's summation tree over [begin, begin + n) that hold
// at most numpy_sum_grain values, in order.
inline void numpy_sum_leaves(int64_t begin, int64_t n, std::vector<std::pair<int64_t, int64_t>>& leaves) {
  if (n <= numpy_sum_grain) {
    leaves.emplace_back(begin, n);
    return;
  }
  int64_t half = n / 2;
  half -= half % 8;
  numpy_sum_leaves(begin, half, leaves);
  numpy_sum_leaves(begin + half, n - half, leaves);
}

// Combines the leaves' sums (consumed from `next` on) as the tree over n
// values does.
inline double numpy_sum_combine(int64_t n, const std::vector<double>& sums, size_t& next) {
  if (n <= numpy_sum_grain) return sums[next++];
  int64_t half = n / 2;
  half -= half % 8;
  const double left = numpy_sum_combine(half, sums, next);
  return left + numpy_sum_combine(n - half, sums, next);
}

}  // namespace detail

// np.sum of the n terms that fill(begin, end, out) writes (out[k] is term
// begin + k; fill is called for disjoint ranges, possibly concurrently).
// 0.0 when n is 0.
template <class Fill>
double numpy_sum(int64_t n, int n_threads, Fill&& fill) {
  if (n <= 0) return 0.0;
  std::vector<std::pair<int64_t, int64_t>> leaves;
  detail::numpy_sum_leaves(0, n, leaves);
  std::vector<double> sums(leaves.size());
  const int threads = leaves.size() > 1 ? n_threads : 1;
  parallel_for_dynamic(static_cast<int64_t>(leaves.size()), threads, [&](int64_t k) {
    thread_local std::vector<double> scratch;
    const auto [begin, count] = leaves[k];
    if (static_cast<int64_t>(scratch.size()) < count) scratch.resize(count);
    fill(begin, begin + count, scratch.data());
    sums[k] = numpy_pairwise_sum(scratch.data(), count);
  });
  size_t next = 0;
  return 0.0 + detail::numpy_sum_combine(n, sums, next);
}

}  // namespace turbometrics
