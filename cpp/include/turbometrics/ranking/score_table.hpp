// The ranking primitive: the distinct scores in descending order with the
// cumulative positive and negative weight at each of them.
//
// `SortedScores` holds the samples sorted by descending score (a stable
// sort, so tied samples keep their input order). `for_each_row` walks it and
// emits one row per distinct score: (score, positive weight at or above the
// score, negative weight at or above the score). The weight *at* a score is
// the difference between consecutive rows. Every sweep in sweeps.hpp
// consumes this row stream; `materialize_table` stores it.
//
// Running totals are accumulated sample by sample in the sorted order, which
// is the order scikit-learn's cumulative sums use, so weighted totals agree
// with it to the last bit. Unweighted totals are int64 counts.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "../parallel.hpp"
#include "radix_sort.hpp"
#include "score_keys.hpp"

namespace turbometrics::ranking {

// Strided views of the three inputs. Strides are in bytes.
template <class Score>
struct RankingInput {
  const char* score = nullptr;
  int64_t score_stride = 0;
  const char* is_positive = nullptr;  // one byte per sample, 0 or 1
  int64_t label_stride = 0;
  const char* weight = nullptr;  // float64, nullptr when unweighted
  int64_t weight_stride = 0;
  int64_t size = 0;

  Score score_at(int64_t i) const { return *reinterpret_cast<const Score*>(score + i * score_stride); }
  bool positive_at(int64_t i) const { return is_positive[i * label_stride] != 0; }
  double weight_at(int64_t i) const { return *reinterpret_cast<const double*>(weight + i * weight_stride); }
  // scikit-learn drops zero-weight samples before sorting.
  bool kept(int64_t i) const { return weight == nullptr || weight_at(i) != 0.0; }
};

template <class Key, bool Weighted>
struct SortItem {
  Key packed;  // key bits below the bucket digit, then the label bit
};

template <class Key>
struct SortItem<Key, true> {
  Key packed;
  double weight;
};

// Weight types of a row: int64 counts, or float64 sums when weighted.
template <bool Weighted>
using RowWeight = std::conditional_t<Weighted, double, int64_t>;

template <class Score, bool Weighted>
class SortedScores {
 public:
  using ScoreType = Score;
  using Key = typename ScoreKey<Score>::Key;
  using Item = SortItem<Key, Weighted>;
  using Weight = RowWeight<Weighted>;
  static constexpr int key_bits = 8 * sizeof(Key);
  static constexpr int bucket_digit_bits = 11;
  static constexpr int64_t parallel_run = int64_t{1} << 20;

  SortedScores(const RankingInput<Score>& input, int n_threads) {
    const int chunks = std::max(1, n_threads) * 4;
    scan_key_range(input, chunks, n_threads);
    if (kept_ == 0) {
      bucket_start_.assign(2, 0);
      return;
    }
    plan_buckets();
    scatter_into_buckets(input, chunks, n_threads);
    sort_buckets(n_threads);
  }

  int64_t size() const { return kept_; }
  int64_t positive_count() const { return positives_; }
  int64_t negative_count() const { return kept_ - positives_; }

  // Calls visit(score, cumulative_positive, cumulative_negative) once per
  // distinct score, from the highest score to the lowest.
  template <class Visit>
  void for_each_row(Visit&& visit) const {
    Weight positive = 0, negative = 0;
    const int64_t buckets = static_cast<int64_t>(bucket_start_.size()) - 1;
    for (int64_t b = 0; b < buckets; ++b) {
      const Item* item = items_.get() + bucket_start_[b];
      const Item* end = items_.get() + bucket_start_[b + 1];
      const Key high = base_ | (shift_ < key_bits ? (static_cast<Key>(b) << shift_) : Key{0});
      while (item != end) {
        const Key remainder = item->packed >> 1;
        do {
          accumulate(*item, positive, negative);
          ++item;
        } while (item != end && (item->packed >> 1) == remainder);
        visit(ScoreKey<Score>::decode(high | remainder), positive, negative);
      }
    }
  }

  // Number of rows for_each_row will emit.
  int64_t distinct_count(int n_threads) const {
    const int64_t buckets = static_cast<int64_t>(bucket_start_.size()) - 1;
    std::vector<int64_t> per_bucket(buckets, 0);
    parallel_for_dynamic(buckets, n_threads, [&](int64_t b) {
      int64_t rows = 0;
      for (int64_t i = bucket_start_[b]; i < bucket_start_[b + 1]; ++i) {
        rows += (i == bucket_start_[b]) || ((items_[i].packed >> 1) != (items_[i - 1].packed >> 1));
      }
      per_bucket[b] = rows;
    });
    int64_t rows = 0;
    for (int64_t r : per_bucket) rows += r;
    return rows;
  }

  // Final running totals (the last row), as the sweeps see them.
  std::pair<Weight, Weight> totals() const {
    if constexpr (!Weighted) {
      return {positive_count(), negative_count()};
    } else {
      Weight positive = 0, negative = 0;
      for (int64_t i = 0; i < kept_; ++i) accumulate(items_[i], positive, negative);
      return {positive, negative};
    }
  }

 private:
  static void accumulate(const Item& item, Weight& positive, Weight& negative) {
    const bool is_positive = item.packed & 1;
    if constexpr (Weighted) {
      if (is_positive) positive += item.weight; else negative += item.weight;
    } else {
      positive += is_positive;
      negative += !is_positive;
    }
  }

  static Key low_mask(int bits) {
    return bits >= key_bits ? ~Key{0} : static_cast<Key>((Key{1} << bits) - 1);
  }

  void scan_key_range(const RankingInput<Score>& input, int chunks, int n_threads) {
    std::vector<Key> lows(chunks, std::numeric_limits<Key>::max());
    std::vector<Key> highs(chunks, 0);
    std::vector<int64_t> kept(chunks, 0), positives(chunks, 0);
    parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
      auto [begin, end] = chunk_bounds(input.size, chunks, static_cast<int>(c));
      Key low = std::numeric_limits<Key>::max(), high = 0;
      int64_t count = 0, positive = 0;
      for (int64_t i = begin; i < end; ++i) {
        if (!input.kept(i)) continue;
        const Key key = ScoreKey<Score>::encode(input.score_at(i));
        low = std::min(low, key);
        high = std::max(high, key);
        ++count;
        positive += input.positive_at(i);
      }
      lows[c] = low;
      highs[c] = high;
      kept[c] = count;
      positives[c] = positive;
    });
    low_key_ = *std::min_element(lows.begin(), lows.end());
    high_key_ = *std::max_element(highs.begin(), highs.end());
    for (int c = 0; c < chunks; ++c) {
      kept_ += kept[c];
      positives_ += positives[c];
    }
  }

  // Buckets split on the highest bits in which the keys differ; the bits
  // below them, shifted left by one, leave room for the label bit.
  void plan_buckets() {
    const int varying = bit_width(static_cast<Key>(low_key_ ^ high_key_));
    bucket_bits_ = std::min(bucket_digit_bits, varying);
    shift_ = varying - bucket_bits_;
    base_ = low_key_ & ~low_mask(varying);
  }

  int64_t bucket_of(Key key) const {
    return bucket_bits_ == 0 ? 0 : static_cast<int64_t>((key >> shift_) & low_mask(bucket_bits_));
  }

  void scatter_into_buckets(const RankingInput<Score>& input, int chunks, int n_threads) {
    const int64_t buckets = int64_t{1} << bucket_bits_;
    std::vector<int64_t> offsets(static_cast<size_t>(chunks) * buckets, 0);
    parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
      auto [begin, end] = chunk_bounds(input.size, chunks, static_cast<int>(c));
      int64_t* local = offsets.data() + c * buckets;
      for (int64_t i = begin; i < end; ++i) {
        if (input.kept(i)) ++local[bucket_of(ScoreKey<Score>::encode(input.score_at(i)))];
      }
    });
    bucket_start_.assign(buckets + 1, 0);
    int64_t running = 0;
    for (int64_t b = 0; b < buckets; ++b) {
      bucket_start_[b] = running;
      for (int c = 0; c < chunks; ++c) {
        const int64_t here = offsets[c * buckets + b];
        offsets[c * buckets + b] = running;
        running += here;
      }
    }
    bucket_start_[buckets] = running;
    items_.reset(new Item[kept_]);  // left uninitialised: every slot is written below
    const Key remainder_mask = low_mask(shift_);
    parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
      auto [begin, end] = chunk_bounds(input.size, chunks, static_cast<int>(c));
      int64_t* local = offsets.data() + c * buckets;
      for (int64_t i = begin; i < end; ++i) {
        if (!input.kept(i)) continue;
        const Key key = ScoreKey<Score>::encode(input.score_at(i));
        Item& item = items_[local[bucket_of(key)]++];
        item.packed = static_cast<Key>(((key & remainder_mask) << 1) | (input.positive_at(i) ? 1 : 0));
        if constexpr (Weighted) item.weight = input.weight_at(i);
      }
    });
  }

  void sort_buckets(int n_threads) {
    const int64_t buckets = static_cast<int64_t>(bucket_start_.size()) - 1;
    std::vector<Run> runs;
    for (int64_t b = 0; b < buckets; ++b) {
      const int64_t count = bucket_start_[b + 1] - bucket_start_[b];
      if (count > 1) runs.push_back({bucket_start_[b], count});
    }
    sort_runs(items_.get(), std::move(runs), parallel_run, n_threads);
  }

  std::unique_ptr<Item[]> items_;
  std::vector<int64_t> bucket_start_;
  Key low_key_ = 0, high_key_ = 0, base_ = 0;
  int bucket_bits_ = 0, shift_ = 0;
  int64_t kept_ = 0, positives_ = 0;
};

}  // namespace turbometrics::ranking
