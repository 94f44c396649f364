// The browser benchmark's module: plain C exports (numbers in, numbers out) that the worker
// (worker.js) calls. Every FLOP and byte count comes from the core's kernel_costs, every rate
// from its unit types, as in the native benchmark.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "kernels.hpp"
#include "roofline/dtype.hpp"
#include "roofline/kernel_costs.hpp"
#include "roofline/units.hpp"

namespace {

using namespace roofline;

struct Arrays {
  float* block = nullptr;
  std::size_t n = 0;
  float* a() const { return block; }
  float* b() const { return block + n; }
  float* c() const { return block + 2 * n; }
};
Arrays arrays;
constexpr float triad_scalar = 3.0f;
constexpr float peak_seed = 0.5f;
volatile float sink = 0;  // keeps the register loop's and the dot's results alive
constexpr int kernels = 3;
std::vector<double> times[kernels];  // seconds of each timed run: [0] triad, [1] register loop, [2] dot

bool known(int kernel) { return kernel >= 0 && kernel < kernels; }

// The hierarchy sweep's two arrays (dot_n floats each, in one block): every working set is a
// prefix of both, so one allocation serves every size up to the largest the browser gave.
struct DotArrays {
  float* block = nullptr;
  std::size_t n = 0;
  float* a() const { return block; }
  float* b() const { return block + n; }
};
DotArrays dot_arrays;
double dot_want = 0;          // the reference sum over the first dot_checked elements
std::size_t dot_checked = 0;  // 0: nothing verified yet
bool dot_ok = true;           // every timed dot since the last verification gave dot_want

bool whole(double x) { return std::isfinite(x) && x >= 1 && x <= 9.0e15 && std::floor(x) == x; }

void fill_inputs() {
  measure::fill_small_ints(arrays.a(), arrays.n, 0);
  measure::fill_small_ints(arrays.b(), arrays.n, 1);
  measure::fill_small_ints(arrays.c(), arrays.n, 2);
}

}  // namespace

extern "C" {

/// 1 when this build uses SIMD128, 0 for the scalar build.
EMSCRIPTEN_KEEPALIVE int measure_simd() { return measure::simd_build() ? 1 : 0; }

/// Reserves the triad's three arrays of n floats, written once so that every page is really
/// there; 1 on success, 0 when the browser refuses the memory (the caller tries a smaller n).
EMSCRIPTEN_KEEPALIVE int measure_alloc(double n) {
  std::free(arrays.block);
  arrays = {};
  times[0].clear();
  // the size in double first: in wasm32, size_t is 32 bits and 3·n·4 bytes would wrap around
  const double bytes = n * 3 * sizeof(float);
  if (!whole(n) || bytes > double(std::numeric_limits<std::size_t>::max())) return 0;
  auto* block = static_cast<float*>(std::malloc(std::size_t(bytes)));
  if (!block) return 0;
  arrays = {block, std::size_t(n)};
  fill_inputs();
  return 1;
}

/// Gives the arrays back.
EMSCRIPTEN_KEEPALIVE void measure_release() {
  std::free(arrays.block);
  arrays = {};
}

/// One untimed triad from fresh inputs, every element checked: 1 when right, 0 otherwise.
EMSCRIPTEN_KEEPALIVE int measure_triad_verify() {
  if (!arrays.block) return 0;
  fill_inputs();
  measure::triad(arrays.a(), arrays.b(), arrays.c(), triad_scalar, arrays.n);
  return measure::check_triad(arrays.a(), arrays.b(), arrays.c(), triad_scalar, arrays.n).ok ? 1 : 0;
}

/// Checks the arrays again after the timed runs (every run writes the same values).
EMSCRIPTEN_KEEPALIVE int measure_triad_check() {
  if (!arrays.block) return 0;
  return measure::check_triad(arrays.a(), arrays.b(), arrays.c(), triad_scalar, arrays.n).ok ? 1 : 0;
}

/// One timed triad over the arrays, in seconds, recorded (-1 without arrays). A run shorter than
/// the timer's resolution reads 0 and is not recorded.
EMSCRIPTEN_KEEPALIVE double measure_triad_seconds() {
  if (!arrays.block) return -1;
  const double t0 = emscripten_get_now();
  measure::triad(arrays.a(), arrays.b(), arrays.c(), triad_scalar, arrays.n);
  const double seconds = (emscripten_get_now() - t0) / 1000.0;
  if (seconds > 0) times[0].push_back(seconds);
  return seconds;
}

/// The triad's bytes per run over the current arrays: stream_triad_cost (12 bytes per element);
/// 0 without arrays.
EMSCRIPTEN_KEEPALIVE double measure_triad_bytes() {
  if (!arrays.block) return 0;
  return stream_triad_cost(double(arrays.n), Dtype::fp32).bytes.value();
}

/// The triad's FLOPs per run: stream_triad_cost (2 per element); 0 without arrays.
EMSCRIPTEN_KEEPALIVE double measure_triad_flops() {
  if (!arrays.block) return 0;
  return stream_triad_cost(double(arrays.n), Dtype::fp32).flops.value();
}

/// The triad's FLOPs per byte: stream_triad_cost's intensity (2 FLOPs over 12 bytes); 0 without
/// arrays.
EMSCRIPTEN_KEEPALIVE double measure_triad_intensity() {
  if (!arrays.block) return 0;
  return stream_triad_cost(double(arrays.n), Dtype::fp32).intensity.value();
}

/// The register loop for `iterations` checked against its scalar reference: 1 when right.
EMSCRIPTEN_KEEPALIVE int measure_peak_verify(double iterations) {
  if (!whole(iterations) || iterations > 1.0e6) return 0;
  const float got = measure::peak_mul_add(long(iterations), peak_seed);
  return measure::check_peak(got, long(iterations), peak_seed) ? 1 : 0;
}

/// One timed register loop of `iterations`, in seconds, recorded (-1 for a bad count; a
/// non-finite result, which the verification rules out, also gives -1).
EMSCRIPTEN_KEEPALIVE double measure_peak_seconds(double iterations) {
  if (!whole(iterations)) return -1;
  const double t0 = emscripten_get_now();
  const float r = measure::peak_mul_add(long(iterations), peak_seed);
  const double seconds = (emscripten_get_now() - t0) / 1000.0;
  sink = r;
  if (!std::isfinite(r)) return -1;
  if (seconds > 0) times[1].push_back(seconds);
  return seconds;
}

/// The register loop's FLOPs: fma_flops of its multiply-adds (2 FLOPs each); 0 for a bad count.
EMSCRIPTEN_KEEPALIVE double measure_peak_flops(double iterations) {
  if (!whole(iterations)) return 0;
  return fma_flops(iterations * measure::peak_mul_adds_per_iteration).value();
}

/// Forgets the recorded times of a kernel (0: triad, 1: register loop, 2: dot), e.g. after calibrating.
EMSCRIPTEN_KEEPALIVE void measure_times_clear(int kernel) {
  if (known(kernel)) times[kernel].clear();
}

/// Records one run's time for a kernel, in seconds: for several workers measuring at once, each
/// run's longest time (the worker keeps its own times otherwise). 1 when recorded; 0 for an
/// unknown kernel, for the dot while no working set is verified (no run of it can have been
/// timed, and its bytes would be unknown), or a time that is not finite and > 0.
EMSCRIPTEN_KEEPALIVE int measure_times_add(int kernel, double seconds) {
  if (!known(kernel) || (kernel == 2 && !dot_checked) || !std::isfinite(seconds) || !(seconds > 0)) return 0;
  times[kernel].push_back(seconds);
  return 1;
}

/// How many timed runs of a kernel are recorded.
EMSCRIPTEN_KEEPALIVE int measure_times_count(int kernel) { return known(kernel) ? int(times[kernel].size()) : 0; }

/// The recorded runs of a kernel summarized: `which` 0 min, 1 median, 2 max seconds, and 3 the
/// rate from the best (minimum) time: `amount` bytes per run → bytes/s for the triad (kernel 0)
/// and the dot (kernel 2), `amount` FLOPs per run → FLOP/s for the register loop (kernel 1). -1
/// when there is no run.
EMSCRIPTEN_KEEPALIVE double measure_summary(int kernel, int which, double amount) {
  if (!known(kernel)) return -1;
  std::vector<double> t = times[kernel];
  if (t.empty() || !(amount > 0) || !std::isfinite(amount)) return -1;
  std::sort(t.begin(), t.end());
  const std::size_t m = t.size();
  switch (which) {
    case 0: return t.front();
    case 1: return m % 2 ? t[m / 2] : (t[m / 2 - 1] + t[m / 2]) / 2;
    case 2: return t.back();
    case 3: {
      const Seconds best{t.front()};
      return kernel == 1 ? (Flops{amount} / best).value() : (Bytes{amount} / best).value();
    }
    default: return -1;
  }
}

// ---- the memory-hierarchy sweep: a read-only dot over working sets from caches to memory ----

/// Reserves the dot's two arrays of n floats each (the largest working set, 8·n bytes), filled
/// with fill_dot_inputs; 1 on success, 0 when the browser refuses the memory (the caller tries a
/// smaller n, and leaves out the sizes above it).
EMSCRIPTEN_KEEPALIVE int measure_dot_alloc(double n) {
  std::free(dot_arrays.block);
  dot_arrays = {};
  dot_checked = 0;
  times[2].clear();
  const double bytes = n * 2 * sizeof(float);
  if (!whole(n) || bytes > double(std::numeric_limits<std::size_t>::max())) return 0;
  auto* block = static_cast<float*>(std::malloc(std::size_t(bytes)));
  if (!block) return 0;
  dot_arrays = {block, std::size_t(n)};
  measure::fill_dot_inputs(dot_arrays.a(), dot_arrays.b(), dot_arrays.n);
  return 1;
}

/// Gives the dot's arrays back.
EMSCRIPTEN_KEEPALIVE void measure_dot_release() {
  std::free(dot_arrays.block);
  dot_arrays = {};
  dot_checked = 0;
}

/// One untimed dot over the first n elements of both arrays, checked against the double
/// reference (exact on these inputs): 1 when right; the timed runs over n are then checked
/// against the same sum. 0 for a wrong sum, a bad n, or no arrays.
EMSCRIPTEN_KEEPALIVE int measure_dot_verify(double n) {
  dot_checked = 0;
  if (!dot_arrays.block || !whole(n) || n > double(dot_arrays.n)) return 0;
  const std::size_t count = std::size_t(n);
  const double want = measure::dot_reference(dot_arrays.a(), dot_arrays.b(), count);
  if (!measure::check_dot(measure::dot(dot_arrays.a(), dot_arrays.b(), count), want)) return 0;
  dot_want = want;
  dot_checked = count;
  dot_ok = true;
  return 1;
}

/// One timed run of `passes` dots over the n elements verified last, in seconds, recorded; a run
/// shorter than the timer's resolution reads 0 and is not recorded. -1 without a verified n or
/// for a bad count. Every pass's sum is compared with the reference (measure_dot_check).
EMSCRIPTEN_KEEPALIVE double measure_dot_seconds(double passes) {
  if (!dot_checked || !whole(passes)) return -1;
  const long count = long(passes);
  bool ok = true;
  const double t0 = emscripten_get_now();
  for (long p = 0; p < count; ++p) {
    const float r = measure::dot(dot_arrays.a(), dot_arrays.b(), dot_checked);
    sink = r;  // a volatile store after each pass: no pass can be skipped or merged
    ok = ok && double(r) == dot_want;
  }
  const double seconds = (emscripten_get_now() - t0) / 1000.0;
  dot_ok = dot_ok && ok;
  if (seconds > 0) times[2].push_back(seconds);
  return seconds;
}

/// 1 when every timed dot since the last verification gave the verified sum.
EMSCRIPTEN_KEEPALIVE int measure_dot_check() { return dot_checked && dot_ok ? 1 : 0; }

/// The bytes one dot over n elements reads, its working set: stream_dot_cost (two arrays of 4 B
/// per element); 0 for a bad n.
EMSCRIPTEN_KEEPALIVE double measure_dot_bytes(double n) {
  if (!whole(n)) return 0;
  return stream_dot_cost(n, Dtype::fp32).bytes.value();
}

/// The dot's FLOPs per byte: stream_dot_cost's intensity (2 FLOPs over 8 bytes).
EMSCRIPTEN_KEEPALIVE double measure_dot_intensity() { return stream_dot_cost(1024, Dtype::fp32).intensity.value(); }

}  // extern "C"
