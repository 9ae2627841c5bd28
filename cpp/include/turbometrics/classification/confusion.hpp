// The (weighted) confusion matrix: one parallel pass that encodes y_true and
// y_pred to dense label codes and accumulates the K x K table. Every
// classification metric is derived from this table.
//
// The samples are split into a FIXED number of chunks (independent of the
// thread count); each chunk fills its own partial table and the partial
// tables are added in chunk order, so weighted (floating-point) results are
// bit-identical for every thread count. Samples whose true or predicted
// value is not a label are skipped.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "turbometrics/isa.hpp"
#include "turbometrics/labels/encode.hpp"
#include "turbometrics/parallel.hpp"

namespace turbometrics::classification {

// Partial tables for K labels: at most 64 chunks and at most 2^24 cells in
// total. Depends only on K, never on the thread count.
inline int confusion_chunks(int64_t n_labels, int64_t n_samples) {
  const int64_t cells = std::max<int64_t>(1, n_labels * n_labels);
  int64_t chunks = std::min<int64_t>(64, (int64_t{1} << 24) / cells);
  chunks = std::min<int64_t>(chunks, std::max<int64_t>(1, n_samples / 4096));
  return static_cast<int>(std::max<int64_t>(1, chunks));
}

struct Strided {
  const char* data;
  int64_t stride;
};

// Adds the samples [begin, end) to `table` (K x K, row = true code). Four
// interleaved sub-tables break the store-to-load dependency of consecutive
// samples hitting the same cell; they are added in a fixed order, so the
// result depends only on the chunk, never on the thread count.
template <class Label, class Weight, bool Weighted, class LoadTrue, class LoadPred, class LoadWeight>
void accumulate_chunk(int64_t begin, int64_t end, LoadTrue true_at, LoadPred pred_at, LoadWeight weight_at,
                      const labels::LabelEncoder<Label>& encoder, Weight* table) {
  const int64_t k = encoder.size();
  const int64_t cells = k * k;
  // Big tables (many labels) rarely see consecutive hits on one cell:
  // they are filled directly.
  const int lanes = cells <= 4096 ? 4 : 1;
  std::vector<Weight> sub(lanes > 1 ? static_cast<size_t>(lanes) * cells : 0, Weight{0});
  Weight* s = lanes > 1 ? sub.data() : table;
  const int64_t lane_cells = lanes > 1 ? cells : 0;
  auto add = [&](int64_t i, int lane) {
    const int32_t t = encoder.code(true_at(i));
    const int32_t p = encoder.code(pred_at(i));
    if ((t | p) < 0) return;
    if constexpr (Weighted) {
      s[lane * lane_cells + t * k + p] += weight_at(i);
    } else {
      s[lane * lane_cells + t * k + p] += Weight{1};
    }
  };
  int64_t i = begin;
  for (; i + 4 <= end; i += 4) {
    add(i, 0);
    add(i + 1, 1);
    add(i + 2, 2);
    add(i + 3, 3);
  }
  for (; i < end; ++i) add(i, 0);
  if (lanes > 1)
    for (int lane = 0; lane < lanes; ++lane)
      for (int64_t j = 0; j < cells; ++j) table[j] += s[lane * cells + j];
}

// Per-chunk sums of the binary table: cells (weighted), or counts of
// "true is hi", "pred is hi" and both (unweighted), plus the number of
// values that are neither lo nor hi.
template <class Weight>
struct BinarySums {
  Weight cells[4] = {Weight{0}, Weight{0}, Weight{0}, Weight{0}};
  int64_t bad = 0;
};

// The sums over [begin, end): one pass, no data-dependent branch.
template <class Label, class Weight>
TURBOMETRICS_ALWAYS_INLINE inline BinarySums<Weight> binary_sums(const Label* y_true, const Label* y_pred,
                                                                 const Weight* weights, int64_t begin, int64_t end,
                                                                 Label lo, Label hi) {
  BinarySums<Weight> sums;
  int64_t bad = 0;
  if (weights) {
    Weight c00{0}, c01{0}, c10{0}, c11{0};
    for (int64_t i = begin; i < end; ++i) {
      const Label a = y_true[i], b = y_pred[i];
      const int ah = a == hi, bh = b == hi;
      bad += ((ah | (a == lo)) & (bh | (b == lo))) ^ 1;
      const Weight w = weights[i];
      c11 += w * static_cast<Weight>(ah & bh);
      c10 += w * static_cast<Weight>(ah & (bh ^ 1));
      c01 += w * static_cast<Weight>((ah ^ 1) & bh);
      c00 += w * static_cast<Weight>((ah ^ 1) & (bh ^ 1));
    }
    sums.cells[0] = c00, sums.cells[1] = c01, sums.cells[2] = c10, sums.cells[3] = c11;
  } else {
    int64_t st = 0, sp = 0, stp = 0;
    for (int64_t i = begin; i < end; ++i) {
      const Label a = y_true[i], b = y_pred[i];
      const int64_t ah = a == hi, bh = b == hi;
      bad += ((ah | (a == lo)) & (bh | (b == lo))) ^ 1;
      st += ah;
      sp += bh;
      stp += ah & bh;
    }
    const int64_t size = end - begin;
    sums.cells[0] = static_cast<Weight>(size - st - sp + stp);
    sums.cells[1] = static_cast<Weight>(sp - stp);
    sums.cells[2] = static_cast<Weight>(st - stp);
    sums.cells[3] = static_cast<Weight>(stp);
  }
  sums.bad = bad;
  return sums;
}

// The instruction set of the per-chunk loops below: with integer weights
// (or none) the AVX2 copy, whose wide integer compares make it about twice
// as fast, with identical results (integer counts are exact).
// Floating-point weights take the portable loop.
template <class Weight>
Isa chunk_isa() {
  return std::is_integral_v<Weight> ? best_isa() : Isa::generic;
}

// The 2 x 2 table over labels lo < hi of contiguous arrays, from
// vectorisable per-chunk sums instead of a scatter. Returns false (leaving
// `out` alone) when some value is neither lo nor hi.
template <class Label, class Weight>
bool binary_table(const Label* y_true, const Label* y_pred, int64_t n, const Weight* weights, Label lo, Label hi,
                  int n_threads, std::vector<Weight>& out) {
  const int chunks = confusion_chunks(2, n);
  std::vector<BinarySums<Weight>> partial(chunks);
  const Isa isa = chunk_isa<Weight>();
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    const auto range = chunk_bounds(n, chunks, static_cast<int>(c));
    partial[c] = dispatch_without_fma(isa, [&](auto) TURBOMETRICS_ALWAYS_INLINE {
      return binary_sums<Label, Weight>(y_true, y_pred, weights, range.first, range.second, lo, hi);
    });
  });
  for (const auto& part : partial)
    if (part.bad) return false;
  out.assign(partial[0].cells, partial[0].cells + 4);
  for (int c = 1; c < chunks; ++c)
    for (int j = 0; j < 4; ++j) out[j] += partial[c].cells[j];
  return true;
}

// The trace of the confusion table without building it: the (weighted)
// number of samples with y_true == y_pred, and the total weight. Used by
// accuracy_score on integer labels, which needs no label set. Fixed chunks
// in a fixed order, so the result is the same for every thread count.
template <class Label, class Weight>
struct Agreement {
  Weight agree{0};
  Weight total{0};
};

template <class Label, class Weight>
TURBOMETRICS_ALWAYS_INLINE inline Agreement<Label, Weight> agreement_chunk(const Label* y_true, const Label* y_pred,
                                                                           const Weight* weights, int64_t begin,
                                                                           int64_t end) {
  Agreement<Label, Weight> out;
  if (weights) {
    Weight agree{0}, total{0};
    for (int64_t i = begin; i < end; ++i) {
      const Weight w = weights[i];
      agree += w * static_cast<Weight>(y_true[i] == y_pred[i]);
      total += w;
    }
    out.agree = agree, out.total = total;
  } else {
    int64_t agree = 0;
    for (int64_t i = begin; i < end; ++i) agree += y_true[i] == y_pred[i];
    out.agree = static_cast<Weight>(agree);
    out.total = static_cast<Weight>(end - begin);
  }
  return out;
}

template <class Label, class Weight>
Agreement<Label, Weight> agreement(const Label* y_true, const Label* y_pred, int64_t n, const Weight* weights,
                                   int n_threads) {
  const int chunks = confusion_chunks(2, n);
  std::vector<Agreement<Label, Weight>> partial(chunks);
  const Isa isa = chunk_isa<Weight>();
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    const auto range = chunk_bounds(n, chunks, static_cast<int>(c));
    partial[c] = dispatch_without_fma(isa, [&](auto) TURBOMETRICS_ALWAYS_INLINE {
      return agreement_chunk<Label, Weight>(y_true, y_pred, weights, range.first, range.second);
    });
  });
  Agreement<Label, Weight> out = partial[0];
  for (int c = 1; c < chunks; ++c) {
    out.agree += partial[c].agree;
    out.total += partial[c].total;
  }
  return out;
}

// table[t * K + p] += weight of each sample with codes (t, p). `Weight` is
// the accumulator type (int64_t or double); weights == nullptr counts 1 per
// sample.
template <class Label, class Weight>
std::vector<Weight> confusion_table(Strided y_true, Strided y_pred, int64_t n, const Weight* weights,
                                    int64_t weight_stride, const labels::LabelEncoder<Label>& encoder, int n_threads) {
  const int64_t k = encoder.size();
  const bool contiguous = y_true.stride == static_cast<int64_t>(sizeof(Label)) &&
                          y_pred.stride == static_cast<int64_t>(sizeof(Label)) &&
                          (!weights || weight_stride == static_cast<int64_t>(sizeof(Weight)));
  if (k == 2 && contiguous) {
    std::vector<Weight> out;
    if (binary_table<Label, Weight>(reinterpret_cast<const Label*>(y_true.data),
                                    reinterpret_cast<const Label*>(y_pred.data), n, weights, encoder.label(0),
                                    encoder.label(1), n_threads, out))
      return out;
  }
  const int chunks = confusion_chunks(k, n);
  std::vector<Weight> partial(static_cast<size_t>(chunks) * k * k, Weight{0});
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(n, chunks, static_cast<int>(c));
    Weight* table = partial.data() + c * k * k;
    if (contiguous) {
      const Label* t = reinterpret_cast<const Label*>(y_true.data);
      const Label* p = reinterpret_cast<const Label*>(y_pred.data);
      auto true_at = [t](int64_t i) { return t[i]; };
      auto pred_at = [p](int64_t i) { return p[i]; };
      if (weights) {
        accumulate_chunk<Label, Weight, true>(
            begin, end, true_at, pred_at, [weights](int64_t i) { return weights[i]; }, encoder, table);
      } else {
        accumulate_chunk<Label, Weight, false>(
            begin, end, true_at, pred_at, [](int64_t) { return Weight{1}; }, encoder, table);
      }
      return;
    }
    auto true_at = [y_true](int64_t i) { return labels::load_label<Label>(y_true.data, y_true.stride, i); };
    auto pred_at = [y_pred](int64_t i) { return labels::load_label<Label>(y_pred.data, y_pred.stride, i); };
    if (weights) {
      const char* w = reinterpret_cast<const char*>(weights);
      accumulate_chunk<Label, Weight, true>(
          begin, end, true_at, pred_at,
          [w, weight_stride](int64_t i) { return *reinterpret_cast<const Weight*>(w + i * weight_stride); }, encoder,
          table);
    } else {
      accumulate_chunk<Label, Weight, false>(
          begin, end, true_at, pred_at, [](int64_t) { return Weight{1}; }, encoder, table);
    }
  });
  std::vector<Weight> total(partial.begin(), partial.begin() + k * k);
  for (int c = 1; c < chunks; ++c) {
    const Weight* table = partial.data() + static_cast<int64_t>(c) * k * k;
    for (int64_t j = 0; j < k * k; ++j) total[j] += table[j];
  }
  return total;
}

// Multilabel indicator input (n x L, row-major with element strides): per
// label the (weighted) number of rows where y_true != 0, y_pred != 0, and
// both; laid out as out[0 * L + l] = true, out[1 * L + l] = pred,
// out[2 * L + l] = both.
template <class Label, class Weight>
std::vector<Weight> indicator_sums(const char* y_true, int64_t true_row, int64_t true_col, const char* y_pred,
                                   int64_t pred_row, int64_t pred_col, int64_t n, int64_t n_labels,
                                   const Weight* weights, int64_t weight_stride, int n_threads) {
  const int chunks = confusion_chunks(2 * n_labels, n);  // 3L cells per chunk, small
  std::vector<Weight> partial(static_cast<size_t>(chunks) * 3 * n_labels, Weight{0});
  parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
    auto [begin, end] = chunk_bounds(n, chunks, static_cast<int>(c));
    Weight* sums = partial.data() + c * 3 * n_labels;
    for (int64_t i = begin; i < end; ++i) {
      const Weight w =
          weights ? *reinterpret_cast<const Weight*>(reinterpret_cast<const char*>(weights) + i * weight_stride)
                  : Weight{1};
      for (int64_t l = 0; l < n_labels; ++l) {
        const bool t = *reinterpret_cast<const Label*>(y_true + i * true_row + l * true_col) != Label{0};
        const bool p = *reinterpret_cast<const Label*>(y_pred + i * pred_row + l * pred_col) != Label{0};
        sums[l] += t ? w : Weight{0};
        sums[n_labels + l] += p ? w : Weight{0};
        sums[2 * n_labels + l] += (t && p) ? w : Weight{0};
      }
    }
  });
  std::vector<Weight> total(partial.begin(), partial.begin() + 3 * n_labels);
  for (int c = 1; c < chunks; ++c)
    for (int64_t j = 0; j < 3 * n_labels; ++j) total[j] += partial[static_cast<size_t>(c) * 3 * n_labels + j];
  return total;
}

}  // namespace turbometrics::classification
