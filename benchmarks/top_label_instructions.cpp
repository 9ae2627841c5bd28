// Instructions that calibration_error's top-label kernel executes: one call
// of calibration::bin_table on 30,000 x 100 float64 probabilities, 15
// uniform bins, one thread, counted by callgrind (robust to a shared
// machine's load). Build and count from the repository root, or from an
// old commit's cpp/include (git archive COMMIT cpp/include | tar -x -C DIR):
//
//   g++ -O3 -std=c++17 -fopenmp -DNDEBUG -Icpp/include benchmarks/top_label_instructions.cpp -o /tmp/tl
//   valgrind --tool=callgrind --toggle-collect='run(*' /tmp/tl
//
// It prints one cell of the table, which must agree between builds.
#include <cstdio>
#include <random>
#include <vector>

#include "turbometrics/calibration/bin_table.hpp"

using namespace turbometrics::calibration;

// The counted call (callgrind's --toggle-collect names it).
__attribute__((noinline)) BinTable run(const Matrix<double>& m, const BinInput& in) {
  return bin_table(m, Mode::top_label, in, 1);
}

int main() {
  const int64_t n = 30000, k = 100;
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> p(n * k);
  std::vector<int64_t> y(n);
  for (int64_t i = 0; i < n; ++i) {
    double s = 0;
    for (int64_t j = 0; j < k; ++j) s += p[i * k + j] = u(rng);
    for (int64_t j = 0; j < k; ++j) p[i * k + j] /= s;
    y[i] = rng() % k;
  }
  std::vector<double> edges(16);
  for (int b = 0; b <= 15; ++b) edges[b] = b / 15.0;
  Matrix<double> m;
  m.data = reinterpret_cast<const char*>(p.data());
  m.rows = n;
  m.cols = k;
  m.row_stride = k * 8;
  m.col_stride = 8;
  BinInput in;
  in.label = reinterpret_cast<const char*>(y.data());
  in.label_stride = 8;
  in.edges = edges.data();
  in.n_bins = 15;
  in.uniform = true;
  BinTable t = run(m, in);
  std::printf("%.17g\n", t.cells[1]);
}
