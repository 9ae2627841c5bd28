// Shared utilities: NumPy's pairwise summation order, the exact sum, the
// thread helpers and cooperative interruption.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support.hpp"
#include "turbometrics/exact_sum.hpp"
#include "turbometrics/interrupt.hpp"
#include "turbometrics/isa.hpp"
#include "turbometrics/numpy_sum.hpp"
#include "turbometrics/parallel.hpp"
#include "turbometrics/portable.hpp"

using turbometrics::testing::bits;

namespace {

// x_i = ((i % 4) - 1.5) * 1e16 + 0.1 * i: large terms that cancel, so that
// every change of summation order changes the result's bits.
std::vector<double> cancelling(int64_t n) {
  std::vector<double> x(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(i);
    x[i] = (static_cast<double>(i % 4) - 1.5) * 1e16 + 0.1 * d;
  }
  return x;
}

}  // namespace

TEST_CASE("numpy_pairwise_sum gives np.sum's bits around the 8 and 128 block boundaries") {
  // np.sum(x) for x = cancelling(n), computed once with NumPy.
  struct Case {
    int64_t n;
    double expected;
  };
  const Case cases[] = {
      {1, -0x1.aa535d3d0c000p+53},   {7, -0x1.aa535d3d0c000p+53},   {8, 0.0},
      {9, -0x1.aa535d3d0c000p+53},   {15, -0x1.aa535d3d0bffep+53},  {16, 0.0},
      {17, -0x1.aa535d3d0bfffp+53},  {127, -0x1.aa535d3d0bf56p+53}, {128, 0x1.0000000000000p+9},
      {129, -0x1.aa535d3d0be4ap+53}, {135, -0x1.aa535d3d0be24p+53}, {136, 0x1.c000000000000p+9},
      {255, -0x1.aa535d3d0ba8ap+53}, {256, 0x1.8000000000000p+11},  {257, -0x1.aa535d3d0ba03p+53},
      {1000, 0x1.8600000000000p+15},
  };
  for (const Case& c : cases) {
    CAPTURE(c.n);
    const std::vector<double> x = cancelling(c.n);
    CHECK(bits(0.0 + turbometrics::numpy_pairwise_sum(x.data(), c.n)) == bits(c.expected));
  }
  // The sequential sum differs (so the cases do tell the orders apart).
  const std::vector<double> x = cancelling(16);
  double sequential = 0.0;
  for (double v : x) sequential += v;
  CHECK(sequential == 6.0);
}

TEST_CASE("numpy_pairwise_sum of nothing is -0.0 and np.sum's start makes it +0.0") {
  CHECK(bits(turbometrics::numpy_pairwise_sum(nullptr, 0)) == bits(-0.0));
  CHECK(bits(turbometrics::numpy_sum(0, 1, [](int64_t, int64_t, double*) {})) == bits(0.0));
  const double negative_zeros[3] = {-0.0, -0.0, -0.0};
  CHECK(bits(0.0 + turbometrics::numpy_pairwise_sum(negative_zeros, 3)) == bits(0.0));
}

TEST_CASE("numpy_sum over leaves of the tree matches np.sum at 1 and N threads") {
  const int64_t n = 40000;  // more than two leaves of numpy_sum_grain
  const std::vector<double> x = cancelling(n);
  auto fill = [&](int64_t begin, int64_t end, double* out) {
    for (int64_t i = begin; i < end; ++i) out[i - begin] = x[i];
  };
  const double one = turbometrics::numpy_sum(n, 1, fill);
  const double many = turbometrics::numpy_sum(n, turbometrics::testing::many_threads, fill);
  CHECK(bits(one) == bits(0x1.3130280000000p+26));  // np.sum(cancelling(40000))
  CHECK(bits(many) == bits(one));
  CHECK(bits(one) == bits(0.0 + turbometrics::numpy_pairwise_sum(x.data(), n)));
}

TEST_CASE("NumpyStreamedSum gives numpy_sum's bits for any split into parts, truncated and with a replaced term") {
  using turbometrics::NumpyStreamedSum;
  const int64_t n = 5000;  // several levels of the tree above its leaves of 128
  const std::vector<double> x = cancelling(n);
  // Part sizes: empty parts, parts inside one leaf, parts spanning leaves,
  // and one part of all terms.
  const std::vector<std::vector<int64_t>> splits = {
      {n}, {0, 1, 0, 7, 120, 1, 300, 0, 2000, 3, n - 2432}, {129, 129, 129, n - 387}, std::vector<int64_t>(50, 100)};
  for (const auto& sizes : splits) {
    for (const int64_t terms : {n, int64_t{4321}, int64_t{129}, int64_t{7}, int64_t{0}}) {
      for (const int64_t replaced : {int64_t{-1}, terms - 1}) {
        CAPTURE(sizes.size());
        CAPTURE(terms);
        CAPTURE(replaced);
        std::vector<double> expected(x.begin(), x.begin() + terms);
        if (replaced >= 0) expected[replaced] = 1e16 / 3;
        std::vector<int64_t> offsets = {0};
        for (int64_t size : sizes) offsets.push_back(std::min(terms, offsets.back() + size));
        NumpyStreamedSum sum(offsets);
        int64_t g = 0;
        for (size_t p = 0; p + 1 < offsets.size(); ++p) {
          if (offsets[p] == offsets[p + 1]) {
            g += sizes[p];
            continue;
          }
          NumpyStreamedSum::Part part(sum, static_cast<int64_t>(p), replaced, 1e16 / 3);
          // In pieces of 1 to 3 terms, so that pieces straddle the leaves.
          for (int64_t k = 0; k < sizes[p];) {
            const int64_t piece = std::min<int64_t>(1 + (k % 3), sizes[p] - k);
            part.put_counted(x.data() + g, piece);
            k += piece;
            g += piece;
          }
          part.finish();
        }
        const double streamed = sum.total();
        CHECK(bits(streamed) == bits(turbometrics::numpy_sum(terms, 1, [&](int64_t begin, int64_t end, double* out) {
                for (int64_t i = begin; i < end; ++i) out[i - begin] = expected[i];
              })));
        CHECK(bits(streamed) == bits(0.0 + turbometrics::numpy_pairwise_sum(expected.data(), terms)));
      }
    }
  }
}

TEST_CASE("ExactSum is exact, order-independent and rounds half to even") {
  using turbometrics::ExactSum;
  ExactSum a;
  for (double v : {1e100, 1.0, -1e100}) a.add(v);
  CHECK(a.value() == 1.0);

  ExactSum tenths;
  for (int i = 0; i < 10; ++i) tenths.add(0.1);
  CHECK(tenths.value() == 1.0);  // math.fsum([0.1] * 10)

  ExactSum tie;
  tie.add(1.0);
  tie.add(0x1.0p-53);  // exactly half an ulp of 1.0: ties to even
  CHECK(tie.value() == 1.0);
  tie.add(0x1.0p-105);  // just above the tie
  CHECK(tie.value() == std::nextafter(1.0, 2.0));

  ExactSum smallest;
  smallest.add(std::numeric_limits<double>::denorm_min());
  smallest.add(-std::numeric_limits<double>::denorm_min());
  smallest.add(std::numeric_limits<double>::denorm_min());
  CHECK(smallest.value() == std::numeric_limits<double>::denorm_min());

  ExactSum huge;
  huge.add(std::numeric_limits<double>::max());
  huge.add(std::numeric_limits<double>::max());
  CHECK(huge.value() == std::numeric_limits<double>::infinity());

  CHECK(bits(ExactSum{}.value()) == bits(0.0));
}

TEST_CASE("ExactSum merges partial sums and keeps non-finite addends apart") {
  using turbometrics::ExactSum;
  turbometrics::testing::SplitMix random(7);
  std::vector<double> values(1000);
  for (double& v : values) v = (random.uniform() - 0.5) * std::ldexp(1.0, static_cast<int>(random.below(200)) - 100);
  ExactSum forward, backward, left, right;
  for (double v : values) forward.add(v);
  for (auto it = values.rbegin(); it != values.rend(); ++it) backward.add(*it);
  for (size_t i = 0; i < values.size(); ++i) (i % 3 ? left : right).add(values[i]);
  left.add(right);
  CHECK(bits(forward.value()) == bits(backward.value()));
  CHECK(bits(forward.value()) == bits(left.value()));

  ExactSum with_inf;
  with_inf.add(1.0);
  with_inf.add(std::numeric_limits<double>::infinity());
  CHECK(with_inf.value() == std::numeric_limits<double>::infinity());
  with_inf.add(-std::numeric_limits<double>::infinity());
  CHECK(std::isnan(with_inf.value()));
}

TEST_CASE("BufferedExactSum drops zeros, keeps NaN and equals ExactSum") {
  turbometrics::BufferedExactSum buffered;
  turbometrics::ExactSum plain;
  for (int i = 0; i < 1000; ++i) {  // several buffer flushes
    const double v = i % 3 == 0 ? 0.0 : 1.0 / (i + 1);
    buffered.add(v);
    plain.add(v);
  }
  CHECK(bits(buffered.total().value()) == bits(plain.value()));
  buffered.add(std::nan(""));
  CHECK(std::isnan(buffered.total().value()));
}

TEST_CASE("chunk_bounds splits n into nearly equal contiguous parts") {
  using turbometrics::chunk_bounds;
  CHECK(chunk_bounds(10, 3, 0) == std::pair<int64_t, int64_t>{0, 4});
  CHECK(chunk_bounds(10, 3, 1) == std::pair<int64_t, int64_t>{4, 7});
  CHECK(chunk_bounds(10, 3, 2) == std::pair<int64_t, int64_t>{7, 10});
  CHECK(chunk_bounds(2, 4, 3) == std::pair<int64_t, int64_t>{2, 2});  // more parts than items: empty tails
  CHECK(chunk_bounds(0, 1, 0) == std::pair<int64_t, int64_t>{0, 0});
}

TEST_CASE("parallel_for_dynamic visits every index once at 1 and N threads") {
  for (int threads : {1, turbometrics::testing::many_threads}) {
    CAPTURE(threads);
    std::vector<std::atomic<int>> visits(1000);
    turbometrics::parallel_for_dynamic(1000, threads, [&](int64_t i) { ++visits[i]; });
    bool once = true;
    for (auto& v : visits) once = once && v.load() == 1;
    CHECK(once);
    std::atomic<int> bodies{0};
    turbometrics::parallel_region(threads, [&](int thread, int count) {
      CHECK(thread < count);
      ++bodies;
    });
    CHECK(bodies.load() >= 1);
    CHECK(bodies.load() <= threads);
  }
}

TEST_CASE("parallel_region and parallel_for_dynamic at 1..8 threads: every index once, identical sums") {
  const int64_t n = 200000;  // 13 leaves of numpy_sum_grain
  const std::vector<double> x = cancelling(n);
  auto fill = [&](int64_t begin, int64_t end, double* out) {
    for (int64_t i = begin; i < end; ++i) out[i - begin] = x[i];
  };
  const double serial = turbometrics::numpy_sum(n, 1, fill);
  for (int threads = 1; threads <= 8; ++threads) {
    CAPTURE(threads);
    for (int64_t count : {int64_t{0}, int64_t{1}, int64_t{3}, int64_t{1000}}) {
      std::vector<std::atomic<int>> visits(static_cast<size_t>(count));
      turbometrics::parallel_for_dynamic(count, threads, [&](int64_t i) { ++visits[i]; });
      bool once = true;
      for (auto& v : visits) once = once && v.load() == 1;
      CHECK(once);
    }
    std::vector<std::atomic<int>> bodies(8);
    std::atomic<int> counts_seen{0};
    turbometrics::parallel_region(threads, [&](int thread, int count) {
      CHECK(thread < count);
      ++bodies[thread];
      counts_seen = count;
    });
    const int count = counts_seen.load();
    CHECK(count >= 1);
    CHECK(count <= threads);
    if (!turbometrics::openmp_enabled()) CHECK(count == threads);  // the std::thread backend: exactly n_threads
    for (int t = 0; t < 8; ++t) CHECK(bodies[t].load() == (t < count ? 1 : 0));
    CHECK(bits(turbometrics::numpy_sum(n, threads, fill)) == bits(serial));
  }
}

TEST_CASE("thread_region (the backend without OpenMP): caller is index 0, nesting is serial, errors rethrown") {
  using turbometrics::detail::thread_region;
  for (int threads = 1; threads <= 8; ++threads) {
    CAPTURE(threads);
    std::vector<std::atomic<int>> bodies(static_cast<size_t>(threads));
    std::atomic<int> nested{0}, wrong_count{0};
    std::thread::id index_zero;
    thread_region(threads, [&](int thread, int count) {
      if (count != threads) ++wrong_count;
      ++bodies[thread];
      if (thread == 0) index_zero = std::this_thread::get_id();
      thread_region(4, [&](int inner, int inner_count) {  // inside a region: this thread alone
        if (inner == 0 && inner_count == 1) ++nested;
      });
      turbometrics::parallel_for_dynamic(5, 4, [&](int64_t) {});
    });
    CHECK(wrong_count.load() == 0);
    for (auto& b : bodies) CHECK(b.load() == 1);
    const bool caller_is_index_zero = index_zero == std::this_thread::get_id();
    CHECK(caller_is_index_zero);
    CHECK(nested.load() == (threads > 1 ? threads : 0));  // one thread: no region, as with OpenMP
    // Every body runs; the exception of the lowest throwing index comes out.
    std::atomic<int> ran{0};
    auto throwing = [&] {
      thread_region(threads, [&](int thread, int) {
        ++ran;
        if (thread >= threads / 2) throw std::runtime_error("index " + std::to_string(thread));
      });
    };
    CHECK_THROWS_WITH_AS(throwing(), ("index " + std::to_string(threads / 2)).c_str(), std::runtime_error);
    CHECK(ran.load() == threads);
  }
  // After a region the calling thread opens parallel regions again.
  std::atomic<int> after{0};
  thread_region(3, [&](int, int count) { after = count; });
  CHECK(after.load() == 3);
}

namespace {
std::atomic<int> polls{0};
bool stop_on_second_poll() { return ++polls >= 2; }
}  // namespace

TEST_CASE("Interrupt polls on its own thread only and stays stopped") {
  CHECK_FALSE(turbometrics::Interrupt::never().requested());
  polls = 0;
  const turbometrics::Interrupt interrupt(stop_on_second_poll, std::chrono::nanoseconds(0));
  bool other_thread_saw = true;
  std::thread([&] { other_thread_saw = interrupt.requested(); }).join();
  CHECK_FALSE(other_thread_saw);  // other threads never poll
  CHECK(polls.load() == 0);
  CHECK_FALSE(interrupt.requested());  // first poll: go on
  CHECK(interrupt.requested());        // second poll: stop
  CHECK(interrupt.stopped());
  std::thread([&] { other_thread_saw = interrupt.requested(); }).join();
  CHECK(other_thread_saw);  // the flag is shared
  CHECK(polls.load() == 2);

  // parallel_for_dynamic with an interrupt skips the indices not started.
  int bodies = 0;
  turbometrics::parallel_for_dynamic(100, 1, interrupt, [&](int64_t) { ++bodies; });
  CHECK(bodies == 0);
}

// portable.hpp's plain C++ fallbacks (what a compiler without unsigned
// __int128 or GCC's builtins, such as MSVC, runs) against the builtins, bit
// for bit, on edge values (0, 1, powers of two and their neighbours, the
// maxima, carries) and random values of every magnitude.
namespace {

namespace portable = turbometrics::portable;

std::vector<uint64_t> edge_and_random_words(uint64_t seed, int n_random) {
  std::vector<uint64_t> words = {0,
                                 1,
                                 2,
                                 3,
                                 ~uint64_t{0},
                                 ~uint64_t{0} - 1,
                                 uint64_t{1} << 63,
                                 (uint64_t{1} << 63) - 1,
                                 (uint64_t{1} << 63) + 1,
                                 0xFFFFFFFFu,
                                 uint64_t{0xFFFFFFFFu} + 1,
                                 0xFFFFFFFF00000000ull,
                                 0x00000000FFFFFFFFull,
                                 uint64_t{1} << 53,
                                 (uint64_t{1} << 53) + 1,
                                 (uint64_t{1} << 53) - 1};
  for (int k = 0; k < 64; ++k) {
    words.push_back(uint64_t{1} << k);
    words.push_back((uint64_t{1} << k) - 1);
    words.push_back((uint64_t{1} << k) + 1);
  }
  turbometrics::testing::SplitMix random(seed);
  for (int i = 0; i < n_random; ++i) {
    const uint64_t x = random.next();
    words.push_back(x >> (random.next() % 64));  // every magnitude
  }
  return words;
}

#ifdef __SIZEOF_INT128__
using Native = unsigned __int128;
Native native(const portable::UInt128& x) { return (static_cast<Native>(x.hi) << 64) | x.lo; }
bool same(const portable::UInt128& x, Native y) {
  return x.lo == static_cast<uint64_t>(y) && x.hi == static_cast<uint64_t>(y >> 64);
}
#endif

}  // namespace

#ifdef __SIZEOF_INT128__
TEST_CASE("portable UInt128 gives unsigned __int128's results: product, sum with carry, negation, shift, double") {
  const std::vector<uint64_t> words = edge_and_random_words(128, 300);
  turbometrics::testing::SplitMix random(7);
  int64_t checked = 0;
  for (const uint64_t a : words) {
    for (size_t j = 0; j < words.size(); j += 1 + random.next() % 7) {
      const uint64_t b = words[j];
      const portable::UInt128 product = portable::mul_wide(a, b);
      const Native native_product = static_cast<Native>(a) * b;
      REQUIRE(same(product, native_product));
      // A 128-bit value of both halves (carries out of the low half, wrap
      // past 2^128).
      const portable::UInt128 x(a, b), y(b, a);
      REQUIRE(same(x + y, native(x) + native(y)));
      REQUIRE(same(x + product, native(x) + native_product));
      REQUIRE(same(-x, -native(x)));
      const int shift = static_cast<int>(random.next() % 128);
      REQUIRE(same(x >> shift, native(x) >> shift));
      REQUIRE(bits(portable::round_to_double(x)) == bits(static_cast<double>(native(x))));
      REQUIRE(bits(portable::round_to_double(product)) == bits(static_cast<double>(native_product)));
      REQUIRE(bits(portable::round_to_double(x >> shift)) == bits(static_cast<double>(native(x) >> shift)));
      REQUIRE(((x == y) == (native(x) == native(y))));
      checked += 8;
    }
  }
  // Every shift of a few values, and rounding ties to even around 2^k.
  for (const uint64_t a : {~uint64_t{0}, uint64_t{1} << 63, uint64_t{0x8000000000000401ull}, uint64_t{0x401}}) {
    for (int shift = 0; shift < 128; ++shift) {
      const portable::UInt128 x(a, ~a);
      REQUIRE(same(x >> shift, native(x) >> shift));
      REQUIRE(bits(portable::round_to_double(x >> shift)) == bits(static_cast<double>(native(x) >> shift)));
    }
  }
  for (int k = 54; k < 128; ++k) {
    // 2^k + j * 2^(k - 53) / 2 + tail: exact ties (j odd, tail 0), just above
    // and below them.
    for (int j = 0; j < 8; ++j) {
      for (const int tail : {-1, 0, 1}) {
        Native value = (Native{1} << k) + (static_cast<Native>(j) << (k - 54));
        value += static_cast<Native>(static_cast<__int128>(tail));
        const portable::UInt128 x(static_cast<uint64_t>(value >> 64), static_cast<uint64_t>(value));
        REQUIRE(bits(portable::round_to_double(x)) == bits(static_cast<double>(value)));
      }
    }
  }
  // Signed buckets (calibration's BucketedExactSum): sums of +-53-bit
  // significands that cross zero, as two's complement 128-bit integers.
  portable::UInt128 bucket;
  __int128 native_bucket = 0;
  for (int i = 0; i < 100000; ++i) {
    const int64_t significand = static_cast<int64_t>((random.next() >> 11) | (uint64_t{1} << 52));
    const int64_t addend = (random.next() & 1) ? -significand : significand;
    const uint64_t low = static_cast<uint64_t>(addend);
    bucket += addend < 0 ? -portable::UInt128(0 - low) : portable::UInt128(low);
    native_bucket += addend;
    REQUIRE(same(bucket, static_cast<Native>(native_bucket)));
  }
  CHECK(checked > 100000);
}

TEST_CASE("portable ctz64, clz64, add_overflow and mul_overflow give the builtins' results") {
  const std::vector<uint64_t> words = edge_and_random_words(64, 2000);
  for (const uint64_t x : words) {
    if (x == 0) continue;
    REQUIRE(portable::ctz64(x) == __builtin_ctzll(x));
    REQUIRE(portable::clz64(x) == __builtin_clzll(x));
    REQUIRE(turbometrics::ctz64(x) == __builtin_ctzll(x));
  }
  std::vector<int64_t> values;
  for (const uint64_t x : words) {
    values.push_back(static_cast<int64_t>(x));
    values.push_back(-static_cast<int64_t>(x >> 1));
  }
  values.push_back(std::numeric_limits<int64_t>::min());
  values.push_back(std::numeric_limits<int64_t>::max());
  values.push_back(-1);
  turbometrics::testing::SplitMix random(3);
  for (const int64_t a : values) {
    for (size_t j = 0; j < values.size(); j += 1 + random.next() % 13) {
      const int64_t b = values[j];
      int64_t portable_result = 0, builtin_result = 0;
      REQUIRE(portable::add_overflow(a, b, &portable_result) == __builtin_add_overflow(a, b, &builtin_result));
      REQUIRE(portable_result == builtin_result);
      REQUIRE(portable::mul_overflow(a, b, &portable_result) == __builtin_mul_overflow(a, b, &builtin_result));
      REQUIRE(portable_result == builtin_result);
    }
  }
  // This build's uint128 helpers (the struct under TURBOMETRICS_PORTABLE_INT128).
  for (const uint64_t a : words) {
    const uint64_t b = ~a ^ (a << 7);
    REQUIRE(turbometrics::mul_high(a, b) == static_cast<uint64_t>((static_cast<Native>(a) * b) >> 64));
    REQUIRE(turbometrics::low64(turbometrics::mul_wide(a, b)) == a * b);
    const int64_t s = static_cast<int64_t>(a);
    const turbometrics::uint128 extended = turbometrics::sign_extend(s);
    REQUIRE(turbometrics::low64(extended) == a);
    REQUIRE(turbometrics::high64(extended) == (s < 0 ? ~uint64_t{0} : 0));
    REQUIRE(bits(turbometrics::to_double(turbometrics::mul_wide(a, b))) ==
            bits(static_cast<double>(static_cast<Native>(a) * b)));
  }
}
#endif

// The dispatch a build has: on x86 with GCC or Clang, copies for AVX2 and
// AVX-512 and the copy dispatch() runs for this processor; everywhere else
// (aarch64, other architectures, TURBOMETRICS_FORCE_GENERIC) the portable
// loops only, whatever the processor. .ci/cross-aarch64 relies on this case
// to show that the x86 paths are compiled out of the aarch64 build.
TEST_CASE("dispatch: x86 copies where the build has them, the generic loops only elsewhere") {
  using turbometrics::Isa;
  const Isa best = turbometrics::best_isa();
  const auto compiled = turbometrics::compiled_isas();
  MESSAGE("best_isa: " << std::string(turbometrics::isa_name(best)) << ", compiled copies: " << compiled.size());
  Isa ran = Isa::avx512;
  turbometrics::dispatch(best, [&](auto tag) TURBOMETRICS_ALWAYS_INLINE { ran = decltype(tag)::value; });
  Isa ran_without_fma = Isa::avx512;
  turbometrics::dispatch_without_fma(
      best, [&](auto tag) TURBOMETRICS_ALWAYS_INLINE { ran_without_fma = decltype(tag)::value; });
#ifdef TURBOMETRICS_HAS_CLONES
  CHECK(compiled == std::vector<std::string>{"generic", "avx2", "avx2_fma", "avx512"});
  CHECK(ran == turbometrics::dispatch_copy(best));
  CHECK(ran_without_fma == turbometrics::dispatch_without_fma_copy(best));
#else
  CHECK(compiled == std::vector<std::string>{"generic"});
  CHECK(best == Isa::generic);
  CHECK(ran == Isa::generic);
  CHECK(ran_without_fma == Isa::generic);
#endif
#if !defined(__x86_64__) && !defined(__i386__)
  // No x86 path can exist on another architecture.
  CHECK(std::string(turbometrics::isa_name(best)) == "generic");
#ifdef TURBOMETRICS_HAS_SSE2
  FAIL("TURBOMETRICS_HAS_SSE2 is defined on a build that is not x86");
#endif
#ifdef TURBOMETRICS_HAS_CLONES
  FAIL("TURBOMETRICS_HAS_CLONES is defined on a build that is not x86");
#endif
#endif
}

#if defined(TURBOMETRICS_HAS_CLONES) && defined(__GNUC__) && !defined(__clang__)
// best_isa() asks CPUID and XGETBV itself (a Zig build's
// __builtin_cpu_supports reads every processor as baseline); with GCC, whose
// libgcc initialises the CPU model, both must agree (the detection, before
// any TURBOMETRICS_CPU_DISPATCH cap).
TEST_CASE("the detected instruction set agrees with GCC's __builtin_cpu_supports") {
  using turbometrics::Isa;
  __builtin_cpu_init();
  Isa expected = Isa::generic;
  if (__builtin_cpu_supports("avx2")) {
    expected = Isa::avx2;
    if (__builtin_cpu_supports("fma")) {
      const bool avx512 =
          __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
      expected = avx512 ? Isa::avx512 : Isa::avx2_fma;
    }
  }
  const Isa detected = turbometrics::isa_detail::choice().detected;
  MESSAGE("detected: " << std::string(turbometrics::isa_name(detected)));
  CHECK(detected == expected);
}
#endif
