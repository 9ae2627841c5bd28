// The order statistics behind the interquartile range: per sample (column of
// a block of P) the sorted values at four positions, for every sample of a
// tile at once (lane-wise, with vector min and max).
//
// The network is Knuth's merge exchange (Batcher's odd-even merge sort) for
// m wires. Its phases p >= g (g a power of two) only compare wires of the
// same residue class mod g and leave every class sorted; so those phases are
// replaced by sorting each class (at most 32 wires with AVX-512, 16
// otherwise) in registers, with a network compiled per class size: a class
// is loaded once and stored once. The phases 2 <= p < g run, pruned, as
// chains over the tile (run_chains). The last phase merges the sorted even
// and odd wires; instead, each wanted rank is selected from the two sorted
// halves directly (select_merged: about r minima of maxima for rank r,
// without stores). For m = 50 with AVX-512: two classes of 25 wires (138
// comparators each), no chains, and the selection, instead of the 344
// comparators of the pruned network in chains.
//
// With AVX-512 a comparator is one floating-point min and one integer max:
// both run at one zmm instruction per cycle, on different pipes, so that a
// comparator on 8 lanes costs one cycle instead of two. For probabilities
// the signed integer order of the bit patterns is the floating-point order
// (-0.0, the smallest integer, is the only value they place differently:
// below +0.0 rather than equal to it), so every output has the value the
// floating-point network gives. Values that are not probabilities (NaN,
// negative, above 1) are seen as they are loaded; the caller then raises and
// the network's results are unused. Where a sample holds zeros of both
// signs, the sign of a zero result may differ from NumPy's (whose choice
// follows its partition order); otherwise results equal NumPy's bit for bit.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "turbometrics/isa.hpp"
#include "turbometrics/portable.hpp"

#define TURBOMETRICS_QUARTILES_PREFETCH_L2(ADDRESS) TURBOMETRICS_PREFETCH(ADDRESS, 2)
#define TURBOMETRICS_QUARTILES_PREFETCH_L1(ADDRESS) TURBOMETRICS_PREFETCH(ADDRESS, 3)

namespace turbometrics::stability::detail {

// Knuth's merge exchange for m wires: emit(lower wire, upper wire, phase p)
// for every comparator, in order (the smaller value goes to the lower wire).
template <class Emit>
constexpr void merge_exchange(int64_t m, Emit&& emit) {
  if (m < 2) return;
  int t = 0;
  while ((int64_t{1} << t) < m) ++t;
  for (int64_t p = int64_t{1} << (t - 1); p > 0; p >>= 1) {
    int64_t q = int64_t{1} << (t - 1), r = 0, d = p;
    while (true) {
      for (int64_t i = 0; i < m - d; ++i)
        if ((i & p) == r) emit(i, i + d, p);
      if (q == p) break;
      d = q - p;
      q >>= 1;
      r = p;
    }
  }
}

// The comparators of the phases 2 <= p < classes of the merge exchange of m
// wires, keeping only those that can influence the wires in `outputs`.
inline std::vector<std::pair<int32_t, int32_t>> selection_network(int64_t m, int64_t classes,
                                                                  const std::vector<int64_t>& outputs) {
  std::vector<std::pair<int32_t, int32_t>> all;
  merge_exchange(m, [&](int64_t lo, int64_t hi, int64_t p) {
    if (p >= 2 && p < classes) all.emplace_back(static_cast<int32_t>(lo), static_cast<int32_t>(hi));
  });
  std::vector<char> needed(static_cast<size_t>(m), 0);
  for (int64_t o : outputs) needed[o] = 1;
  std::vector<std::pair<int32_t, int32_t>> kept;
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (needed[it->first] || needed[it->second]) {
      kept.push_back(*it);
      needed[it->first] = needed[it->second] = 1;
    }
  }
  std::reverse(kept.begin(), kept.end());
  return kept;
}

// One instruction of a chained evaluation of a network (see chain_program).
struct ChainOp {
  enum Kind : int8_t { start, step, end };
  Kind kind;
  bool carried_is_lo;  // step: the carried value enters as the comparator's lower wire
  bool carry_lo;       // step: the smaller output is carried on (else the larger)
  int32_t load = -1;   // start, step: the wire read
  int32_t store = -1;  // step, end: the wire written
};

// The network as chains: consecutive comparators that share a wire, the
// shared value kept in registers between them, so that a comparator reads
// and writes one wire instead of two (the lane-wise network is bound by its
// stores). Comparators are reordered only where that keeps every wire's
// comparators in their order, so the results are those of the network.
// Greedy: a chain starts at the first comparator not yet run and goes on
// with the next comparator of one of the wires just written, if that one is
// due (the earlier comparators on its other wire have run).
inline std::vector<ChainOp> chain_program(int64_t m, const std::vector<std::pair<int32_t, int32_t>>& network) {
  const int64_t n = static_cast<int64_t>(network.size());
  std::vector<std::vector<int64_t>> on_wire(static_cast<size_t>(m));
  for (int64_t c = 0; c < n; ++c) {
    on_wire[network[c].first].push_back(c);
    on_wire[network[c].second].push_back(c);
  }
  std::vector<size_t> next(static_cast<size_t>(m), 0);  // per wire: its first comparator not run
  std::vector<char> run(static_cast<size_t>(n), 0);
  auto due = [&](int32_t w) -> int64_t {  // the next comparator of wire w if it can run now, else -1
    if (next[w] == on_wire[w].size()) return -1;
    const int64_t c = on_wire[w][next[w]];
    const int32_t other = network[c].first == w ? network[c].second : network[c].first;
    return on_wire[other][next[other]] == c ? c : -1;
  };
  auto mark = [&](int64_t c) {
    run[c] = 1;
    ++next[network[c].first];
    ++next[network[c].second];
  };
  std::vector<ChainOp> program;
  int64_t first = 0;
  while (true) {
    while (first < n && run[first]) ++first;
    if (first == n) break;
    // The first comparator not run is always due.
    int64_t c = first;
    int32_t carried = network[c].first;
    program.push_back({ChainOp::start, false, false, carried, -1});
    while (true) {
      const auto [lo, hi] = network[c];
      mark(c);
      // Carry on the output whose wire's next comparator is due (the lower
      // one first), else end the chain.
      const int64_t after_lo = due(lo), after_hi = due(hi);
      const bool carry_lo = after_lo >= 0 || after_hi < 0;
      const bool carried_is_lo = carried == lo;
      program.push_back({ChainOp::step, carried_is_lo, carry_lo, carried_is_lo ? hi : lo, carry_lo ? hi : lo});
      carried = carry_lo ? lo : hi;
      const int64_t following = carry_lo ? after_lo : after_hi;
      if (following < 0) break;
      c = following;
    }
    program.push_back({ChainOp::end, false, false, -1, carried});
  }
  return program;
}

// Largest class sorted in registers: 32 wires with AVX-512 (32 vector
// registers), 16 otherwise.
inline int64_t max_class(Isa isa) { return isa == Isa::avx512 ? 32 : 16; }

// The last phase (p = 1) merges the sorted even wires A (ceil(m / 2)
// values) and odd wires B (floor(m / 2)). Instead of its comparators, the
// value of rank r of the union is selected directly: the minimum over the
// splits i of max(A[i - 1], B[r - i]) (the first r + 1 values taken as i
// from A and r + 1 - i from B; a missing side counts as -infinity), for i
// from first to last.
inline void merge_splits(int64_t m, int64_t r, int64_t& first, int64_t& last) {
  first = std::max<int64_t>(0, r + 1 - m / 2);
  last = std::min<int64_t>(r + 1, (m + 1) / 2);
}

// How the order statistics of m values are computed: `classes` residue
// classes sorted in registers; if classes > 1, `program` (the phases
// 2 <= p < classes, pruned to the wires the merge reads, as chains) and the
// merge; the sorted values of the given ranks are read.
struct QuartilePlan {
  int64_t models = 0;
  int64_t classes = 1;
  int64_t ranks[4] = {0, 0, 0, 0};
  std::vector<ChainOp> program;
};

inline QuartilePlan quartile_plan(int64_t m, const int64_t (&ranks)[4], Isa isa) {
  QuartilePlan plan;
  plan.models = m;
  while ((m + plan.classes - 1) / plan.classes > max_class(isa)) plan.classes *= 2;
  std::copy(ranks, ranks + 4, plan.ranks);
  if (plan.classes > 1) {
    std::vector<int64_t> read;
    for (int64_t r : ranks) {
      int64_t first, last;
      merge_splits(m, r, first, last);
      for (int64_t i = first; i <= last; ++i) {
        if (i > 0) read.push_back(2 * (i - 1));
        if (r - i >= 0) read.push_back(2 * (r - i) + 1);
      }
    }
    plan.program = chain_program(m, selection_network(m, plan.classes, read));
  }
  return plan;
}

// W bytes of lanes of T, as one vector (GNU vector extensions; compilers do
// not vectorise the plain loops of the portable version well).
template <class T, int W>
struct Pack {
  static constexpr int lanes = W / static_cast<int>(sizeof(T));
  using Int = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;
  using Bits = std::make_unsigned_t<Int>;
  static constexpr Bits one_bits = sizeof(T) == 8 ? Bits(0x3FF0000000000000ull) : Bits(0x3F800000u);
#if defined(__GNUC__)
  typedef T V __attribute__((vector_size(W)));
  typedef Int I __attribute__((vector_size(W)));
  typedef Bits U __attribute__((vector_size(W)));
  TURBOMETRICS_ALWAYS_INLINE static void load(V& v, const T* p) { std::memcpy(&v, p, sizeof v); }
  TURBOMETRICS_ALWAYS_INLINE static void store(T* p, const V& v) { std::memcpy(p, &v, sizeof v); }
  // lo, hi = min, max of (lo, hi). Mixed: the max on the integer bit
  // patterns (probabilities only).
  template <bool Mixed>
  TURBOMETRICS_ALWAYS_INLINE static void order(V& lo, V& hi) {
    const V a = lo, z = hi;
    lo = z < a ? z : a;
    if constexpr (Mixed) {
      const I ai = (I)a, zi = (I)z;
      hi = (V)(ai < zi ? zi : ai);
    } else {
      hi = a < z ? z : a;
    }
  }
  // a = max(a, b) (Mixed: on the integer bit patterns), a = min(a, b).
  template <bool Mixed>
  TURBOMETRICS_ALWAYS_INLINE static void raise_to(V& a, const V& b) {
    if constexpr (Mixed) {
      const I ai = (I)a, bi = (I)b;
      a = (V)(ai < bi ? bi : ai);
    } else {
      a = a < b ? b : a;
    }
  }
  TURBOMETRICS_ALWAYS_INLINE static void lower_to(V& a, const V& b) { a = b < a ? b : a; }
  TURBOMETRICS_ALWAYS_INLINE static void fill(V& v, T x) {
    for (int l = 0; l < lanes; ++l) v[l] = x;
  }
  // Lane-wise, of the values checked: the largest magnitude (bit pattern
  // without the sign, shifted left by one: NaN and infinity above every
  // number) and the smallest value (-0.0 is not below 0; NaN leaves it).
  struct Seen {
    U magnitude = {};
    V lowest = {};
  };
  TURBOMETRICS_ALWAYS_INLINE static void check(const V& v, Seen& seen) {
    const U magnitude = (U)v << 1;
    seen.magnitude = seen.magnitude < magnitude ? magnitude : seen.magnitude;
    seen.lowest = v < seen.lowest ? v : seen.lowest;
  }
  static bool all_valid(const Seen& seen) {
    for (int l = 0; l < lanes; ++l)
      if (seen.magnitude[l] > Bits(one_bits << 1) || seen.lowest[l] < T(0)) return false;
    return true;
  }
#else
  struct V {
    T v[lanes];
  };
  static void load(V& v, const T* p) { std::memcpy(&v, p, sizeof v); }
  static void store(T* p, const V& v) { std::memcpy(p, &v, sizeof v); }
  template <bool Mixed>
  static void order(V& lo, V& hi) {
    for (int l = 0; l < lanes; ++l) {
      const T a = lo.v[l], z = hi.v[l];
      lo.v[l] = z < a ? z : a;
      hi.v[l] = a < z ? z : a;
    }
  }
  template <bool Mixed>
  static void raise_to(V& a, const V& b) {
    for (int l = 0; l < lanes; ++l) a.v[l] = a.v[l] < b.v[l] ? b.v[l] : a.v[l];
  }
  static void lower_to(V& a, const V& b) {
    for (int l = 0; l < lanes; ++l) a.v[l] = b.v[l] < a.v[l] ? b.v[l] : a.v[l];
  }
  static void fill(V& v, T x) {
    for (int l = 0; l < lanes; ++l) v.v[l] = x;
  }
  struct Seen {
    bool invalid = false;
  };
  static void check(const V& v, Seen& seen) {
    for (int l = 0; l < lanes; ++l) seen.invalid |= !(v.v[l] >= T(0) && v.v[l] <= T(1));
  }
  static bool all_valid(const Seen& seen) { return !seen.invalid; }
#endif
};

// The merge exchange network of S wires as a constant table.
template <int S>
struct SortNetwork {
  struct Pair {
    int lo, hi;
  };
  static constexpr int count() {
    int n = 0;
    merge_exchange(S, [&](int64_t, int64_t, int64_t) { ++n; });
    return n;
  }
  static constexpr std::array<Pair, count()> make() {
    std::array<Pair, count()> pairs{};
    int n = 0;
    merge_exchange(
        S, [&](int64_t lo, int64_t hi, int64_t) { pairs[n++] = Pair{static_cast<int>(lo), static_cast<int>(hi)}; });
    return pairs;
  }
  static constexpr std::array<Pair, count()> pairs = make();
};

template <class P, bool Mixed, int S, size_t... C>
TURBOMETRICS_ALWAYS_INLINE inline void sort_registers(typename P::V (&w)[S], std::index_sequence<C...>) {
  (P::template order<Mixed>(w[SortNetwork<S>::pairs[C].lo], w[SortNetwork<S>::pairs[C].hi]), ...);
}

// Sorts S wires of one vector of lanes: wire k read at src + k * src_step
// (and checked), sorted in registers, written to dst + k * dst_step (src
// and dst may be the same). With each load, the same row `ahead` values
// further is prefetched into L2 (prefetcht1; prefetcht0 and prefetchnta,
// which fill L1 and evict the tile being sorted, took 31 ms instead of
// 17-19 for P of 50 x 1e6 on 2 threads), and the row's next line, read by
// the next vector of lanes, from L2 into L1 (15-16 ms instead of 17-18;
// two lines ahead 16 ms, four 17). The loads and stores are unrolled (fold
// expressions), so that w lives in registers.
template <class T, int W, bool Mixed, int S, size_t... K>
TURBOMETRICS_ALWAYS_INLINE inline void sort_wires(const T* src, int64_t src_step, int64_t ahead, T* dst,
                                                  int64_t dst_step, typename Pack<T, W>::Seen& seen,
                                                  std::index_sequence<K...>) {
  using P = Pack<T, W>;
  constexpr int64_t next_line = 64 / static_cast<int64_t>(sizeof(T));
  typename P::V w[S];
  ((P::load(w[K], src), TURBOMETRICS_QUARTILES_PREFETCH_L2(src + ahead),
    TURBOMETRICS_QUARTILES_PREFETCH_L1(src + next_line), src += src_step),
   ...);
  (P::check(w[K], seen), ...);
  sort_registers<P, Mixed, S>(w, std::make_index_sequence<SortNetwork<S>::count()>{});
  ((P::store(dst, w[K]), dst += dst_step), ...);
}

template <class T, int W, bool Mixed, int S>
TURBOMETRICS_ALWAYS_INLINE inline void sort_class(const T* src, int64_t src_step, int64_t ahead, T* dst,
                                                  int64_t dst_step, typename Pack<T, W>::Seen& seen) {
  sort_wires<T, W, Mixed, S>(src, src_step, ahead, dst, dst_step, seen, std::make_index_sequence<S>{});
}

// sort_class<S> as a function of its own, compiled for the instruction set
// of its vector width (W = 64: AVX-512, 32: AVX2 with FMA, 16: the baseline,
// the three copies dispatch() holds). Inlined
// into the tile loop, the networks of every class size made one function so
// large that GCC 12's value numbering (FRE) alone took 9.4 of the 21 s that
// register_stability.cpp took to compile (-ftime-report); apart, it
// compiles in about half the time. A call per class of wires costs nothing
// measurable (iqr of 10 x 1e6 on one thread: 4.8-5.3 ms either way): its
// loads, sorts and stores stay in the callee.
template <class T, int W, bool Mixed, int S>
struct ClassSorter;

template <class T, bool Mixed, int S>
struct ClassSorter<T, 16, Mixed, S> {
  TURBOMETRICS_NOINLINE static void run(const T* src, int64_t src_step, int64_t ahead, T* dst, int64_t dst_step,
                                        typename Pack<T, 16>::Seen& seen) {
    sort_class<T, 16, Mixed, S>(src, src_step, ahead, dst, dst_step, seen);
  }
};

#ifdef TURBOMETRICS_HAS_CLONES
template <class T, bool Mixed, int S>
struct ClassSorter<T, 32, Mixed, S> {
  TURBOMETRICS_NOINLINE TURBOMETRICS_TARGET_AVX2_FMA static void run(const T* src, int64_t src_step, int64_t ahead,
                                                                     T* dst, int64_t dst_step,
                                                                     typename Pack<T, 32>::Seen& seen) {
    sort_class<T, 32, Mixed, S>(src, src_step, ahead, dst, dst_step, seen);
  }
};

template <class T, bool Mixed, int S>
struct ClassSorter<T, 64, Mixed, S> {
  TURBOMETRICS_NOINLINE TURBOMETRICS_TARGET_AVX512 static void run(const T* src, int64_t src_step, int64_t ahead,
                                                                   T* dst, int64_t dst_step,
                                                                   typename Pack<T, 64>::Seen& seen) {
    sort_class<T, 64, Mixed, S>(src, src_step, ahead, dst, dst_step, seen);
  }
};
#endif

// sort_class for a run-time size 1 <= size <= MaxClass.
template <class T, int W, bool Mixed, int... S>
TURBOMETRICS_ALWAYS_INLINE inline void sort_class_of_size(int64_t size, const T* src, int64_t src_step, int64_t ahead,
                                                          T* dst, int64_t dst_step, typename Pack<T, W>::Seen& seen,
                                                          std::integer_sequence<int, S...>) {
  ((size == S + 1 ? ClassSorter<T, W, Mixed, S + 1>::run(src, src_step, ahead, dst, dst_step, seen) : void()), ...);
}

// Tiles of samples sorted lane-wise: 512 bytes per wire (64 float64 lanes:
// the merge selection keeps 8 running minima in flight). The row segments
// are prefetched 1024 bytes (two tiles) ahead of the tile read. Measured,
// 2 threads, P of 50 x 1e6: tiles of 64 to 256 bytes, and 512, 2048 or
// 4096 bytes ahead, were not faster.
constexpr int64_t kTileBytes = 512;
constexpr int64_t kAheadBytes = 1024;

// One comparator on a tile of N vectors per wire: x (the carried wire, in
// registers) enters as the lower wire (CarriedIsLo) or the upper one, the
// other wire is read from `in`; the smaller output is carried on (CarryLo)
// and the larger written to `out`, or the reverse.
template <class P, bool Mixed, bool CarriedIsLo, bool CarryLo, class T, int64_t N>
TURBOMETRICS_ALWAYS_INLINE inline void chain_step(typename P::V (&x)[N], const T* in, T* out) {
  for (int64_t k = 0; k < N; ++k) {
    typename P::V y;
    P::load(y, in + k * P::lanes);
    if constexpr (CarriedIsLo)
      P::template order<Mixed>(x[k], y);
    else
      P::template order<Mixed>(y, x[k]);
    if constexpr (CarriedIsLo == CarryLo) {
      P::store(out + k * P::lanes, y);
    } else {
      P::store(out + k * P::lanes, x[k]);
      x[k] = y;
    }
  }
}

// Runs a chain program on a tile of L lanes per wire (wire w at s + w * L),
// one step per comparator: the carried wire's L lanes stay in registers (as
// 64-byte vectors: one AVX-512 register, two AVX2 or four SSE2 registers),
// the other wire is read and one of the two outputs written.
template <class T, int W, int64_t L, bool Mixed>
TURBOMETRICS_ALWAYS_INLINE inline void run_chains(T* s, const ChainOp* program, int64_t size) {
  using P = Pack<T, W>;
  constexpr int64_t per = P::lanes;
  constexpr int64_t N = L / per;
  static_assert(L % per == 0, "a tile is whole vectors");
  typename P::V x[N] = {};
  for (int64_t c = 0; c < size; ++c) {
    const ChainOp op = program[c];
    if (op.kind == ChainOp::start) {
      for (int64_t k = 0; k < N; ++k) P::load(x[k], s + op.load * L + k * per);
      continue;
    }
    if (op.kind == ChainOp::end) {
      for (int64_t k = 0; k < N; ++k) P::store(s + op.store * L + k * per, x[k]);
      continue;
    }
    const T* in = s + op.load * L;
    T* out = s + op.store * L;
    if (op.carried_is_lo) {
      if (op.carry_lo)
        chain_step<P, Mixed, true, true>(x, in, out);
      else
        chain_step<P, Mixed, true, false>(x, in, out);
    } else {
      if (op.carry_lo)
        chain_step<P, Mixed, false, true>(x, in, out);
      else
        chain_step<P, Mixed, false, false>(x, in, out);
    }
  }
}

// The values of rank r among the m values of each lane of a tile whose even
// and odd wires are sorted (wire w at s + w * L), to out[0 .. L). The lanes
// are taken as 64-byte vectors, all at once: the running minima are
// independent, so the loop is not bound by their latency.
template <class T, int W, int64_t L, bool Mixed>
TURBOMETRICS_ALWAYS_INLINE inline void select_merged(const T* s, int64_t m, int64_t r, T* out) {
  using P = Pack<T, W>;
  constexpr int64_t per = P::lanes;
  constexpr int64_t N = L / per;
  int64_t first, last;
  merge_splits(m, r, first, last);
  typename P::V best[N], a, b;
  for (int64_t k = 0; k < N; ++k) P::fill(best[k], std::numeric_limits<T>::infinity());
  if (first == 0) {  // r + 1 values of B
    for (int64_t k = 0; k < N; ++k) P::load(best[k], s + (2 * r + 1) * L + k * per);
    ++first;
  }
  if (last == r + 1) {  // r + 1 values of A
    for (int64_t k = 0; k < N; ++k) {
      P::load(a, s + 2 * r * L + k * per);
      P::lower_to(best[k], a);
    }
    --last;
  }
  for (int64_t i = first; i <= last; ++i) {
    const T* from_a = s + 2 * (i - 1) * L;
    const T* from_b = s + (2 * (r - i) + 1) * L;
    for (int64_t k = 0; k < N; ++k) {
      P::load(a, from_a + k * per);
      P::load(b, from_b + k * per);
      P::template raise_to<Mixed>(a, b);
      P::lower_to(best[k], a);
    }
  }
  for (int64_t k = 0; k < N; ++k) P::store(out + k * per, best[k]);
}

// Sorts every class of a tile (W-byte vectors of lanes): model i's L values
// at src + i * src_step, the sorted classes written to the tile s (wire i at
// s + i * L); prefetches `ahead` values further along each row.
template <class T, int W, bool Mixed, int MaxClass, int64_t L>
TURBOMETRICS_ALWAYS_INLINE inline void sort_classes(const T* src, int64_t src_step, int64_t ahead, T* s,
                                                    const QuartilePlan& plan, typename Pack<T, W>::Seen& seen) {
  constexpr int64_t per = Pack<T, W>::lanes;
  const int64_t g = plan.classes, m = plan.models;
  for (int64_t v = 0; v < L; v += per)
    for (int64_t c = 0; c < g; ++c)
      sort_class_of_size<T, W, Mixed>((m - c + g - 1) / g, src + c * src_step + v, g * src_step, ahead, s + c * L + v,
                                      g * L, seen, std::make_integer_sequence<int, MaxClass>{});
}

// The order statistics of a tile: the classes sorted into the tile s, the
// chains run, and out[w] pointed at the L values of rank plan.ranks[w] (a
// wire of s, or picked + w * L when the merge selects them).
template <class T, int W, bool Mixed, int MaxClass, int64_t L>
TURBOMETRICS_ALWAYS_INLINE inline void tile_order_statistics(const T* src, int64_t src_step, int64_t ahead, T* s,
                                                             T* picked, const QuartilePlan& plan,
                                                             typename Pack<T, W>::Seen& seen, const T* out[4]) {
  const int64_t m = plan.models;
  sort_classes<T, W, Mixed, MaxClass, L>(src, src_step, ahead, s, plan, seen);
  run_chains<T, W, L, Mixed>(s, plan.program.data(), static_cast<int64_t>(plan.program.size()));
  for (int w = 0; w < 4; ++w) {
    out[w] = s + plan.ranks[w] * L;
    if (plan.classes == 1) continue;
    select_merged<T, W, L, Mixed>(s, m, plan.ranks[w], picked + w * L);
    out[w] = picked + w * L;
  }
}

// The four order statistics of every sample of a block (len samples, model
// i's at rows[i * step ..]) to order[0..3][j]; returns whether some value
// was not a probability (NaN, or outside [0, 1]).
template <class T, int W, bool Mixed, int MaxClass>
TURBOMETRICS_ALWAYS_INLINE inline bool quartile_block(const T* rows, int64_t step, int64_t len,
                                                      const QuartilePlan& plan, T* order[4]) {
  constexpr int64_t L = kTileBytes / sizeof(T);
  using P = Pack<T, W>;
  const int64_t m = plan.models;
  // Wires aligned to 64 bytes: a vector store across two cache lines
  // costs two.
  std::vector<T> state(static_cast<size_t>((m + 4) * L + 64 / sizeof(T)));
  T* s = state.data();
  s += ((64 - reinterpret_cast<uintptr_t>(s) % 64) % 64) / sizeof(T);
  T* picked = s + m * L;  // the merge's output: 4 wires
  typename P::Seen seen;
  for (int64_t t0 = 0; t0 < len; t0 += L) {
    const int64_t lanes = std::min(L, len - t0);
    const T* src = rows + t0;
    int64_t src_step = step;
    // The row segments of the tile after next are fetched while this one is
    // sorted, one line with each line read (issued all at once, most
    // requests were dropped and the loop waited on memory).
    int64_t ahead = kAheadBytes / static_cast<int64_t>(sizeof(T));
    if (lanes < L) {
      // A partial tile (the last one): its lanes copied into the tile, zeros
      // after them.
      for (int64_t i = 0; i < m; ++i) {
        std::copy(rows + i * step + t0, rows + i * step + t0 + lanes, s + i * L);
        std::fill(s + i * L + lanes, s + (i + 1) * L, T(0));
      }
      src = s;
      src_step = L;
      ahead = 0;
    }
    const T* out[4];
    tile_order_statistics<T, W, Mixed, MaxClass, L>(src, src_step, ahead, s, picked, plan, seen, out);
    for (int w = 0; w < 4; ++w) std::copy(out[w], out[w] + lanes, order[w] + t0);
  }
  return !P::all_valid(seen);
}

// Compiled for the processor's instruction set (isa.hpp): AVX-512 sorts
// classes of up to 32 wires in zmm registers with the mixed comparator,
// AVX2 classes of up to 16 in ymm registers, the baseline classes of up to
// 16 in xmm ones.
template <class T>
bool order_statistics(Isa isa, const T* rows, int64_t step, int64_t len, const QuartilePlan& plan, T* order[4]) {
  return dispatch(isa, [&](auto copy) TURBOMETRICS_ALWAYS_INLINE {
    constexpr Isa target = decltype(copy)::value;
    if constexpr (target == Isa::avx512)
      return quartile_block<T, 64, true, 32>(rows, step, len, plan, order);
    else if constexpr (target != Isa::generic)
      return quartile_block<T, 32, false, 16>(rows, step, len, plan, order);
    else
      return quartile_block<T, 16, false, 16>(rows, step, len, plan, order);
  });
}

}  // namespace turbometrics::stability::detail
