// Uninitialised scratch buffers for large kernels. Buffers of several
// megabytes are aligned to 2 MiB and, on Linux, marked for transparent huge
// pages: first-touch page faults then cost 512 times fewer kernel entries,
// which matters for buffers that are written once in random order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include "turbometrics/parallel.hpp"

namespace turbometrics {

struct FreeDeleter {
  void operator()(void* pointer) const { std::free(pointer); }
};

template <class T>
using Buffer = std::unique_ptr<T[], FreeDeleter>;

// Faults in the 2 MiB (transparent huge) pages of [data, data + bytes)
// before a kernel writes them, touching the last byte of each, in
// parallel. The kernel zeroes a new huge page's 4 KiB subpages towards the
// one touched first; a forward write touches the first, and zeroing in that
// (descending) order measured about twice as slow as ascending, which
// touching the last byte gives. Partial pages at either end are left alone.
// Faulting in a fresh gigabyte takes about half a second, so the pages are
// taken in stretches and the faulting stops once `interrupt` is requested.
inline void prefault_huge_pages(void* data, std::size_t bytes, int n_threads,
                                const Interrupt& interrupt = Interrupt::never()) {
  constexpr std::size_t huge_page = std::size_t{1} << 21;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + huge_page - 1) & ~(huge_page - 1);
  const std::uintptr_t end = begin + bytes;
  if (bytes < 2 * huge_page || first + huge_page > end) return;
  const int64_t pages = static_cast<int64_t>((end - first) / huge_page);
  const int parts = std::max(1, std::min<int>(n_threads, static_cast<int>(pages)));
  parallel_for_dynamic(parts, parts, [&](int64_t part) {
    auto [from, to] = chunk_bounds(pages, parts, static_cast<int>(part));
    for_each_stretch(
        from, to, interrupt,
        [&](int64_t stretch_from, int64_t stretch_to) {
          for (int64_t page = stretch_from; page < stretch_to; ++page) {
            *reinterpret_cast<volatile char*>(first + (page + 1) * huge_page - 1) = 0;
          }
        },
        8);
  });
}

// `count` uninitialised elements of a trivially copyable type.
template <class T>
Buffer<T> make_buffer(std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>);
  constexpr std::size_t huge_page = std::size_t{1} << 21;
  const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(T);
  void* pointer = nullptr;
  if (bytes >= 2 * huge_page) {
    const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
#ifdef _WIN32
    // No posix_memalign, and _aligned_malloc's memory cannot go to
    // std::free (Buffer's deleter, shared with malloc'ed columns): plain
    // malloc, unaligned to the huge page (a matter of speed only).
    pointer = std::malloc(rounded);
#else
    if (posix_memalign(&pointer, huge_page, rounded) != 0) pointer = nullptr;
#endif
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (pointer) madvise(pointer, rounded, MADV_HUGEPAGE);
#endif
  } else {
    pointer = std::malloc(bytes);
  }
  if (!pointer) throw std::bad_alloc();
  return Buffer<T>(static_cast<T*>(pointer));
}

}  // namespace turbometrics
