// Thread helpers shared by every kernel. Kernels receive their thread count
// as an argument; nothing here holds global state.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "interrupt.hpp"

#ifdef TURBOMETRICS_HAS_OPENMP
#include <omp.h>
#endif

namespace turbometrics {

// Half-open range [begin, end) of part `index` when `n` items are split into
// `parts` contiguous, nearly equal chunks.
inline std::pair<int64_t, int64_t> chunk_bounds(int64_t n, int parts, int index) {
  const int64_t base = n / parts;
  const int64_t extra = n % parts;
  const int64_t begin = index * base + std::min<int64_t>(index, extra);
  const int64_t end = begin + base + (index < extra ? 1 : 0);
  return {begin, end};
}

// Runs body(thread_index, thread_count) once per thread. With n_threads <= 1
// (or without OpenMP) it runs inline on the calling thread, so a forked child
// that asks for one thread never touches the OpenMP runtime.
template <class Body>
void parallel_region(int n_threads, Body&& body) {
#ifdef TURBOMETRICS_HAS_OPENMP
  if (n_threads > 1) {
#pragma omp parallel num_threads(n_threads)
    body(omp_get_thread_num(), omp_get_num_threads());
    return;
  }
#endif
  (void)n_threads;
  body(0, 1);
}

// Calls body(i) for i in [0, count), handing out indices dynamically.
template <class Body>
void parallel_for_dynamic(int64_t count, int n_threads, Body&& body) {
#ifdef TURBOMETRICS_HAS_OPENMP
  if (n_threads > 1 && count > 1) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(n_threads)
    for (int64_t i = 0; i < count; ++i) body(i);
    return;
  }
#endif
  (void)n_threads;
  for (int64_t i = 0; i < count; ++i) body(i);
}

// parallel_for_dynamic that skips the indices not yet started once
// `interrupt` is requested.
template <class Body>
void parallel_for_dynamic(int64_t count, int n_threads, const Interrupt& interrupt, Body&& body) {
  parallel_for_dynamic(count, n_threads, [&](int64_t i) {
    if (!interrupt.requested()) body(i);
  });
}

// Calls body(from, to) over [begin, end) in order, in stretches of at most
// `stretch` items, and stops between stretches once `interrupt` is
// requested (so that a long pass over the input notices Ctrl-C within a
// fraction of a millisecond of work).
template <class Body>
void for_each_stretch(int64_t begin, int64_t end, const Interrupt& interrupt, Body&& body,
                      int64_t stretch = int64_t{1} << 16) {
  for (int64_t from = begin; from < end && !interrupt.requested(); from += stretch) {
    body(from, std::min(end, from + stretch));
  }
}

inline bool openmp_enabled() {
#ifdef TURBOMETRICS_HAS_OPENMP
  return true;
#else
  return false;
#endif
}

}  // namespace turbometrics
