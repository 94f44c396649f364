// Streaming stores (non-temporal): write a cache line without reading it first, so a copy moves
// 2 arrays, not 3. Plain stores where the target has no AVX.
#pragma once

#include "cpu.hpp"
#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace rlk::cpu::detail {

inline void stream_store8(float* p, v8f v) {
#if defined(__AVX__)
  _mm256_stream_ps(p, __builtin_bit_cast(__m256, v));
#else
  store8(p, v);
#endif
}
inline void stream_fence() {
#if defined(__AVX__)
  _mm_sfence();
#endif
}
/// Threads split arrays in slices of this many floats (a multiple of 64 bytes keeps every
/// slice aligned for streaming stores).
inline constexpr std::size_t stream_grain = 1024;

}  // namespace rlk::cpu::detail
