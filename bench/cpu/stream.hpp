// Streaming stores (non-temporal): write a cache line without reading it first, so a copy moves
// 2 arrays, not 3. On x86 two 16-byte movntps (SSE, in every variant: the write-combining buffer
// gathers the line all the same); plain stores elsewhere.
#pragma once

#include "cpu.hpp"

namespace rlk::cpu::detail {

RLK_INLINE void stream_store8(float* p, v8f v) {
#if defined(RLK_X86)
  __m128 lo, hi;
  std::memcpy(&lo, &v, sizeof lo);
  std::memcpy(&hi, reinterpret_cast<const char*>(&v) + sizeof lo, sizeof hi);
  _mm_stream_ps(p, lo);
  _mm_stream_ps(p + 4, hi);
#else
  store8(p, v);
#endif
}
RLK_INLINE void stream_fence() {
#if defined(RLK_X86)
  _mm_sfence();
#endif
}
/// Threads split arrays in slices of this many floats (a multiple of 64 bytes keeps every
/// slice aligned for streaming stores).
inline constexpr std::size_t stream_grain = 1024;

}  // namespace rlk::cpu::detail
