// The CPU backend's building blocks: a small std::thread pool, aligned buffers and 8-wide float
// vectors (GCC/Clang vector extensions). The vector helpers are always inlined, so that each
// is compiled for the variant whose body calls it (isa.hpp): AVX2 + FMA registers in the avx2
// variant, two SSE halves in the generic one, two NEON halves on aarch64.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "isa.hpp"
#if defined(RLK_X86)
#include <immintrin.h>
#endif

namespace rlk::cpu {

using v8f = float __attribute__((vector_size(32)));
using v8u = std::uint32_t __attribute__((vector_size(32)));

RLK_INLINE v8f load8(const float* p) {
  v8f v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
RLK_INLINE void store8(float* p, v8f v) { std::memcpy(p, &v, sizeof v); }
RLK_INLINE v8f splat(float x) { return v8f{} + x; }
RLK_INLINE float hsum(v8f v) { return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7])); }

using v8i = std::int32_t __attribute__((vector_size(32)));
using v8s8 = std::int8_t __attribute__((vector_size(8)));

#if defined(RLK_X86)
/// hsum's order on a __m256, for functions of an AVX target (Clang refuses to pass a 32-byte
/// vector from an AVX function to one without AVX, even to one that is always inlined).
__attribute__((target("avx"), always_inline)) inline float hsum256(__m256 v) {
  alignas(32) float l[8];
  _mm256_store_ps(l, v);
  return ((l[0] + l[4]) + (l[1] + l[5])) + ((l[2] + l[6]) + (l[3] + l[7]));
}
#endif

/// 8 signed bytes → 8 floats, written portably (Clang turns it into vpmovsxbd + vcvtdq2ps in the
/// AVX2 variant). GCC 12 scalarizes __builtin_convertvector from 8-byte vectors, so under GCC the
/// AVX variants take widen_i8_avx2 below: a function of their own target, not always-inline (an
/// always-inline call to a target function from a body template of no target is an error before
/// the body is inlined into its variant), which GCC inlines once the body is in the variant.
template <class Isa>
RLK_INLINE v8f widen_i8(const std::int8_t* p) {
  v8s8 b;
  std::memcpy(&b, p, sizeof b);
  return __builtin_convertvector(__builtin_convertvector(b, v8i), v8f);
}

/// 8 bytes holding 16 nibbles → their low nibbles and their high nibbles as floats (0 … 15).
template <class Isa>
RLK_INLINE void widen_nibbles(const std::uint8_t* p, v8f& low, v8f& high) {
  using v8u8 = std::uint8_t __attribute__((vector_size(8)));
  v8u8 b;
  std::memcpy(&b, p, sizeof b);
  low = __builtin_convertvector(__builtin_convertvector(b & 15, v8i), v8f);
  high = __builtin_convertvector(__builtin_convertvector(b >> 4, v8i), v8f);
}

#if defined(RLK_X86) && !defined(__clang__)
#define RLK_WIDEN_AVX(TAG, TARGET)                                                                             \
  template <>                                                                                                  \
  __attribute__((target(TARGET))) inline v8f widen_i8<TAG>(const std::int8_t* p) {                             \
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));                                    \
    return __builtin_bit_cast(v8f, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(b)));                               \
  }                                                                                                            \
  template <>                                                                                                  \
  __attribute__((target(TARGET))) inline void widen_nibbles<TAG>(const std::uint8_t* p, v8f& low, v8f& high) { \
    const __m256i bytes = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));          \
    low = __builtin_bit_cast(v8f, _mm256_cvtepi32_ps(_mm256_and_si256(bytes, _mm256_set1_epi32(15))));         \
    high = __builtin_bit_cast(v8f, _mm256_cvtepi32_ps(_mm256_srli_epi32(bytes, 4)));                           \
  }
RLK_WIDEN_AVX(Avx2Tag, "avx2,fma")
RLK_WIDEN_AVX(Avx512Tag, "avx2,fma,avx512f,avx512vl,avx512dq,avx512bw")
#undef RLK_WIDEN_AVX
#endif

/// A buffer of T aligned to 64 bytes (a cache line), left uninitialized.
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t count)
      : count_(count),
        data_(static_cast<T*>(::operator new[](std::max<std::size_t>(count, 1) * sizeof(T), std::align_val_t{64}))) {}
  Buffer(Buffer&& o) noexcept : count_(o.count_), data_(o.data_) {
    o.data_ = nullptr;
    o.count_ = 0;
  }
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(count_, o.count_);
    std::swap(data_, o.data_);
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { ::operator delete[](data_, std::align_val_t{64}); }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  std::size_t count_ = 0;
  T* data_ = nullptr;
};

/// A fixed set of worker threads. run(f) calls f(thread, threads) once on every thread (the
/// caller is thread 0) and returns when all have finished.
class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  unsigned size() const { return threads_; }
  void run(const std::function<void(unsigned, unsigned)>& task);

 private:
  void worker(unsigned index);
  unsigned threads_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::function<void(unsigned, unsigned)>* task_ = nullptr;
  std::uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
};

/// The slice [begin, end) of `count` items that thread `t` of `threads` takes, in multiples of
/// `grain` (the last slice takes the remainder).
inline void split(std::size_t count, unsigned t, unsigned threads, std::size_t grain, std::size_t& begin,
                  std::size_t& end) {
  const std::size_t units = (count + grain - 1) / grain;
  const std::size_t b = units * t / threads, e = units * (t + 1) / threads;
  begin = std::min(count, b * grain);
  end = std::min(count, e * grain);
}

/// Runs fn(begin, end) on disjoint slices of [0, count), one per thread.
template <class Fn>
void parallel_for(ThreadPool& pool, std::size_t count, std::size_t grain, Fn&& fn) {
  pool.run([&](unsigned t, unsigned threads) {
    std::size_t b, e;
    split(count, t, threads, grain, b, e);
    if (b < e) fn(b, e);
  });
}

}  // namespace rlk::cpu
