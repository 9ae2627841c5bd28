// Builds the ranking primitive (score_table.hpp's SortedScores) from the
// input, in passes over it:
//
// 1. a scan for the kept samples' key range, the value checks and the sign
//    of the last zero; on large input it also counts the samples per
//    bucket, planned from a sample of the keys; unweighted input with few
//    distinct scores is counted in per-thread hash tables instead, and
//    then the table is those counted rows;
// 2. a scatter of the kept samples into buckets on their highest varying
//    key bits (one counting pass first, when the planned buckets did not
//    hold);
// 3. a stable sort of each bucket (long buckets split into blocks that
//    never cut a run of equal scores), each block indexed by the thread
//    that sorted it: its rows, first row and entry totals. Weighted entry
//    totals are one sequential pass in block order, the order of
//    scikit-learn's cumulative sums.
//
// Counted rows are exact integers, so the table is the same either way.
// Weighted totals must be summed in sorted sample order, so weighted input
// is always sorted. Blocks depend only on the data, never on the thread
// count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "turbometrics/buffer.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/ranking/radix_sort.hpp"
#include "turbometrics/ranking/score_table.hpp"
#include "turbometrics/score_keys.hpp"

namespace turbometrics::ranking {

// Per-score sample and positive counts of unweighted input, in an
// open-addressing hash table keyed by the scores' bit patterns (-0.0 counted
// as 0.0). It gives up once it has seen more than `limit` distinct scores.
template <class Score>
class DistinctScoreCounts {
 public:
  using Bits =
      std::conditional_t<sizeof(Score) == 8, uint64_t, std::conditional_t<sizeof(Score) == 4, uint32_t, uint8_t>>;
  struct Slot {
    Bits bits;
    int64_t total;  // 0: empty
    int64_t positive;
  };

  DistinctScoreCounts(int64_t limit, int64_t samples) : limit_(limit) {
    const int64_t wanted = 2 * std::max<int64_t>(1, std::min(limit, samples));
    while ((int64_t{1} << bits_) < wanted) ++bits_;
    slots_.assign(size_t{1} << bits_, Slot{Bits{0}, 0, 0});
  }

  // Counts samples [begin, end) of `input`, noting in `last_zero` the index
  // of the last zero score. Returns end, or, when the sample at i takes the
  // table past `limit` distinct scores, i + 1 (the table is then incomplete).
  template <class Input>
  int64_t count(const Input& input, int64_t begin, int64_t end, int64_t& last_zero) {
    static_assert(std::is_same_v<typename Input::StoredType, Score>, "counted by the stored values' bits");
    Slot* const slots = slots_.data();
    const uint64_t mask = (uint64_t{1} << bits_) - 1;
    const int shift = 64 - bits_;
    int64_t distinct = distinct_;
    const char* score = input.score + begin * input.score_stride;
    const char* label = input.is_positive + begin * input.label_stride;
    for (int64_t i = begin; i < end; ++i, score += input.score_stride, label += input.label_stride) {
      Bits bits;
      std::memcpy(&bits, score, sizeof bits);
      if constexpr (std::is_floating_point_v<Score>) {
        if (static_cast<Bits>(bits << 1) == 0) {  // +0.0 or -0.0
          last_zero = i;
          bits = 0;
        }
      }
      const int64_t positive = *label != 0;
      uint64_t h = (static_cast<uint64_t>(bits) * 0x9E3779B97F4A7C15ULL) >> shift;
      for (;;) {
        Slot& slot = slots[h];
        // An empty slot holding bits 0 matches score 0 and becomes its slot.
        if (slot.bits == bits) {
          ++slot.total;
          slot.positive += positive;
          break;
        }
        if (slot.total == 0) {
          slot = Slot{bits, 1, positive};
          if (++distinct > limit_) {
            distinct_ = distinct;
            return i + 1;
          }
          break;
        }
        h = (h + 1) & mask;
      }
    }
    distinct_ = distinct;
    return end;
  }

  static Score score_of(Bits bits) {
    Score score;
    std::memcpy(&score, &bits, sizeof score);
    return score;
  }

  const std::vector<Slot>& slots() const { return slots_; }

 private:
  int64_t limit_;
  int64_t distinct_ = 0;
  int bits_ = 4;
  std::vector<Slot> slots_;
};

template <class Score, bool Weighted>
class ScoreTableBuilder {
 public:
  using Table = SortedScores<Score, Weighted>;
  using Key = typename Table::Key;
  using Item = typename Table::Item;
  using Weight = typename Table::Weight;
  using TableRow = typename Table::TableRow;
  using CountedRow = typename Table::CountedRow;
  static constexpr int key_bits = Table::key_bits;
  static constexpr int bucket_digit_bits = 11;
  // Counting buckets in the first pass, planned from a sample: the input
  // sizes it is used from, the sample size, and the extra key bits allowed
  // beyond the sample's range, for which the counted digit is that much
  // wider than bucket_digit_bits; the buckets themselves are those of the
  // exact plan, whose counts are sums of the finer ones.
  static constexpr int64_t sample_planning_from = int64_t{1} << 16;
  static constexpr int64_t planning_sample = 4096;
  static constexpr int sampled_headroom_bits = 2;
  static constexpr int sampled_digit_bits = bucket_digit_bits + sampled_headroom_bits;
  static constexpr int64_t parallel_run = int64_t{1} << 20;
  // Unweighted input with at most this many distinct scores is counted.
  static constexpr int64_t distinct_key_limit = 4096;
  static constexpr uint64_t exponent_mask = 0x7FF0000000000000ULL;  // of a float64

  // The table of `input`; see sorted_scores().
  template <class Stored>
  static Table table_of(const RankingInput<Score, Stored>& input, int n_threads, int checks, const Interrupt& interrupt,
                        TableStrategy strategy) {
    Table table;
    ScoreTableBuilder(table).build(input, n_threads, checks, interrupt, strategy);
    return table;
  }

 private:
  explicit ScoreTableBuilder(Table& table) : t_(table) {}

  // `checks` (ValueChecks) selects the value checks; when one fails the
  // table is left empty and problems() says why. Once `interrupt` is
  // requested the construction stops between passes (or sorted runs) and
  // the table must not be used. `strategy` chooses how unweighted input is
  // tabled (the same table either way).
  template <class Stored>
  void build(const RankingInput<Score, Stored>& input, int n_threads, int checks, const Interrupt& interrupt,
             TableStrategy strategy) {
    const int chunks = std::max(1, n_threads) * 4;
    const bool try_counting = !Weighted && strategy == TableStrategy::automatic;
    // Large input: buckets planned from a sample, so that the first pass
    // also counts the samples per bucket (kept if the sample's key range
    // held, else the buckets are planned again and counted in a pass of
    // their own).
    const bool planned = input.size >= sample_planning_from && plan_buckets_from_sample(input);
    std::vector<int64_t> counts = scan_key_range(input, chunks, n_threads, try_counting, checks, planned, interrupt);
    if (interrupt.requested()) return;
    if (t_.problems_.any()) {  // the caller reports them; the table stays empty
      t_.counted_ = false;
      t_.kept_ = 0;
      sort_and_index_blocks(n_threads);
      return;
    }
    if (t_.counted_) {
      index_counted_rows();
      return;
    }
    if (t_.kept_ > 0) {
      const int fine_shift = t_.shift_, fine_bits = bucket_bits_;
      plan_buckets(low_key_, high_key_, bucket_digit_bits);
      if (!counts.empty() && t_.shift_ >= fine_shift && t_.shift_ + bucket_bits_ <= fine_shift + fine_bits) {
        counts = coarsen(counts, chunks, fine_shift, fine_bits);
      } else {
        counts = count_buckets(input, chunks, n_threads, interrupt);
      }
      if (interrupt.requested()) return;
      scatter_into_buckets(input, chunks, n_threads, std::move(counts), interrupt);
      if (interrupt.requested()) return;
      t_.blocks_ = split_long_runs(t_.items_.get(), bucket_runs(), parallel_run, n_threads, interrupt);
      if (interrupt.requested()) return;
    }
    sort_and_index_blocks(n_threads, interrupt);
  }

  template <class Stored>
  using Counts = DistinctScoreCounts<Stored>;
  static constexpr Key no_low = std::numeric_limits<Key>::max();

  // What the first pass finds, per chunk of the input.
  struct ChunkScan {
    ChunkScan(int chunks, int64_t buckets_per_chunk)
        : lows(chunks, no_low),
          highs(chunks, 0),
          all_lows(chunks, no_low),
          all_highs(chunks, 0),
          bad_weight(chunks, 0),
          kept(chunks, 0),
          last_zero(chunks, -1),
          buckets(buckets_per_chunk),
          bucket_counts(static_cast<size_t>(chunks) * buckets_per_chunk, 0),
          outside(chunks, 0) {}
    std::vector<Key> lows, highs;
    // Weighted: the key range of all samples (zero weights included), which
    // the value check of the scores reads, and non-finite weights.
    std::vector<Key> all_lows, all_highs;
    std::vector<char> bad_weight;
    std::vector<int64_t> kept;
    std::vector<int64_t> last_zero;  // -1: no zero in the chunk
    // Planned buckets: per-chunk counts, and key bits outside the plan.
    int64_t buckets;
    std::vector<int64_t> bucket_counts;
    std::vector<Key> outside;
    Key reference = 0, outside_mask = 0, bucket_mask = 0;
    int shift = 0;
  };

  // One pass over the input: the key range of the kept samples, their
  // number, the sign of the last zero and the value checks; with
  // `planned`, also the samples per bucket of each chunk, returned (empty
  // when not planned or when a key fell outside the planned range); with
  // `try_counting`, the per-score counts instead while there are few
  // distinct scores (count_chunks).
  template <class Stored>
  std::vector<int64_t> scan_key_range(const RankingInput<Score, Stored>& input, int chunks, int n_threads,
                                      bool try_counting, int checks, bool planned, const Interrupt& interrupt) {
    ChunkScan scan(chunks, planned ? int64_t{1} << bucket_bits_ : 0);
    scan.outside_mask = planned ? static_cast<Key>(~Table::low_mask(t_.shift_ + bucket_bits_)) : Key{0};
    scan.reference = t_.base_;
    scan.shift = t_.shift_;
    scan.bucket_mask = Table::low_mask(bucket_bits_);
    std::vector<std::unique_ptr<Counts<Stored>>> tables;
    const bool counted_all = count_chunks(input, scan, chunks, n_threads, try_counting, planned, tables, interrupt);
    if (interrupt.requested()) return {};  // the scan is incomplete
    for (int c = 0; c < chunks; ++c) {
      t_.kept_ += scan.kept[c];
      if constexpr (std::is_floating_point_v<Score>) {
        if (scan.last_zero[c] >= 0) t_.last_zero_negative_ = std::signbit(input.score_at(scan.last_zero[c]));
      }
    }
    if (counted_all) merge_counted_tables(tables, scan);
    low_key_ = *std::min_element(scan.lows.begin(), scan.lows.end());
    high_key_ = *std::max_element(scan.highs.begin(), scan.highs.end());
    check_values(input, checks, scan);
    const bool plan_held = std::all_of(scan.outside.begin(), scan.outside.end(), [](Key bits) { return bits == 0; });
    if (!planned || t_.counted_ || !plan_held) scan.bucket_counts.clear();
    return std::move(scan.bucket_counts);
  }

  // The plain scan of samples [begin, end) of chunk c into `scan`. (The
  // loop reads only locals: stores to the int64 histogram could alias the
  // unsigned keys.)
  template <class Stored>
  static void scan_samples(const RankingInput<Score, Stored>& input, ChunkScan& scan, int c, int64_t begin, int64_t end,
                           bool planned) {
    const Key reference_bits = scan.reference, outside_bits = scan.outside_mask, digit_mask = scan.bucket_mask;
    const int digit_shift = scan.shift;
    const RankingInput<Score, Stored> in = input;
    Key low = no_low, high = 0, all_low = no_low, all_high = 0, off_plan = 0;
    int64_t count = 0;
    int64_t zero = scan.last_zero[c];
    uint64_t weight_exponents = 0;  // non-zero once a weight is inf or NaN
    int64_t* const histogram = scan.bucket_counts.data() + c * scan.buckets;
    for (int64_t i = begin; i < end; ++i) {
      const Score score = in.score_at(i);
      const Key key = ScoreKey<Score>::encode(score);
      if constexpr (Weighted) {
        all_low = std::min(all_low, key);
        all_high = std::max(all_high, key);
        const double weight = in.weight_at(i);
        uint64_t bits;
        std::memcpy(&bits, &weight, sizeof bits);
        weight_exponents |= static_cast<uint64_t>((~bits & exponent_mask) == 0);
        if (weight == 0.0) continue;
      }
      low = std::min(low, key);
      high = std::max(high, key);
      ++count;
      if (planned) {
        off_plan |= (key ^ reference_bits) & outside_bits;
        ++histogram[(key >> digit_shift) & digit_mask];
      }
      if constexpr (std::is_floating_point_v<Score>) {
        if (score == Score{0}) zero = i;
      }
    }
    scan.lows[c] = std::min(scan.lows[c], low);
    scan.highs[c] = std::max(scan.highs[c], high);
    scan.all_lows[c] = std::min(scan.all_lows[c], all_low);
    scan.all_highs[c] = std::max(scan.all_highs[c], all_high);
    scan.bad_weight[c] |= weight_exponents != 0;
    scan.outside[c] |= off_plan;
    scan.kept[c] += count;
    scan.last_zero[c] = zero;
  }

  // scan_samples in stretches, until `interrupt` is requested.
  template <class Stored>
  static void scan_stretches(const RankingInput<Score, Stored>& input, ChunkScan& scan, int c, int64_t begin,
                             int64_t end, bool planned, const Interrupt& interrupt) {
    for_each_stretch(begin, end, interrupt,
                     [&](int64_t from, int64_t to) { scan_samples(input, scan, c, from, to, planned); });
  }

  // Chunk c scanned from its start (again).
  template <class Stored>
  static void rescan_chunk(const RankingInput<Score, Stored>& input, ChunkScan& scan, int chunks, int c, bool planned,
                           const Interrupt& interrupt) {
    auto [begin, end] = chunk_bounds(input.size, chunks, c);
    scan.last_zero[c] = -1;
    scan_stretches(input, scan, c, begin, end, planned, interrupt);
  }

  // The first pass over the chunks. With `try_counting`, each thread counts
  // its chunks in its own hash table (left in `tables`); the first table to
  // overflow stops all counting, and every sample a table had counted is
  // scanned again. Returns whether every sample was counted.
  template <class Stored>
  static bool count_chunks(const RankingInput<Score, Stored>& input, ChunkScan& scan, int chunks, int n_threads,
                           bool try_counting, bool planned, std::vector<std::unique_ptr<Counts<Stored>>>& tables,
                           const Interrupt& interrupt) {
    const int threads = std::max(1, n_threads);
    tables.clear();
    tables.resize(threads);
    std::vector<std::vector<int>> counted_chunks(threads);  // chunks each table counted whole
    std::atomic<bool> overflowed{!try_counting};
    std::atomic<int> next_chunk{0};
    parallel_region(threads, [&](int thread, int) {
      std::unique_ptr<Counts<Stored>> table;
      if (!overflowed.load(std::memory_order_relaxed)) {
        table = std::make_unique<Counts<Stored>>(distinct_key_limit, input.size);
      }
      // Gives up counting: what the table counted is scanned again.
      auto stop_counting = [&](int c, int64_t begin, int64_t counted_to) {
        table.reset();
        for (int whole : counted_chunks[thread]) rescan_chunk(input, scan, chunks, whole, planned, interrupt);
        counted_chunks[thread].clear();
        scan.last_zero[c] = -1;
        scan_stretches(input, scan, c, begin, counted_to, planned, interrupt);
      };
      for (int c = next_chunk++; c < chunks; c = next_chunk++) {
        auto [begin, end] = chunk_bounds(input.size, chunks, c);
        int64_t i = begin;
        constexpr int64_t stretch = 1 << 14;  // samples between checks of the shared flag
        while (table && i < end) {
          if (interrupt.requested()) return;
          if (overflowed.load(std::memory_order_relaxed)) {
            stop_counting(c, begin, i);
            break;
          }
          const int64_t stop = std::min(end, i + stretch);
          const int64_t reached = table->count(input, i, stop, scan.last_zero[c]);
          if (reached != stop) {
            overflowed.store(true, std::memory_order_relaxed);
            stop_counting(c, begin, reached);
          }
          i = reached;
        }
        if (table) {
          counted_chunks[thread].push_back(c);
        } else {
          scan_stretches(input, scan, c, i, end, planned, interrupt);
        }
      }
      tables[thread] = std::move(table);
    });
    if (!overflowed.load()) return true;
    // Tables that counted all their chunks before the overflow was seen.
    std::vector<int> rest;
    for (int t = 0; t < threads; ++t) {
      if (tables[t]) rest.insert(rest.end(), counted_chunks[t].begin(), counted_chunks[t].end());
      tables[t].reset();
    }
    parallel_for_dynamic(static_cast<int64_t>(rest.size()), n_threads,
                         [&](int64_t r) { rescan_chunk(input, scan, chunks, rest[r], planned, interrupt); });
    return false;
  }

  // Every sample was counted: the threads' tables merged into the counted
  // rows, keys ascending (scores descending), with cumulative counts.
  template <class Stored>
  void merge_counted_tables(const std::vector<std::unique_ptr<Counts<Stored>>>& tables, ChunkScan& scan) {
    std::vector<CountedRow> merged;
    for (const auto& table : tables) {
      if (!table) continue;
      for (const auto& slot : table->slots()) {
        if (slot.total == 0) continue;
        const Key key = ScoreKey<Score>::encode(static_cast<Score>(Counts<Stored>::score_of(slot.bits)));
        merged.push_back(CountedRow{key, slot.positive, slot.total - slot.positive});
        t_.kept_ += slot.total;
      }
    }
    std::sort(merged.begin(), merged.end(), [](const CountedRow& a, const CountedRow& b) { return a.key < b.key; });
    int64_t positive = 0, negative = 0;
    for (size_t r = 0; r < merged.size(); ++r) {
      positive += merged[r].positive;
      negative += merged[r].negative;
      if (r + 1 < merged.size() && merged[r + 1].key == merged[r].key) continue;
      t_.counted_rows_.push_back(CountedRow{merged[r].key, positive, negative});
    }
    if (!t_.counted_rows_.empty()) {
      scan.lows[0] = std::min(scan.lows[0], t_.counted_rows_.front().key);
      scan.highs[0] = std::max(scan.highs[0], t_.counted_rows_.back().key);
    }
    t_.counted_ = t_.kept_ > 0;
  }

  // The value checks `checks` asks for, into t_.problems_. A score is inf or
  // NaN exactly when its key is at or beyond the key of +inf or of -inf.
  template <class Stored>
  void check_values(const RankingInput<Score, Stored>& input, int checks, const ChunkScan& scan) {
    Key all_low = low_key_, all_high = high_key_;
    if constexpr (Weighted) {
      all_low = *std::min_element(scan.all_lows.begin(), scan.all_lows.end());
      all_high = *std::max_element(scan.all_highs.begin(), scan.all_highs.end());
    }
    if constexpr (std::is_floating_point_v<Score>) {
      constexpr Score infinity = std::numeric_limits<Score>::infinity();
      if ((checks & check_scores) && input.size > 0 &&
          (all_low <= ScoreKey<Score>::encode(infinity) || all_high >= ScoreKey<Score>::encode(-infinity))) {
        t_.problems_.scores =
            nonfinite_status([&](int64_t i) { return static_cast<double>(input.score_at(i)); }, input.size);
      }
    }
    if constexpr (Weighted) {
      if (checks & check_weights) {
        if (std::any_of(scan.bad_weight.begin(), scan.bad_weight.end(), [](char bad) { return bad != 0; })) {
          t_.problems_.weights = nonfinite_status([&](int64_t i) { return input.weight_at(i); }, input.size);
        }
        t_.problems_.all_weights_zero = input.size > 0 && t_.kept_ == 0;
      }
    }
  }

  // 1 if some value is NaN, else 2 (some value is infinite), as
  // scikit-learn's finiteness check reports it; only called on the error
  // path.
  template <class At>
  static int nonfinite_status(At at, int64_t size) {
    for (int64_t i = 0; i < size; ++i) {
      if (std::isnan(at(i))) return 1;
    }
    return 2;
  }

  template <class Stored>
  static bool kept_sample(const RankingInput<Score, Stored>& input, int64_t i) {
    if constexpr (Weighted) {
      return input.kept(i);
    } else {
      return true;
    }
  }

  // Buckets split on the highest `digit_bits` bits in which keys from
  // `low` to `high` differ; the bits below them, shifted left by one, leave
  // room for the label bit.
  void plan_buckets(Key low, Key high, int digit_bits) {
    const int varying = bit_width(static_cast<Key>(low ^ high));
    bucket_bits_ = std::min(digit_bits, varying);
    t_.shift_ = varying - bucket_bits_;
    t_.base_ = low & ~Table::low_mask(varying);
  }

  // Plans buckets from the key range of an evenly spread sample of the kept
  // samples, widened by sampled_headroom_bits; false when the sample holds
  // no kept sample.
  template <class Stored>
  bool plan_buckets_from_sample(const RankingInput<Score, Stored>& input) {
    Key low = std::numeric_limits<Key>::max(), high = 0;
    bool any = false;
    for (int64_t k = 0; k < planning_sample; ++k) {
      const int64_t i = k * input.size / planning_sample;
      if (!kept_sample(input, i)) continue;
      const Key key = ScoreKey<Score>::encode(input.score_at(i));
      low = std::min(low, key);
      high = std::max(high, key);
      any = true;
    }
    if (!any) return false;
    const int varying = std::min(key_bits, bit_width(static_cast<Key>(low ^ high)) + sampled_headroom_bits);
    bucket_bits_ = std::min(sampled_digit_bits, varying);
    t_.shift_ = varying - bucket_bits_;
    t_.base_ = low & ~Table::low_mask(varying);
    return true;
  }

  // Per-chunk counts of the planned buckets from counts of a finer digit
  // (bits [fine_shift, fine_shift + fine_bits) of the key, which hold the
  // planned digit).
  std::vector<int64_t> coarsen(const std::vector<int64_t>& fine, int chunks, int fine_shift, int fine_bits) const {
    const int64_t fine_buckets = int64_t{1} << fine_bits, buckets = int64_t{1} << bucket_bits_;
    const int down = t_.shift_ - fine_shift;
    std::vector<int64_t> counts(static_cast<size_t>(chunks) * buckets, 0);
    for (int c = 0; c < chunks; ++c) {
      for (int64_t f = 0; f < fine_buckets; ++f) {
        counts[c * buckets + ((f >> down) & (buckets - 1))] += fine[c * fine_buckets + f];
      }
    }
    return counts;
  }

  // Kept samples per bucket, per chunk (chunk-major).
  template <class Stored>
  std::vector<int64_t> count_buckets(const RankingInput<Score, Stored>& input, int chunks, int n_threads,
                                     const Interrupt& interrupt) const {
    const int64_t buckets = int64_t{1} << bucket_bits_;
    const int shift = t_.shift_;
    const Key bucket_mask = Table::low_mask(bucket_bits_);
    std::vector<int64_t> counts(static_cast<size_t>(chunks) * buckets, 0);
    parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
      auto [begin, end] = chunk_bounds(input.size, chunks, static_cast<int>(c));
      int64_t* local = counts.data() + c * buckets;
      for_each_stretch(begin, end, interrupt, [&](int64_t from, int64_t to) {
        for (int64_t i = from; i < to; ++i) {
          if (kept_sample(input, i)) ++local[(ScoreKey<Score>::encode(input.score_at(i)) >> shift) & bucket_mask];
        }
      });
    });
    return counts;
  }

  // Scatters the kept samples into their buckets, given the samples per
  // bucket of each chunk (which become the chunks' write offsets).
  template <class Stored>
  void scatter_into_buckets(const RankingInput<Score, Stored>& input, int chunks, int n_threads,
                            std::vector<int64_t> offsets, const Interrupt& interrupt) {
    const int64_t buckets = int64_t{1} << bucket_bits_;
    // Bucket of a key: its bucket digit (locals, so that loops keep them in
    // registers).
    const int shift = t_.shift_;
    const Key bucket_mask = Table::low_mask(bucket_bits_);
    auto bucket_of = [shift, bucket_mask](Key key) { return static_cast<int64_t>((key >> shift) & bucket_mask); };
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
    t_.items_ = make_buffer<Item>(t_.kept_);  // left uninitialised: every slot is written below
    prefault_huge_pages(t_.items_.get(), sizeof(Item) * static_cast<size_t>(t_.kept_), n_threads, interrupt);
    const Key remainder_mask = Table::low_mask(t_.shift_);
    Item* const items = t_.items_.get();
    parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
      auto [begin, end] = chunk_bounds(input.size, chunks, static_cast<int>(c));
      int64_t* local = offsets.data() + c * buckets;
      for_each_stretch(begin, end, interrupt, [&](int64_t from, int64_t to) {
        for (int64_t i = from; i < to; ++i) {
          if (!kept_sample(input, i)) continue;
          const Key key = ScoreKey<Score>::encode(input.score_at(i));
          Item& item = items[local[bucket_of(key)]++];
          item.packed = static_cast<Key>(((key & remainder_mask) << 1) | (input.positive_at(i) ? 1 : 0));
          if constexpr (Weighted) item.weight = input.weight_at(i);
        }
      });
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

  // What the thread that sorted a block counts in it: its distinct scores,
  // and (unweighted) its positives and the samples and positives of its
  // first row.
  struct BlockCounts {
    int64_t rows = 0, positive = 0, first = 0, first_positive = 0;
  };

  BlockCounts count_block(int64_t b) const {
    const Run& block = t_.blocks_[b];
    const Item* item = t_.items_.get() + block.begin;
    BlockCounts counts;
    int64_t distinct = 1, positive = item[0].packed & 1;
    for (int64_t i = 1; i < block.count; ++i) {
      positive += item[i].packed & 1;
      distinct += (item[i].packed >> 1) != (item[i - 1].packed >> 1);
    }
    counts.rows = distinct;
    if constexpr (!Weighted) {
      int64_t first = 1, first_positives = item[0].packed & 1;
      while (first < block.count && (item[first].packed >> 1) == (item[0].packed >> 1)) {
        first_positives += item[first].packed & 1;
        ++first;
      }
      counts.positive = positive;
      counts.first = first;
      counts.first_positive = first_positives;
    }
    return counts;
  }

  // The sequential pass over block b (weighted): its first row and the
  // entry totals of block b + 1.
  void sum_block(int64_t b) {
    const Run& block = t_.blocks_[b];
    const Item* item = t_.items_.get() + block.begin;
    Weight positive = t_.entry_positive_[b], negative = t_.entry_negative_[b];
    const Key first = item[0].packed >> 1;
    int64_t i = 0;
    for (; i < block.count && (item[i].packed >> 1) == first; ++i) Table::accumulate(item[i], positive, negative);
    t_.first_rows_[b] = TableRow{t_.score_of(t_.high_bits(block.bucket) | first), positive, negative};
    for (; i < block.count; ++i) Table::accumulate(item[i], positive, negative);
    t_.entry_positive_[b + 1] = positive;
    t_.entry_negative_[b + 1] = negative;
  }

  // Sorts the blocks and indexes them: per block its row count, first row
  // and entry totals. Each block is counted by the thread that sorted it,
  // right after sorting (while it is in cache). Weighted entry totals are
  // one sequential pass over the samples in block order; it runs while the
  // blocks are being sorted, advanced over each block as soon as the block
  // and all blocks before it are sorted, by whichever thread finds it so.
  void sort_and_index_blocks(int n_threads, const Interrupt& interrupt = Interrupt::never()) {
    const int64_t blocks = t_.block_count();
    std::vector<BlockCounts> counts(blocks);
    t_.entry_row_.assign(blocks + 1, 0);
    t_.entry_positive_.assign(blocks + 1, 0);
    t_.entry_negative_.assign(blocks + 1, 0);
    t_.first_rows_.resize(blocks);
    std::unique_ptr<std::atomic<bool>[]> sorted(new std::atomic<bool>[std::max<int64_t>(blocks, 1)]);
    for (int64_t b = 0; b < blocks; ++b) sorted[b].store(false, std::memory_order_relaxed);
    std::atomic<bool> advancing{false};
    int64_t frontier = 0;  // blocks with entry totals; owned by the thread holding `advancing`
    auto advance = [&] {
      for (;;) {
        if (advancing.exchange(true)) return;  // another thread is advancing
        while (frontier < blocks && sorted[frontier].load()) sum_block(frontier++);
        const int64_t reached = frontier;
        advancing.store(false);
        // A block sorted while this thread held `advancing` is taken here.
        if (reached >= blocks || !sorted[reached].load()) return;
      }
    };
    sort_each_run(t_.items_.get(), t_.blocks_, parallel_run, n_threads, interrupt, [&](int64_t b) {
      counts[b] = count_block(b);
      if constexpr (Weighted) {
        sorted[b].store(true);
        advance();
      }
    });
    if constexpr (Weighted) {
      while (frontier < blocks) sum_block(frontier++);  // all sorted: finish serially
    }
    index_entries(counts);
  }

  // Entry rows (and, unweighted, entry totals and first rows) from the
  // blocks' counts.
  void index_entries(const std::vector<BlockCounts>& counts) {
    const Item* const items = t_.items_.get();
    for (int64_t b = 0; b < t_.block_count(); ++b) {
      t_.entry_row_[b + 1] = t_.entry_row_[b] + counts[b].rows;
      if constexpr (!Weighted) {
        const BlockCounts& c = counts[b];
        t_.entry_positive_[b + 1] = t_.entry_positive_[b] + c.positive;
        t_.entry_negative_[b + 1] = t_.entry_negative_[b] + (t_.blocks_[b].count - c.positive);
        const Run& block = t_.blocks_[b];
        t_.first_rows_[b] =
            TableRow{t_.score_of(t_.high_bits(block.bucket) | (items[block.begin].packed >> 1)),
                     t_.entry_positive_[b] + c.first_positive, t_.entry_negative_[b] + (c.first - c.first_positive)};
      }
    }
  }

  // The counted table is one block of t_.counted_rows_.size() rows.
  void index_counted_rows() {
    const CountedRow& first = t_.counted_rows_.front();
    const CountedRow& last = t_.counted_rows_.back();
    t_.blocks_.assign(1, Run{0, t_.kept_, 0});
    t_.entry_row_ = {0, static_cast<int64_t>(t_.counted_rows_.size())};
    t_.entry_positive_ = {0, static_cast<Weight>(last.positive)};
    t_.entry_negative_ = {0, static_cast<Weight>(last.negative)};
    t_.first_rows_.assign(
        1, TableRow{t_.score_of(first.key), static_cast<Weight>(first.positive), static_cast<Weight>(first.negative)});
  }

  Table& t_;
  std::vector<int64_t> bucket_start_;
  Key low_key_ = 0, high_key_ = 0;
  int bucket_bits_ = 0;
};

// The table of `input` (Score deduced from it): `checks` (ValueChecks)
// selects the value checks; when one fails the table is left empty and
// problems() says why. Once `interrupt` is requested the construction stops
// between passes (or sorted runs) and the table must not be used.
// `strategy` chooses how unweighted input is tabled (the same table either
// way). Peak memory: the sorted records, 8 or 16 bytes per kept sample (a
// key with the label bit, and the weight), plus per-chunk bucket counts.
template <bool Weighted, class Score, class Stored>
SortedScores<Score, Weighted> sorted_scores(const RankingInput<Score, Stored>& input, int n_threads,
                                            int checks = check_nothing, const Interrupt& interrupt = Interrupt::never(),
                                            TableStrategy strategy = TableStrategy::automatic) {
  return ScoreTableBuilder<Score, Weighted>::table_of(input, n_threads, checks, interrupt, strategy);
}

}  // namespace turbometrics::ranking
