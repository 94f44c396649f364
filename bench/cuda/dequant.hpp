// Exact INT8 / INT4 → FP32 without the integer-to-float conversion instruction, which runs at a
// quarter of the FMA rate on NVIDIA GPUs (16 vs 64+ per SM per clock) and would cap a quantized
// GEMV below its memory roof. A small integer u placed in the low mantissa bits of 2^23
// (bits 0x4B000000 | u) is the float 2^23 + u; one subtraction leaves u exactly.
// Host and device (the host copy is what tests/bench checks).
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define RLK_HD __host__ __device__ __forceinline__
#else
#define RLK_HD inline
#endif

namespace rlk::dequant {

RLK_HD float bits_to_float(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}

/// PRMT (__byte_perm): result byte i is byte ((s >> 4i) & 7) of the 8 bytes {y : x}.
RLK_HD std::uint32_t byte_perm(std::uint32_t x, std::uint32_t y, std::uint32_t s) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, y, s);
#else
  const std::uint64_t v = (std::uint64_t(y) << 32) | x;
  std::uint32_t r = 0;
  for (int i = 0; i < 4; ++i) r |= std::uint32_t((v >> (8 * ((s >> (4 * i)) & 7))) & 0xffu) << (8 * i);
  return r;
#endif
}

inline constexpr std::uint32_t magic_bits = 0x4B000000u;  // 2^23
inline constexpr float magic = 8388608.0f;

/// The 4 signed bytes of `w` (byte 0 first) as exact floats: q + 128 goes under 2^23 with one
/// byte permute each, and 2^23 + 128 comes off.
RLK_HD void int8x4(std::uint32_t w, float out[4]) {
  const std::uint32_t u = w ^ 0x80808080u;  // q + 128 in every byte
  out[0] = bits_to_float(byte_perm(u, magic_bits, 0x7440)) - (magic + 128.0f);
  out[1] = bits_to_float(byte_perm(u, magic_bits, 0x7441)) - (magic + 128.0f);
  out[2] = bits_to_float(byte_perm(u, magic_bits, 0x7442)) - (magic + 128.0f);
  out[3] = bits_to_float(byte_perm(u, magic_bits, 0x7443)) - (magic + 128.0f);
}

/// The 8 nibbles of `w` (nibble i = bits 4i … 4i+3), each minus 8, scaled by a power of 16 so
/// that no shift is needed for the first five: out[i] = (nib_i − 8)·16^e_i with
/// e = {0, 1, 2, 3, 4, 0, 1, 2}. Multiply by x·16^−e_i to undo the scale, exactly.
RLK_HD void int4x8_scaled(std::uint32_t w, float out[8]) {
  out[0] = bits_to_float((w & 0x0000000Fu) | magic_bits) - (magic + 8.0f);
  out[1] = bits_to_float((w & 0x000000F0u) | magic_bits) - (magic + 128.0f);
  out[2] = bits_to_float((w & 0x00000F00u) | magic_bits) - (magic + 2048.0f);
  out[3] = bits_to_float((w & 0x0000F000u) | magic_bits) - (magic + 32768.0f);
  out[4] = bits_to_float((w & 0x000F0000u) | magic_bits) - (magic + 524288.0f);
  const std::uint32_t h = w >> 20;  // nibbles 5, 6, 7 → bits 0 … 11
  out[5] = bits_to_float((h & 0x00Fu) | magic_bits) - (magic + 8.0f);
  out[6] = bits_to_float((h & 0x0F0u) | magic_bits) - (magic + 128.0f);
  out[7] = bits_to_float((h & 0xF00u) | magic_bits) - (magic + 2048.0f);
}

/// 16^−e_i for int4x8_scaled's nibble i.
RLK_HD constexpr float int4_unscale(int i) { return 1.0f / float(1u << (4 * (i < 5 ? i : i - 5))); }

/// One INT4 block (32 weights in 4 words, the layout of numeric.hpp: byte j holds weight j low
/// and weight j + 16 high) against x: first x_block (32 floats, in weight order) is put in
/// nibble order and scaled once, sx[v][i] for nibble i of word v; then block_dot_int4 gives
/// Σ (q − 8)·x for any row's words. The GPU GEMV shares one sx among the rows of a warp.
RLK_HD void int4_scale_x(const float x_block[32], float sx[4][8]) {
  for (int v = 0; v < 4; ++v)
    for (int i = 0; i < 4; ++i) {
      sx[v][2 * i] = x_block[4 * v + i] * int4_unscale(2 * i);               // low nibble: weight 4v + i
      sx[v][2 * i + 1] = x_block[16 + 4 * v + i] * int4_unscale(2 * i + 1);  // high: 16 + 4v + i
    }
}

RLK_HD float block_dot_int4(const std::uint32_t words[4], const float sx[4][8], float s) {
  for (int v = 0; v < 4; ++v) {
    float w[8];
    int4x8_scaled(words[v], w);
    for (int i = 0; i < 8; ++i) s += w[i] * sx[v][i];
  }
  return s;
}

/// Σ q·x over 16 INT8 weights held in 4 words (byte order = weight order).
RLK_HD float dot16_int8(const std::uint32_t words[4], const float x[16], float s) {
  for (int v = 0; v < 4; ++v) {
    float q[4];
    int8x4(words[v], q);
    for (int i = 0; i < 4; ++i) s += q[i] * x[4 * v + i];
  }
  return s;
}

}  // namespace rlk::dequant
