// A table-driven natural logarithm for AVX-512 (eight lanes, no division),
// and the binary-entropy sums built on it. Used by the AVX-512 build of the
// 2-D entropy loops (aleatoric, mutual information); the baseline and AVX2
// builds keep log.hpp's fdlibm-style logarithm, two per element. Here each
// element needs one logarithm (of a / b, see "The entropy sums" below); the
// logarithms of the b = max(p, q) are summed as the logarithm of their
// product, once per sample.
//
// Two reductions, for a in (0, 1/2] and b in [1/2, 1]:
//
// * log_small8, x in (0, 1/2]: x = 2^(e+1) m with m in [1/2, 1)
//   (vgetmantpd / vgetexppd, which also normalise subnormals). The top four
//   bits of m's fraction pick one of 16 subintervals of width 1/32; its entry
//   holds inv ~ 1 / midpoint and T = ln 2 - ln inv, a multiple of 2^-32
//   (inv chosen so, see the table). r = m inv - 1 (|r| <= 0.0303) and
//     log x = [e ln2_hi + T] + (r + [e ln2_lo + r^2 g(r)]),
//   the first bracket exact (multiples of 2^-32 below 2^10); since
//   |log x| >= ln 2 >> |r|, plain sums and a degree-6 g suffice. On
//   (1/2, 1] (e = -1, or x = 1 with e = 0) the same steps have an absolute
//   error of at most 9.1e-17 (log 1 gives 3.5e-17).
// * log_large8, x in [1/2, 1): the subinterval is read off x's own top
//   fraction bits; inv has at most 5 significant bits so that r = x inv - 1
//   is exact in one FMA (|r| <= 0.0391); T = -ln inv as two doubles; the
//   last subinterval has inv = 1, T = 0, so near 1 the result is
//   r + r^2 g(r) with r = x - 1 exact; x = 1 is looked up as the largest
//   double below 1, so it lands there too and gives exactly 0. T_hi + r is
//   a Fast2Sum (|T_hi| >= |r| or T_hi = 0).
//
// g(r) = (log1p(r) - r) / r^2 is a minimax (Remez, relative error) fit of
// degree 6 (2^-43.4 on [-0.0304, 0.0304]: r^2 g contributes below 2^-54.5
// absolute, a third of an ulp of |log x| >= ln 2) or 7 (2^-47.0 on
// [-0.0372, 0.0392]). The small polynomial is evaluated by Estrin's scheme
// (a shorter dependency chain; the large one keeps Horner's, faster here).
// The tables and coefficients were computed with 50-digit arithmetic
// (mpmath) and are written as hexadecimal literals. Checked against long
// double logl: log_small8 at most 0.68 ulp (5.6e6 arguments: uniform,
// every exponent, subnormals, just below 1/2), log_large8 at most 1.25 ulp,
// above 1 ulp only in the last subinterval, where log x ~ x - 1 (7e6
// arguments: uniform, just below 1, [63/64, 1), 1 - p, subinterval edges);
// the entropy term a log a + b log b, where |a log a| >= 3.4 |b log b| in
// that subinterval, stays within 1.84 ulp (9e6 arguments, also exponents,
// subnormals, 1/2 and the subinterval edges). The entropy sums below, against
// long double on 4096 samples per case (uniform p, p down to 2^-1074, p up
// to 1 - 2^-53, p within 1e-6 of 0 or 1, multiples of 1/64, p near 1/2;
// m = 1, 2, 4, 50, 700 models): relative error at most 2.5e-16 for one
// model, 1.5e-15 for 700 (normal results; subnormal ones to their
// spacing). Plain FMAs in a fixed order: the same bits on every call and
// thread count.
#pragma once

#include <algorithm>
#include <cstdint>

#include "turbometrics/isa.hpp"
#include "turbometrics/stability/entropy_sums.hpp"

#ifdef TURBOMETRICS_HAS_CLONES
#define TURBOMETRICS_HAS_LOG_TABLE_AVX512 1
#include <immintrin.h>

namespace turbometrics::stability::log_table {

// Tables for x in (0, 1/2] ("small"): T = ln 2 - ln inv (the exponent's
// +1 folded in) is a multiple of 2^-32, and inv a double within 2^-62 of
// 1 / midpoint of the subinterval: the inv = 2 exp(-T) nearest to
// 1 / midpoint, over multiples T of 2^-32, that is within 2^-66 (relative)
// of a double (Gal's accurate tables; found by a search in 40-digit
// arithmetic, mpmath). Then ln 2 - ln inv = T within 1.4e-20, and no
// low-order table is needed; |r| <= 0.0303.
alignas(64) inline constexpr double kSmallInv[16] = {
    0x1.f07c4f29ef093p+0, 0x1.d41d56abb29a1p+0, 0x1.bacf92614bf67p+0, 0x1.a41a307601768p+0,
    0x1.8f9c01f7c939bp+0, 0x1.7d05f42006a1ep+0, 0x1.6c16c5258314cp+0, 0x1.5c98bf3a99ba0p+0,
    0x1.4e5e02442cd28p+0, 0x1.4141696fbb130p+0, 0x1.3521d7d25546cp+0, 0x1.29e41431a1620p+0,
    0x1.1f703c6684327p+0, 0x1.15b1d5ed3a4c1p+0, 0x1.0c971231d81aap+0, 0x1.04104f89d4b26p+0};
alignas(64) inline constexpr double kSmallT[16] = {
    0x1.f8237c8000000p-6, 0x1.6f0c725000000p-4, 0x1.29552a8000000p-3, 0x1.9525fd9000000p-3,
    0x1.fb91fcc000000p-3, 0x1.2e8e2b9800000p-2, 0x1.5d1bd17c00000p-2, 0x1.89a286b000000p-2,
    0x1.b44f90cc00000p-2, 0x1.dd46203800000p-2, 0x1.02551ce600000p-1, 0x1.154c3a7a00000p-1,
    0x1.2795f59200000p-1, 0x1.393e2ac800000p-1, 0x1.4a4f8b2c00000p-1, 0x1.5ad3e82c00000p-1};
// Tables for x in [1/2, 1) ("large"): inv has at most 5 significant bits,
// so that r = x inv - 1 is exact; T = -ln inv = T_hi + T_lo (doubles); the
// last subinterval has inv = 1, T = 0.
alignas(64) inline constexpr double kLargeInv[16] = {
    0x1.f000000000000p+0, 0x1.d000000000000p+0, 0x1.c000000000000p+0, 0x1.a000000000000p+0,
    0x1.9000000000000p+0, 0x1.8000000000000p+0, 0x1.7000000000000p+0, 0x1.6000000000000p+0,
    0x1.5000000000000p+0, 0x1.4000000000000p+0, 0x1.3800000000000p+0, 0x1.2800000000000p+0,
    0x1.2000000000000p+0, 0x1.1800000000000p+0, 0x1.1000000000000p+0, 0x1.0000000000000p+0};
alignas(64) inline constexpr double kLargeHi[16] = {
    -0x1.52a2d265bc5abp-1, -0x1.307d7334f10bep-1, -0x1.1e85f5e7040d0p-1, -0x1.f128f5faf06edp-2,
    -0x1.c8ff7c79a9a22p-2, -0x1.9f323ecbf984cp-2, -0x1.739d7f6bbd007p-2, -0x1.4618bc21c5ec2p-2,
    -0x1.1675cababa60ep-2, -0x1.c8ff7c79a9a22p-3, -0x1.9525a9cf456b4p-3, -0x1.29552f81ff523p-3,
    -0x1.e27076e2af2e6p-4, -0x1.6f0d28ae56b4cp-4, -0x1.f0a30c01162a6p-5, 0x0.0p+0};
alignas(64) inline constexpr double kLargeLo[16] = {
    0x1.1883750ea4d0ap-57,  -0x1.fb590a1f566dap-57, -0x1.ef62cd2f9f1e3p-56, 0x1.328df13bb38c3p-56,
    0x1.4f689f8434012p-56,  0x1.a92e513217f5cp-59,  0x1.8c76ceb014b04p-56,  -0x1.f42decdeccf1dp-56,
    -0x1.ce63eab883717p-61, 0x1.4f689f8434012p-57,  -0x1.d904c1d4e2e26p-57, -0x1.301771c407dbfp-57,
    0x1.61578001e0162p-60,  0x1.906d99184b992p-58,  -0x1.85f325c5bbacdp-59, 0x0.0p+0};
// ln 2 rounded to a multiple of 2^-32, and the rest.
constexpr double ln2_hi = 0x1.62e42ff000000p-1;
constexpr double ln2_lo = -0x1.718432a1b0e26p-35;
// g(r) = (log1p(r) - r) / r^2 ~ sum P[j] r^j: degree 6 on [-0.0304, 0.0304]
// (relative error 2^-43.4, enough since |log x| >= ln 2 there), degree 7 on
// [-0.0372, 0.0392] (2^-47.0).
constexpr double PS[7] = {-0x1.ffffffffffffbp-2, 0x1.555555557f948p-2, -0x1.000000003f61bp-2, 0x1.99998e70e66bcp-3,
                          -0x1.5555490e9117bp-3, 0x1.24f0970df1ae6p-3, -0x1.005b2b0abf913p-3};
constexpr double PL[8] = {-0x1.fffffffffffc2p-2, 0x1.5555555555f82p-2, -0x1.000000014e19fp-2, 0x1.99999978df0b6p-3,
                          -0x1.555532364b218p-3, 0x1.24930c6a2982ap-3, -0x1.00979853b2056p-3, 0x1.c4ff96206c2a4p-4};

struct Tables {
  __m512d s_inv0, s_inv1, s_t0, s_t1;
  __m512d l_inv0, l_inv1, l_hi0, l_hi1, l_lo0, l_lo1;
};

TURBOMETRICS_TARGET_AVX512 inline Tables load_tables() {
  return {_mm512_load_pd(kSmallInv),   _mm512_load_pd(kSmallInv + 8), _mm512_load_pd(kSmallT),
          _mm512_load_pd(kSmallT + 8), _mm512_load_pd(kLargeInv),     _mm512_load_pd(kLargeInv + 8),
          _mm512_load_pd(kLargeHi),    _mm512_load_pd(kLargeHi + 8),  _mm512_load_pd(kLargeLo),
          _mm512_load_pd(kLargeLo + 8)};
}

// log(x) for x in [0, 1/2] in every lane (x = 0 gives log(2^-1074), finite).
// x = 2^(e+1) m, m in [1/2, 1); log x = [e ln2_hi + T] + r + [e ln2_lo +
// r^2 g(r)]. The first bracket is exact; |log x| >= ln 2 >> |r|, so
// plain sums suffice.
TURBOMETRICS_TARGET_AVX512 TURBOMETRICS_ALWAYS_INLINE inline __m512d log_small8(__m512d x, const Tables& t) {
  x = _mm512_max_pd(x, _mm512_set1_pd(0x1p-1074));
  const __m512d m = _mm512_getmant_pd(x, _MM_MANT_NORM_p5_1, _MM_MANT_SIGN_src);
  const __m512d e = _mm512_getexp_pd(x);
  // vpermt2pd reads the low four bits of each index: m's top fraction bits.
  const __m512i idx = _mm512_srli_epi64(_mm512_castpd_si512(m), 48);
  const __m512d inv = _mm512_permutex2var_pd(t.s_inv0, idx, t.s_inv1);
  const __m512d T = _mm512_permutex2var_pd(t.s_t0, idx, t.s_t1);
  const __m512d r = _mm512_fmsub_pd(m, inv, _mm512_set1_pd(1.0));
  const __m512d y = _mm512_fmadd_pd(e, _mm512_set1_pd(ln2_hi), T);
  const __m512d low = _mm512_mul_pd(e, _mm512_set1_pd(ln2_lo));
  const __m512d r2 = _mm512_mul_pd(r, r), r4 = _mm512_mul_pd(r2, r2);
  const __m512d g01 = _mm512_fmadd_pd(_mm512_set1_pd(PS[1]), r, _mm512_set1_pd(PS[0]));
  const __m512d g23 = _mm512_fmadd_pd(_mm512_set1_pd(PS[3]), r, _mm512_set1_pd(PS[2]));
  const __m512d g45 = _mm512_fmadd_pd(_mm512_set1_pd(PS[5]), r, _mm512_set1_pd(PS[4]));
  const __m512d g46 = _mm512_fmadd_pd(_mm512_set1_pd(PS[6]), r2, g45);
  const __m512d g = _mm512_fmadd_pd(g46, r4, _mm512_fmadd_pd(g23, r2, g01));
  const __m512d tail = _mm512_fmadd_pd(r2, g, low);
  return _mm512_add_pd(y, _mm512_add_pd(r, tail));
}

// log(x) for x in [1/2, 1] in every lane (other lanes: finite garbage).
// The subinterval is read off the top fraction bits of min(x, 1 - 2^-53)
// (so 1 falls into the last one, where log 1 = 0 exactly); log x =
// T_hi + r + [T_lo + r^2 g(r)] with r exact and a Fast2Sum of T_hi + r
// (|T_hi| >= |r| or T_hi = 0: near 1, inv = 1 and r = x - 1).
TURBOMETRICS_TARGET_AVX512 TURBOMETRICS_ALWAYS_INLINE inline __m512d log_large8(__m512d x, const Tables& t) {
  const __m512d below_one = _mm512_min_pd(x, _mm512_set1_pd(0x1.fffffffffffffp-1));
  const __m512i idx = _mm512_srli_epi64(_mm512_castpd_si512(below_one), 48);
  const __m512d inv = _mm512_permutex2var_pd(t.l_inv0, idx, t.l_inv1);
  const __m512d thi = _mm512_permutex2var_pd(t.l_hi0, idx, t.l_hi1);
  const __m512d tlo = _mm512_permutex2var_pd(t.l_lo0, idx, t.l_lo1);
  const __m512d r = _mm512_fmsub_pd(x, inv, _mm512_set1_pd(1.0));  // exact
  __m512d g = _mm512_set1_pd(PL[7]);
  g = _mm512_fmadd_pd(g, r, _mm512_set1_pd(PL[6]));
  g = _mm512_fmadd_pd(g, r, _mm512_set1_pd(PL[5]));
  g = _mm512_fmadd_pd(g, r, _mm512_set1_pd(PL[4]));
  g = _mm512_fmadd_pd(g, r, _mm512_set1_pd(PL[3]));
  g = _mm512_fmadd_pd(g, r, _mm512_set1_pd(PL[2]));
  g = _mm512_fmadd_pd(g, r, _mm512_set1_pd(PL[1]));
  g = _mm512_fmadd_pd(g, r, _mm512_set1_pd(PL[0]));
  const __m512d tail = _mm512_fmadd_pd(_mm512_mul_pd(r, r), g, tlo);
  const __m512d hi = _mm512_add_pd(thi, r);
  const __m512d err = _mm512_add_pd(_mm512_sub_pd(thi, hi), r);
  return _mm512_add_pd(hi, _mm512_add_pd(err, tail));
}

// Eight values of a row as float64 (with a mask: lanes outside it read as 0).
TURBOMETRICS_TARGET_AVX512 TURBOMETRICS_ALWAYS_INLINE inline __m512d load8(const double* p, __mmask8 k) {
  return _mm512_maskz_loadu_pd(k, p);
}
TURBOMETRICS_TARGET_AVX512 TURBOMETRICS_ALWAYS_INLINE inline __m512d load8(const float* p, __mmask8 k) {
  return _mm512_cvtps_pd(_mm256_maskz_loadu_ps(k, p));
}
TURBOMETRICS_TARGET_AVX512 TURBOMETRICS_ALWAYS_INLINE inline __m512d load8(const double* p) {
  return _mm512_loadu_pd(p);
}
TURBOMETRICS_TARGET_AVX512 TURBOMETRICS_ALWAYS_INLINE inline __m512d load8(const float* p) {
  return _mm512_cvtps_pd(_mm256_loadu_ps(p));
}

// The entropy sums (entropy_sums.hpp) with this logarithm: the division
// has its own unit, overlapped with the FMAs; log_small8 serves a / b on all
// of (0, 1].

// log P for P = 1 - C, as entropy_sums.hpp's log_product (lanes with P in
// (0, 1]).
TURBOMETRICS_TARGET_AVX512 TURBOMETRICS_ALWAYS_INLINE inline __m512d log_product8(__m512d product, __m512d complement,
                                                                                  const Tables& t) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d u = _mm512_sub_pd(one, complement);  // fl(1 - C), in (1/2, 1] when C < 1/2
  // 1 - C - u exactly (u - 1 is exact, and so is -C - (u - 1)).
  const __m512d rounding = _mm512_sub_pd(_mm512_sub_pd(_mm512_setzero_pd(), complement), _mm512_sub_pd(u, one));
  const __m512d near_one = _mm512_add_pd(log_large8(u, t), _mm512_div_pd(rounding, u));
  const __mmask8 small = _mm512_cmp_pd_mask(complement, _mm512_set1_pd(0.5), _CMP_LT_OQ);
  return _mm512_mask_blend_pd(small, log_small8(product, t), near_one);
}

// One element per lane: ratio_terms += a log(a / b), product *= b,
// complement += (1 - b) product_old; lowest = min(lowest, a). Every p
// outside [0, 1] gives a < 0; NaN gives a = NaN and a NaN ratio term.
struct EntropyLanes {
  __m512d ratio_terms, product, complement;
};
TURBOMETRICS_TARGET_AVX512 TURBOMETRICS_ALWAYS_INLINE inline void entropy_update8(__m512d p, EntropyLanes& e,
                                                                                  __m512d& lowest, const Tables& t) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d q = _mm512_sub_pd(one, p);
  const __m512d a = _mm512_min_pd(p, q), b = _mm512_max_pd(p, q);  // NaN p: q (NaN) in both
  lowest = _mm512_min_pd(lowest, a);
  e.ratio_terms = _mm512_fmadd_pd(a, log_small8(_mm512_div_pd(a, b), t), e.ratio_terms);
  e.complement = _mm512_fmadd_pd(_mm512_sub_pd(one, b), e.product, e.complement);
  e.product = _mm512_mul_pd(e.product, b);
}

// The update of the span's accumulators at j..j+8 (whole vectors: the
// arrays hold kEntropySpan).
TURBOMETRICS_TARGET_AVX512 TURBOMETRICS_ALWAYS_INLINE inline void entropy_update_span8(__m512d p, EntropySpan& s,
                                                                                       int64_t j, __m512d& lowest,
                                                                                       const Tables& t) {
  EntropyLanes e{_mm512_load_pd(s.ratio_terms + j), _mm512_load_pd(s.product + j), _mm512_load_pd(s.complement + j)};
  entropy_update8(p, e, lowest, t);
  _mm512_store_pd(s.ratio_terms + j, e.ratio_terms);
  _mm512_store_pd(s.product + j, e.product);
  _mm512_store_pd(s.complement + j, e.complement);
}

// One row segment: the update above for jj < len, and sum[jj] += p when sum
// is not null. Returns whether some p was below 0 or above 1. The same
// segment of `next` (when not null) is prefetched into L1 as this one is
// read, one line per line, and that of `after` into L2: the hardware
// prefetcher alone leaves the loop waiting on memory (1.6x the time; the L2
// prefetch saves another ~3 %).
template <class T>
TURBOMETRICS_TARGET_AVX512 inline bool entropy_row(const T* row, const T* next, const T* after, EntropySpan& s,
                                                   double* sum, int64_t len, const Tables& t) {
  __m512d lowest = _mm512_setzero_pd();
  int64_t j = 0;
  for (; j + 8 <= len; j += 8) {
    if (next) _mm_prefetch(reinterpret_cast<const char*>(next + j), _MM_HINT_T0);
    if (after) _mm_prefetch(reinterpret_cast<const char*>(after + j), _MM_HINT_T1);
    const __m512d p = load8(row + j);
    entropy_update_span8(p, s, j, lowest, t);
    if (sum) _mm512_storeu_pd(sum + j, _mm512_add_pd(_mm512_loadu_pd(sum + j), p));
  }
  if (j < len) {
    const __mmask8 k = __mmask8((1u << (len - j)) - 1u);
    const __m512d p = load8(row + j, k);  // 0 in the other lanes
    entropy_update_span8(p, s, j, lowest, t);
    if (sum) _mm512_mask_storeu_pd(sum + j, k, _mm512_add_pd(_mm512_maskz_loadu_pd(k, sum + j), p));
  }
  return _mm512_cmp_pd_mask(lowest, _mm512_setzero_pd(), _CMP_LT_OQ) != 0;
}

// h[jj] += ratio_terms + log product for jj < len (whole vectors: the arrays
// hold kEntropySpan), and the accumulators restart.
TURBOMETRICS_TARGET_AVX512 inline void fold_products(EntropySpan& s, double* h, int64_t len, const Tables& t) {
  for (int64_t j = 0; j < len; j += 8) {
    const __mmask8 k = len - j >= 8 ? __mmask8(0xff) : __mmask8((1u << (len - j)) - 1u);
    const __m512d log_p = log_product8(_mm512_load_pd(s.product + j), _mm512_load_pd(s.complement + j), t);
    const __m512d total = _mm512_add_pd(_mm512_load_pd(s.ratio_terms + j), log_p);
    _mm512_mask_storeu_pd(h + j, k, _mm512_add_pd(_mm512_maskz_loadu_pd(k, h + j), total));
  }
  s.restart();
}

// For jj < len: h[jj] = sum over the models of p log p + q log q (q = 1 - p,
// 0 log 0 = 0; model i's value at rows[i * step + jj]) and, when sum is not
// null, sum[jj] = the sum of p. Returns whether some p was below 0 or above
// 1; a NaN p makes its h[jj] NaN. Spans of kEntropySpan samples, rows in
// model order, chunks of kRowsPerProduct rows: the same operations for
// every sample whatever the block or thread.
template <class T>
TURBOMETRICS_TARGET_AVX512 inline bool entropy_sums(const T* rows, int64_t step, int64_t models, int64_t len, double* h,
                                                    double* sum) {
  const Tables t = load_tables();
  EntropySpan s;
  s.restart();  // and after every fold
  bool bad = false;
  for_each_span_row(
      models, len, h, sum,
      [&](int64_t i, int64_t j0, int64_t span) {
        // Prefetch the next row's segment (after the last row, the first
        // row's next segment) into L1, and the one after it into L2.
        const T* next = i + 1 < models ? rows + (i + 1) * step + j0
                                       : (j0 + kEntropySpan < len ? rows + j0 + kEntropySpan : nullptr);
        const T* after = i + 2 < models ? rows + (i + 2) * step + j0 : nullptr;
        bad |= entropy_row(rows + i * step + j0, next, after, s, sum ? sum + j0 : nullptr, span, t);
      },
      [&](int64_t j0, int64_t span) { fold_products(s, h + j0, span, t); });
  return bad;
}

// sum[jj] := p log p + q log q of the mean p = sum[jj] / models (in [0, 1]
// when every summand is), for jj < len: the same formula for one model.
TURBOMETRICS_TARGET_AVX512 inline void entropy_of_means(double* sum, double models, int64_t len) {
  const Tables t = load_tables();
  const __m512d divisor = _mm512_set1_pd(models);
  __m512d lowest = _mm512_setzero_pd();
  for (int64_t j = 0; j < len; j += 8) {
    const __mmask8 k = len - j >= 8 ? __mmask8(0xff) : __mmask8((1u << (len - j)) - 1u);
    const __m512d mean = _mm512_div_pd(_mm512_maskz_loadu_pd(k, sum + j), divisor);
    EntropyLanes e{_mm512_setzero_pd(), _mm512_set1_pd(1.0), _mm512_setzero_pd()};
    entropy_update8(mean, e, lowest, t);
    _mm512_mask_storeu_pd(sum + j, k, _mm512_add_pd(e.ratio_terms, log_product8(e.product, e.complement, t)));
  }
}

}  // namespace turbometrics::stability::log_table
#endif
