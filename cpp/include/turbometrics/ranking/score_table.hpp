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
// to the last bit. Unweighted totals are exact int64 counts. Blocks depend
// only on the data, never on the thread count, so every result is
// thread-count independent.
//
// A table with few distinct unweighted scores holds counted rows instead
// of sorted samples: one block of one row per distinct score.
//
// This header is the table and how it is read; score_table_builder.hpp
// builds it (sorted_scores()).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "turbometrics/buffer.hpp"
#include "turbometrics/ranking/radix_sort.hpp"
#include "turbometrics/score_keys.hpp"

namespace turbometrics::ranking {

// Strided views of the three inputs. Strides are in bytes. The scores are
// stored as `Stored` and read as `Score`, a type that holds every Stored
// value exactly (int32, uint32 and uint8 scores are tabled as int64, so
// that the table and every sweep over it are compiled for four score
// types instead of seven).
template <class Score, class Stored = Score>
struct RankingInput {
  static_assert(std::is_same_v<Score, Stored> ||
                    (std::is_integral_v<Stored> && std::is_same_v<Score, int64_t> && sizeof(Stored) <= 4),
                "scores are read as their own type, or as int64 when they are narrower integers");
  using StoredType = Stored;
  const char* score = nullptr;
  int64_t score_stride = 0;
  const char* is_positive = nullptr;  // one byte per sample, 0 or 1
  int64_t label_stride = 0;
  const char* weight = nullptr;  // float64, nullptr when unweighted
  int64_t weight_stride = 0;
  int64_t size = 0;

  Score score_at(int64_t i) const {
    return static_cast<Score>(*reinterpret_cast<const Stored*>(score + i * score_stride));
  }
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

// How unweighted tables are built: counting when the scores have at most
// `distinct_key_limit` distinct values (automatic), or always by sorting.
// Both give the same table; the choice is a parameter of sorted_scores()
// (score_table_builder.hpp) so that tests can run both.
enum class TableStrategy { automatic, always_sort };

// Which input values the table builder checks (a bit mask), for callers
// that leave scikit-learn's finiteness and all-zero-weight checks to it.
enum ValueChecks : int { check_nothing = 0, check_scores = 1, check_weights = 2 };

// Input values scikit-learn's validation rejects, found while the table is
// built: score and weight status 0 (finite), 1 (some NaN) or 2 (some
// infinity, no NaN), and whether every weight is zero.
struct ValueProblems {
  int scores = 0;
  int weights = 0;
  bool all_weights_zero = false;
  bool any() const { return scores != 0 || weights != 0 || all_weights_zero; }
};

// Memory of a table block that its last sweep may overwrite as it reads the
// block: `items` records of `item_bytes` each (none: nothing to overwrite).
struct SpentBlock {
  char* data = nullptr;
  int64_t item_bytes = 0;
  int64_t items = 0;
  // Doubles that fit over the first `records_read` records.
  int64_t doubles_over(int64_t records_read) const { return std::min(records_read, items) * item_bytes / 8; }
};

template <class Score, bool Weighted>
class ScoreTableBuilder;

template <class Score, bool Weighted>
class SortedScores {
 public:
  using ScoreType = Score;
  using Key = typename ScoreKey<Score>::Key;
  using Item = SortItem<Key, Weighted>;
  using Weight = RowWeight<Weighted>;
  using TableRow = Row<Score, Weight>;
  static constexpr int key_bits = 8 * sizeof(Key);

  SortedScores(SortedScores&&) noexcept = default;
  SortedScores& operator=(SortedScores&&) noexcept = default;

  int64_t size() const { return kept_; }
  // Input values scikit-learn rejects (then the table is empty).
  const ValueProblems& problems() const { return problems_; }
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
    if (counted_) {  // one block: the counted rows
      for (const CountedRow& row : counted_rows_) {
        visit(TableRow{score_of(row.key), static_cast<Weight>(row.positive), static_cast<Weight>(row.negative)});
      }
      return;
    }
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

  // Block b's sorted records, for the table's last sweep
  // (roc_auc_area_spending), which may overwrite each record once it has
  // read it; the table's rows are unusable after (its totals, entries and
  // first rows stay). Counted rows have none to give.
  SpentBlock spend_block(int64_t b) {
    if (counted_) return SpentBlock{};
    return SpentBlock{reinterpret_cast<char*>(items_.get() + blocks_[b].begin), static_cast<int64_t>(sizeof(Item)),
                      blocks_[b].count};
  }

  // The first and last rows of block b.
  TableRow first_row(int64_t b) const { return first_rows_[b]; }
  TableRow last_row(int64_t b) const {
    if (counted_) {
      const CountedRow& row = counted_rows_.back();
      return TableRow{score_of(row.key), static_cast<Weight>(row.positive), static_cast<Weight>(row.negative)};
    }
    const Run& block = blocks_[b];
    const Key remainder = items_[block.begin + block.count - 1].packed >> 1;
    return TableRow{score_of(high_bits(block.bucket) | remainder), entry_positive_[b + 1], entry_negative_[b + 1]};
  }

 private:
  static void accumulate(const Item& item, Weight& positive, Weight& negative) {
    const bool is_positive = item.packed & 1;
    if constexpr (Weighted) {
      // Branch-free (labels are unpredictable): the other class gains +0.0,
      // which leaves its sum unchanged (as in scikit-learn's cumsum of y * w
      // and (1 - y) * w). The weight is masked by its bits, since compilers
      // turn `is_positive ? weight : 0.0` into a branch.
      uint64_t bits;
      std::memcpy(&bits, &item.weight, sizeof bits);
      const uint64_t to_positive = uint64_t{0} - static_cast<uint64_t>(item.packed & 1);
      const uint64_t positive_bits = bits & to_positive, negative_bits = bits & ~to_positive;
      double positive_weight, negative_weight;
      std::memcpy(&positive_weight, &positive_bits, sizeof positive_weight);
      std::memcpy(&negative_weight, &negative_bits, sizeof negative_weight);
      positive += positive_weight;
      negative += negative_weight;
    } else {
      positive += is_positive;
      negative += !is_positive;
    }
  }

  static Key low_mask(int bits) { return bits >= key_bits ? ~Key{0} : static_cast<Key>((Key{1} << bits) - 1); }

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

  friend class ScoreTableBuilder<Score, Weighted>;
  SortedScores() = default;  // built by ScoreTableBuilder only

  // A row of a counted table: a key and the cumulative counts at it.
  struct CountedRow {
    Key key;
    int64_t positive;
    int64_t negative;
  };

  Buffer<Item> items_;
  std::vector<CountedRow> counted_rows_;
  bool counted_ = false;
  std::vector<Run> blocks_;
  std::vector<int64_t> entry_row_;
  std::vector<Weight> entry_positive_, entry_negative_;
  std::vector<TableRow> first_rows_;
  ValueProblems problems_;
  Key base_ = 0;
  int shift_ = 0;
  int64_t kept_ = 0;
  bool last_zero_negative_ = false;
};

}  // namespace turbometrics::ranking
