// The CPU backend's building blocks: a small std::thread pool, aligned buffers and 8-wide float
// vectors (GCC/Clang vector extensions: AVX2 + FMA with -march=native, two SSE halves without).
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
#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace rlk::cpu {

using v8f = float __attribute__((vector_size(32)));
using v8u = std::uint32_t __attribute__((vector_size(32)));

inline v8f load8(const float* p) {
  v8f v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store8(float* p, v8f v) { std::memcpy(p, &v, sizeof v); }
inline v8f splat(float x) { return v8f{} + x; }
inline float hsum(v8f v) {
  return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
}

/// 8 signed bytes → 8 floats. (GCC 12 scalarizes __builtin_convertvector from 8-byte vectors,
/// so AVX2 gets the instructions by name: vpmovsxbd, vcvtdq2ps.)
inline v8f widen_i8(const std::int8_t* p) {
#if defined(__AVX2__)
  const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return __builtin_bit_cast(v8f, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(b)));
#else
  v8f v;
  for (int i = 0; i < 8; ++i) v[i] = float(p[i]);
  return v;
#endif
}

/// 8 bytes holding 16 nibbles → their low nibbles and their high nibbles as floats (0 … 15).
inline void widen_nibbles(const std::uint8_t* p, v8f& low, v8f& high) {
#if defined(__AVX2__)
  const __m256i bytes = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
  low = __builtin_bit_cast(v8f, _mm256_cvtepi32_ps(_mm256_and_si256(bytes, _mm256_set1_epi32(15))));
  high = __builtin_bit_cast(v8f, _mm256_cvtepi32_ps(_mm256_srli_epi32(bytes, 4)));
#else
  for (int i = 0; i < 8; ++i) {
    low[i] = float(p[i] & 15);
    high[i] = float(p[i] >> 4);
  }
#endif
}

/// A buffer of T aligned to 64 bytes (a cache line), left uninitialized.
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t count)
      : count_(count),
        data_(static_cast<T*>(::operator new[](std::max<std::size_t>(count, 1) * sizeof(T),
                                               std::align_val_t{64}))) {}
  Buffer(Buffer&& o) noexcept : count_(o.count_), data_(o.data_) { o.data_ = nullptr; o.count_ = 0; }
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
inline void split(std::size_t count, unsigned t, unsigned threads, std::size_t grain,
                  std::size_t& begin, std::size_t& end) {
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
