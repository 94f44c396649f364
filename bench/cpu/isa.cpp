// Which instruction-set variants this CPU runs, and which ones the kernels use (isa.hpp).
#include "isa.hpp"

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>

#include "kernels.hpp"

#if defined(RLK_X86)
#include <cpuid.h>
#endif
#if defined(RLK_ARM64) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1 << 20)  // the dot-product extension (sdot, udot), Linux's arm64 hwcap.h
#endif
#elif defined(RLK_ARM64) && defined(__APPLE__)
#include <sys/sysctl.h>
#endif

namespace rlk::cpu {
namespace {

#if defined(RLK_X86)
bool x86_has_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
// AVX-VNNI: cpuid leaf 7, sub-leaf 1, EAX bit 4 (Clang 14 has no __builtin_cpu_supports name
// for it). Its registers are AVX's, whose OS support x86_has_avx2 has checked.
bool x86_has_avx_vnni() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return x86_has_avx2() && __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 4)) != 0;
}
bool x86_has_avx512() {
  return x86_has_avx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
}
#endif

#if defined(RLK_ARM64)
bool arm_has_dotprod() {
#if defined(__linux__)
  return (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) != 0;
#elif defined(__APPLE__)
  int value = 0;
  std::size_t size = sizeof value;
  return sysctlbyname("hw.optional.arm.FEAT_DotProd", &value, &size, nullptr, 0) == 0 && value != 0;
#else
  return false;
#endif
}
#endif

std::atomic<VecIsa>& chosen() {
  static std::atomic<VecIsa> isa{best_vec_isa()};
  return isa;
}

}  // namespace

bool vec_isa_available(VecIsa isa) {
  switch (isa) {
    case VecIsa::generic: return true;
#if defined(RLK_X86)
    case VecIsa::avx2: return x86_has_avx2();
    case VecIsa::avx512: return x86_has_avx512();
#endif
    default: return false;
  }
}

VecIsa best_vec_isa() {
  static const VecIsa best = vec_isa_available(VecIsa::avx512) ? VecIsa::avx512
                             : vec_isa_available(VecIsa::avx2) ? VecIsa::avx2
                                                               : VecIsa::generic;
  return best;
}

VecIsa vec_isa() { return chosen().load(std::memory_order_relaxed); }

void set_vec_isa(VecIsa isa) {
  if (!vec_isa_available(isa)) throw std::invalid_argument(std::string("this CPU has no ") + vec_isa_name(isa));
  chosen().store(isa, std::memory_order_relaxed);
}

const char* vec_isa_name(VecIsa isa) {
  switch (isa) {
    case VecIsa::avx2: return "AVX2+FMA";
    case VecIsa::avx512: return "AVX-512";
    default:
#if defined(RLK_X86)
      return "generic (SSE2)";
#elif defined(RLK_ARM64)
      return "generic (NEON)";
#else
      return "generic";
#endif
  }
}

const char* vec_isa_id(VecIsa isa) {
  switch (isa) {
    case VecIsa::avx2: return "avx2";
    case VecIsa::avx512: return "avx512";
    default: return "generic";
  }
}

bool vec_isa_from_id(const char* id, VecIsa& out) {
  for (VecIsa isa : {VecIsa::generic, VecIsa::avx2, VecIsa::avx512})
    if (std::strcmp(id, vec_isa_id(isa)) == 0) {
      out = isa;
      return true;
    }
  return false;
}

bool int_dot_available(IntDot isa) {
  switch (isa) {
    case IntDot::scalar: return true;
#if defined(RLK_X86)
    case IntDot::avx2: return x86_has_avx2();
    case IntDot::avx_vnni: return x86_has_avx_vnni();
    case IntDot::avx512_vnni:
      return x86_has_avx2() && __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vl");
#endif
#if defined(RLK_ARM64)
    case IntDot::neon: return true;
    case IntDot::sdot: return arm_has_dotprod();
#endif
    default: return false;
  }
}

IntDot best_int_dot() {
  static const IntDot best = [] {
    for (IntDot isa : {IntDot::avx_vnni, IntDot::avx512_vnni, IntDot::avx2, IntDot::sdot, IntDot::neon})
      if (int_dot_available(isa)) return isa;
    return IntDot::scalar;
  }();
  return best;
}

const char* int_dot_name(IntDot isa) {
  switch (isa) {
    case IntDot::avx2: return "AVX2 (vpmaddubsw)";
    case IntDot::avx_vnni: return "AVX-VNNI (vpdpbusd)";
    case IntDot::avx512_vnni: return "AVX-512 VNNI (vpdpbusd, 256-bit)";
    case IntDot::neon: return "NEON (smull + sadalp)";
    case IntDot::sdot: return "NEON dot product (sdot)";
    default: return "scalar";
  }
}

const char* int_dot_id(IntDot isa) {
  switch (isa) {
    case IntDot::avx2: return "avx2";
    case IntDot::avx_vnni: return "avx-vnni";
    case IntDot::avx512_vnni: return "avx512-vnni";
    case IntDot::neon: return "neon";
    case IntDot::sdot: return "sdot";
    default: return "scalar";
  }
}

bool int_dot_from_id(const char* id, IntDot& out) {
  for (IntDot isa : all_int_dots)
    if (std::strcmp(id, int_dot_id(isa)) == 0) {
      out = isa;
      return true;
    }
  return false;
}

}  // namespace rlk::cpu
