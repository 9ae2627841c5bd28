// Per-sample statistics of an ensemble's predictions P[model, sample(, class)].
//
// Samples are processed in blocks (sized from the number of classes); inside a block the models are the
// outer loop and the samples the inner one, so a C-ordered P is read row by
// row. Every sample's value depends on that sample's column only (summed in
// model order), so results are identical for every thread count.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "../parallel.hpp"

namespace turbometrics::stability {

// A read-only strided (models x samples x classes) array; 2-D input has
// classes == 1 and holds the probability of the positive class.
template <class T>
struct Ensemble {
  const char* data = nullptr;
  int64_t models = 0;
  int64_t samples = 0;
  int64_t classes = 1;
  int64_t model_stride = 0;  // bytes
  int64_t sample_stride = 0;
  int64_t class_stride = 0;
  T at(int64_t m, int64_t j, int64_t k = 0) const {
    return *reinterpret_cast<const T*>(data + m * model_stride + j * sample_stride + k * class_stride);
  }
};

enum class Statistic { label_stability, jitter, aleatoric, mutual_info, variance, std, iqr };

// Samples per block: row segments of 4096 samples keep the hardware
// prefetcher streaming each model's row; class probabilities use shorter
// blocks so the per-class accumulators stay small. It depends on the shape
// of P only, never on the thread count.
inline int64_t block_length(int64_t classes) {
  return std::clamp<int64_t>((int64_t{1} << 17) / std::max<int64_t>(1, classes) / 16 * 16, 256, 4096);
}

// x * log2(x) with 0 log 0 = 0.
inline double xlog2x(double x) { return x > 0.0 ? x * std::log2(x) : 0.0; }
inline double binary_entropy(double p) { return -(xlog2x(p) + xlog2x(1.0 - p)); }

// Position of numpy's linear-interpolation quantile q among m sorted values:
// the lower neighbour's index and the weight of the upper one.
inline void quantile_position(int64_t m, double q, int64_t& lo, double& gamma) {
  const double virtual_index = static_cast<double>(m) * q + (1.0 + q * -1.0) - 1.0;
  const double floor_index = std::floor(virtual_index);
  lo = std::clamp<int64_t>(static_cast<int64_t>(floor_index), 0, m - 1);
  gamma = virtual_index - floor_index;
}

// numpy's two-sided lerp, evaluated as np.percentile(P, [75, 25]) evaluates
// it: the neighbours' difference in T, the rest in float64 (its float64
// gamma promotes the product).
template <class T>
double numpy_lerp(T a, T b, double gamma) {
  const double diff = static_cast<double>(static_cast<T>(b - a));
  if (gamma >= 0.5) return static_cast<double>(b) - diff * (1.0 - gamma);
  return static_cast<double>(a) + diff * gamma;
}

// q75 - q25 of v[0..m) with numpy's default (linear) method. Reorders v:
// one selection for the 75th percentile, then one inside the part below it.
template <class T>
double interquartile_range(T* v, int64_t m) {
  int64_t lo75, lo25;
  double g75, g25;
  quantile_position(m, 0.75, lo75, g75);
  quantile_position(m, 0.25, lo25, g25);
  std::nth_element(v, v + lo75, v + m);
  const T a75 = v[lo75];
  const T b75 = lo75 + 1 < m ? *std::min_element(v + lo75 + 1, v + m) : a75;
  T a25 = a75, b25 = b75;
  if (lo25 < lo75) {  // v[0 .. lo75) holds the values below a75
    std::nth_element(v, v + lo25, v + lo75);
    a25 = v[lo25];
    b25 = lo25 + 1 < lo75 ? *std::min_element(v + lo25 + 1, v + lo75) : a75;
  }
  return numpy_lerp(a75, b75, g75) - numpy_lerp(a25, b25, g25);
}

// Counts, per sample of one block, the values that are not probabilities
// (NaN, or outside [0, 1]) during the statistic's own first pass, so that
// validation costs no extra pass; one element-wise counter keeps the loops
// vectorised. The caller describes the offending values only on error.
template <class T>
struct BlockCheck {
  std::vector<T> bad;
  explicit BlockCheck(int64_t len) : bad(static_cast<size_t>(len), T(0)) {}
  void see(int64_t jj, T v) { bad[jj] += (v >= T(0) && v <= T(1)) ? T(0) : T(1); }
  bool any() const {
    bool found = false;
    for (const T b : bad) found |= b != T(0);
    return found;
  }
};

// per_sample with an element accessor get(model, sample, class).
template <class T, class Get>
bool per_sample_with(const Ensemble<T>& P, const Get& get, Statistic stat, double threshold,
                                        double* out, int n_threads) {
  const int64_t m = P.models;
  const int64_t K = P.classes;
  const double md = static_cast<double>(m);
  const int64_t block = block_length(K);
  const int64_t blocks = (P.samples + block - 1) / block;
  std::vector<char> flagged(static_cast<size_t>(blocks), 0);
  parallel_for_dynamic(blocks, n_threads, [&](int64_t b) {
    const int64_t j0 = b * block;
    const int64_t len = std::min<int64_t>(block, P.samples - j0);
    BlockCheck<T> seen(len);
    double* o = out + j0;
    if (stat == Statistic::iqr) {
      std::vector<T> column(static_cast<size_t>(m));
      for (int64_t jj = 0; jj < len; ++jj) {
        bool nan = false;
        for (int64_t i = 0; i < m; ++i) {
          column[i] = get(i, j0 + jj);
          seen.see(jj, column[i]);
          nan |= column[i] != column[i];
        }
        if (nan) {  // flagged invalid; never hand NaN to nth_element
          o[jj] = std::numeric_limits<double>::quiet_NaN();
          continue;
        }
        o[jj] = interquartile_range(column.data(), m);
      }
    } else if (K == 1) {
      std::vector<double> acc(static_cast<size_t>(len), 0.0), acc2(static_cast<size_t>(len), 0.0);
      switch (stat) {
        case Statistic::label_stability:
        case Statistic::jitter:
          for (int64_t i = 0; i < m; ++i)
            for (int64_t jj = 0; jj < len; ++jj) {
              const T v = get(i, j0 + jj);
              seen.see(jj, v);
              acc[jj] += static_cast<double>(v) >= threshold;
            }
          for (int64_t jj = 0; jj < len; ++jj) {
            const double c1 = acc[jj], c0 = md - c1;
            o[jj] = stat == Statistic::jitter ? 2.0 * c1 * c0 / (md * (md - 1.0)) : std::fabs(c1 - c0) / md;
          }
          break;
        case Statistic::aleatoric:
        case Statistic::mutual_info:
          for (int64_t i = 0; i < m; ++i)
            for (int64_t jj = 0; jj < len; ++jj) {
              const T v = get(i, j0 + jj);
              seen.see(jj, v);
              const double p = static_cast<double>(v);
              acc[jj] += p;
              acc2[jj] += binary_entropy(p);
            }
          for (int64_t jj = 0; jj < len; ++jj)
            o[jj] = stat == Statistic::aleatoric ? acc2[jj] / md : binary_entropy(acc[jj] / md) - acc2[jj] / md;
          break;
        case Statistic::variance:
        case Statistic::std:
          // Two passes: the mean, then the squared deviations (ddof 0 or 1).
          for (int64_t i = 0; i < m; ++i)
            for (int64_t jj = 0; jj < len; ++jj) {
              const T v = get(i, j0 + jj);
              seen.see(jj, v);
              acc[jj] += static_cast<double>(v);
            }
          for (int64_t jj = 0; jj < len; ++jj) acc[jj] /= md;
          for (int64_t i = 0; i < m; ++i)
            for (int64_t jj = 0; jj < len; ++jj) {
              const double d = static_cast<double>(get(i, j0 + jj)) - acc[jj];
              acc2[jj] += d * d;
            }
          for (int64_t jj = 0; jj < len; ++jj)
            o[jj] = stat == Statistic::std ? std::sqrt(acc2[jj] / (md - 1.0)) : acc2[jj] / md;
          break;
        default:
          break;
      }
    } else if (stat == Statistic::jitter) {
      // Class probabilities: labels by argmax (first maximum).
      std::vector<int64_t> counts(static_cast<size_t>(len * K), 0);
      for (int64_t i = 0; i < m; ++i)
        for (int64_t jj = 0; jj < len; ++jj) {
          T best = get(i, j0 + jj, 0);
          seen.see(jj, best);
          int64_t arg = 0;
          for (int64_t k = 1; k < K; ++k) {
            const T v = get(i, j0 + jj, k);
            seen.see(jj, v);
            if (v > best) {
              best = v;
              arg = k;
            }
          }
          ++counts[jj * K + arg];
        }
      for (int64_t jj = 0; jj < len; ++jj) {
        double squares = 0.0;
        for (int64_t k = 0; k < K; ++k) squares += static_cast<double>(counts[jj * K + k] * counts[jj * K + k]);
        o[jj] = (md * md - squares) / (md * (md - 1.0));
      }
    } else if (stat == Statistic::aleatoric || stat == Statistic::mutual_info) {
      // Class probabilities: entropy over the K classes.
      const bool mi = stat == Statistic::mutual_info;
      std::vector<double> entropy(static_cast<size_t>(len), 0.0);
      std::vector<double> mean(mi ? static_cast<size_t>(len * K) : 0, 0.0);
      for (int64_t i = 0; i < m; ++i)
        for (int64_t jj = 0; jj < len; ++jj) {
          double h = 0.0;
          for (int64_t k = 0; k < K; ++k) {
            const T v = get(i, j0 + jj, k);
            seen.see(jj, v);
            const double p = static_cast<double>(v);
            h -= xlog2x(p);
            if (mi) mean[jj * K + k] += p;
          }
          entropy[jj] += h;
        }
      for (int64_t jj = 0; jj < len; ++jj) {
        if (!mi) {
          o[jj] = entropy[jj] / md;
          continue;
        }
        double h = 0.0;
        for (int64_t k = 0; k < K; ++k) h -= xlog2x(mean[jj * K + k] / md);
        o[jj] = h - entropy[jj] / md;
      }
    }
    flagged[b] = seen.any();
  });
  return std::find(flagged.begin(), flagged.end(), 1) != flagged.end();
}

// Writes the statistic of every sample to out[0 .. samples) and returns
// whether some value read was not a probability (NaN or outside [0, 1]); the
// caller then rejects the input.
// C-contiguous samples (and classes) get an accessor the compiler can
// vectorise; any other layout is read through its strides.
template <class T>
bool per_sample(const Ensemble<T>& P, Statistic stat, double threshold, double* out,
                                   int n_threads) {
  const int64_t item = static_cast<int64_t>(sizeof(T));
  if (P.classes == 1 && P.sample_stride == item) {
    auto get = [&P](int64_t i, int64_t j, int64_t = 0) {
      return reinterpret_cast<const T*>(P.data + i * P.model_stride)[j];
    };
    return per_sample_with(P, get, stat, threshold, out, n_threads);
  }
  if (P.classes > 1 && P.class_stride == item && P.sample_stride == P.classes * item) {
    auto get = [&P](int64_t i, int64_t j, int64_t k = 0) {
      return reinterpret_cast<const T*>(P.data + i * P.model_stride)[j * P.classes + k];
    };
    return per_sample_with(P, get, stat, threshold, out, n_threads);
  }
  auto get = [&P](int64_t i, int64_t j, int64_t k = 0) { return P.at(i, j, k); };
  return per_sample_with(P, get, stat, threshold, out, n_threads);
}

}  // namespace turbometrics::stability
