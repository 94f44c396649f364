// CUDA backend building blocks: error checks that throw, device buffers, event timing.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common/timing.hpp"

namespace rlk::cuda {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#define RLK_CUDA(call) ::rlk::cuda::check((call), #call)
/// After a launch: a bad configuration shows up here, a fault at the next synchronization.
#define RLK_LAUNCHED() ::rlk::cuda::check(cudaGetLastError(), "kernel launch")

/// Device memory for `count` elements of T.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    RLK_CUDA(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : count_(o.count_), data_(o.data_) {
    o.data_ = nullptr;
    o.count_ = 0;
  }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(count_, o.count_);
    std::swap(data_, o.data_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  void upload(const std::vector<T>& host) {
    RLK_CUDA(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    RLK_CUDA(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  /// Fills every byte with 0xff: a float NaN, so an unwritten output fails verification.
  void poison() { RLK_CUDA(cudaMemset(data_, 0xff, count_ * sizeof(T))); }

 private:
  std::size_t count_ = 0;
  T* data_ = nullptr;
};

/// Times `launch()` with CUDA events around each repetition, after warm-ups; seconds per run.
template <class Launch>
std::vector<double> time_device(const RepPolicy& policy, Launch&& launch) {
  cudaEvent_t start, stop;
  RLK_CUDA(cudaEventCreate(&start));
  RLK_CUDA(cudaEventCreate(&stop));
  for (int i = 0; i < policy.warmups; ++i) launch();
  RLK_CUDA(cudaDeviceSynchronize());
  std::vector<double> seconds;
  double spent = 0;
  while (int(seconds.size()) < policy.max_reps) {
    RLK_CUDA(cudaEventRecord(start));
    launch();
    RLK_CUDA(cudaEventRecord(stop));
    RLK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    RLK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    seconds.push_back(ms * 1e-3);
    spent += ms * 1e-3;
    if (int(seconds.size()) >= policy.min_reps && spent >= policy.budget_seconds) break;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return seconds;
}

__device__ __forceinline__ float bf16_to_float(std::uint16_t h) { return __uint_as_float(std::uint32_t(h) << 16); }

}  // namespace rlk::cuda
