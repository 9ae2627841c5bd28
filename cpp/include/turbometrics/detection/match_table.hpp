// The detection primitive: per (category, image) block, the block's kept
// detections (best score first) with their score and, per area range and IoU
// threshold, their outcome; and per (area range, block) the number of
// ground truths that are not ignored. Accumulation is a sort-and-sweep over
// these rows.
//
// Blocks are independent, so they are matched in parallel; each block writes
// only its own rows, so the table is the same for every thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "turbometrics/detection/image_matching.hpp"
#include "turbometrics/detection/score_order.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/portable.hpp"

namespace turbometrics::detection {

// Ground truths and detections grouped by block (compressed rows: block b owns
// members[offsets[b] .. offsets[b + 1])).
struct BlockMembers {
  const int64_t* gt_offsets;
  const int64_t* gt_members;
  const int64_t* dt_offsets;
  const int64_t* dt_members;
  int64_t n_blocks;
};

struct MatchTable {
  int64_t n_blocks = 0, n_area_ranges = 0, n_thresholds = 0;
  std::vector<int64_t> row_offsets;  // n_blocks + 1: the block's kept detections
  std::vector<uint8_t> present;      // per block: it has a ground truth or a detection
  std::vector<double> score;         // per row
  // Per (area, row, group of 64 thresholds): bit t - 64 * group is set where
  // the row counts as a true (false) positive at threshold t; a row that is
  // neither is ignored there.
  std::vector<uint64_t> true_positive, false_positive;
  std::vector<int64_t> regular_gts;  // [area][block]: ground truths not ignored

  int64_t n_rows() const { return row_offsets.empty() ? 0 : row_offsets.back(); }
  int64_t n_groups() const { return (n_thresholds + 63) / 64; }
  int64_t mask_index(int64_t area, int64_t row, int64_t group) const {
    return (area * n_rows() + row) * n_groups() + group;
  }
};

// Throws std::invalid_argument, naming the field, unless the table is one a
// matching could produce (its vectors already have their sizes): blocks
// that are not present are empty; a block's rows are in detection order
// (descending_score_key does not decrease); bits are set only below
// n_thresholds, and no row is both a true and a false positive at one
// threshold; regular ground truths are non-negative, sum to an int64, and
// per (area, block, threshold) are at least the true positives (each
// regular ground truth matches at most one detection). One pass; after it,
// accumulation reads nothing out of bounds and its recall is at most 1.
inline void check_match_table(const MatchTable& table) {
  auto fail = [](const std::string& message) { throw std::invalid_argument(message); };
  const int64_t A = table.n_area_ranges, B = table.n_blocks, T = table.n_thresholds, G = table.n_groups();
  int64_t total = 0;
  for (const int64_t n : table.regular_gts) {
    if (n < 0) fail("regular_gts must be non-negative");
    if (add_overflow(total, n, &total)) fail("regular_gts sum past the int64 range");
  }
  for (int64_t b = 0; b < B; ++b) {
    const int64_t first = table.row_offsets[b], end = table.row_offsets[b + 1];
    if (table.present[b] > 1) fail("present must hold 0 or 1");
    if (!table.present[b]) {
      if (end != first) fail("row_offsets: a block that is not present has rows");
      for (int64_t a = 0; a < A; ++a)
        if (table.regular_gts[a * B + b]) fail("regular_gts: a block that is not present has ground truths");
    }
    for (int64_t r = first + 1; r < end; ++r)
      if (descending_score_key(table.score[r]) < descending_score_key(table.score[r - 1]))
        fail("score: a block's rows are not in descending score order");
  }
  const int64_t rows = table.n_rows(), last_width = T - 64 * (G - 1);
  const uint64_t beyond = last_width >= 64 ? 0 : ~((uint64_t{1} << last_width) - 1);  // bits past T
  const uint64_t* tp = table.true_positive.data();
  const uint64_t* fp = table.false_positive.data();
  uint64_t tp_beyond = 0, fp_beyond = 0, both = 0;
  for (int64_t w = 0; w < A * rows * G; ++w) both |= tp[w] & fp[w];
  for (int64_t w = G - 1; w < A * rows * G; w += G) {
    tp_beyond |= tp[w] & beyond;
    fp_beyond |= fp[w] & beyond;
  }
  if (tp_beyond) fail("true_positive has bits set at or above the number of IoU thresholds");
  if (fp_beyond) fail("false_positive has bits set at or above the number of IoU thresholds");
  if (both) fail("true_positive and false_positive: a row is both at one IoU threshold");
  // a row is a true positive at most once per threshold, so only blocks
  // with more rows than regular ground truths need counting
  std::vector<int64_t> true_positives(static_cast<size_t>(T));
  for (int64_t a = 0; a < A; ++a) {
    for (int64_t b = 0; b < B; ++b) {
      const int64_t first = table.row_offsets[b], end = table.row_offsets[b + 1];
      const int64_t regular = table.regular_gts[a * B + b];
      if (end - first <= regular) continue;
      const uint64_t* block = tp + (a * rows + first) * G;
      const int64_t n_words = (end - first) * G;
      uint64_t any = 0;
      for (int64_t w = 0; w < n_words; ++w) any |= block[w];
      if (!any) continue;
      bool more = regular == 0;
      if (!more) {
        std::fill(true_positives.begin(), true_positives.end(), 0);
        for (int64_t w = 0; w < n_words; w += G)
          for (int64_t g = 0; g < G; ++g)
            for (uint64_t bits = block[w + g]; bits; bits &= bits - 1) ++true_positives[64 * g + ctz64(bits)];
        for (int64_t t = 0; t < T; ++t) more |= true_positives[t] > regular;
      }
      if (more) fail("true_positive: a block has more true positives at an IoU threshold than regular_gts");
    }
  }
}

// The table's shape for these blocks, with every row still unmatched.
inline MatchTable empty_match_table(const BlockMembers& blocks, const MatchingParams& params) {
  MatchTable table;
  const int64_t B = blocks.n_blocks, A = params.n_area_ranges, T = params.n_thresholds;
  table.n_blocks = B;
  table.n_area_ranges = A;
  table.n_thresholds = T;
  table.row_offsets.resize(static_cast<size_t>(B + 1));
  table.present.resize(static_cast<size_t>(B));
  table.row_offsets[0] = 0;
  for (int64_t b = 0; b < B; ++b) {
    const int64_t n_dt = blocks.dt_offsets[b + 1] - blocks.dt_offsets[b];
    const int64_t n_gt = blocks.gt_offsets[b + 1] - blocks.gt_offsets[b];
    table.present[b] = n_dt > 0 || n_gt > 0;
    table.row_offsets[b + 1] = table.row_offsets[b] + kept_detections(n_dt, params.max_detections);
  }
  const int64_t rows = table.n_rows();
  table.score.resize(static_cast<size_t>(rows));
  table.true_positive.assign(static_cast<size_t>(A * rows * table.n_groups()), 0);
  table.false_positive.assign(static_cast<size_t>(A * rows * table.n_groups()), 0);
  table.regular_gts.resize(static_cast<size_t>(A * B));
  return table;
}

// A block without ground truths: nothing matches, so its kept detections
// are false positives, or ignored where their area is outside the range.
inline void unmatched_block(MatchTable& table, int64_t b, const int64_t* dts, int64_t n_dt,
                            const DetectionColumns& columns, const MatchingParams& params,
                            std::vector<OrderedDetection>& order) {
  const int64_t first = table.row_offsets[b], kept = table.row_offsets[b + 1] - first;
  const int64_t A = table.n_area_ranges, T = table.n_thresholds, groups = table.n_groups();
  for (int64_t a = 0; a < A; ++a) table.regular_gts[a * table.n_blocks + b] = 0;
  order.resize(static_cast<size_t>(n_dt));
  for (int64_t i = 0; i < n_dt; ++i) order[i] = {descending_score_key(columns.score[dts[i]]), i};
  std::sort(order.begin(), order.end());
  for (int64_t d = 0; d < kept; ++d) {
    const int64_t c = dts[order[d].position];
    table.score[first + d] = columns.score[c];
    const double area = columns.area[c];
    for (int64_t a = 0; a < A; ++a) {
      if (area < params.area_ranges[2 * a] || area > params.area_ranges[2 * a + 1]) continue;  // ignored
      for (int64_t g = 0; g < groups; ++g) {
        const int64_t width = std::min<int64_t>(64, T - 64 * g);
        table.false_positive[table.mask_index(a, first + d, g)] =
            width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      }
    }
  }
}

// Matches blocks [begin, end) into `table` (from empty_match_table).
// `fill_ious` is as in BlockMatcher::load and must be safe to call from
// several threads at once. Once `interrupt` is requested the threads stop
// before their next block or area range (the table is then incomplete).
template <class FillIous>
void match_blocks(MatchTable& table, int64_t begin, int64_t end, const BlockMembers& blocks,
                  const GroundTruthColumns& gts, const DetectionColumns& dts, const MatchingParams& params,
                  const FillIous& fill_ious, int n_threads, const Interrupt& interrupt = Interrupt::never()) {
  const int64_t B = table.n_blocks, A = table.n_area_ranges, T = table.n_thresholds;
  constexpr int64_t chunk = 256;  // blocks handed out at a time
  const int64_t n_chunks = (end - begin + chunk - 1) / chunk;
  std::atomic<int64_t> next{0};
  parallel_region(n_chunks > 1 ? n_threads : 1, [&](int, int) {
    BlockMatcher matcher;
    std::vector<OrderedDetection> order;
    for (int64_t c = next.fetch_add(1); c < n_chunks; c = next.fetch_add(1)) {
      for (int64_t b = begin + c * chunk; b < std::min(end, begin + (c + 1) * chunk); ++b) {
        if (interrupt.requested()) return;
        const int64_t g0 = blocks.gt_offsets[b], d0 = blocks.dt_offsets[b];
        if (blocks.gt_offsets[b + 1] == g0) {
          unmatched_block(table, b, blocks.dt_members + d0, blocks.dt_offsets[b + 1] - d0, dts, params, order);
          continue;
        }
        matcher.load(b, gts, dts, blocks.gt_members + g0, blocks.gt_offsets[b + 1] - g0, blocks.dt_members + d0,
                     blocks.dt_offsets[b + 1] - d0, params, fill_ious);
        const int64_t first = table.row_offsets[b], D = matcher.n_dt();
        for (int64_t d = 0; d < D; ++d) table.score[first + d] = dts.score[matcher.detections()[d]];
        for (int64_t a = 0; a < A; ++a) {
          table.regular_gts[a * B + b] = 0;
          if (!table.present[b]) continue;
          if (interrupt.requested()) return;  // a crowded block can take a second
          matcher.match(a);
          table.regular_gts[a * B + b] = matcher.n_regular_gts();
          for (int64_t d = 0; d < D; ++d) {
            for (int64_t t = 0; t < T; ++t) {
              const Outcome o = matcher.outcome(t, d);
              const int64_t at = table.mask_index(a, first + d, t / 64);
              if (o == Outcome::true_positive) table.true_positive[at] |= uint64_t{1} << (t % 64);
              if (o == Outcome::false_positive) table.false_positive[at] |= uint64_t{1} << (t % 64);
            }
          }
        }
      }
    }
  });
}

}  // namespace turbometrics::detection
