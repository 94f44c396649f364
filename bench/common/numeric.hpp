// Number formats shared by kernels, references and tests: BF16 bits, INT8 and INT4 group
// quantization, small-integer test data and output checks. C++17, host only.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace rlk {

/// float → BF16 bits, rounding to nearest even (NaN stays NaN).
inline std::uint16_t to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}

/// BF16 bits → float: the top half of an FP32.
inline float from_bf16(std::uint16_t h) {
  const std::uint32_t u = std::uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// Deterministic small integers in [-range, range]: every product and every sum of up to 2^24 ÷
/// range² of them is exact in FP32, so a correct kernel matches the reference exactly whatever
/// its summation order.
inline void fill_small_ints(float* data, std::size_t count, unsigned seed, int range = 2) {
  std::uint32_t s = seed * 2654435761u + 12345u;
  for (std::size_t i = 0; i < count; ++i) {
    s = s * 1664525u + 1013904223u;
    data[i] = static_cast<float>(static_cast<int>((s >> 16) % (2 * range + 1)) - range);
  }
}

/// INT4 layout: each block of 32 weights takes 16 bytes; byte j holds weight j in its low nibble
/// and weight j + 16 in its high nibble, both stored as q + 8 (q in [-8, 7]).
inline constexpr int int4_block = 32;

/// Weight-only quantized matrix, rows × cols, one scale (BF16) per `group` consecutive weights of
/// a row. `q8` for INT8 (one byte per weight), `q4` for INT4 (half a byte per weight).
struct QuantizedMatrix {
  std::size_t rows = 0, cols = 0, group = 0;
  std::vector<std::int8_t> q8;
  std::vector<std::uint8_t> q4;
  std::vector<std::uint16_t> scales;  ///< rows × (cols ÷ group), BF16 bits
  float scale(std::size_t r, std::size_t g) const { return from_bf16(scales[r * (cols / group) + g]); }
};

/// Small exact test data: quantized values cycle through their whole range, scales are powers of
/// two, so dequantized products sum exactly in FP32 for the sizes the bench uses.
inline QuantizedMatrix make_quantized(std::size_t rows, std::size_t cols, std::size_t group, int bits, unsigned seed) {
  QuantizedMatrix w;
  w.rows = rows;
  w.cols = cols;
  w.group = group;
  const std::size_t groups = cols / group;
  w.scales.resize(rows * groups);
  std::uint32_t s = seed * 2246822519u + 7u;
  for (auto& sc : w.scales) {
    s = s * 1664525u + 1013904223u;
    sc = to_bf16(std::ldexp(1.0f, static_cast<int>((s >> 16) % 3) - 4));  // 1/16, 1/8, 1/4
  }
  if (bits == 8) {
    w.q8.resize(rows * cols);
    for (auto& q : w.q8) {
      s = s * 1664525u + 1013904223u;
      q = static_cast<std::int8_t>(static_cast<int>((s >> 16) % 255) - 127);
    }
  } else {
    w.q4.resize(rows * cols / 2);
    for (auto& b : w.q4) {
      s = s * 1664525u + 1013904223u;
      b = static_cast<std::uint8_t>((s >> 16) & 0xff);
    }
  }
  return w;
}

/// The dequantized weight (r, c), exactly as a kernel must see it.
inline float dequantized(const QuantizedMatrix& w, std::size_t r, std::size_t c) {
  const float sc = w.scale(r, c / w.group);
  if (!w.q8.empty()) return sc * static_cast<float>(w.q8[r * w.cols + c]);
  const std::size_t block = c / int4_block, j = c % int4_block;
  const std::uint8_t byte = w.q4[r * (w.cols / 2) + block * (int4_block / 2) + (j % 16)];
  const int nibble = j < 16 ? (byte & 0xf) : (byte >> 4);
  return sc * static_cast<float>(nibble - 8);
}

/// Activations for the integer-dot GEMVs, quantized once per call: blocks of `n` values (x_block
/// = 32 as llama.cpp's Q8_0 on the GPU; the CPU kernels take one block per weight group, as
/// llama.cpp's Q8_K does for its k-quants), each with an FP32 scale d = max|x| ÷ 127 and codes
/// q = round(x ÷ d) in [−127, 127] (d = 0 and q = 0 for an all-zero block).
inline constexpr int x_block = 32;

/// Quantizes one block of `n` values: writes the codes, returns d and, in `sum`, Σ q.
inline float quantize_x_block(const float* x, std::int8_t* q, int& sum, std::size_t n = x_block) {
  float amax = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const float a = std::fabs(x[j]);
    if (!(a <= amax)) amax = a;  // a NaN sticks, and reaches y through d
  }
  const float d = amax / 127.0f, inv = amax > 0 ? 127.0f / amax : 0.0f;
  sum = 0;
  for (std::size_t j = 0; j < n; ++j) {
    q[j] = static_cast<std::int8_t>(std::lrintf(x[j] * inv));
    sum += q[j];
  }
  return d;
}

/// Small integers (−3 … 3) with one ±127 in every block of x_block: INT8 holds them exactly
/// (scale 1, codes = values), so an integer-dot GEMV must match the reference exactly.
inline void fill_exactly_quantizable(float* x, std::size_t count, unsigned seed) {
  fill_small_ints(x, count, seed, 3);
  for (std::size_t b = 0; b < count / x_block; ++b) x[b * x_block + (b * 7) % x_block] = b % 2 ? -127.0f : 127.0f;
}

/// How far an integer-dot GEMV's y_r may be from Σ_j w_rj·x_j (w dequantized, x unquantized,
/// both exact), when x is quantized in blocks of `block` values and the GEMV computes
/// Σ_terms s·d_b·I with exact integer sums I (`terms` of them per block: the SIMD lanes that
/// each hold a part of a block's sum) and FP32 for the rest:
///  - quantizing x: with d_b and 1/d_b rounded to FP32 and q rounded to nearest,
///    |x_j − d_b·q_j| ≤ d_b/2 + |x_j|·3.01u ≤ d_b·(1/2 + 2^−15) (|x_j| ≤ 127·d_b, u = 2^−24), so
///    this part is at most Σ_b d_b·(1/2 + 2^−15)·Σ_{j∈b} |w_rj|;
///  - FP32 arithmetic: N = blocks × terms products s·d_b·I, two roundings each, summed in any
///    order: at most γ(N + 2)·Σ |s·d_b·I| ≤ γ(N + 2)·Σ_j |w_rj|·(|x_j| + d_b), γ(n) = n·u ÷ (1 − n·u).
/// `cols` a multiple of `block`.
inline double int_dot_error_bound(const QuantizedMatrix& w, std::size_t r, const float* x, std::size_t block = x_block,
                                  std::size_t terms = 1) {
  const double u = std::ldexp(1.0, -24);
  const double n = double(w.cols / block * terms), gamma = (n + 2) * u / (1 - (n + 2) * u);
  double quant = 0, magnitude = 0;
  for (std::size_t b = 0; b < w.cols; b += block) {
    float amax = 0;
    for (std::size_t j = 0; j < block; ++j) amax = std::fmax(amax, std::fabs(x[b + j]));
    const double d = double(amax / 127.0f);
    double wsum = 0;
    for (std::size_t j = 0; j < block; ++j) {
      const double wj = std::fabs(double(dequantized(w, r, b + j)));
      wsum += wj;
      magnitude += wj * (std::fabs(double(x[b + j])) + d);
    }
    quant += d * (0.5 + std::ldexp(1.0, -15)) * wsum;
  }
  return quant + gamma * magnitude;
}

/// Compares `got` with `want` element by element against absolute bounds: fails on any NaN or
/// infinity, or on |got − want| > bound. Writes what was found (the largest error ÷ its bound).
inline bool check_within(const float* got, const double* want, const double* bound, std::size_t count,
                         std::string& detail) {
  double worst = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(got[i])) {
      detail = "non-finite output at " + std::to_string(i);
      return false;
    }
    const double err = std::fabs(double(got[i]) - want[i]);
    if (!(err <= bound[i])) {
      detail = "mismatch at " + std::to_string(i) + ": got " + std::to_string(got[i]) + ", want " +
               std::to_string(want[i]) + " ± " + std::to_string(bound[i]);
      return false;
    }
    if (bound[i] > 0) worst = std::fmax(worst, err / bound[i]);
  }
  char buf[112];
  std::snprintf(buf, sizeof buf, "%zu values within the quantization bound, largest error %.2g of it", count, worst);
  detail = buf;
  return true;
}

/// Compares `got` with `want`: fails on any NaN or infinity, or on an element whose error exceeds
/// rel_tol × max(|want|, floor). Writes what was found to `detail`.
inline bool check_close(const float* got, const double* want, std::size_t count, double rel_tol, double floor,
                        std::string& detail) {
  double worst = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(got[i])) {
      detail = "non-finite output at " + std::to_string(i);
      return false;
    }
    const double err = std::fabs(double(got[i]) - want[i]) / std::fmax(std::fabs(want[i]), floor);
    if (err > rel_tol) {
      detail =
          "mismatch at " + std::to_string(i) + ": got " + std::to_string(got[i]) + ", want " + std::to_string(want[i]);
      return false;
    }
    worst = std::fmax(worst, err);
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "%zu values, max relative error %.2g", count, worst);
  detail = buf;
  return true;
}

/// Scans a whole output for NaN or infinity (sampled checks could miss one).
inline bool all_finite(const float* data, std::size_t count, std::string& detail) {
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(data[i])) {
      detail = "non-finite output at " + std::to_string(i);
      return false;
    }
  }
  return true;
}

/// Reference C[i][j] = Σ_t A[i][t]·B[t][j] in double, row-major A (n × k), B (k × m).
inline double ref_dot(const float* a, const float* b, std::size_t k, std::size_t m, std::size_t i, std::size_t j) {
  double s = 0;
  for (std::size_t t = 0; t < k; ++t) s += double(a[i * k + t]) * double(b[t * m + j]);
  return s;
}

/// Checks C = A·B (+ bias, ReLU when given) on a deterministic sample of entries, including the
/// four corners, after scanning all of C for non-finite values.
inline bool check_matmul_sampled(const float* a, const float* b, const float* c, std::size_t n, std::size_t k,
                                 std::size_t m, const float* bias, bool relu, std::size_t samples,
                                 std::string& detail) {
  if (!all_finite(c, n * m, detail)) return false;
  std::vector<float> got;
  std::vector<double> want;
  std::uint32_t s = 99;
  for (std::size_t q = 0; q < samples; ++q) {
    std::size_t i, j;
    if (q < 4) {
      i = (q & 1) ? n - 1 : 0;
      j = (q & 2) ? m - 1 : 0;
    } else {
      s = s * 1664525u + 1013904223u;
      i = (s >> 8) % n;
      s = s * 1664525u + 1013904223u;
      j = (s >> 8) % m;
    }
    double v = ref_dot(a, b, k, m, i, j);
    if (bias) v += bias[j];
    if (relu) v = v > 0 ? v : 0;
    want.push_back(v);
    got.push_back(c[i * m + j]);
  }
  return check_close(got.data(), want.data(), got.size(), 1e-5, 1.0, detail);
}

}  // namespace rlk
