// The browser benchmark's kernels, compiled to WebAssembly with SIMD128 (-msimd128) or, for
// browsers without it, as plain scalar code. Their FLOPs and bytes come from the core's
// kernel_costs, as the native benchmark's do (exports.cpp); this header only computes.
//
//   std::vector<float> a(n), b = ..., c = ...;
//   triad(a.data(), b.data(), c.data(), 3.0f, n);           // a[i] = b[i] + 3·c[i]
//   check_triad(a.data(), b.data(), c.data(), 3.0f, n);      // {true, n} when every element is right
//   fill_dot_inputs(x.data(), y.data(), n);
//   dot(x.data(), y.data(), n) == dot_reference(x.data(), y.data(), n);   // exact, see fill_dot_inputs
#pragma once

#include <cstddef>

namespace roofline::measure {

/// True when this build uses WebAssembly SIMD128 (four FP32 lanes per instruction).
bool simd_build();

/// a[i] = b[i] + s·c[i], reads b and c, writes a (n floats each): 2 FLOPs and 12 bytes per
/// element, stream_triad_cost.
void triad(float* a, const float* b, const float* c, float s, std::size_t n);

/// Σ a[i]·b[i] over n floats, reads a and b, writes nothing: 2 FLOPs and 8 bytes per element,
/// stream_dot_cost. The read-only kernel of the memory-hierarchy sweep. Sums in dot_lanes
/// independent lanes, lane j taking the elements i ≡ j (mod dot_lanes) of the whole multiples of
/// dot_lanes, then the lanes and the tail.
float dot(const float* a, const float* b, std::size_t n);

/// The lanes of dot: four SIMD128 vectors of four floats (the scalar build keeps as many scalars).
inline constexpr int dot_lanes = 16;

/// Σ a[i]·b[i] in double, one element after the other: the reference dot is checked against.
double dot_reference(const float* a, const float* b, std::size_t n);

/// Inputs on which dot is exact in FP32 in any of the orders above: a[i] = 1 + i mod 7 and
/// b[i] = ±1, the sign turning every dot_lanes elements. Each lane then meets +a and −a of the
/// same values in turn (16 ≡ 2 mod 7; 7 steps of a lane are an odd number of sign changes), so
/// every partial sum of a lane stays under 8 · 7 in size, every sum of lanes under 16 · 8 · 7, all
/// small integers (exact below 2²⁴); and the total is not 0 for most n, so a kernel that skipped
/// or repeated an element would read a different sum.
void fill_dot_inputs(float* a, float* b, std::size_t n);

/// A dot's result checked: finite and exactly the reference (exact on fill_dot_inputs' inputs).
bool check_dot(float got, double want);

/// Independent chains of the register loop: enough to keep a core's FP pipes busy (latency 3–4
/// cycles × up to 2–3 issues per cycle).
inline constexpr int peak_chains = 12;
/// FP32 lanes per chain (one SIMD128 vector; the scalar build runs as many scalar chains).
inline constexpr int peak_lanes = 4;
/// Multiply-adds per iteration of peak_mul_add: one per lane of each chain.
inline constexpr int peak_mul_adds_per_iteration = peak_chains * peak_lanes;

/// acc = acc·m + k, a multiply then an add (SIMD128 has no fused multiply-add, so 2 FLOPs as
/// fma_flops counts one FMA), `iterations` times on each lane of each chain; reads nothing,
/// returns the sum of the lanes so the loop cannot be dropped.
float peak_mul_add(long iterations, float seed);

/// The same recurrence, one lane at a time in plain scalar code: the reference peak_mul_add is
/// checked against.
float peak_mul_add_reference(long iterations, float seed);

/// The outcome of a check: `ok`, and where it failed (the first wrong element, or n).
struct Check {
  bool ok;
  std::size_t first_bad;
};

/// Every element of a equals b[i] + s·c[i] exactly and is finite (small integers are exact in
/// FP32, so an exact comparison is right here).
Check check_triad(const float* a, const float* b, const float* c, float s, std::size_t n);

/// The sum is finite and within a relative 1e-5 of the scalar reference.
bool check_peak(float got, long iterations, float seed);

/// Fills x[i] with the small integer 1 + (i + offset) mod 7: exact in FP32, never all equal.
void fill_small_ints(float* x, std::size_t n, int offset);

}  // namespace roofline::measure
