// Calibration's one primitive: the per-bin table (weight, sum of weighted
// confidence, sum of weighted correctness). ECE, MCE, RMSCE, the reliability
// diagram and the classwise error are all passes over this table.
//
// Determinism: the samples are cut into a chunk count that depends only on
// the input's size (never on the thread count); each chunk fills its own
// table serially and the chunk tables are added in chunk order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "../parallel.hpp"

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
  T at(int64_t i, int64_t k) const {
    return *reinterpret_cast<const T*>(data + i * row_stride + k * col_stride);
  }
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
// [0, n_bins - 1] (so 1.0 lands in the last bin). Uniform edges: a candidate
// from x * n_bins, corrected against the edge array itself.
inline int64_t uniform_bin(double x, const double* edges, int64_t n_bins) {
  const double scaled = x * static_cast<double>(n_bins);
  // !(scaled > 0) also catches NaN (flagged as invalid; any bin will do).
  int64_t b = !(scaled > 0.0) ? 0 : (scaled >= static_cast<double>(n_bins) ? n_bins - 1 : static_cast<int64_t>(scaled));
  while (b > 0 && x < edges[b]) --b;
  while (b + 1 < n_bins && x >= edges[b + 1]) ++b;
  return b;
}

inline int64_t searched_bin(double x, const double* edges, int64_t n_bins) {
  const int64_t after = std::upper_bound(edges, edges + n_bins + 1, x) - edges;
  return std::clamp<int64_t>(after - 1, 0, n_bins - 1);
}

// Chunk count from the problem size only (so results do not depend on the
// thread count), kept small enough that the chunk tables stay cheap.
inline int64_t chunk_count(int64_t n, int64_t table_cells) {
  int64_t chunks = std::clamp<int64_t>(n / 16384, 1, 64);
  while (chunks > 1 && chunks * table_cells > (int64_t{1} << 22)) chunks /= 2;
  return chunks;
}

struct BinTable {
  std::vector<double> cells;  // [table][bin][3]: weight, sum w * confidence, sum w * correct
  bool invalid = false;       // some probability read was NaN or outside [0, 1]
};

// True unless v is a probability (NaN fails both comparisons).
template <class T>
inline bool not_probability(T v) {
  return !(v >= T(0) && v <= T(1));
}

template <class T>
BinTable bin_table(const Matrix<T>& prob, Mode mode, const BinInput& in, int n_threads) {
  const int64_t n = prob.rows;
  const int64_t tables = mode == Mode::classwise ? prob.cols : 1;
  const int64_t n_bins = in.n_bins;
  const int64_t cells = tables * n_bins * 3;
  const int64_t chunks = chunk_count(n, cells);
  std::vector<double> partial(static_cast<size_t>(chunks * cells), 0.0);
  std::vector<char> invalid(static_cast<size_t>(chunks), 0);

  auto run = [&](auto weighted_tag, auto uniform_tag) {
    constexpr bool weighted = decltype(weighted_tag)::value;
    constexpr bool uniform = decltype(uniform_tag)::value;
    auto lookup = [&](double x, int64_t table) {
      const double* edges = in.edges + (in.edges_per_table ? table * (n_bins + 1) : 0);
      if constexpr (uniform) return uniform_bin(x, edges, n_bins);
      else return searched_bin(x, edges, n_bins);
    };
    // Unit weights when unweighted (the pointer is then never read).
    auto weight_of = [&](int64_t i) -> double {
      return weighted ? *reinterpret_cast<const double*>(in.weight + i * in.weight_stride) : 1.0;
    };
    auto klass = [&](int64_t i) { return *reinterpret_cast<const int64_t*>(in.label + i * in.label_stride); };
    parallel_for_dynamic(chunks, n_threads, [&](int64_t c) {
      double* table = partial.data() + c * cells;
      bool bad = false;  // validation during this pass: no separate one
      const auto [begin, end] = chunk_bounds(n, static_cast<int>(chunks), static_cast<int>(c));
      if (mode == Mode::binary) {
        for (int64_t i = begin; i < end; ++i) {
          const double conf = static_cast<double>(prob.at(i, 0));
          bad |= not_probability(conf);
          const double w = weight_of(i);
          double* cell = table + lookup(conf, 0) * 3;
          cell[0] += w;
          cell[1] += w * conf;
          if (in.label) cell[2] += in.label[i * in.label_stride] ? w : 0.0;
        }
      } else if (mode == Mode::top_label) {
        const int64_t k_count = prob.cols;
        for (int64_t i = begin; i < end; ++i) {
          const char* row = prob.data + i * prob.row_stride;
          T best = *reinterpret_cast<const T*>(row);
          bool row_bad = not_probability(best);
          int64_t arg = 0;
          for (int64_t k = 1; k < k_count; ++k) {
            const T v = *reinterpret_cast<const T*>(row + k * prob.col_stride);
            row_bad |= not_probability(v);
            if (v > best) {
              best = v;
              arg = k;
            }
          }
          bad |= row_bad;
          const double conf = static_cast<double>(best);
          const double w = weight_of(i);
          double* cell = table + lookup(conf, 0) * 3;
          cell[0] += w;
          cell[1] += w * conf;
          if (in.label) cell[2] += klass(i) == arg ? w : 0.0;
        }
      } else {
        const int64_t k_count = prob.cols;
        for (int64_t i = begin; i < end; ++i) {
          const char* row = prob.data + i * prob.row_stride;
          const double w = weight_of(i);
          const int64_t y = in.label ? klass(i) : -1;
          for (int64_t k = 0; k < k_count; ++k) {
            const double conf = static_cast<double>(*reinterpret_cast<const T*>(row + k * prob.col_stride));
            bad |= not_probability(conf);
            double* cell = table + (k * n_bins + lookup(conf, k)) * 3;
            cell[0] += w;
            cell[1] += w * conf;
            cell[2] += y == k ? w : 0.0;
          }
        }
      }
      invalid[c] = bad;
    });
  };
  const bool weighted = in.weight != nullptr;
  if (weighted && in.uniform) run(std::true_type{}, std::true_type{});
  else if (weighted) run(std::true_type{}, std::false_type{});
  else if (in.uniform) run(std::false_type{}, std::true_type{});
  else run(std::false_type{}, std::false_type{});

  BinTable result;
  result.cells.assign(partial.begin(), partial.begin() + cells);
  result.invalid = invalid[0];
  for (int64_t c = 1; c < chunks; ++c) {
    const double* from = partial.data() + c * cells;
    for (int64_t j = 0; j < cells; ++j) result.cells[j] += from[j];
    result.invalid |= invalid[c] != 0;
  }
  return result;
}

}  // namespace turbometrics::calibration
