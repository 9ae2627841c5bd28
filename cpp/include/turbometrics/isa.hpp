// The one CPU-dispatch mechanism of every kernel: which instruction sets the
// running processor has (asked once), the attributes that compile a function
// for one of them, the always-inline attribute, and dispatch(), which runs a
// loop compiled for the instruction set chosen at run time.
//
// A kernel writes its loop once, as functions marked TURBOMETRICS_ALWAYS_INLINE,
// and runs it as
//
//   const Isa isa = best_isa();  // once per call of the kernel
//   ...
//   dispatch(isa, [&](auto) TURBOMETRICS_ALWAYS_INLINE { return loop(a, b, c); });
//
// dispatch() holds one copy of the lambda per instruction set, each compiled
// with that set's target attribute: the lambda and every
// TURBOMETRICS_ALWAYS_INLINE function it calls are inlined into each copy and
// vectorised for its instruction set (a call that is not inlined runs
// baseline code). The lambda's argument, an IsaTag, names the copy's
// instruction set at compile time, for loops whose vector width or unrolling
// depends on it. Loops written with x86 intrinsics instead carry a
// TURBOMETRICS_TARGET_* attribute themselves, under TURBOMETRICS_HAS_CLONES
// (AVX2, AVX-512) or TURBOMETRICS_HAS_SSE2; one written once for several
// instruction sets is compiled for AVX2 between TURBOMETRICS_BEGIN_AVX2_REGION
// and TURBOMETRICS_END_AVX2_REGION.
//
// The instruction sets, each including the ones before it:
//   Isa::generic   the build's baseline (x86-64: SSE2); every other build
//   Isa::avx2      AVX2 (the processor may lack FMA)
//   Isa::avx2_fma  AVX2 and FMA
//   Isa::avx512    AVX-512 F, DQ and VL, with AVX2 and FMA
// dispatch() has copies for generic, avx2_fma and avx512: with FMA, sums of
// products may differ from the baseline's in the last bits (on one machine
// every call takes the same path). dispatch_without_fma() has copies for
// generic and avx2, compiled without FMA, for loops whose floating-point
// results must be the baseline's bit for bit on every machine.
//
// Copies exist for GCC and Clang on x86 (the target attribute and
// CPUID); other compilers and architectures build the
// portable code only. TURBOMETRICS_FORCE_GENERIC (CMake option
// TURBOMETRICS_FORCE_GENERIC=ON) does the same on x86: no copies, no x86
// intrinsics, best_isa() == Isa::generic; the code a build for another
// architecture runs is then tested on x86.
//
// The environment variable TURBOMETRICS_CPU_DISPATCH (read once, at the first
// best_isa()) caps the choice at generic, avx2, avx2_fma or avx512, never
// above what the processor has: CI runs the generic, AVX2 (no FMA) and
// AVX2+FMA copies on one machine (.ci/cpu_personalities). Any other non-empty
// value is ignored (detection decides) and reported by cpu_dispatch().
#pragma once

#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__GNUC__)
// Inlines a function (declared `inline` as well) or a lambda into its
// caller, which compiles it for the caller's instruction set.
#define TURBOMETRICS_ALWAYS_INLINE __attribute__((always_inline))
// Keeps a function out of its callers: for a piece of a kernel that is
// better compiled on its own (marked with its instruction set's target).
#define TURBOMETRICS_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define TURBOMETRICS_ALWAYS_INLINE
#define TURBOMETRICS_NOINLINE __declspec(noinline)
#else
#define TURBOMETRICS_ALWAYS_INLINE
#define TURBOMETRICS_NOINLINE
#endif

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(TURBOMETRICS_FORCE_GENERIC)
#define TURBOMETRICS_HAS_CLONES 1
#include <cpuid.h>
#define TURBOMETRICS_TARGET_AVX2 __attribute__((target("avx2")))
#define TURBOMETRICS_TARGET_AVX2_FMA __attribute__((target("avx2,fma")))
#define TURBOMETRICS_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))
// A region of declarations compiled for AVX2, as if each function in it were
// marked TURBOMETRICS_TARGET_AVX2: for a function template written once with
// vector traits and compiled for each instruction set (an attribute cannot
// differ per instantiation), e.g. calibration/top_rows_body.inc.
#if defined(__clang__)
#define TURBOMETRICS_BEGIN_AVX2_REGION \
  _Pragma("clang attribute push(__attribute__((target(\"avx2\"))), apply_to = function)")
#define TURBOMETRICS_END_AVX2_REGION _Pragma("clang attribute pop")
#else
#define TURBOMETRICS_BEGIN_AVX2_REGION _Pragma("GCC push_options") _Pragma("GCC target(\"avx2\")")
#define TURBOMETRICS_END_AVX2_REGION _Pragma("GCC pop_options")
#endif
#endif

// SSE2 intrinsics (the x86-64 baseline).
#if defined(__SSE2__) && !defined(TURBOMETRICS_FORCE_GENERIC)
#define TURBOMETRICS_HAS_SSE2 1
#endif

namespace turbometrics {

enum class Isa { generic, avx2, avx2_fma, avx512 };

template <Isa I>
using IsaTag = std::integral_constant<Isa, I>;

inline const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::avx2: return "avx2";
    case Isa::avx2_fma: return "avx2_fma";
    case Isa::avx512: return "avx512";
    case Isa::generic: break;
  }
  return "generic";
}

namespace isa_detail {

#ifdef TURBOMETRICS_HAS_CLONES
// Whether bit `bit` of a register is set.
inline bool has_bit(unsigned int bits, int bit) { return ((bits >> bit) & 1u) != 0; }

// The processor's instruction sets from CPUID, and the register state the
// operating system saves from XGETBV (XCR0), as GCC's __builtin_cpu_supports
// decides them. Asked directly, not through __builtin_cpu_supports: that
// needs the compiler runtime's CPU model (libgcc's, or compiler-rt's), which
// a build with Zig's clang (the portable wheel) does not initialise, so every
// processor read as baseline there.
inline Isa detect() {
  unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0, nullptr) < 7 || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return Isa::generic;
  const bool fma = has_bit(ecx, 12), os_saves_state = has_bit(ecx, 27), avx = has_bit(ecx, 28);
  if (!os_saves_state || !avx) return Isa::generic;
  unsigned int xcr0_low = 0, xcr0_high = 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  constexpr unsigned int sse_avx_state = 0x6, avx512_state = 0xE6;  // XMM, YMM; and opmask, ZMM
  if ((xcr0_low & sse_avx_state) != sse_avx_state) return Isa::generic;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  if (!has_bit(ebx, 5)) return Isa::generic;  // AVX2
  if (!fma) return Isa::avx2;
  const bool avx512 = has_bit(ebx, 16) && has_bit(ebx, 17) && has_bit(ebx, 31);  // F, DQ, VL
  return avx512 && (xcr0_low & avx512_state) == avx512_state ? Isa::avx512 : Isa::avx2_fma;
}
#else
inline Isa detect() { return Isa::generic; }
#endif

}  // namespace isa_detail

namespace isa_detail {

// What best_isa() chose and why: the processor's best set, the value of
// TURBOMETRICS_CPU_DISPATCH ("" when unset), whether that value names a set,
// and the choice, the lower of the two.
struct Choice {
  Isa detected = Isa::generic;
  std::string cap;
  bool cap_recognised = false;
  Isa best = Isa::generic;
};

inline Choice choose() {
  Choice c;
  c.detected = c.best = detect();
  const char* env = std::getenv("TURBOMETRICS_CPU_DISPATCH");
  c.cap = env == nullptr ? "" : env;
  for (Isa isa : {Isa::generic, Isa::avx2, Isa::avx2_fma, Isa::avx512}) {
    if (c.cap == isa_name(isa)) {
      c.cap_recognised = true;
      if (isa < c.best) c.best = isa;
    }
  }
  return c;
}

// Asked once per process (thread-safe initialisation of a local static).
inline const Choice& choice() {
  static const Choice c = choose();
  return c;
}

}  // namespace isa_detail

// The best instruction set of this processor that the build has copies for,
// capped by TURBOMETRICS_CPU_DISPATCH (asked once per process).
inline Isa best_isa() { return isa_detail::choice().best; }

// The instruction sets the build has copies for, in order.
inline std::vector<std::string> compiled_isas() {
#ifdef TURBOMETRICS_HAS_CLONES
  return {"generic", "avx2", "avx2_fma", "avx512"};
#else
  return {"generic"};
#endif
}

namespace isa_detail {

template <class Body>
decltype(auto) run_generic(Body& body) {
  return body(IsaTag<Isa::generic>{});
}

#ifdef TURBOMETRICS_HAS_CLONES
template <class Body>
TURBOMETRICS_TARGET_AVX2 decltype(auto) run_avx2(Body& body) {
  return body(IsaTag<Isa::avx2>{});
}
template <class Body>
TURBOMETRICS_TARGET_AVX2_FMA decltype(auto) run_avx2_fma(Body& body) {
  return body(IsaTag<Isa::avx2_fma>{});
}
template <class Body>
TURBOMETRICS_TARGET_AVX512 decltype(auto) run_avx512(Body& body) {
  return body(IsaTag<Isa::avx512>{});
}
#endif

}  // namespace isa_detail

// The copy dispatch() runs for `isa`: avx512, avx2_fma or generic, the
// best of them that `isa` includes.
inline Isa dispatch_copy(Isa isa) {
#ifdef TURBOMETRICS_HAS_CLONES
  if (isa >= Isa::avx512) return Isa::avx512;
  if (isa >= Isa::avx2_fma) return Isa::avx2_fma;
#else
  (void)isa;
#endif
  return Isa::generic;
}

// The copy dispatch_without_fma() runs for `isa`: avx2 or generic.
inline Isa dispatch_without_fma_copy(Isa isa) {
#ifdef TURBOMETRICS_HAS_CLONES
  if (isa >= Isa::avx2) return Isa::avx2;
#else
  (void)isa;
#endif
  return Isa::generic;
}

// body(IsaTag<I>{}) compiled for I = dispatch_copy(isa), `isa` a best_isa().
// body is a lambda marked TURBOMETRICS_ALWAYS_INLINE; what it calls is
// compiled for I where it is TURBOMETRICS_ALWAYS_INLINE too.
template <class Body>
decltype(auto) dispatch(Isa isa, Body&& body) {
#ifdef TURBOMETRICS_HAS_CLONES
  switch (dispatch_copy(isa)) {
    case Isa::avx512: return isa_detail::run_avx512(body);
    case Isa::avx2_fma: return isa_detail::run_avx2_fma(body);
    default: break;
  }
#else
  (void)isa;
#endif
  return isa_detail::run_generic(body);
}

// The same for I = dispatch_without_fma_copy(isa), compiled without FMA.
template <class Body>
decltype(auto) dispatch_without_fma(Isa isa, Body&& body) {
#ifdef TURBOMETRICS_HAS_CLONES
  if (dispatch_without_fma_copy(isa) == Isa::avx2) return isa_detail::run_avx2(body);
#else
  (void)isa;
#endif
  return isa_detail::run_generic(body);
}

}  // namespace turbometrics
