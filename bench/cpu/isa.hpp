// Instruction-set variants of the CPU kernels, compiled for their own targets and chosen at run
// time (docs/benchmark.md, "Instruction sets"). The build never needs -march: every variant is a
// function with a `target` attribute, and the CPU's features (cpuid on x86, getauxval(AT_HWCAP)
// on Linux/aarch64) decide which one runs.
//
// How a float kernel gets its variants: its per-thread work is an always-inline function template
// over an ISA tag (no target attribute, no lambdas inside, portable vector code); RLK_VEC_VARIANTS
// wraps it in one function per variant, each with its target attribute, so that the body is
// inlined into each and compiled for that target; RLK_VEC_CALL calls the one vec_isa() names.
// (GCC does not give a lambda the target of the function around it, so a lambda must not hold
// the work of a variant: it would be compiled for the baseline.)
#pragma once

#include <cstddef>

#if defined(__x86_64__) || defined(__i386__)
#define RLK_X86 1
#endif
#if defined(__aarch64__)
#define RLK_ARM64 1
#endif

#define RLK_INLINE __attribute__((always_inline)) inline
#if defined(RLK_ARM64)
// The dot-product extension (sdot) for one function; GCC and Clang spell the feature differently.
#if defined(__clang__)
#define RLK_TARGET_DOTPROD __attribute__((target("dotprod")))
#else
#define RLK_TARGET_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))
#endif
#endif

namespace rlk::cpu {

/// The float kernels' vector instruction set. On x86-64, generic is the baseline (SSE2, no FMA),
/// avx2 adds AVX2 and FMA (x86-64-v3's vectors), avx512 AVX-512 F, VL, DQ and BW (the level sweep
/// then reads 64-byte vectors). On aarch64 generic is NEON (part of the architecture).
enum class VecIsa { generic, avx2, avx512 };
bool vec_isa_available(VecIsa isa);  ///< whether this CPU runs it
VecIsa best_vec_isa();               ///< the widest one this CPU runs
VecIsa vec_isa();                    ///< the one the kernels run: best_vec_isa() unless set
/// Makes the kernels run `isa` (tests run every variant the CPU has; roofline-bench --isa).
/// Throws std::invalid_argument when the CPU does not run it.
void set_vec_isa(VecIsa isa);
const char* vec_isa_name(VecIsa isa);  ///< "generic (SSE2)", "AVX2+FMA", "AVX-512", "generic (NEON)"
const char* vec_isa_id(VecIsa isa);    ///< generic, avx2, avx512
bool vec_isa_from_id(const char* id, VecIsa& out);

struct GenericTag {};  ///< ISA tags for the kernel bodies
struct Avx2Tag {};
struct Avx512Tag {};

}  // namespace rlk::cpu

#if defined(RLK_X86)
#define RLK_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define RLK_TARGET_AVX512 __attribute__((target("avx2,fma,avx512f,avx512vl,avx512dq,avx512bw")))
/// NAME_generic, NAME_avx2 and NAME_avx512 from the body template NAME<Tag>.
#define RLK_VEC_VARIANTS(NAME, PARAMS, ARGS)                                                          \
  [[maybe_unused]] auto NAME##_generic PARAMS { return NAME<::rlk::cpu::GenericTag> ARGS; }           \
  [[maybe_unused]] RLK_TARGET_AVX2 auto NAME##_avx2 PARAMS { return NAME<::rlk::cpu::Avx2Tag> ARGS; } \
  [[maybe_unused]] RLK_TARGET_AVX512 auto NAME##_avx512 PARAMS { return NAME<::rlk::cpu::Avx512Tag> ARGS; }
/// Calls the variant of NAME that vec_isa() names.
#define RLK_VEC_CALL(NAME, ARGS)                                            \
  (::rlk::cpu::vec_isa() == ::rlk::cpu::VecIsa::avx512 ? NAME##_avx512 ARGS \
   : ::rlk::cpu::vec_isa() == ::rlk::cpu::VecIsa::avx2 ? NAME##_avx2 ARGS   \
                                                       : NAME##_generic ARGS)
#else
#define RLK_VEC_VARIANTS(NAME, PARAMS, ARGS) \
  [[maybe_unused]] auto NAME##_generic PARAMS { return NAME<::rlk::cpu::GenericTag> ARGS; }
#define RLK_VEC_CALL(NAME, ARGS) (NAME##_generic ARGS)
#endif
