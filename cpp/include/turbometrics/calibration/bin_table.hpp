// Calibration's one primitive: the per-bin table (weight, sum of weighted
// confidence, sum of weighted correctness). ECE, MCE, RMSCE, the reliability
// diagram and the classwise error are all passes over this table.
//
// One pass reads every probability once. Rows are handled in batches of a
// few hundred: (1) each row's confidence and correctness (top label: the row
// maximum and whether its first argmax is the class index, which is range
// checked on the way); (2) the bins of the batch, vectorised, which also
// flags values that are not probabilities; (3) the batch added to the table.
//
// Determinism: the samples are cut into a chunk count that depends only on
// the input's size (never on the thread count). Each chunk fills its own
// table serially, in its own memory; inside a chunk, row r goes to copy
// r mod 4 of the table (so that consecutive rows in one bin do not wait on
// each other's update) and the copies are added in copy order; the chunk
// tables are added in chunk order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "turbometrics/isa.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/portable.hpp"

// SSE2 versions of the row and bin loops, and AVX2 versions (without FMA)
// picked at run time. They use the same exact operations (max, compare,
// multiply, convert), so results are identical to the scalar versions.
#ifdef TURBOMETRICS_HAS_SSE2
#include <emmintrin.h>
#endif
#ifdef TURBOMETRICS_HAS_CLONES
#include <immintrin.h>
#endif

namespace turbometrics::calibration {

// What a row contributes.
//   binary:     one table; confidence = p, correct = (label byte != 0).
//   top_label:  one table; confidence = row maximum, correct = (argmax == y),
//               ties going to the first maximum.
//   classwise:  one table per column k; confidence = p[:, k], correct = (y == k).
enum class Mode { binary, top_label, classwise };

// A read-only strided (rows x cols) matrix; a 1-D array is cols == 1.
template <class T>
struct Matrix {
  const char* data = nullptr;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t row_stride = 0;  // bytes
  int64_t col_stride = 0;  // bytes
  T at(int64_t i, int64_t k) const { return *reinterpret_cast<const T*>(data + i * row_stride + k * col_stride); }
};

struct BinInput {
  const char* label = nullptr;  // uint8 mask (binary) or int64 class index;
                                // nullptr: nothing is correct (confidence only)
  int64_t label_stride = 0;
  const char* weight = nullptr;  // float64, or nullptr for unit weights
  int64_t weight_stride = 0;
  const double* edges = nullptr;  // n_bins + 1 edges per table (or shared)
  int64_t n_bins = 0;
  bool edges_per_table = false;  // else every table uses edges[0 .. n_bins]
  bool uniform = false;          // edges are np.linspace(0, 1, n_bins + 1)
};

// The bin index np.searchsorted(edges, x, side="right") - 1 gives, clipped to
// [0, n_bins - 1] (so 1.0 lands in the last bin). Uniform edges: a guess
// from x * n_bins, corrected against the edge array itself (the guess is off
// by at most one, so the loops run at most once and are well predicted).
inline int64_t uniform_bin(double x, const double* edges, int64_t n_bins) {
  double scaled = x * static_cast<double>(n_bins);
  const double top = static_cast<double>(n_bins - 1);
  scaled = scaled > 0.0 ? scaled : 0.0;  // NaN gives 0 (flagged as invalid; any bin will do)
  scaled = scaled < top ? scaled : top;
  int64_t b = static_cast<int64_t>(scaled);
  while (b > 0 && x < edges[b]) --b;
  while (b + 1 < n_bins && x >= edges[b + 1]) ++b;
  return b;
}

inline int64_t searched_bin(double x, const double* edges, int64_t n_bins) {
  const int64_t after = std::upper_bound(edges, edges + n_bins + 1, x) - edges;
  return std::clamp<int64_t>(after - 1, 0, n_bins - 1);
}

// Whether edges[b] == b * (1 / n_bins) for b < n_bins and edges[n_bins] == 1,
// which is how np.linspace(0, 1, n_bins + 1) computes them. The bins can then
// be found without reading the edge array (vectorised).
inline bool arithmetic_edges(const double* edges, int64_t n_bins) {
  if (n_bins >= (int64_t{1} << 30)) return false;  // bins are int32 below
  const double step = 1.0 / static_cast<double>(n_bins);
  for (int64_t b = 0; b < n_bins; ++b)
    if (!(edges[b] == static_cast<double>(b) * step)) return false;
  return edges[n_bins] == 1.0;
}

// Chunk count from the problem size only (so results do not depend on the
// thread count), kept small enough that the chunk tables stay cheap.
inline int64_t chunk_count(int64_t n, int64_t table_cells) {
  int64_t chunks = std::clamp<int64_t>(n / 16384, 1, 64);
  while (chunks > 1 && chunks * table_cells > (int64_t{1} << 22)) chunks /= 2;
  return chunks;
}

struct BinTable {
  std::vector<double> cells;   // [table][bin][3]: weight, sum w * confidence, sum w * correct
  bool invalid = false;        // some probability read was NaN or outside [0, 1]
  bool invalid_label = false;  // some int64 class index was outside [0, cols)
};

// True unless v is a probability (NaN fails both comparisons).
template <class T>
inline bool not_probability(T v) {
  return !(v >= T(0) && v <= T(1));
}

namespace detail {

constexpr int64_t kBatch = 256;  // rows per batch (one-table modes)
constexpr int64_t kCopies = 4;   // interleaved table copies (one-table modes)

// x if keep, else +0.0, without a branch (compilers turn `keep ? x : 0.0`
// into a jump, which mispredicts on random labels).
inline double keep_or_zero(double x, bool keep) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits &= -static_cast<uint64_t>(keep);
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// Whether the AVX2 versions of the loops run (never in a build without
// them, isa.hpp).
inline bool has_avx2() { return best_isa() >= Isa::avx2; }

// ---------------------------------------------------------------------------
// Stage 1, top label: per row the maximum, and whether its first argmax is
// the row's class index. Rows with a value below 0 or NaN are flagged
// (values above 1 are seen by stage 2 in the maximum).

struct RowOut {
  double* conf;      // [kBatch]
  uint8_t* correct;  // [kBatch]
};

struct Labels {
  const char* data = nullptr;  // int64 class indices, or nullptr
  int64_t stride = 0;
  int64_t get(int64_t i) const { return *reinterpret_cast<const int64_t*>(data + i * stride); }
};

// Any layout: one element at a time through the strides.
template <class T>
void top_rows_strided(const Matrix<T>& prob, int64_t begin, int64_t count, const Labels& labels, RowOut out, bool& low,
                      bool& label_bad) {
  const uint64_t classes = static_cast<uint64_t>(prob.cols);
  for (int64_t r = 0; r < count; ++r) {
    const char* row = prob.data + (begin + r) * prob.row_stride;
    T best = *reinterpret_cast<const T*>(row);
    bool neg = !(best >= T(0));
    int64_t arg = 0;
    for (int64_t k = 1; k < prob.cols; ++k) {
      const T v = *reinterpret_cast<const T*>(row + k * prob.col_stride);
      neg |= !(v >= T(0));
      const bool greater = v > best;
      best = greater ? v : best;
      arg = greater ? k : arg;
    }
    low |= neg;
    out.conf[r] = static_cast<double>(best);
    if (labels.data) {
      const int64_t y = labels.get(begin + r);
      label_bad |= static_cast<uint64_t>(y) >= classes;
      out.correct[r] = y == arg;
    } else {
      out.correct[r] = 0;
    }
  }
}

// A row kernel: rows [begin, begin + count) of `prob` into `out`.
template <class T>
using TopRows = void (*)(const Matrix<T>&, int64_t, int64_t, const Labels&, RowOut, bool&, bool&);

#ifdef TURBOMETRICS_HAS_SSE2
template <class T>
struct Sse;
template <>
struct Sse<double> {
  using V = __m128d;
  static constexpr int lanes = 2;
  static V load(const double* p) { return _mm_loadu_pd(p); }
  static V zero() { return _mm_setzero_pd(); }
  static V max(V a, V b) { return _mm_max_pd(a, b); }
  static V or_(V a, V b) { return _mm_or_pd(a, b); }
  static V below_zero_or_nan(V v) { return _mm_cmpnge_pd(v, _mm_setzero_pd()); }
  static int equal_mask(V a, V b) { return _mm_movemask_pd(_mm_cmpeq_pd(a, b)); }
  static bool any(V v) { return _mm_movemask_pd(v) != 0; }
  // Every lane set to the largest lane.
  static V spread_max(V m) {
    m = _mm_max_pd(m, _mm_shuffle_pd(m, m, 1));
    return m;
  }
  static double first(V v) { return _mm_cvtsd_f64(v); }
};
template <>
struct Sse<float> {
  using V = __m128;
  static constexpr int lanes = 4;
  static V load(const float* p) { return _mm_loadu_ps(p); }
  static V zero() { return _mm_setzero_ps(); }
  static V max(V a, V b) { return _mm_max_ps(a, b); }
  static V or_(V a, V b) { return _mm_or_ps(a, b); }
  static V below_zero_or_nan(V v) { return _mm_cmpnge_ps(v, _mm_setzero_ps()); }
  static int equal_mask(V a, V b) { return _mm_movemask_ps(_mm_cmpeq_ps(a, b)); }
  static bool any(V v) { return _mm_movemask_ps(v) != 0; }
  static V spread_max(V m) {
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
    return m;
  }
  static double first(V v) { return static_cast<double>(_mm_cvtss_f32(v)); }
};

#ifdef TURBOMETRICS_HAS_CLONES
template <class T>
struct Avx;
template <>
struct Avx<double> {
  using V = __m256d;
  static constexpr int lanes = 4;
  TURBOMETRICS_TARGET_AVX2 static V load(const double* p) { return _mm256_loadu_pd(p); }
  TURBOMETRICS_TARGET_AVX2 static V zero() { return _mm256_setzero_pd(); }
  TURBOMETRICS_TARGET_AVX2 static V max(V a, V b) { return _mm256_max_pd(a, b); }
  TURBOMETRICS_TARGET_AVX2 static V or_(V a, V b) { return _mm256_or_pd(a, b); }
  TURBOMETRICS_TARGET_AVX2 static V below_zero_or_nan(V v) {
    return _mm256_cmp_pd(v, _mm256_setzero_pd(), _CMP_NGE_UQ);
  }
  TURBOMETRICS_TARGET_AVX2 static int equal_mask(V a, V b) {
    return _mm256_movemask_pd(_mm256_cmp_pd(a, b, _CMP_EQ_OQ));
  }
  TURBOMETRICS_TARGET_AVX2 static bool any(V v) { return _mm256_movemask_pd(v) != 0; }
  TURBOMETRICS_TARGET_AVX2 static V spread_max(V m) {
    m = _mm256_max_pd(m, _mm256_permute2f128_pd(m, m, 1));
    return _mm256_max_pd(m, _mm256_shuffle_pd(m, m, 5));
  }
  TURBOMETRICS_TARGET_AVX2 static double first(V v) { return _mm256_cvtsd_f64(v); }
};
template <>
struct Avx<float> {
  using V = __m256;
  static constexpr int lanes = 8;
  TURBOMETRICS_TARGET_AVX2 static V load(const float* p) { return _mm256_loadu_ps(p); }
  TURBOMETRICS_TARGET_AVX2 static V zero() { return _mm256_setzero_ps(); }
  TURBOMETRICS_TARGET_AVX2 static V max(V a, V b) { return _mm256_max_ps(a, b); }
  TURBOMETRICS_TARGET_AVX2 static V or_(V a, V b) { return _mm256_or_ps(a, b); }
  TURBOMETRICS_TARGET_AVX2 static V below_zero_or_nan(V v) {
    return _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_NGE_UQ);
  }
  TURBOMETRICS_TARGET_AVX2 static int equal_mask(V a, V b) {
    return _mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_EQ_OQ));
  }
  TURBOMETRICS_TARGET_AVX2 static bool any(V v) { return _mm256_movemask_ps(v) != 0; }
  TURBOMETRICS_TARGET_AVX2 static V spread_max(V m) {
    m = _mm256_max_ps(m, _mm256_permute2f128_ps(m, m, 1));
    m = _mm256_max_ps(m, _mm256_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm256_max_ps(m, _mm256_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
  }
  TURBOMETRICS_TARGET_AVX2 static double first(V v) { return static_cast<double>(_mm256_cvtss_f32(v)); }
};
#endif

// The top-label rows' kernel, written once (top_rows_body.inc) and compiled
// per instruction set: a function template cannot carry a target attribute
// per instantiation, and clang refuses AVX vectors in a function compiled
// without AVX, so the AVX2 copy is compiled inside an AVX2 target region.
namespace sse2_rows {
template <class T>
using Simd = Sse<T>;
#include "turbometrics/calibration/top_rows_body.inc"
}  // namespace sse2_rows

#ifdef TURBOMETRICS_HAS_CLONES
TURBOMETRICS_BEGIN_AVX2_REGION
namespace avx2_rows {
template <class T>
using Simd = Avx<T>;
#include "turbometrics/calibration/top_rows_body.inc"
}  // namespace avx2_rows
TURBOMETRICS_END_AVX2_REGION
#endif

template <class T, int Cols>
TopRows<T> unrolled_top_rows(bool avx2) {
#ifdef TURBOMETRICS_HAS_CLONES
  if constexpr (Cols == 0 || Cols >= Avx<T>::lanes)
    if (avx2) return avx2_rows::top_rows<T, Cols>;
#endif
  (void)avx2;
  if constexpr (Cols == 0 || Cols >= Sse<T>::lanes)
    return sse2_rows::top_rows<T, Cols>;
  else
    return top_rows_strided<T>;
}

// The kernel unrolled for `cols` columns (Unrolled + 2, for each Unrolled),
// or for any width when `cols` is none of those.
template <class T, int... Unrolled>
TopRows<T> unrolled_top_rows_for(int64_t cols, bool avx2, std::integer_sequence<int, Unrolled...>) {
  TopRows<T> chosen = unrolled_top_rows<T, 0>(avx2);
  ((cols == Unrolled + 2 ? static_cast<void>(chosen = unrolled_top_rows<T, Unrolled + 2>(avx2)) : static_cast<void>(0)),
   ...);
  return chosen;
}

// The row kernel for this layout: unrolled for 2-16 contiguous columns,
// AVX2 when the processor has it and a row holds a full AVX2 vector.
template <class T>
TopRows<T> top_rows_for(const Matrix<T>& prob) {
  constexpr int64_t W = Sse<T>::lanes;
  if (prob.col_stride != static_cast<int64_t>(sizeof(T)) || prob.cols < W) return top_rows_strided<T>;
  return unrolled_top_rows_for<T>(prob.cols, has_avx2(), std::make_integer_sequence<int, 15>{});
}
#else
template <class T>
TopRows<T> top_rows_for(const Matrix<T>&) {
  return top_rows_strided<T>;
}
#endif

// ---------------------------------------------------------------------------
// Stage 2: the table cell of each row of a batch, copy * n_bins + bin with
// copy = r mod kCopies (r counted from the batch start, a multiple of
// kCopies), and whether some value is not a probability. With np.linspace
// edges the bins are computed as numpy computes the edges (edge b is
// b * (1 / n_bins), the last one 1): a guess from x * n_bins, off by at most
// one bin, is corrected against those arithmetic edges, vectorised.

template <bool Interleave = true>
inline bool linspace_cells(const double* conf, int64_t count, int64_t n_bins, int32_t* cells) {
  const double nb = static_cast<double>(n_bins), top = nb - 1.0, step = 1.0 / nb;
  int64_t r = 0;
  bool bad = false;
#ifdef TURBOMETRICS_HAS_SSE2
  {
    const double copy_bins = Interleave ? nb : 0.0;
    const __m128d vnb = _mm_set1_pd(nb), vtop = _mm_set1_pd(top), vstep = _mm_set1_pd(step);
    const __m128d one = _mm_set1_pd(1.0), zero = _mm_setzero_pd();
    const __m128d offsets[2] = {_mm_set_pd(copy_bins, 0.0), _mm_set_pd(3.0 * copy_bins, 2.0 * copy_bins)};
    __m128d flags = zero;
    for (; r + 2 <= count; r += 2) {
      const __m128d x = _mm_loadu_pd(conf + r);
      flags = _mm_or_pd(flags, _mm_or_pd(_mm_cmpnge_pd(x, zero), _mm_cmpnle_pd(x, one)));
      // max(s, 0) returns 0 for NaN s (its second operand).
      const __m128d s = _mm_min_pd(_mm_max_pd(_mm_mul_pd(x, vnb), zero), vtop);
      const __m128d b = _mm_cvtepi32_pd(_mm_cvttpd_epi32(s));
      const __m128d b1 = _mm_add_pd(b, one);
      const __m128d down = _mm_and_pd(_mm_cmplt_pd(x, _mm_mul_pd(b, vstep)), _mm_cmpgt_pd(b, zero));
      const __m128d up = _mm_and_pd(_mm_cmpge_pd(x, _mm_mul_pd(b1, vstep)), _mm_cmplt_pd(b1, vnb));
      const __m128d fixed = _mm_add_pd(_mm_sub_pd(b, _mm_and_pd(down, one)), _mm_and_pd(up, one));
      const __m128d cell = _mm_add_pd(fixed, offsets[(r >> 1) & 1]);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(cells + r), _mm_cvttpd_epi32(cell));
    }
    bad = _mm_movemask_pd(flags) != 0;
  }
#endif
  for (; r < count; ++r) {
    const double x = conf[r];
    bad |= not_probability(x);
    double s = x * nb;
    s = s > 0.0 ? s : 0.0;
    s = s < top ? s : top;
    double b = static_cast<double>(static_cast<int32_t>(s));
    const double b1 = b + 1.0;
    b = b - ((x < b * step && b > 0.0) ? 1.0 : 0.0) + ((x >= b1 * step && b1 < nb) ? 1.0 : 0.0);
    cells[r] = static_cast<int32_t>(b) + (Interleave ? static_cast<int32_t>((r & (kCopies - 1)) * n_bins) : 0);
  }
  return bad;
}

#ifdef TURBOMETRICS_HAS_CLONES
template <bool Interleave = true>
TURBOMETRICS_TARGET_AVX2 inline bool linspace_cells_avx2(const double* conf, int64_t count, int64_t n_bins,
                                                         int32_t* cells) {
  const double nb = static_cast<double>(n_bins), top = nb - 1.0, step = 1.0 / nb;
  const double copy_bins = Interleave ? nb : 0.0;
  const __m256d vnb = _mm256_set1_pd(nb), vtop = _mm256_set1_pd(top), vstep = _mm256_set1_pd(step);
  const __m256d one = _mm256_set1_pd(1.0), zero = _mm256_setzero_pd();
  const __m256d offsets = _mm256_set_pd(3.0 * copy_bins, 2.0 * copy_bins, copy_bins, 0.0);
  __m256d flags = zero;
  int64_t r = 0;
  for (; r + 4 <= count; r += 4) {
    const __m256d x = _mm256_loadu_pd(conf + r);
    flags = _mm256_or_pd(flags, _mm256_or_pd(_mm256_cmp_pd(x, zero, _CMP_NGE_UQ), _mm256_cmp_pd(x, one, _CMP_NLE_UQ)));
    const __m256d s = _mm256_min_pd(_mm256_max_pd(_mm256_mul_pd(x, vnb), zero), vtop);
    const __m256d b = _mm256_cvtepi32_pd(_mm256_cvttpd_epi32(s));
    const __m256d b1 = _mm256_add_pd(b, one);
    const __m256d down =
        _mm256_and_pd(_mm256_cmp_pd(x, _mm256_mul_pd(b, vstep), _CMP_LT_OQ), _mm256_cmp_pd(b, zero, _CMP_GT_OQ));
    const __m256d up =
        _mm256_and_pd(_mm256_cmp_pd(x, _mm256_mul_pd(b1, vstep), _CMP_GE_OQ), _mm256_cmp_pd(b1, vnb, _CMP_LT_OQ));
    const __m256d fixed = _mm256_add_pd(_mm256_sub_pd(b, _mm256_and_pd(down, one)), _mm256_and_pd(up, one));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(cells + r), _mm256_cvttpd_epi32(_mm256_add_pd(fixed, offsets)));
  }
  const bool bad = _mm256_movemask_pd(flags) != 0;
  // r is a multiple of 4 = kCopies, so the tail's copies continue correctly.
  return linspace_cells<Interleave>(conf + r, count - r, n_bins, cells + r) || bad;
}
#endif

inline bool edge_cells(const double* conf, int64_t count, const double* edges, int64_t n_bins, bool uniform,
                       int32_t* cells) {
  bool bad = false;
  for (int64_t r = 0; r < count; ++r) {
    const double x = conf[r];
    bad |= not_probability(x);
    const int64_t b = uniform ? uniform_bin(x, edges, n_bins) : searched_bin(x, edges, n_bins);
    cells[r] = static_cast<int32_t>(b + (r & (kCopies - 1)) * n_bins);
  }
  return bad;
}

// ---------------------------------------------------------------------------
// Stages 1 and 2 of the one-table modes over rows [begin, end), a batch at a
// time: each row's confidence and correctness, then its cell. Calls
// add(values, correct, cells, count, start) for every batch (stage 3 is the
// caller's: the float table below, or the exact sums of exact_bin_table.hpp).
// Returns whether some value was not a probability; sets bad_label when some
// class index was outside [0, cols).

template <class T, class Add>
bool for_each_binned_batch(const Matrix<T>& prob, Mode mode, const BinInput& in, bool linspace, int64_t begin,
                           int64_t end, bool& bad_label, Add&& add) {
  const int64_t n_bins = in.n_bins;
  alignas(64) double conf[kBatch];
  alignas(64) uint8_t correct[kBatch];
  alignas(64) int32_t cells[kBatch];
  Labels labels{mode == Mode::top_label ? in.label : nullptr, in.label_stride};
  TopRows<T> top_rows = mode == Mode::top_label ? top_rows_for(prob) : nullptr;
  const bool avx2 = has_avx2();
  (void)avx2;
  const uint8_t* mask = reinterpret_cast<const uint8_t*>(in.label);
  const bool contiguous_double =
      mode == Mode::binary && std::is_same_v<T, double> && prob.row_stride == static_cast<int64_t>(sizeof(double));
  bool low = false, flagged = false, label_flag = false;
  for (int64_t start = begin; start < end; start += kBatch) {
    const int64_t count = std::min(kBatch, end - start);
    const double* values = conf;
    if (mode == Mode::top_label) {
      top_rows(prob, start, count, labels, RowOut{conf, correct}, low, label_flag);
    } else {
      if (contiguous_double)
        values = reinterpret_cast<const double*>(prob.data) + start;
      else
        for (int64_t r = 0; r < count; ++r) conf[r] = static_cast<double>(prob.at(start + r, 0));
      if (mask)
        for (int64_t r = 0; r < count; ++r) correct[r] = mask[(start + r) * in.label_stride] != 0;
      else
        std::memset(correct, 0, static_cast<size_t>(count));
    }
    if (linspace) {
#ifdef TURBOMETRICS_HAS_CLONES
      if (avx2)
        flagged |= linspace_cells_avx2(values, count, n_bins, cells);
      else
#endif
        flagged |= linspace_cells(values, count, n_bins, cells);
    } else {
      flagged |= edge_cells(values, count, in.edges, n_bins, in.uniform, cells);
    }
    add(values, static_cast<const uint8_t*>(correct), static_cast<const int32_t*>(cells), count, start);
  }
  bad_label = label_flag;
  return low || flagged;
}

// Stage 3 and the chunk loop of the one-table modes. The chunk's sums are
// kept per cell (kCopies copies of n_bins bins) in separate arrays and laid
// out as the table, copies added in copy order, at the end.

template <class T, bool Weighted>
void one_table_chunk(const Matrix<T>& prob, Mode mode, const BinInput& in, bool linspace, int64_t begin, int64_t end,
                     double* table, bool& bad, bool& bad_label) {
  const int64_t n_bins = in.n_bins;
  const int64_t n_cells = kCopies * n_bins;
  // Unweighted: the count and the correct count of a cell packed in one
  // integer (low and high 32 bits), flushed before either can overflow.
  std::vector<uint64_t> packed(Weighted ? 0 : static_cast<size_t>(n_cells), 0);
  std::vector<double> sum_weight(static_cast<size_t>(n_cells), 0.0), sum_conf(static_cast<size_t>(n_cells), 0.0),
      sum_correct(static_cast<size_t>(n_cells), 0.0);
  auto flush = [&]() {
    for (int64_t j = 0; j < n_cells; ++j) {
      sum_weight[j] += static_cast<double>(packed[j] & 0xFFFFFFFFu);
      sum_correct[j] += static_cast<double>(packed[j] >> 32);
      packed[j] = 0;
    }
  };
  int64_t since_flush = 0;
  bad = for_each_binned_batch(
      prob, mode, in, linspace, begin, end, bad_label,
      [&](const double* values, const uint8_t* correct, const int32_t* cells, int64_t count, int64_t start) {
        if constexpr (Weighted) {
          const char* w = in.weight + start * in.weight_stride;
          for (int64_t r = 0; r < count; ++r) {
            const double weight = *reinterpret_cast<const double*>(w + r * in.weight_stride);
            const int32_t c = cells[r];
            sum_weight[c] += weight;
            sum_conf[c] += weight * values[r];
            sum_correct[c] += keep_or_zero(weight, correct[r]);
          }
        } else {
          (void)start;
          for (int64_t r = 0; r < count; ++r) {
            const int32_t c = cells[r];
            packed[c] += 1 + (static_cast<uint64_t>(correct[r]) << 32);
            sum_conf[c] += values[r];
          }
          since_flush += count;
          if (since_flush >= (int64_t{1} << 30)) {
            flush();
            since_flush = 0;
          }
        }
      });
  if constexpr (!Weighted) flush();
  for (int64_t b = 0; b < n_bins; ++b) {
    double w = sum_weight[b], c = sum_conf[b], k = sum_correct[b];
    for (int64_t copy = 1; copy < kCopies; ++copy) {
      w += sum_weight[copy * n_bins + b];
      c += sum_conf[copy * n_bins + b];
      k += sum_correct[copy * n_bins + b];
    }
    table[b * 3 + 0] = w;
    table[b * 3 + 1] = c;
    table[b * 3 + 2] = k;
  }
}

// Rows [begin, end) in classwise mode: column k goes to table k. Rows are
// taken in batches of about 2048 values: their bins (vectorised when the
// edges are np.linspace's), then each value added to its column's table;
// only the true class's cell gets the row's correctness.
template <class T, bool Weighted>
void classwise_chunk(const Matrix<T>& prob, const BinInput& in, bool linspace, int64_t begin, int64_t end,
                     double* table, bool& bad, bool& bad_label) {
  const int64_t n_bins = in.n_bins;
  const int64_t k_count = prob.cols;
  const int64_t rows_per_batch = std::max<int64_t>(1, 2048 / k_count);
  const bool contiguous_double = std::is_same_v<T, double> && prob.col_stride == static_cast<int64_t>(sizeof(T)) &&
                                 prob.row_stride == k_count * static_cast<int64_t>(sizeof(T));
  std::vector<double> values(static_cast<size_t>(rows_per_batch * k_count));
  std::vector<int32_t> bins(values.size());
  const bool avx2 = has_avx2();
  (void)avx2;
  bool invalid = false;
  bool label_bad = false;
  for (int64_t start = begin; start < end; start += rows_per_batch) {
    const int64_t rows = std::min(rows_per_batch, end - start);
    const int64_t count = rows * k_count;
    const double* conf = values.data();
    if (contiguous_double) {
      conf = reinterpret_cast<const double*>(prob.data + start * prob.row_stride);
    } else {
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = 0; k < k_count; ++k) values[r * k_count + k] = static_cast<double>(prob.at(start + r, k));
    }
    if (linspace) {
#ifdef TURBOMETRICS_HAS_CLONES
      if (avx2)
        invalid |= linspace_cells_avx2<false>(conf, count, n_bins, bins.data());
      else
#endif
        invalid |= linspace_cells<false>(conf, count, n_bins, bins.data());
    } else {
      for (int64_t e = 0; e < count; ++e) {
        const double x = conf[e];
        invalid |= not_probability(x);
        const int64_t k = e % k_count;
        const double* edges = in.edges + (in.edges_per_table ? k * (n_bins + 1) : 0);
        bins[e] = static_cast<int32_t>(in.uniform ? uniform_bin(x, edges, n_bins) : searched_bin(x, edges, n_bins));
      }
    }
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t i = start + r;
      double w = 1.0;
      if constexpr (Weighted) w = *reinterpret_cast<const double*>(in.weight + i * in.weight_stride);
      const double* v = conf + r * k_count;
      const int32_t* b = bins.data() + r * k_count;
      for (int64_t k = 0; k < k_count; ++k) {
        double* cell = table + (k * n_bins + b[k]) * 3;
        cell[0] += w;
        cell[1] += Weighted ? w * v[k] : v[k];
      }
      if (in.label) {
        const int64_t y = *reinterpret_cast<const int64_t*>(in.label + i * in.label_stride);
        const bool inside = static_cast<uint64_t>(y) < static_cast<uint64_t>(k_count);
        label_bad |= !inside;
        const int64_t k = inside ? y : 0;
        table[(k * n_bins + b[k]) * 3 + 2] += keep_or_zero(w, inside);
      }
    }
  }
  bad = invalid;
  bad_label = label_bad;
}

}  // namespace detail

template <class T>
BinTable bin_table(const Matrix<T>& prob, Mode mode, const BinInput& in, int n_threads) {
  const int64_t n = prob.rows;
  const bool classwise = mode == Mode::classwise;
  const int64_t tables = classwise ? prob.cols : 1;
  const int64_t n_bins = in.n_bins;
  const int64_t cells = tables * n_bins * 3;
  const int64_t chunks = chunk_count(n, cells * (classwise ? 1 : detail::kCopies));
  const bool linspace = in.uniform && !in.edges_per_table && arithmetic_edges(in.edges, n_bins);
  std::vector<double> partial(static_cast<size_t>(chunks * cells), 0.0);
  std::vector<char> invalid(static_cast<size_t>(chunks), 0), invalid_label(static_cast<size_t>(chunks), 0);

  auto run = [&](auto weighted_tag) {
    constexpr bool weighted = decltype(weighted_tag)::value;
    parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
      // The chunk's table lives in this thread's memory while it is filled.
      std::vector<double> local(static_cast<size_t>(cells), 0.0);
      const auto [begin, end] = chunk_bounds(n, static_cast<int>(chunks), static_cast<int>(c));
      bool bad = false, bad_label = false;
      if (classwise)
        detail::classwise_chunk<T, weighted>(prob, in, linspace, begin, end, local.data(), bad, bad_label);
      else
        detail::one_table_chunk<T, weighted>(prob, mode, in, linspace, begin, end, local.data(), bad, bad_label);
      std::copy(local.begin(), local.end(), partial.data() + c * cells);
      invalid[c] = bad;
      invalid_label[c] = bad_label;
    });
  };
  if (in.weight)
    run(std::true_type{});
  else
    run(std::false_type{});

  BinTable result;
  result.cells.assign(partial.begin(), partial.begin() + cells);
  result.invalid = invalid[0];
  result.invalid_label = invalid_label[0];
  for (int64_t c = 1; c < chunks; ++c) {
    const double* from = partial.data() + c * cells;
    for (int64_t j = 0; j < cells; ++j) result.cells[j] += from[j];
    result.invalid |= invalid[c] != 0;
    result.invalid_label |= invalid_label[c] != 0;
  }
  return result;
}

}  // namespace turbometrics::calibration
