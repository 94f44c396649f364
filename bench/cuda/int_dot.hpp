// The integer block dot products of the __dp4a GEMVs: 32 weights against 32 INT8 codes of x,
// four byte products per __dp4a, summed in int32 (exact). Host and device (the host copy is what
// tests/bench checks against plain integer arithmetic).
#pragma once

#include <cstdint>

#include "dequant.hpp"  // RLK_HD

namespace rlk::int_dot {

/// __dp4a: c + Σ_{i<4} a_i·b_i over the signed bytes of a and b.
RLK_HD int dp4a(std::uint32_t a, std::uint32_t b, int c) {
#if defined(__CUDA_ARCH__)
  return __dp4a(static_cast<int>(a), static_cast<int>(b), c);
#else
  for (int i = 0; i < 4; ++i)
    c += int(std::int8_t(std::uint8_t(a >> (8 * i)))) * int(std::int8_t(std::uint8_t(b >> (8 * i))));
  return c;
#endif
}

/// Σ q·qx over one INT8 block: 32 weights in 8 words, 32 codes of x in 8 words (byte order =
/// element order), added to `start`.
RLK_HD int block_dot_int8(const std::uint32_t w[8], const std::uint32_t xq[8], int start) {
  for (int v = 0; v < 8; ++v) start = dp4a(w[v], xq[v], start);
  return start;
}

/// Σ (nib − 8)·qx over one INT4 block (numeric.hpp's layout: 16 bytes in 4 words, byte j = weight
/// j low, weight j + 16 high), 32 codes of x in 8 words. Masking a word with 0x0F0F0F0F gives
/// four weights 4v … 4v+3 as bytes 0 … 15 (positive as signed bytes too); shifting by 4 first
/// gives weights 16 + 4v …; the offset 8 is taken out by starting from −8·Σ qx of the block.
RLK_HD int block_dot_int4(const std::uint32_t w[4], const std::uint32_t xq[8], int minus_8_sum) {
  int s = minus_8_sum;
  for (int v = 0; v < 4; ++v) {
    s = dp4a(w[v] & 0x0F0F0F0Fu, xq[v], s);
    s = dp4a((w[v] >> 4) & 0x0F0F0F0Fu, xq[4 + v], s);
  }
  return s;
}

}  // namespace rlk::int_dot
