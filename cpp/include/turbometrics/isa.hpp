// Run-time choice of the instruction set for loops compiled more than once
// (baseline, AVX2+FMA, AVX-512), shared by every area that dispatches.
// TURBOMETRICS_CLONES(NAME, BODY) defines NAME##_generic, NAME##_avx2 and
// NAME##_avx512 with the same body; the caller picks one with best_isa().
#pragma once

namespace turbometrics {

enum class Isa { generic, avx2, avx512 };

// Building with TURBOMETRICS_FORCE_GENERIC (tests of the portable paths)
// always picks the baseline loops.
inline Isa best_isa() {
#if defined(__GNUC__) && defined(__x86_64__) && !defined(TURBOMETRICS_FORCE_GENERIC)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    return Isa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::avx2;
#endif
  return Isa::generic;
}

}  // namespace turbometrics

#if defined(__GNUC__) && defined(__x86_64__)
#define TURBOMETRICS_HAS_CLONES 1
#define TURBOMETRICS_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define TURBOMETRICS_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma")))
#endif
