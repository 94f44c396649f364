#include "kernels.hpp"

#include <cmath>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace roofline::measure {

bool simd_build() {
#if defined(__wasm_simd128__)
  return true;
#else
  return false;
#endif
}

void triad(float* a, const float* b, const float* c, float s, std::size_t n) {
  std::size_t i = 0;
#if defined(__wasm_simd128__)
  const v128_t vs = wasm_f32x4_splat(s);
  for (; i + 8 <= n; i += 8) {
    const v128_t b0 = wasm_v128_load(b + i), b1 = wasm_v128_load(b + i + 4);
    const v128_t c0 = wasm_v128_load(c + i), c1 = wasm_v128_load(c + i + 4);
    wasm_v128_store(a + i, wasm_f32x4_add(b0, wasm_f32x4_mul(vs, c0)));
    wasm_v128_store(a + i + 4, wasm_f32x4_add(b1, wasm_f32x4_mul(vs, c1)));
  }
#endif
  for (; i < n; ++i) a[i] = b[i] + s * c[i];
}

float dot(const float* a, const float* b, std::size_t n) {
  static_assert(dot_lanes == 16, "four SIMD128 vectors of four lanes");
  const std::size_t whole = n / dot_lanes * dot_lanes;
  std::size_t i = 0;
  float sum = 0;
#if defined(__wasm_simd128__)
  v128_t s0 = wasm_f32x4_splat(0), s1 = s0, s2 = s0, s3 = s0;
  for (; i < whole; i += dot_lanes) {
    s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(wasm_v128_load(a + i), wasm_v128_load(b + i)));
    s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(wasm_v128_load(a + i + 4), wasm_v128_load(b + i + 4)));
    s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(wasm_v128_load(a + i + 8), wasm_v128_load(b + i + 8)));
    s3 = wasm_f32x4_add(s3, wasm_f32x4_mul(wasm_v128_load(a + i + 12), wasm_v128_load(b + i + 12)));
  }
  const v128_t v = wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3));
  sum = (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
        (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
#else
  float acc[dot_lanes] = {};
  for (; i < whole; i += dot_lanes) {
    for (int j = 0; j < dot_lanes; ++j) acc[j] += a[i + std::size_t(j)] * b[i + std::size_t(j)];
  }
  for (int j = 0; j < dot_lanes; ++j) sum += acc[j];
#endif
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

double dot_reference(const float* a, const float* b, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += double(a[i]) * double(b[i]);
  return sum;
}

void fill_dot_inputs(float* a, float* b, std::size_t n) {
  // one period of both patterns (7 and 2 · dot_lanes elements: 224), then copies of what is
  // written, doubling: hundreds of MiB filled at the speed of memcpy
  constexpr std::size_t period = 7 * 2 * dot_lanes;
  const std::size_t first = n < period ? n : period;
  for (std::size_t i = 0; i < first; ++i) {
    a[i] = float(1 + i % 7);
    b[i] = (i / dot_lanes) % 2 ? -1.0f : 1.0f;
  }
  for (std::size_t done = first; done < n;) {
    // done is a whole number of periods, so a copy of the start continues both patterns
    const std::size_t chunk = done < n - done ? done : n - done;
    std::memcpy(a + done, a, chunk * sizeof(float));
    std::memcpy(b + done, b, chunk * sizeof(float));
    done += chunk;
  }
}

bool check_dot(float got, double want) { return std::isfinite(got) && double(got) == want; }

float peak_mul_add(long iterations, float seed) {
  const float m = 0.999999f;
  const float k = 1e-7f;
#if defined(__wasm_simd128__)
  static_assert(peak_lanes == 4, "one SIMD128 vector of FP32 per chain");
  const v128_t vm = wasm_f32x4_splat(m), vk = wasm_f32x4_splat(k);
  v128_t acc[peak_chains];
  for (int j = 0; j < peak_chains; ++j) {
    const float base = seed + float(j * peak_lanes);
    acc[j] = wasm_f32x4_make(base, base + 1, base + 2, base + 3);
  }
  for (long it = 0; it < iterations; ++it) {
    // twelve independent chains: each multiply-add waits only on its own chain
    acc[0] = wasm_f32x4_add(wasm_f32x4_mul(acc[0], vm), vk);
    acc[1] = wasm_f32x4_add(wasm_f32x4_mul(acc[1], vm), vk);
    acc[2] = wasm_f32x4_add(wasm_f32x4_mul(acc[2], vm), vk);
    acc[3] = wasm_f32x4_add(wasm_f32x4_mul(acc[3], vm), vk);
    acc[4] = wasm_f32x4_add(wasm_f32x4_mul(acc[4], vm), vk);
    acc[5] = wasm_f32x4_add(wasm_f32x4_mul(acc[5], vm), vk);
    acc[6] = wasm_f32x4_add(wasm_f32x4_mul(acc[6], vm), vk);
    acc[7] = wasm_f32x4_add(wasm_f32x4_mul(acc[7], vm), vk);
    acc[8] = wasm_f32x4_add(wasm_f32x4_mul(acc[8], vm), vk);
    acc[9] = wasm_f32x4_add(wasm_f32x4_mul(acc[9], vm), vk);
    acc[10] = wasm_f32x4_add(wasm_f32x4_mul(acc[10], vm), vk);
    acc[11] = wasm_f32x4_add(wasm_f32x4_mul(acc[11], vm), vk);
  }
  v128_t sum = acc[0];
  for (int j = 1; j < peak_chains; ++j) sum = wasm_f32x4_add(sum, acc[j]);
  return (wasm_f32x4_extract_lane(sum, 0) + wasm_f32x4_extract_lane(sum, 1)) +
         (wasm_f32x4_extract_lane(sum, 2) + wasm_f32x4_extract_lane(sum, 3));
#else
  float acc[peak_mul_adds_per_iteration];
  for (int j = 0; j < peak_mul_adds_per_iteration; ++j) acc[j] = seed + float(j);
  for (long it = 0; it < iterations; ++it) {
    for (int j = 0; j < peak_mul_adds_per_iteration; ++j) acc[j] = acc[j] * m + k;
  }
  float sum = 0;
  for (int j = 0; j < peak_mul_adds_per_iteration; ++j) sum += acc[j];
  return sum;
#endif
}

float peak_mul_add_reference(long iterations, float seed) {
  const float m = 0.999999f;
  const float k = 1e-7f;
  float sum = 0;
  for (int j = 0; j < peak_mul_adds_per_iteration; ++j) {
    volatile float x = seed + float(j);  // volatile: one rounding per operation, as in the kernel
    for (long it = 0; it < iterations; ++it) {
      const float p = x * m;
      x = p + k;
    }
    sum += x;
  }
  return sum;
}

Check check_triad(const float* a, const float* b, const float* c, float s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const float want = b[i] + s * c[i];
    if (!std::isfinite(a[i]) || !(a[i] == want)) return {false, i};
  }
  return {true, n};
}

bool check_peak(float got, long iterations, float seed) {
  if (!std::isfinite(got)) return false;
  const float want = peak_mul_add_reference(iterations, seed);
  return std::fabs(got - want) <= 1e-5f * std::fabs(want);
}

void fill_small_ints(float* x, std::size_t n, int offset) {
  for (std::size_t i = 0; i < n; ++i) x[i] = float(1 + (i + std::size_t(offset)) % 7);
}

}  // namespace roofline::measure
