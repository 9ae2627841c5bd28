// Thread helpers shared by every kernel. Kernels receive their thread count
// as an argument; nothing here holds global state. With OpenMP
// (TURBOMETRICS_HAS_OPENMP) the regions are OpenMP's; without it they run on
// std::threads started for the call and joined before it returns (no pool
// outlives a call, so a fork afterwards is safe).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "turbometrics/interrupt.hpp"

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

namespace detail {

// True on a thread that runs a body of thread_region: a region opened there
// runs on that thread alone, as a nested OpenMP region does by default.
inline bool& inside_thread_region() {
  static thread_local bool inside = false;
  return inside;
}

// The std::thread backend of parallel_region: body(index, n_threads) for
// every index in [0, n_threads), index 0 on the calling thread (the one that
// polls an Interrupt), the others on std::threads joined before returning.
// An index whose thread cannot be started runs on the calling thread after
// its own, so every index runs whatever the system allows. An exception
// thrown by a body is rethrown here once all have finished, that of the
// lowest index when several throw. Used without OpenMP; compiled in every
// build so that the kernel tests check it.
template <class Body>
void thread_region(int n_threads, Body&& body) {
  if (n_threads <= 1 || inside_thread_region()) {
    body(0, 1);
    return;
  }
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n_threads));
  auto run = [&](int index) {
    inside_thread_region() = true;
    try {
      body(index, n_threads);
    } catch (...) {
      errors[static_cast<std::size_t>(index)] = std::current_exception();
    }
    inside_thread_region() = false;
  };
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(n_threads - 1));
  int started = 1;
  for (; started < n_threads; ++started) {
    try {
      workers.emplace_back(run, started);
    } catch (const std::system_error&) {
      break;  // no more threads: the caller runs the rest
    }
  }
  run(0);
  for (int index = started; index < n_threads; ++index) run(index);
  for (std::thread& worker : workers) worker.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace detail

// Runs body(thread_index, thread_count) once per thread. With n_threads <= 1
// it runs inline on the calling thread, so a forked child that asks for one
// thread never touches the OpenMP runtime. Without OpenMP there are exactly
// n_threads bodies (OpenMP may give fewer: bodies read thread_count); inside
// another region a region runs on its thread alone, as with OpenMP.
template <class Body>
void parallel_region(int n_threads, Body&& body) {
#ifdef TURBOMETRICS_HAS_OPENMP
  if (n_threads > 1) {
#pragma omp parallel num_threads(n_threads)
    body(omp_get_thread_num(), omp_get_num_threads());
    return;
  }
  body(0, 1);
#else
  detail::thread_region(n_threads, body);
#endif
}

// Calls body(i) for i in [0, count), handing out indices dynamically (one
// at a time) to n_threads threads (at most count). Without OpenMP an
// exception from body(i) stops its thread taking indices and is rethrown
// once the others are done (with OpenMP a body must not throw).
template <class Body>
void parallel_for_dynamic(int64_t count, int n_threads, Body&& body) {
  if (n_threads > 1 && count > 1) {
#ifdef TURBOMETRICS_HAS_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(n_threads)
    for (int64_t i = 0; i < count; ++i) body(i);
#else
    std::atomic<int64_t> next{0};
    detail::thread_region(static_cast<int>(std::min<int64_t>(n_threads, count)), [&](int, int) {
      for (int64_t i = next++; i < count; i = next++) body(i);
    });
#endif
    return;
  }
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
