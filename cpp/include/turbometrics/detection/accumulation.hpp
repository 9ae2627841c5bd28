// COCOeval.accumulate as a sort-and-sweep over the match table.
//
// For an output cell (category k, area range a, max detections m) the rows are
// those of a list of (block, area) entries, each block cut to its first m
// rows. They are ordered stably on -score, so ties go to the earlier entry and
// then to the earlier row, as pycocotools' concatenation and mergesort do. Per
// IoU threshold, at sorted position j with tp true and fp false positives so
// far (ignored rows count as neither but keep their place),
//   recall[j]    = tp / n_regular_gts,
//   precision[j] = tp / (fp + tp + spacing(1)),
// precision is replaced by its running maximum from the right, and each
// recall threshold reads precision and score at
// searchsorted(recall, threshold, 'left'); thresholds past the last recall
// keep 0. A cell with no regular ground truth keeps -1.
//
// Recall only rises at true positives, and a false positive's precision
// never exceeds that of the true positive before it, so the sweep evaluates
// the two ratios at true positives only (and position 0): the values read are
// the same doubles pycocotools reads.
//
// The sort is done once per category (for the largest m, reused for every
// area range whose entries name the same blocks); cells are independent, so
// categories run in parallel and results do not depend on the thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "turbometrics/detection/match_table.hpp"
#include "turbometrics/detection/score_order.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::detection {

struct AccumulationLayout {
  // Output cell (k, a, .) reads evalImgs entries k_rows[k] * A0 * I0 +
  // a_rows[a] * I0 + i_rows[i] for every i, as pycocotools indexes its
  // evalImgs list (A0, I0: the evaluation's area ranges and images; the
  // table's blocks are category-major, I0 per category).
  const int64_t* k_rows;
  int64_t n_categories;
  const int64_t* a_rows;
  int64_t n_areas;
  const int64_t* i_rows;
  int64_t n_entries;
  int64_t evaluated_areas, evaluated_images;  // A0, I0
  const int64_t* max_detections;  // the m values (Python slices [0:m]: see kept_detections)
  int64_t n_max_detections;
  const double* recall_thresholds;
  int64_t n_recall_thresholds;
  // Output shapes: precision and scores T x R x K x A x M, recall T x K x A x M
  // (T >= the table's thresholds; the loops above fill the first cells).
  int64_t out_T, out_R, out_K, out_A, out_M;
};

namespace accumulation_detail {

// NumPy's order for searchsorted: x sorts before y (NaN last).
inline bool below(double x, double y) { return x < y || (std::isnan(y) && !std::isnan(x)); }

// A concatenated row's place: its detection order, then its position in the
// concatenation (entry-major, then rank within the block).
struct SortedRow {
  uint64_t key;
  int64_t sequence;
  bool operator<(const SortedRow& other) const {
    return key != other.key ? key < other.key : sequence < other.sequence;
  }
};

}  // namespace accumulation_detail

inline void accumulate(const MatchTable& table, const AccumulationLayout& layout, double* precision, double* recall,
                       double* scores, int n_threads) {
  using accumulation_detail::SortedRow;
  const int64_t T = table.n_thresholds;
  const int64_t R = layout.n_recall_thresholds, I = layout.n_entries;
  const double eps = std::nextafter(1.0, 2.0) - 1.0;  // np.spacing(1)
  // rows a cell may read per block: a negative m keeps all but the last -m
  int64_t largest_m = 0;
  for (int64_t mi = 0; mi < layout.n_max_detections; ++mi)
    largest_m = layout.max_detections[mi] < 0 ? std::numeric_limits<int64_t>::max()
                                               : std::max(largest_m, layout.max_detections[mi]);

  auto cell = [&](int64_t t, int64_t r, int64_t k, int64_t a, int64_t m) {
    return (((t * layout.out_R + r) * layout.out_K + k) * layout.out_A + a) * layout.out_M + m;
  };
  auto recall_cell = [&](int64_t t, int64_t k, int64_t a, int64_t m) {
    return ((t * layout.out_K + k) * layout.out_A + a) * layout.out_M + m;
  };

  std::atomic<int64_t> next{0};
  parallel_region(layout.n_categories > 1 ? n_threads : 1, [&](int, int) {
    std::vector<SortedRow> sorted;
    std::vector<int64_t> row_of, rank_of, entry_of, block_rows_of;  // by sequence
    std::vector<std::vector<int64_t>> kept_rows;       // per m
    std::vector<int64_t> sorted_blocks;  // the block sequence `sorted` was built from
    const int64_t groups = table.n_groups();
    std::vector<uint64_t> tp_mask, fp_mask;
    std::vector<int64_t> entry_block(static_cast<size_t>(I)), entry_area(static_cast<size_t>(I));  // [j][group] for the sorted rows
    std::vector<std::vector<int64_t>> tp_fp(static_cast<size_t>(T));
    std::vector<std::vector<double>> tp_score(static_cast<size_t>(T));
    std::vector<int64_t> fp(static_cast<size_t>(T));
    std::vector<double> rc, best;
    for (int64_t k = next.fetch_add(1); k < layout.n_categories; k = next.fetch_add(1)) {
      bool have_sort = false;
      for (int64_t a = 0; a < layout.n_areas; ++a) {
        for (int64_t i = 0; i < I; ++i) {
          const int64_t flat = (layout.k_rows[k] * layout.evaluated_areas + layout.a_rows[a]) *
                                   layout.evaluated_images + layout.i_rows[i];
          entry_block[i] = flat / (layout.evaluated_areas * layout.evaluated_images) * layout.evaluated_images +
                           flat % layout.evaluated_images;
          entry_area[i] = flat / layout.evaluated_images % layout.evaluated_areas;
        }
        const int64_t* blocks = entry_block.data();
        const int64_t* areas = entry_area.data();
        int64_t regular = 0;
        for (int64_t i = 0; i < I; ++i)
          if (table.present[blocks[i]]) regular += table.regular_gts[areas[i] * table.n_blocks + blocks[i]];
        if (regular == 0) continue;
        if (!have_sort || !std::equal(blocks, blocks + I, sorted_blocks.begin())) {
          sorted.clear();
          row_of.clear();
          rank_of.clear();
          entry_of.clear();
          block_rows_of.clear();
          for (int64_t i = 0; i < I; ++i) {
            const int64_t b = blocks[i];
            if (!table.present[b]) continue;
            const int64_t first = table.row_offsets[b];
            const int64_t block_rows = table.row_offsets[b + 1] - first;
            const int64_t n = std::min(block_rows, largest_m);
            for (int64_t rank = 0; rank < n; ++rank) {
              sorted.push_back({descending_score_key(table.score[first + rank]),
                                static_cast<int64_t>(row_of.size())});
              row_of.push_back(first + rank);
              rank_of.push_back(rank);
              entry_of.push_back(i);
              block_rows_of.push_back(block_rows);
            }
          }
          std::sort(sorted.begin(), sorted.end());
          // sorted positions of the rows each m keeps
          kept_rows.assign(static_cast<size_t>(layout.n_max_detections), {});
          for (int64_t mi = 0; mi < layout.n_max_detections; ++mi)
            for (int64_t j = 0; j < static_cast<int64_t>(sorted.size()); ++j)
              if (rank_of[sorted[j].sequence] <
                  kept_detections(block_rows_of[sorted[j].sequence], layout.max_detections[mi]))
                kept_rows[mi].push_back(j);
          sorted_blocks.assign(blocks, blocks + I);
          have_sort = true;
        }
        const int64_t n = static_cast<int64_t>(sorted.size());
        tp_mask.resize(static_cast<size_t>(n * groups));
        fp_mask.resize(static_cast<size_t>(n * groups));
        for (int64_t j = 0; j < n; ++j) {
          const int64_t q = sorted[j].sequence;
          const int64_t at = table.mask_index(areas[entry_of[q]], row_of[q], 0);
          for (int64_t g = 0; g < groups; ++g) {
            tp_mask[j * groups + g] = table.true_positive[at + g];
            fp_mask[j * groups + g] = table.false_positive[at + g];
          }
        }
        for (int64_t mi = 0; mi < layout.n_max_detections; ++mi) {
          // one pass over the kept rows: per threshold, the false positives
          // before each true positive and its score
          for (int64_t t = 0; t < T; ++t) {
            tp_fp[t].clear();
            tp_score[t].clear();
          }
          std::fill(fp.begin(), fp.end(), 0);
          int64_t nd = 0, first_row = -1;
          for (int64_t g = 0; g < groups; ++g) {
            const int64_t t0 = 64 * g, width = std::min<int64_t>(64, T - t0);
            const uint64_t all = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
            int64_t fp_everywhere = 0;  // rows that are false positives at every threshold of the group
            for (const int64_t j : kept_rows[mi]) {
              if (g == 0 && nd++ == 0) first_row = j;
              const uint64_t tp = tp_mask[j * groups + g], fps = fp_mask[j * groups + g];
              if (fps == all) {
                ++fp_everywhere;
                continue;
              }
              for (uint64_t bits = tp; bits; bits &= bits - 1) {
                const int64_t t = t0 + __builtin_ctzll(bits);
                tp_fp[t].push_back(fp[t] + fp_everywhere);
                tp_score[t].push_back(table.score[row_of[sorted[j].sequence]]);
              }
              for (uint64_t bits = fps; bits; bits &= bits - 1) ++fp[t0 + __builtin_ctzll(bits)];
            }
          }
          const double first_score = nd ? table.score[row_of[sorted[first_row].sequence]] : 0.0;
          const double n_regular = static_cast<double>(regular);
          for (int64_t t = 0; t < T; ++t) {
            const int64_t n_tp = static_cast<int64_t>(tp_fp[t].size());
            // precision and recall at the k-th true positive (k = 1..n_tp)
            best.resize(static_cast<size_t>(n_tp + 1));
            rc.resize(static_cast<size_t>(n_tp + 1));
            for (int64_t k = 1; k <= n_tp; ++k) {
              const double tp_d = static_cast<double>(k), fp_d = static_cast<double>(tp_fp[t][k - 1]);
              best[k] = tp_d / (fp_d + tp_d + eps);
              rc[k] = tp_d / n_regular;
            }
            for (int64_t k = n_tp - 1; k >= 1; --k)
              if (best[k + 1] > best[k]) best[k] = best[k + 1];
            recall[recall_cell(t, k, a, mi)] = nd ? static_cast<double>(n_tp) / n_regular : 0.0;
            const bool first_is_tp = nd > 0 && (tp_mask[first_row * groups + t / 64] >> (t % 64) & 1);
            const double first_recall = (first_is_tp ? 1.0 : 0.0) / n_regular;
            bool inside = nd > 0;
            for (int64_t r = 0; r < R; ++r) {
              const int64_t at = cell(t, r, k, a, mi);
              double value = 0.0, score = 0.0;
              if (inside) {
                const double threshold = layout.recall_thresholds[r];
                if (!accumulation_detail::below(first_recall, threshold)) {
                  value = n_tp ? best[1] : 0.0;
                  score = first_score;
                } else {
                  const int64_t hit =
                      std::lower_bound(rc.begin() + 1, rc.begin() + 1 + n_tp, threshold,
                                       [](double x, double y) { return accumulation_detail::below(x, y); }) -
                      rc.begin();
                  inside = hit <= n_tp;
                  if (inside) {
                    value = best[hit];
                    score = tp_score[t][hit - 1];
                  }
                }
              }
              precision[at] = value;
              scores[at] = score;
            }
          }
        }
      }
    }
  });
}

}  // namespace turbometrics::detection
