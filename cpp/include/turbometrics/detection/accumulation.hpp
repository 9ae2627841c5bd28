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
#include "turbometrics/portable.hpp"

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
  const int64_t* max_detections;              // the m values (Python slices [0:m]: see kept_detections)
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

// The rows of one output cell's entries, sorted in detection order, with
// their outcome masks, and the sweep over them. One per thread, reused for
// every category it takes (to keep its buffers).
class CellSweep {
 public:
  CellSweep(const MatchTable& table, const AccumulationLayout& layout, double* precision, double* recall,
            double* scores)
      : table_(table),
        layout_(layout),
        precision_(precision),
        recall_(recall),
        scores_(scores),
        largest_m_(largest_max_detections(layout)),
        groups_(table.n_groups()),
        entry_block_(static_cast<size_t>(layout.n_entries)),
        entry_area_(static_cast<size_t>(layout.n_entries)),
        tp_fp_(static_cast<size_t>(table.n_thresholds)),
        tp_score_(static_cast<size_t>(table.n_thresholds)),
        fp_(static_cast<size_t>(table.n_thresholds)) {}

  // Every output cell (k, a, m) of category k.
  void category(int64_t k) {
    have_sort_ = false;
    for (int64_t a = 0; a < layout_.n_areas; ++a) {
      locate_entries(k, a);
      const int64_t regular = regular_gts();
      if (regular == 0) continue;  // the cell keeps -1
      if (!have_sort_ || !std::equal(entry_block_.begin(), entry_block_.end(), sorted_blocks_.begin())) sort_rows();
      gather_masks();
      for (int64_t mi = 0; mi < layout_.n_max_detections; ++mi) {
        collect_true_positives(mi);
        for (int64_t t = 0; t < table_.n_thresholds; ++t) write_threshold(t, k, a, mi, static_cast<double>(regular));
      }
    }
  }

 private:
  // Rows a cell may read per block: a negative m keeps all but the last -m.
  static int64_t largest_max_detections(const AccumulationLayout& layout) {
    int64_t largest_m = 0;
    for (int64_t mi = 0; mi < layout.n_max_detections; ++mi)
      largest_m = layout.max_detections[mi] < 0 ? std::numeric_limits<int64_t>::max()
                                                : std::max(largest_m, layout.max_detections[mi]);
    return largest_m;
  }

  // The block and area range of each evalImgs entry of cell (k, a).
  void locate_entries(int64_t k, int64_t a) {
    const AccumulationLayout& l = layout_;
    for (int64_t i = 0; i < l.n_entries; ++i) {
      const int64_t flat = (l.k_rows[k] * l.evaluated_areas + l.a_rows[a]) * l.evaluated_images + l.i_rows[i];
      entry_block_[i] =
          flat / (l.evaluated_areas * l.evaluated_images) * l.evaluated_images + flat % l.evaluated_images;
      entry_area_[i] = flat / l.evaluated_images % l.evaluated_areas;
    }
  }

  // The regular ground truths of the entries' present blocks.
  int64_t regular_gts() const {
    int64_t regular = 0;
    for (int64_t i = 0; i < layout_.n_entries; ++i)
      if (table_.present[entry_block_[i]])
        regular += table_.regular_gts[entry_area_[i] * table_.n_blocks + entry_block_[i]];
    return regular;
  }

  // Concatenates the entries' blocks (each cut to its first largest_m_ rows)
  // and sorts them stably on -score; then the sorted positions each m keeps.
  void sort_rows() {
    sorted_.clear();
    row_of_.clear();
    rank_of_.clear();
    entry_of_.clear();
    block_rows_of_.clear();
    for (int64_t i = 0; i < layout_.n_entries; ++i) {
      const int64_t b = entry_block_[i];
      if (!table_.present[b]) continue;
      const int64_t first = table_.row_offsets[b];
      const int64_t block_rows = table_.row_offsets[b + 1] - first;
      const int64_t n = std::min(block_rows, largest_m_);
      for (int64_t rank = 0; rank < n; ++rank) {
        sorted_.push_back({descending_score_key(table_.score[first + rank]), static_cast<int64_t>(row_of_.size())});
        row_of_.push_back(first + rank);
        rank_of_.push_back(rank);
        entry_of_.push_back(i);
        block_rows_of_.push_back(block_rows);
      }
    }
    std::sort(sorted_.begin(), sorted_.end());
    kept_rows_.assign(static_cast<size_t>(layout_.n_max_detections), {});
    for (int64_t mi = 0; mi < layout_.n_max_detections; ++mi)
      for (int64_t j = 0; j < static_cast<int64_t>(sorted_.size()); ++j)
        if (rank_of_[sorted_[j].sequence] <
            kept_detections(block_rows_of_[sorted_[j].sequence], layout_.max_detections[mi]))
          kept_rows_[mi].push_back(j);
    sorted_blocks_ = entry_block_;
    have_sort_ = true;
  }

  // The sorted rows' outcome masks in the current area range, [j][group].
  void gather_masks() {
    const int64_t n = static_cast<int64_t>(sorted_.size()), groups = groups_;
    tp_mask_.resize(static_cast<size_t>(n * groups));
    fp_mask_.resize(static_cast<size_t>(n * groups));
    for (int64_t j = 0; j < n; ++j) {
      const int64_t q = sorted_[j].sequence;
      const int64_t at = table_.mask_index(entry_area_[entry_of_[q]], row_of_[q], 0);
      for (int64_t g = 0; g < groups; ++g) {
        tp_mask_[j * groups + g] = table_.true_positive[at + g];
        fp_mask_[j * groups + g] = table_.false_positive[at + g];
      }
    }
  }

  // One pass over the rows m keeps: per threshold, the false positives
  // before each true positive and its score; the number of kept rows and
  // the first one.
  void collect_true_positives(int64_t mi) {
    const int64_t T = table_.n_thresholds, groups = groups_;
    for (int64_t t = 0; t < T; ++t) {
      tp_fp_[t].clear();
      tp_score_[t].clear();
    }
    std::fill(fp_.begin(), fp_.end(), 0);
    int64_t nd = 0, first_row = -1;
    for (int64_t g = 0; g < groups; ++g) {
      const int64_t t0 = 64 * g, width = std::min<int64_t>(64, T - t0);
      const uint64_t all = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      int64_t fp_everywhere = 0;  // rows that are false positives at every threshold of the group
      for (const int64_t j : kept_rows_[mi]) {
        if (g == 0 && nd++ == 0) first_row = j;
        const uint64_t tp = tp_mask_[j * groups + g], fps = fp_mask_[j * groups + g];
        if (fps == all) {
          ++fp_everywhere;
          continue;
        }
        for (uint64_t bits = tp; bits; bits &= bits - 1) {
          const int64_t t = t0 + ctz64(bits);
          tp_fp_[t].push_back(fp_[t] + fp_everywhere);
          tp_score_[t].push_back(table_.score[row_of_[sorted_[j].sequence]]);
        }
        for (uint64_t bits = fps; bits; bits &= bits - 1) ++fp_[t0 + ctz64(bits)];
      }
    }
    kept_ = nd;
    first_row_ = first_row;
    first_score_ = nd ? table_.score[row_of_[sorted_[first_row].sequence]] : 0.0;
  }

  // Recall, and precision and score at each recall threshold, of IoU
  // threshold t in cell (k, a, mi).
  void write_threshold(int64_t t, int64_t k, int64_t a, int64_t mi, double n_regular) {
    const AccumulationLayout& l = layout_;
    const double eps = eps_;
    const int64_t n_tp = static_cast<int64_t>(tp_fp_[t].size()), nd = kept_;
    // precision and recall at the k-th true positive (k = 1..n_tp)
    best_.resize(static_cast<size_t>(n_tp + 1));
    rc_.resize(static_cast<size_t>(n_tp + 1));
    for (int64_t i = 1; i <= n_tp; ++i) {
      const double tp_d = static_cast<double>(i), fp_d = static_cast<double>(tp_fp_[t][i - 1]);
      best_[i] = tp_d / (fp_d + tp_d + eps);
      rc_[i] = tp_d / n_regular;
    }
    for (int64_t i = n_tp - 1; i >= 1; --i)
      if (best_[i + 1] > best_[i]) best_[i] = best_[i + 1];
    recall_[((t * l.out_K + k) * l.out_A + a) * l.out_M + mi] = nd ? static_cast<double>(n_tp) / n_regular : 0.0;
    const bool first_is_tp = nd > 0 && (tp_mask_[first_row_ * groups_ + t / 64] >> (t % 64) & 1);
    const double first_recall = (first_is_tp ? 1.0 : 0.0) / n_regular;
    bool inside = nd > 0;
    for (int64_t r = 0; r < l.n_recall_thresholds; ++r) {
      const int64_t at = (((t * l.out_R + r) * l.out_K + k) * l.out_A + a) * l.out_M + mi;
      double value = 0.0, score = 0.0;
      if (inside) {
        const double threshold = l.recall_thresholds[r];
        if (!below(first_recall, threshold)) {
          value = n_tp ? best_[1] : 0.0;
          score = first_score_;
        } else {
          const int64_t hit = std::lower_bound(rc_.begin() + 1, rc_.begin() + 1 + n_tp, threshold,
                                               [](double x, double y) { return below(x, y); }) -
                              rc_.begin();
          inside = hit <= n_tp;
          if (inside) {
            value = best_[hit];
            score = tp_score_[t][hit - 1];
          }
        }
      }
      precision_[at] = value;
      scores_[at] = score;
    }
  }

  const MatchTable& table_;
  const AccumulationLayout& layout_;
  double* precision_;
  double* recall_;
  double* scores_;
  const int64_t largest_m_, groups_;
  const double eps_ = std::nextafter(1.0, 2.0) - 1.0;  // np.spacing(1)
  // The current cell's entries: their blocks and area ranges.
  std::vector<int64_t> entry_block_, entry_area_;
  // The sorted rows, built for the block sequence sorted_blocks_, and by
  // sequence: the table row, rank in its block, entry and block length.
  bool have_sort_ = false;
  std::vector<SortedRow> sorted_;
  std::vector<int64_t> sorted_blocks_, row_of_, rank_of_, entry_of_, block_rows_of_;
  std::vector<std::vector<int64_t>> kept_rows_;  // per m: the sorted positions kept
  std::vector<uint64_t> tp_mask_, fp_mask_;      // [j][group] for the sorted rows
  // Per threshold: false positives before each true positive, and its score.
  std::vector<std::vector<int64_t>> tp_fp_;
  std::vector<std::vector<double>> tp_score_;
  std::vector<int64_t> fp_;
  int64_t kept_ = 0, first_row_ = -1;  // rows the current m keeps, and the first of them
  double first_score_ = 0.0;
  std::vector<double> rc_, best_;
};

}  // namespace accumulation_detail

// Fills precision, recall and scores (layout's output shapes) for every
// output cell with a regular ground truth; the other cells are left as
// they are (the caller's -1).
inline void accumulate(const MatchTable& table, const AccumulationLayout& layout, double* precision, double* recall,
                       double* scores, int n_threads) {
  std::atomic<int64_t> next{0};
  parallel_region(layout.n_categories > 1 ? n_threads : 1, [&](int, int) {
    accumulation_detail::CellSweep sweep(table, layout, precision, recall, scores);
    for (int64_t k = next.fetch_add(1); k < layout.n_categories; k = next.fetch_add(1)) sweep.category(k);
  });
}

}  // namespace turbometrics::detection
