// Lower bounds for the metrics that stay above two read passes: plain C++
// loops that do only the unavoidable part of the work, next to a read pass
// over the same data. Build and run from the repository root:
//
//   g++ -O3 -std=c++17 -fopenmp -Icpp/include benchmarks/floors.cpp -o /tmp/floors && /tmp/floors
//
// * binary calibration_error: counting 1e6 float64 values (in cache) into
//   15 bins, 2 threads with private tables, vs summing them;
// * entropies: the two logarithms per element of P (50 x 1e6) with the
//   portable fdlibm-style log (AVX-512 build of the loop), and the AVX-512
//   kernel's entropy sums (log_table.hpp: one table-driven log of a / b per
//   element), 2 threads, vs summing P in the same blocked order;
// * iqr: the order statistics of m = 50 alone on one core, run as the
//   AVX-512 kernel runs them (the two classes sorted in registers, then the
//   merge selection; data in L1, wires aligned to 64 bytes), without the
//   reads from memory or the interpolation.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "turbometrics/stability/ensemble.hpp"
#include "turbometrics/stability/log.hpp"
#include "turbometrics/stability/log_table.hpp"

using namespace turbometrics::stability;

template <class F>
double best_ms(F f, int repeats) {
  double best = 1e9;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best * 1e3;
}

#define FLOORS_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))

FLOORS_AVX512 void logs_only(const double* P, int64_t m, int64_t n, int64_t j0, int64_t len, double* h) {
  for (int64_t jj = 0; jj < len; ++jj) h[jj] = 0;
  for (int64_t i = 0; i < m; ++i) {
    const double* row = P + i * n + j0;
    for (int64_t jj = 0; jj < len; ++jj) h[jj] += log_positive(row[jj]) + log_positive(1.0 - row[jj]);
  }
}

#ifdef TURBOMETRICS_HAS_LOG_TABLE_AVX512
FLOORS_AVX512 void table_entropy(const double* P, int64_t m, int64_t n, int64_t j0, int64_t len, double* h) {
  log_table::entropy_sums(P + j0, n, m, len, h, nullptr);
}
#endif

FLOORS_AVX512 void sums_only(const double* P, int64_t m, int64_t n, int64_t j0, int64_t len, double* h) {
  for (int64_t jj = 0; jj < len; ++jj) h[jj] = 0;
  for (int64_t i = 0; i < m; ++i) {
    const double* row = P + i * n + j0;
    for (int64_t jj = 0; jj < len; ++jj) h[jj] += row[jj];
  }
}

// One tile of the AVX-512 iqr kernel, repeated on the same data: the class
// sorts in registers (reading the tile in place), the chains, the merge.
FLOORS_AVX512 __attribute__((noinline)) void order_statistics_tiles(double* s, const detail::QuartilePlan& plan,
                                                                    int64_t tiles) {
  constexpr int64_t L = detail::kTileBytes / sizeof(double);
  detail::Pack<double, 64>::Seen seen;
  const double* out[4];
  for (int64_t t = 0; t < tiles; ++t) {
    detail::tile_order_statistics<double, 64, true, 32, L>(s, L, 0, s, s + plan.models * L, plan, seen, out);
  }
  if (!detail::Pack<double, 64>::all_valid(seen)) std::printf("invalid\n");
}

int main() {
  std::mt19937_64 rng(0);
  auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  volatile double sink = 0;
  {
    const int64_t n = 1000000;
    std::vector<double> p(n);
    for (auto& x : p) x = uniform();
    const double sum = best_ms(
        [&] {
          double s[2] = {0, 0};
#pragma omp parallel num_threads(2)
          {
            const int t = omp_get_thread_num();
            double a[8] = {0};
            for (int64_t i = t * n / 2; i < (t + 1) * n / 2; i += 8)
              for (int j = 0; j < 8; ++j) a[j] += p[i + j];
            s[t] = a[0] + a[1] + a[2] + a[3] + a[4] + a[5] + a[6] + a[7];
          }
          sink = s[0] + s[1];
        },
        50);
    const double count = best_ms(
        [&] {
          int64_t c[2][16] = {};
#pragma omp parallel num_threads(2)
          {
            const int t = omp_get_thread_num();
            int64_t local[4][16] = {};
            for (int64_t i = t * n / 2; i < (t + 1) * n / 2; ++i) local[i & 3][static_cast<int>(p[i] * 15.0)]++;
            for (int b = 0; b < 16; ++b) c[t][b] = local[0][b] + local[1][b] + local[2][b] + local[3][b];
          }
          sink = static_cast<double>(c[0][3] + c[1][3]);
        },
        50);
    std::printf("binary calibration, n = 1e6 float64 in cache, 2 threads: sum %.3f ms, bin counts only %.3f ms\n", sum,
                count);
  }
  {
    const int64_t m = 50, n = 1000000, block = 2048;
    std::vector<double> P(m * n), out(n);
    for (auto& x : P) x = uniform();
    auto blocked = [&](auto body) {
      return best_ms(
          [&] {
#pragma omp parallel for schedule(dynamic, 1) num_threads(2)
            for (int64_t b = 0; b < (n + block - 1) / block; ++b)
              body(P.data(), m, n, b * block, std::min(block, n - b * block), out.data() + b * block);
          },
          7);
    };
    const double sums = blocked(sums_only);
    const double logs = blocked(logs_only);
    std::printf(
        "entropies, P (50, 1e6) float64, 2 threads: blocked read pass %.1f ms, the 1e8 logarithms only %.1f ms\n", sums,
        logs);
#ifdef TURBOMETRICS_HAS_LOG_TABLE_AVX512
    std::printf("  the AVX-512 entropy sums (one log per element, validation included) %.1f ms\n",
                blocked(table_entropy));
#endif
  }
  {
    const int64_t m = 50, lanes = detail::kTileBytes / sizeof(double);
    const int64_t wires[4] = {12, 13, 36, 37};
    const auto plan = detail::quartile_plan(m, wires, turbometrics::Isa::avx512);
    int64_t steps = 0;
    for (const auto& op : plan.program) steps += op.kind == detail::ChainOp::step;
    std::vector<double> buffer((m + 4) * lanes + 8);
    double* state = buffer.data() + ((64 - reinterpret_cast<uintptr_t>(buffer.data()) % 64) % 64) / sizeof(double);
    for (int64_t i = 0; i < m * lanes; ++i) state[i] = uniform();
    const int64_t tiles = 20000;
    const double ms = best_ms([&] { order_statistics_tiles(state, plan, tiles); }, 3);
    std::printf(
        "iqr, m = 50: %lld classes sorted in registers, %lld comparators in chains, then the merge: %.1f ns per sample "
        "(one core, data in L1)\n",
        static_cast<long long>(plan.classes), static_cast<long long>(steps),
        ms * 1e6 / static_cast<double>(tiles * lanes));
  }
  return sink == 12345.0;
}
