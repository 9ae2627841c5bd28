// The ranking primitive: the distinct scores in descending order with the
// cumulative positive and negative weight at each of them.
//
// `SortedScores` holds the samples sorted by descending score (a stable
// radix sort, so tied samples keep their input order), cut into blocks that
// never split a run of equal scores. Walking a block emits one row per
// distinct score: (score, positive weight at or above it, negative weight
// at or above it); the weight *at* a score is the difference between
// consecutive rows. Every sweep in sweeps.hpp is a pass over these rows,
// block by block in parallel, each block starting from its entry totals.
//
// Running totals are accumulated sample by sample in sorted order, the
// order of scikit-learn's cumulative sums, so weighted totals agree with it
// to the last bit; block entry totals are computed by that same sequential
// pass. Unweighted totals are exact int64 counts. Blocks depend only on the
// data, never on the thread count, so every result is thread-count
// independent.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "../buffer.hpp"
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

// One row of the table.
template <class Score, class Weight>
struct Row {
  Score score;
  Weight positive;
  Weight negative;
};

template <class Score, bool Weighted>
class SortedScores {
 public:
  using ScoreType = Score;
  using Key = typename ScoreKey<Score>::Key;
  using Item = SortItem<Key, Weighted>;
  using Weight = RowWeight<Weighted>;
  using TableRow = Row<Score, Weight>;
  static constexpr int key_bits = 8 * sizeof(Key);
  static constexpr int bucket_digit_bits = 11;
  static constexpr int64_t parallel_run = int64_t{1} << 20;

  SortedScores(const RankingInput<Score>& input, int n_threads) {
    const int chunks = std::max(1, n_threads) * 4;
    scan_key_range(input, chunks, n_threads);
    if (kept_ > 0) {
      plan_buckets();
      scatter_into_buckets(input, chunks, n_threads);
      blocks_ = sort_runs(items_.get(), bucket_runs(), parallel_run, n_threads);
    }
    index_blocks(n_threads);
  }

  int64_t size() const { return kept_; }
  int64_t row_count() const { return entry_row_.back(); }
  int64_t block_count() const { return static_cast<int64_t>(blocks_.size()); }
  // Totals of the last row (what scikit-learn's cumulative sums end at).
  Weight total_positive() const { return entry_positive_.back(); }
  Weight total_negative() const { return entry_negative_.back(); }

  // State before block b: the previous row's totals and the number of rows
  // before it. b == block_count() gives the final totals.
  Weight entry_positive(int64_t b) const { return entry_positive_[b]; }
  Weight entry_negative(int64_t b) const { return entry_negative_[b]; }
  int64_t entry_row(int64_t b) const { return entry_row_[b]; }

  // Calls visit(row) for each distinct score of block b, highest first.
  template <class Visit>
  void for_each_row_of_block(int64_t b, Visit&& visit) const {
    const Run& block = blocks_[b];
    const Item* item = items_.get() + block.begin;
    const Item* end = item + block.count;
    const Key high = high_bits(block.bucket);
    Weight positive = entry_positive_[b], negative = entry_negative_[b];
    while (item != end) {
      const Key remainder = item->packed >> 1;
      do {
        accumulate(*item, positive, negative);
        ++item;
      } while (item != end && (item->packed >> 1) == remainder);
      visit(TableRow{score_of(high | remainder), positive, negative});
    }
  }

  // The first and last rows of block b.
  TableRow first_row(int64_t b) const { return first_rows_[b]; }
  TableRow last_row(int64_t b) const {
    const Run& block = blocks_[b];
    const Key remainder = items_[block.begin + block.count - 1].packed >> 1;
    return TableRow{score_of(high_bits(block.bucket) | remainder), entry_positive_[b + 1], entry_negative_[b + 1]};
  }

 private:
  static void accumulate(const Item& item, Weight& positive, Weight& negative) {
    const bool is_positive = item.packed & 1;
    if constexpr (Weighted) {
      // Branch-free: the other class gains +0.0, which leaves its sum
      // unchanged (as in scikit-learn's cumsum of y * w and (1 - y) * w).
      positive += is_positive ? item.weight : 0.0;
      negative += is_positive ? 0.0 : item.weight;
    } else {
      positive += is_positive;
      negative += !is_positive;
    }
  }

  static Key low_mask(int bits) {
    return bits >= key_bits ? ~Key{0} : static_cast<Key>((Key{1} << bits) - 1);
  }

  Key high_bits(int64_t bucket) const { return base_ | (static_cast<Key>(bucket) << shift_); }

  // The score a row reports. -0.0 and 0.0 share a key; like scikit-learn,
  // which reports the last tied sample in input order, the zero row carries
  // the sign of the last zero in the input.
  Score score_of(Key key) const {
    if constexpr (std::is_floating_point_v<Score>) {
      if (last_zero_negative_ && key == ScoreKey<Score>::encode(Score{0})) return -Score{0};
    }
    return ScoreKey<Score>::decode(key);
  }

  void scan_key_range(const RankingInput<Score>& input, int chunks, int n_threads) {
    std::vector<Key> lows(chunks, std::numeric_limits<Key>::max());
    std::vector<Key> highs(chunks, 0);
    std::vector<int64_t> kept(chunks, 0);
    std::vector<int> last_zero_sign(chunks, -1);  // -1: no zero in the chunk
    parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
      auto [begin, end] = chunk_bounds(input.size, chunks, static_cast<int>(c));
      Key low = std::numeric_limits<Key>::max(), high = 0;
      int64_t count = 0;
      int zero_sign = -1;
      for (int64_t i = begin; i < end; ++i) {
        if (!input.kept(i)) continue;
        const Score score = input.score_at(i);
        const Key key = ScoreKey<Score>::encode(score);
        low = std::min(low, key);
        high = std::max(high, key);
        ++count;
        if constexpr (std::is_floating_point_v<Score>) {
          if (score == Score{0}) zero_sign = std::signbit(score) ? 1 : 0;
        }
      }
      lows[c] = low;
      highs[c] = high;
      kept[c] = count;
      last_zero_sign[c] = zero_sign;
    });
    low_key_ = *std::min_element(lows.begin(), lows.end());
    high_key_ = *std::max_element(highs.begin(), highs.end());
    for (int c = 0; c < chunks; ++c) {
      kept_ += kept[c];
      if (last_zero_sign[c] >= 0) last_zero_negative_ = last_zero_sign[c] == 1;
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
    items_ = make_buffer<Item>(kept_);  // left uninitialised: every slot is written below
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

  std::vector<Run> bucket_runs() const {
    std::vector<Run> runs;
    const int64_t buckets = static_cast<int64_t>(bucket_start_.size()) - 1;
    for (int64_t b = 0; b < buckets; ++b) {
      const int64_t count = bucket_start_[b + 1] - bucket_start_[b];
      if (count > 0) runs.push_back({bucket_start_[b], count, b});
    }
    return runs;
  }

  // Per block: its row count, first row and entry totals. Counts come from
  // a parallel pass; weighted entry totals from one sequential pass.
  void index_blocks(int n_threads) {
    const int64_t blocks = block_count();
    std::vector<int64_t> rows(blocks, 0);
    std::vector<Weight> positives(blocks, 0), negatives(blocks, 0);
    first_rows_.resize(blocks);
    parallel_for_dynamic(blocks, n_threads, [&](int64_t b) {
      const Run& block = blocks_[b];
      const Item* item = items_.get() + block.begin;
      int64_t distinct = 1, positive = 0;
      for (int64_t i = 0; i < block.count; ++i) {
        positive += item[i].packed & 1;
        if (i > 0) distinct += (item[i].packed >> 1) != (item[i - 1].packed >> 1);
      }
      rows[b] = distinct;
      if constexpr (!Weighted) {
        positives[b] = positive;
        negatives[b] = block.count - positive;
      }
    });
    entry_row_.assign(blocks + 1, 0);
    entry_positive_.assign(blocks + 1, 0);
    entry_negative_.assign(blocks + 1, 0);
    for (int64_t b = 0; b < blocks; ++b) {
      entry_row_[b + 1] = entry_row_[b] + rows[b];
      if constexpr (!Weighted) {
        entry_positive_[b + 1] = entry_positive_[b] + positives[b];
        entry_negative_[b + 1] = entry_negative_[b] + negatives[b];
      } else {
        Weight positive = entry_positive_[b], negative = entry_negative_[b];
        const Item* item = items_.get() + blocks_[b].begin;
        for (int64_t i = 0; i < blocks_[b].count; ++i) accumulate(item[i], positive, negative);
        entry_positive_[b + 1] = positive;
        entry_negative_[b + 1] = negative;
      }
    }
    parallel_for_dynamic(blocks, n_threads, [&](int64_t b) { first_rows_[b] = compute_first_row(b); });
  }

  TableRow compute_first_row(int64_t b) const {
    const Run& block = blocks_[b];
    const Item* item = items_.get() + block.begin;
    const Item* end = item + block.count;
    const Key remainder = item->packed >> 1;
    Weight positive = entry_positive_[b], negative = entry_negative_[b];
    do {
      accumulate(*item, positive, negative);
      ++item;
    } while (item != end && (item->packed >> 1) == remainder);
    return TableRow{score_of(high_bits(block.bucket) | remainder), positive, negative};
  }

  Buffer<Item> items_;
  std::vector<int64_t> bucket_start_;
  std::vector<Run> blocks_;
  std::vector<int64_t> entry_row_;
  std::vector<Weight> entry_positive_, entry_negative_;
  std::vector<TableRow> first_rows_;
  Key low_key_ = 0, high_key_ = 0, base_ = 0;
  int bucket_bits_ = 0, shift_ = 0;
  int64_t kept_ = 0;
  bool last_zero_negative_ = false;
};

}  // namespace turbometrics::ranking
