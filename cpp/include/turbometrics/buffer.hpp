// Uninitialised scratch buffers for large kernels. Buffers of several
// megabytes are aligned to 2 MiB and, on Linux, marked for transparent huge
// pages: first-touch page faults then cost 512 times fewer kernel entries,
// which matters for buffers that are written once in random order.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace turbometrics {

struct FreeDeleter {
  void operator()(void* pointer) const { std::free(pointer); }
};

template <class T>
using Buffer = std::unique_ptr<T[], FreeDeleter>;

// `count` uninitialised elements of a trivially copyable type.
template <class T>
Buffer<T> make_buffer(std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>);
  constexpr std::size_t huge_page = std::size_t{1} << 21;
  const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(T);
  void* pointer = nullptr;
  if (bytes >= 2 * huge_page) {
    const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
    if (posix_memalign(&pointer, huge_page, rounded) != 0) pointer = nullptr;
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
