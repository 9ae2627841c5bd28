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
//
// NumpyStreamedSum evaluates the same tree over terms that parallel parts
// produce in order (part p the terms [offset[p], offset[p + 1])), without
// storing them: each part sums the tree's leaves (runs of at most 128
// terms) that lie within it as its terms stream by, and keeps only the
// terms of its first and last leaf when these cross into other parts.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "turbometrics/parallel.hpp"

namespace turbometrics {

// Values of NumPy's summation tree summed by one numpy_pairwise_sum call
// without splitting (its leaves).
inline constexpr int64_t numpy_sum_leaf = 128;

// Where NumPy's summation tree splits n values: the size of the left half.
inline int64_t numpy_sum_half(int64_t n) {
  const int64_t half = n / 2;
  return half - half % 8;
}

// NumPy's pairwise sum of a[0], ..., a[n - 1] (without the reduction's
// starting 0.0).
inline double numpy_pairwise_sum(const double* a, int64_t n) {
  if (n < 8) {
    double sum = -0.0;
    for (int64_t i = 0; i < n; ++i) sum += a[i];
    return sum;
  }
  if (n <= numpy_sum_leaf) {
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
  const int64_t half = numpy_sum_half(n);
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
  const int64_t half = numpy_sum_half(n);
  numpy_sum_leaves(begin, half, leaves);
  numpy_sum_leaves(begin + half, n - half, leaves);
}

// Combines the leaves' sums (consumed from `next` on) as the tree over n
// values does.
inline double numpy_sum_combine(int64_t n, const std::vector<double>& sums, size_t& next) {
  if (n <= numpy_sum_grain) return sums[next++];
  const int64_t half = numpy_sum_half(n);
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

// The leaves of NumPy's summation tree over n values (the runs of at most
// numpy_sum_leaf values that numpy_pairwise_sum sums without splitting),
// walked in order from the one that holds value `at` (0 <= at < n).
class NumpySumLeafWalk {
 public:
  NumpySumLeafWalk(int64_t n, int64_t at) {
    int64_t begin = 0, size = n;
    while (size > numpy_sum_leaf) {
      const int64_t half = numpy_sum_half(size);
      if (at < begin + half) {
        pending_[depth_++] = {begin + half, size - half};
        size = half;
      } else {
        begin += half;
        size -= half;
      }
    }
    begin_ = begin;
    end_ = begin + size;
  }

  // The current leaf: values [begin(), end()).
  int64_t begin() const { return begin_; }
  int64_t end() const { return end_; }

  // Moves to the next leaf; false (and the leaf unchanged) after the last.
  bool next() {
    if (depth_ == 0) return false;
    auto [begin, size] = pending_[--depth_];
    while (size > numpy_sum_leaf) {
      const int64_t half = numpy_sum_half(size);
      pending_[depth_++] = {begin + half, size - half};
      size = half;
    }
    begin_ = begin;
    end_ = begin + size;
    return true;
  }

 private:
  // Right halves still to walk (the tree is at most 63 levels deep).
  std::pair<int64_t, int64_t> pending_[64];
  int depth_ = 0;
  int64_t begin_ = 0, end_ = 0;
};

// np.sum of n terms that parts produce in order, possibly concurrently,
// without storing the terms: part p produces terms [offsets[p],
// offsets[p + 1]) through a Part. Each Part sums the tree's leaves that lie
// within its terms and keeps the terms of the leaves it shares with other
// parts (at most two, of at most numpy_sum_leaf terms each); total()
// combines them in the tree's order. The result is numpy_sum's.
class NumpyStreamedSum {
  struct Kept {
    std::vector<double> sums;  // the leaves within the part, in order
    std::vector<double> head;  // terms of a leaf begun in an earlier part
    std::vector<double> tail;  // terms of a leaf that ends in a later part
  };

 public:
  // offsets[p]: part p's first term; offsets.back(): the number of terms.
  explicit NumpyStreamedSum(std::vector<int64_t> offsets) : offsets_(std::move(offsets)), kept_(offsets_.size() - 1) {}

  // Receives the terms of one part, in order, through put_counted, then
  // finish(). Terms beyond the last of the sum are ignored. Term `replaced`
  // (if a term of the part) is summed as `replacement` instead.
  class Part {
   public:
    Part(NumpyStreamedSum& sum, int64_t part, int64_t replaced = -1, double replacement = 0.0)
        : kept_(sum.kept_[part]),
          part_begin_(sum.offsets_[part]),
          walk_(sum.size(), std::min(part_begin_, std::max<int64_t>(0, sum.size() - 1))),
          start_(part_begin_),
          capacity_(walk_.end() - part_begin_),
          replaced_(replaced),
          replacement_(replacement) {
      if (part_begin_ >= sum.size()) ignore_rest();
    }

    // Puts terms[0], ..., terms[count - 1], copied a leaf's worth at a time.
    void put_counted(const double* terms, int64_t count) {
      while (count > 0) {
        const int64_t taken = std::min(count, capacity_ - filled_);
        std::copy(terms, terms + taken, buffer_ + filled_);
        filled_ += taken;
        terms += taken;
        count -= taken;
        if (filled_ == capacity_) end_leaf();
      }
    }

    void finish() {
      if (filled_ == 0 || ignoring_) return;
      replace_in_buffer();
      (walk_.begin() < part_begin_ ? kept_.head : kept_.tail).assign(buffer_, buffer_ + filled_);
    }

   private:
    void end_leaf() {
      if (!ignoring_) {
        replace_in_buffer();
        if (walk_.begin() < part_begin_) {
          kept_.head.assign(buffer_, buffer_ + filled_);
        } else {
          kept_.sums.push_back(numpy_pairwise_sum(buffer_, filled_));
        }
        if (!walk_.next()) ignore_rest();
      }
      start_ = walk_.begin();
      capacity_ = ignoring_ ? numpy_sum_leaf : walk_.end() - walk_.begin();
      filled_ = 0;
    }
    void ignore_rest() {
      ignoring_ = true;
      capacity_ = numpy_sum_leaf;
    }
    void replace_in_buffer() {
      if (replaced_ >= start_ && replaced_ < start_ + filled_) buffer_[replaced_ - start_] = replacement_;
    }

    Kept& kept_;
    int64_t part_begin_;
    NumpySumLeafWalk walk_;
    int64_t start_;     // the term at buffer_[0]
    int64_t capacity_;  // terms until the current leaf ends
    int64_t filled_ = 0;
    bool ignoring_ = false;
    int64_t replaced_;
    double replacement_;
    double buffer_[numpy_sum_leaf];
  };

  int64_t size() const { return offsets_.back(); }

  // The sum, once every part with terms has finished. 0.0 without terms.
  double total() const {
    if (size() == 0) return 0.0;
    Cursor cursor;
    return 0.0 + combine(0, size(), cursor);
  }

 private:
  struct Cursor {
    size_t part = 0, next_sum = 0;
    std::vector<double> gathered;
  };

  double combine(int64_t begin, int64_t n, Cursor& cursor) const {
    if (n <= numpy_sum_leaf) return leaf_sum(begin, n, cursor);
    const int64_t half = numpy_sum_half(n);
    const double left = combine(begin, half, cursor);
    return left + combine(begin + half, n - half, cursor);
  }

  // The sum of the leaf [begin, begin + n), the leaves being taken in order.
  double leaf_sum(int64_t begin, int64_t n, Cursor& cursor) const {
    while (offsets_[cursor.part + 1] <= begin) {
      ++cursor.part;
      cursor.next_sum = 0;
    }
    const Kept& part = kept_[cursor.part];
    if (begin + n <= offsets_[cursor.part + 1]) return part.sums[cursor.next_sum++];
    cursor.gathered.assign(part.tail.begin(), part.tail.end());
    for (size_t q = cursor.part + 1; offsets_[q] < begin + n; ++q) {
      cursor.gathered.insert(cursor.gathered.end(), kept_[q].head.begin(), kept_[q].head.end());
    }
    return numpy_pairwise_sum(cursor.gathered.data(), n);
  }

  std::vector<int64_t> offsets_;
  std::vector<Kept> kept_;
};

}  // namespace turbometrics
