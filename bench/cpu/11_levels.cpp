// The memory hierarchy: the read-only dot and the triad on working sets from 16 KiB up to past
// the last-level cache, every thread on arrays of its own (first touched by that thread), so a
// working set is per thread: it fits a per-core cache (L1, L2) when one thread's arrays do, and
// the shared L3 when all the threads' arrays do (common/levels.hpp has the rule).
//   dot:   Σ a[i]·b[i] over n floats each, reads 8 bytes per element, 2 FLOPs
//   triad: a[i] = b[i] + s·c[i] over n floats each, 12 bytes per element, 2 FLOPs
// A timed run passes `passes` times over the working set, so that a run of a set in L1 lasts
// long enough to time (common/levels.hpp, passes_for).
#include "../common/levels.hpp"
#include "kernels.hpp"
#include "stream.hpp"

namespace rlk::cpu {

LevelArrays::LevelArrays(ThreadPool& pool, std::size_t max_bytes_per_thread, unsigned seed)
    : in_(pool.size()),
      out_(pool.size()),
      in_floats_(max_bytes_per_thread / 4 / 16 * 16 + 16),
      out_floats_(max_bytes_per_thread / 12 / 16 * 16 + 16) {
  pool.run([&](unsigned t, unsigned) {
    in_[t] = Buffer<float>(in_floats_);
    out_[t] = Buffer<float>(out_floats_);
    fill_small_ints(in_[t].data(), in_floats_, seed + 7 * t);
    std::fill(out_[t].data(), out_[t].data() + out_floats_, 0.0f);
  });
}

namespace {

// The widest vectors of the variant (AVX-512: 16 floats; else 8): in L1 a kernel is bound by how
// many loads and stores it issues, not by the memory.
// (Explicit types: GCC drops a vector_size that depends on a template argument.)
template <class Isa>
struct Wide {
  using type = v8f;
};
template <>
struct Wide<Avx512Tag> {
  using type = float __attribute__((vector_size(64)));
};
template <class Isa>
using vw = typename Wide<Isa>::type;
template <class Isa>
inline constexpr std::size_t width = sizeof(vw<Isa>) / sizeof(float);
template <class Isa>
RLK_INLINE vw<Isa> loadw(const float* p) {
  vw<Isa> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class Isa>
RLK_INLINE void storew(float* p, vw<Isa> v) {
  std::memcpy(p, &v, sizeof v);
}

template <class Isa>
RLK_INLINE double dot_once(const float* a, const float* b, std::size_t n) {
  constexpr std::size_t W = width<Isa>;
  const std::size_t quarter = n / 4 / (2 * W) * (2 * W);  // four parts of whole 2W-float steps
  vw<Isa> s[4][2] = {};
  for (std::size_t i = 0; i < quarter; i += 2 * W) {
#pragma GCC unroll 4
    for (std::size_t p = 0; p < 4; ++p) {
      const std::size_t at = p * quarter + i;
      s[p][0] += loadw<Isa>(a + at) * loadw<Isa>(b + at);
      s[p][1] += loadw<Isa>(a + at + W) * loadw<Isa>(b + at + W);
    }
  }
  double sum = 0;
  for (std::size_t i = 4 * quarter; i < n; ++i) sum += double(a[i]) * b[i];
  for (auto& part : s)
    for (std::size_t l = 0; l < W; ++l) sum += double(part[0][l]) + double(part[1][l]);
  return sum;
}

template <class Isa>
RLK_INLINE void triad_once(float* a, const float* b, const float* c, float scalar, std::size_t n, bool streaming) {
  constexpr std::size_t W = width<Isa>;
  std::size_t i = 0;
  if (streaming && reinterpret_cast<std::uintptr_t>(a) % 32 == 0) {
    const v8f s = splat(scalar);
    for (; i + 16 <= n; i += 16) {
      detail::stream_store8(a + i, load8(b + i) + s * load8(c + i));
      detail::stream_store8(a + i + 8, load8(b + i + 8) + s * load8(c + i + 8));
    }
    detail::stream_fence();
  } else {
    const vw<Isa> s = vw<Isa>{} + scalar;
    for (; i + 2 * W <= n; i += 2 * W) {
      storew<Isa>(a + i, loadw<Isa>(b + i) + s * loadw<Isa>(c + i));
      storew<Isa>(a + i + W, loadw<Isa>(b + i + W) + s * loadw<Isa>(c + i + W));
    }
  }
  for (; i < n; ++i) a[i] = b[i] + scalar * c[i];
}

// One thread's passes.
template <class Isa>
RLK_INLINE double dot_passes(const float* in, std::size_t n, long passes) {
  double sum = 0;
  for (long p = 0; p < passes; ++p) {
    sum += dot_once<Isa>(in, in + n, n);
    asm volatile("" ::: "memory");  // every pass reads the arrays again
  }
  return sum;
}
RLK_VEC_VARIANTS(dot_passes, (const float* in, std::size_t n, long passes), (in, n, passes))

template <class Isa>
RLK_INLINE void triad_passes(const float* in, float* out, std::size_t n, long passes, bool streaming) {
  for (long p = 0; p < passes; ++p) {
    triad_once<Isa>(out, in, in + n, level_triad_scalar, n, streaming);
    asm volatile("" ::: "memory");
  }
}
RLK_VEC_VARIANTS(triad_passes, (const float* in, float* out, std::size_t n, long passes, bool streaming),
                 (in, out, n, passes, streaming))

}  // namespace

std::vector<double> level_dot(ThreadPool& pool, LevelArrays& arrays, std::size_t n, long passes) {
  std::vector<double> sums(pool.size(), 0.0);
  pool.run([&](unsigned t, unsigned) { sums[t] = RLK_VEC_CALL(dot_passes, (arrays.in(t), n, passes)); });
  return sums;
}

void level_triad(ThreadPool& pool, LevelArrays& arrays, std::size_t n, long passes, bool streaming) {
  pool.run(
      [&](unsigned t, unsigned) { RLK_VEC_CALL(triad_passes, (arrays.in(t), arrays.out(t), n, passes, streaming)); });
}

bool check_level_dot(const LevelArrays& arrays, std::size_t n, long passes, const std::vector<double>& sums,
                     std::string& detail) {
  for (unsigned t = 0; t < sums.size(); ++t) {
    if (!levels::check_dot(sums[t], arrays.in(t), arrays.in(t) + n, n, passes, detail)) {
      detail = "thread " + std::to_string(t) + ": " + detail;
      return false;
    }
  }
  detail = std::to_string(sums.size()) + " × " + std::to_string(n) + "-element sums exact";
  return true;
}

bool check_level_triad(const LevelArrays& arrays, unsigned threads, std::size_t n, std::string& detail) {
  for (unsigned t = 0; t < threads; ++t) {
    const float* in = arrays.in(t);
    if (!levels::check_triad(arrays.out(t), in, in + n, level_triad_scalar, n, detail)) {
      detail = "thread " + std::to_string(t) + ": " + detail;
      return false;
    }
  }
  detail = std::to_string(threads) + " × " + std::to_string(n) + " values exact";
  return true;
}

}  // namespace rlk::cpu
