// The CUDA backend: cases (kernel × size) that upload small-integer inputs, run once, verify on
// the host against double-precision references, then time with CUDA events.
#include <cublas_v2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <memory>

#include "../common/numeric.hpp"
#include "backend.hpp"
#include "common.cuh"
#include "kernels.cuh"

namespace rlk::cuda {
namespace {

void check_blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
}
#define RLK_CUBLAS(call) check_blas((call), #call)

std::vector<float> small_ints(std::size_t n, unsigned seed, int range = 2) {
  std::vector<float> v(n);
  fill_small_ints(v.data(), n, seed, range);
  return v;
}

std::vector<std::uint16_t> to_bf16_all(const std::vector<float>& v) {
  std::vector<std::uint16_t> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = to_bf16(v[i]);
  return out;
}

std::vector<float> bf16_to_floats(const std::vector<std::uint16_t>& v) {
  std::vector<float> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = from_bf16(v[i]);
  return out;
}

struct Blas {
  cublasHandle_t handle = nullptr;
  Blas() { RLK_CUBLAS(cublasCreate(&handle)); }
  ~Blas() {
    if (handle) cublasDestroy(handle);
  }
  // Row-major C (n × m) = A (n × k)·B (k × m) is column-major Cᵀ = Bᵀ·Aᵀ.
  void sgemm(const float* a, const float* b, float* c, int n, int k, int m) {
    const float one = 1, zero = 0;
    RLK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, b, m, a, k, &zero, c, m));
  }
  void gemm_bf16(const std::uint16_t* a, const std::uint16_t* b, std::uint16_t* c, int n, int k, int m) {
    const float one = 1, zero = 0;
    RLK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, b, CUDA_R_16BF, m, a, CUDA_R_16BF, k,
                            &zero, c, CUDA_R_16BF, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  }
  // Row-major W (m × k) is column-major Wᵀ (k × m): y = (Wᵀ)ᵀ·x.
  void sgemv(const float* w, const float* x, float* y, int m, int k) {
    const float one = 1, zero = 0;
    RLK_CUBLAS(cublasSgemv(handle, CUBLAS_OP_T, k, m, &one, w, k, x, 1, &zero, y, 1));
  }
};

/// The GPU's L2 as the sweep's only cache (the SMs' L1 is bypassed by its loads); 40 MiB where
/// the device does not say.
levels::CacheSizes gpu_caches(int device) {
  int l2 = 0;
  if (cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device) != cudaSuccess || l2 <= 0)
    return {0, std::size_t(40) << 20, 0, false};
  return {0, std::size_t(l2), 0, true};
}

class CudaBackend final : public Backend {
 public:
  std::string id() const override { return "cuda"; }
  MachineInfo machine() const override {
    MachineInfo info;
    cudaDeviceProp prop{};
    int device = 0;
    if (cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
      info.name = prop.name;
      info.details = {{"computeCapability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
                      {"multiprocessors", std::to_string(prop.multiProcessorCount)},
                      {"memoryBytes", std::to_string(prop.totalGlobalMem)},
                      {"l2CacheBytes", std::to_string(prop.l2CacheSize)}};
      info.caches = gpu_caches(device);
      info.threads = 1;  // the sweep's working sets are the whole GPU's
    } else {
      info.name = "unknown CUDA device";
    }
    for (char ch : info.name) {
      if (std::isalnum(static_cast<unsigned char>(ch))) info.slug += char(std::tolower(static_cast<unsigned char>(ch)));
      else if (!info.slug.empty() && info.slug.back() != '-') info.slug += '-';
    }
    while (!info.slug.empty() && info.slug.back() == '-') info.slug.pop_back();
    int runtime = 0;
    if (cudaRuntimeGetVersion(&runtime) == cudaSuccess)
      info.details.push_back({"cudaRuntime", std::to_string(runtime)});
    return info;
  }
  std::vector<Case> cases(const Options& options) override;

 private:
  std::shared_ptr<Blas> blas_;
};

std::vector<Case> CudaBackend::cases(const Options& options) {
  RLK_CUDA(cudaSetDevice(0));
  blas_ = std::make_shared<Blas>();
  auto blas = blas_;
  const bool quick = options.quick;
  const RepPolicy policy = quick ? RepPolicy{1, 3, 10, 0.02} : RepPolicy{3, 10, 100, 0.3};
  const RepPolicy level_policy = quick ? RepPolicy{1, 3, 5, 0.01} : RepPolicy{2, 5, 30, 0.1};
  int device = 0, sms = 0;
  RLK_CUDA(cudaGetDevice(&device));
  RLK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  std::vector<Case> out;

  // 0. Compute ceiling.
  {
    const int blocks = sms * 8, threads = 256, iterations = quick ? 4096 : 65536;
    Case c = make_case("peak_fp32", "FMA loop in registers (FP32 ceiling)", "peak", Kind::peak, "fp32", "fp32");
    c.n = peak_fma_count(blocks, threads, iterations);
    c.run = [=] {
      Measurement r;
      DeviceBuffer<float> sink(std::size_t(blocks) * threads);
      peak_fma(sink.data(), blocks, threads, 16);
      const auto host = sink.download();
      r.verified = all_finite(host.data(), host.size(), r.detail);
      if (r.verified) {
        r.detail = "finite results";
        r.seconds = time_device(policy, [&] { peak_fma(sink.data(), blocks, threads, iterations); });
      }
      return r;
    };
    out.push_back(c);
  }

  // 0b. The INT8 ceiling of __dp4a (the __dp4a GEMVs' instruction).
  {
    const int blocks = sms * 8, threads = 256, iterations = quick ? 4096 : 65536;
    Case c = make_case("peak_int8", "__dp4a loop in registers (INT8 ceiling of the CUDA cores)", "peak", Kind::peak,
                       "int8", "int8");
    c.n = peak_dp4a_count(blocks, threads, iterations);
    c.run = [=] {
      Measurement r;
      DeviceBuffer<int> sink(std::size_t(blocks) * threads);
      const int check = 16;
      peak_dp4a(sink.data(), blocks, threads, check);
      const auto host = sink.download();
      r.verified = true;
      for (std::size_t t = 0; t < host.size() && r.verified; ++t) {
        const long long want = 8LL * static_cast<long long>(t) + 28 + 32LL * check;
        if (host[t] != want) {
          r.verified = false;
          r.detail = "thread " + std::to_string(t) + " wrote " + std::to_string(host[t]) + ", expected " +
                     std::to_string(want);
        }
      }
      if (r.verified) {
        r.detail = "exact integer results";
        r.seconds = time_device(policy, [&] { peak_dp4a(sink.data(), blocks, threads, iterations); });
      }
      return r;
    };
    out.push_back(c);
  }

  // 1. Streams: 1 GiB arrays (≥ 4 × the L2 of any current GPU).
  const std::size_t sn = quick ? (std::size_t(1) << 22) : (std::size_t(1) << 28);
  for (int which = 0; which < 4; ++which) {
    const char* ids[] = {"copy", "triad", "dot", "memcpy_cuda"};
    const char* names[] = {"Copy c = a", "Triad a = b + s·c", "Dot sum of a·b (reads only)",
                           "cudaMemcpyAsync, device to device"};
    const Kind kinds[] = {Kind::copy, Kind::triad, Kind::dot, Kind::copy};
    Case c = make_case(ids[which], names[which], "stream", kinds[which], "fp32", "fp32", which == 3);
    c.n = double(sn);
    c.run = [=] {
      Measurement r;
      const auto ha = small_ints(sn, 1), hb = small_ints(sn, 2), hc = small_ints(sn, 3);
      DeviceBuffer<float> a(ha), b(hb), cc(hc);
      DeviceBuffer<double> sum(1);
      auto once = [&] {
        if (which == 0) copy(a.data(), cc.data(), sn);
        else if (which == 1) triad(a.data(), b.data(), cc.data(), 3.0f, sn);
        else if (which == 2) dot(a.data(), b.data(), sn, sum.data());
        else RLK_CUDA(cudaMemcpyAsync(cc.data(), a.data(), sn * sizeof(float), cudaMemcpyDeviceToDevice));
      };
      if (which == 2) {
        once();
        const double got = sum.download()[0];
        double want = 0;
        for (std::size_t i = 0; i < sn; ++i) want += double(ha[i]) * hb[i];
        const float got_f = float(got);
        r.verified = check_close(&got_f, &want, 1, 1e-6, 1.0, r.detail);
      } else {
        (which == 1 ? a : cc).poison();
        once();
        const auto got = (which == 1 ? a : cc).download();
        std::vector<double> want(sn);
        for (std::size_t i = 0; i < sn; ++i) want[i] = which == 1 ? double(hb[i]) + 3.0 * hc[i] : double(ha[i]);
        r.verified = check_close(got.data(), want.data(), sn, 0.0, 1.0, r.detail);
      }
      if (r.verified) r.seconds = time_device(policy, once);
      return r;
    };
    out.push_back(c);
  }

  // 1b. The memory hierarchy: dot and triad on working sets from 1 MiB to 4 × the L2 (in total:
  // one working set for the whole GPU), sizes and levels from common/levels.hpp as on the CPU.
  {
    const levels::CacheSizes caches = gpu_caches(device);
    std::vector<std::size_t> sizes = levels::sweep_sizes(caches, 1, std::size_t(1) << 20, std::size_t(1) << 16);
    if (quick)
      sizes.erase(std::remove_if(sizes.begin(), sizes.end(), [](std::size_t s) { return s > (std::size_t(8) << 20); }),
                  sizes.end());
    const double target = quick ? double(16 << 20) : double(std::size_t(2) << 30);  // bytes per timed launch
    const std::size_t largest = sizes.back();
    struct Arrays {
      std::vector<float> host;  // small integers: the dot's a and b, the triad's b and c
      DeviceBuffer<float> in, out;
      DeviceBuffer<double> sum;
    };
    auto arrays = std::make_shared<std::unique_ptr<Arrays>>();
    std::size_t left = 2 * sizes.size();
    for (std::size_t size : sizes) {
      for (int which = 0; which < 2; ++which) {
        const bool is_dot = which == 0;
        const std::size_t n = is_dot ? size / 8 / 4 * 4 : size / 12 / 4 * 4;  // floats per array, whole float4s
        const double bytes = double(n) * (is_dot ? 8 : 12);
        const long passes = levels::passes_for(bytes, target);
        Case c =
            make_case(std::string(is_dot ? "levels_dot_" : "levels_triad_") + levels::size_label(size),
                      std::string(is_dot ? "Dot (reads only)" : "Triad") + ", " + levels::size_label(size) + " in all",
                      "level", is_dot ? Kind::dot : Kind::triad, "fp32", "fp32");
        c.n = double(n) * double(passes);
        c.working_set_bytes = bytes;
        const bool last = --left == 0;
        c.run = [=] {
          Measurement r;
          if (!*arrays) {
            auto made = std::make_unique<Arrays>();
            made->host = small_ints(largest / 4 + 4, 61);
            made->in = DeviceBuffer<float>(made->host);
            made->out = DeviceBuffer<float>(largest / 12 + 4);
            made->sum = DeviceBuffer<double>(1);
            *arrays = std::move(made);
          }
          Arrays& A = **arrays;
          const float* in = A.in.data();
          if (is_dot) {
            level_dot(in, in + n, n, 1, A.sum.data());
            std::vector<double> got(1);
            RLK_CUDA(cudaMemcpy(got.data(), A.sum.data(), sizeof(double), cudaMemcpyDeviceToHost));
            r.verified = levels::check_dot(got[0], A.host.data(), A.host.data() + n, n, 1, r.detail);
            if (r.verified)
              r.seconds = time_device(level_policy, [&] { level_dot(in, in + n, n, passes, A.sum.data()); });
          } else {
            A.out.poison();
            level_triad(A.out.data(), in, in + n, 3.0f, n, 1);
            std::vector<float> got(n);
            RLK_CUDA(cudaMemcpy(got.data(), A.out.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
            r.verified = levels::check_triad(got.data(), A.host.data(), A.host.data() + n, 3.0f, n, r.detail);
            if (r.verified)
              r.seconds = time_device(level_policy, [&] { level_triad(A.out.data(), in, in + n, 3.0f, n, passes); });
          }
          if (r.verified) r.detail += ", " + std::to_string(passes) + " passes per timed launch";
          if (last) arrays->reset();
          return r;
        };
        out.push_back(c);
      }
    }
  }

  // 2. Matmul at 4,096³: no reuse, shared-memory tiles, register tiles, cuBLAS (FP32 and BF16).
  const int mn = quick ? 1024 : 4096;
  for (int which = 0; which < 5; ++which) {
    const char* ids[] = {"matmul_naive", "matmul_tiled", "matmul_register", "sgemm_cublas", "gemm_bf16_cublas"};
    const char* names[] = {"Matmul, one thread per C element (no reuse)", "Matmul, 32 × 32 shared-memory tiles",
                           "Matmul, 128 × 128 block tiles, 8 × 8 register tiles", "cuBLAS SGEMM",
                           "cuBLAS GEMM, BF16 in and out, FP32 accumulate (tensor cores)"};
    const Kind kinds[] = {Kind::matmul_no_reuse, Kind::matmul_tiled, Kind::matmul_tiled, Kind::matmul_ideal,
                          Kind::matmul_ideal};
    const bool bf16 = which == 4;
    Case c = make_case(ids[which], names[which], "matmul", kinds[which], bf16 ? "bf16" : "fp32", bf16 ? "bf16" : "fp32",
                       which >= 3);
    c.n = c.k = c.m = mn;
    if (which == 1) c.tile_rows = c.tile_cols = tiled_tile;
    if (which == 2) {
      c.tile_rows = reg_bm;
      c.tile_cols = reg_bn;
    }
    c.run = [=] {
      Measurement r;
      const std::size_t count = std::size_t(mn) * mn;
      const auto ha = small_ints(count, 11), hb = small_ints(count, 12);
      std::vector<float> got;
      std::function<void()> once;
      DeviceBuffer<float> a, b, cm;
      DeviceBuffer<std::uint16_t> a16, b16, c16;
      if (bf16) {
        a16 = DeviceBuffer<std::uint16_t>(to_bf16_all(ha));
        b16 = DeviceBuffer<std::uint16_t>(to_bf16_all(hb));
        c16 = DeviceBuffer<std::uint16_t>(count);
        c16.poison();
        once = [&] { blas->gemm_bf16(a16.data(), b16.data(), c16.data(), mn, mn, mn); };
        once();
        got = bf16_to_floats(c16.download());
      } else {
        a = DeviceBuffer<float>(ha);
        b = DeviceBuffer<float>(hb);
        cm = DeviceBuffer<float>(count);
        cm.poison();
        once = [&] {
          if (which == 0) matmul_naive(a.data(), b.data(), cm.data(), mn, mn, mn);
          else if (which == 1) matmul_tiled(a.data(), b.data(), cm.data(), mn, mn, mn);
          else if (which == 2) matmul_register(a.data(), b.data(), cm.data(), mn, mn, mn);
          else blas->sgemm(a.data(), b.data(), cm.data(), mn, mn, mn);
        };
        once();
        got = cm.download();
      }
      RLK_CUDA(cudaDeviceSynchronize());
      // BF16 output keeps 8 significant bits: compare within its rounding.
      if (bf16) {
        if (all_finite(got.data(), got.size(), r.detail)) {
          std::vector<float> sample;
          std::vector<double> want;
          for (int q = 0; q < 256; ++q) {
            const std::size_t i = (std::size_t(q) * 7919) % mn, j = (std::size_t(q) * 104729) % mn;
            sample.push_back(got[i * mn + j]);
            want.push_back(ref_dot(ha.data(), hb.data(), mn, mn, i, j));
          }
          r.verified = check_close(sample.data(), want.data(), sample.size(), 1.0 / 128, 1.0, r.detail);
        }
      } else {
        r.verified = check_matmul_sampled(ha.data(), hb.data(), got.data(), mn, mn, mn, nullptr, false, 256, r.detail);
      }
      if (r.verified) r.seconds = time_device(policy, once);
      return r;
    };
    out.push_back(c);
  }

  // 3. GEMV, the decode step: 32,768 × 16,384 weights (1 GiB in BF16, 256 MiB in INT4).
  const int gm = quick ? 4096 : 32768, gk = quick ? 4096 : 16384, group = 128;
  for (int which = 0; which < 6; ++which) {
    const char* ids[] = {"gemv_bf16", "gemv_int8", "gemv_int4", "sgemv_cublas", "gemv_int8_dp4a", "gemv_int4_dp4a"};
    const char* names[] = {"GEMV, BF16 weights",
                           "GEMV, INT8 weights, BF16 scale per 128",
                           "GEMV, INT4 weights, BF16 scale per 128",
                           "cuBLAS SGEMV (FP32 weights)",
                           "GEMV, INT8 weights, BF16 scale per 128, x in INT8, __dp4a",
                           "GEMV, INT4 weights, BF16 scale per 128, x in INT8, __dp4a"};
    const char* dtypes[] = {"bf16", "int8", "int4", "fp32", "int8", "int4"};
    const bool int_dot = which >= 4;
    const int bits = which == 1 || which == 4 ? 8 : 4;
    // the __dp4a GEMVs' arithmetic is INT8 dot products (OPS), the others' FP32 (FLOPS)
    Case c =
        make_case(ids[which], names[which], "gemv", Kind::gemv, dtypes[which], int_dot ? "int8" : "fp32", which == 3);
    c.m = gm;
    c.k = gk;
    c.n = 1;
    if (which == 1 || which == 2 || int_dot) {
      c.group = group;
      c.scale_dtype = "bf16";
    }
    c.run = [=] {
      Measurement r;
      const auto hx = small_ints(gk, 21);
      DeviceBuffer<float> x(hx), y(gm);
      std::vector<double> want(gm), bound;  // bound: absolute, for the __dp4a kernels
      std::function<void()> once;
      DeviceBuffer<float> w32;
      DeviceBuffer<std::uint16_t> w16, scales;
      DeviceBuffer<std::int8_t> q8;
      DeviceBuffer<std::uint8_t> q4;
      DeviceBuffer<std::int8_t> xq_codes(int_dot ? gk : 0);
      DeviceBuffer<float> xq_scales(int_dot ? gk / 32 : 0);
      DeviceBuffer<int> xq_sums(int_dot ? gk / 32 : 0);
      QuantizedX xq{xq_codes.data(), xq_scales.data(), xq_sums.data()};
      if (which == 0 || which == 3) {
        const auto hw = small_ints(std::size_t(gm) * gk, 22);
        for (int i = 0; i < gm; ++i) want[i] = ref_dot(hw.data(), hx.data(), gk, 1, i, 0);
        if (which == 0) {
          w16 = DeviceBuffer<std::uint16_t>(to_bf16_all(hw));
          once = [&] { gemv_bf16(w16.data(), x.data(), y.data(), gm, gk); };
        } else {
          w32 = DeviceBuffer<float>(hw);
          once = [&] { blas->sgemv(w32.data(), x.data(), y.data(), gm, gk); };
        }
      } else {
        const QuantizedMatrix hq = make_quantized(gm, gk, group, bits, 23);
        for (int i = 0; i < gm; ++i) {
          double s = 0;
          for (int j = 0; j < gk; ++j) s += double(dequantized(hq, i, j)) * hx[j];
          want[i] = s;
        }
        scales = DeviceBuffer<std::uint16_t>(hq.scales);
        if (bits == 8) q8 = DeviceBuffer<std::int8_t>(hq.q8);
        else q4 = DeviceBuffer<std::uint8_t>(hq.q4);
        if (int_dot) {
          auto run_dp = [&](const float* xs) {
            if (bits == 8) gemv_int8_dp4a(q8.data(), scales.data(), xs, y.data(), gm, gk, group, xq);
            else gemv_int4_dp4a(q4.data(), scales.data(), xs, y.data(), gm, gk, group, xq);
          };
          // First an x that INT8 holds exactly: the exact small-integer check.
          std::vector<float> hxe(gk);
          fill_exactly_quantizable(hxe.data(), gk, 24);
          std::vector<double> exact(gm);
          for (int i = 0; i < gm; ++i) {
            double s = 0;
            for (int j = 0; j < gk; ++j) s += double(dequantized(hq, i, j)) * hxe[j];
            exact[i] = s;
          }
          DeviceBuffer<float> xe(hxe);
          y.poison();
          run_dp(xe.data());
          const auto got_exact = y.download();
          if (!check_close(got_exact.data(), exact.data(), gm, 0.0, 1.0, r.detail)) {
            r.detail = "x exact in INT8: " + r.detail;
            return r;
          }
          // Then the timed x (−2 … 2, which INT8 rounds): within the bound its rounding allows.
          bound.resize(gm);
          for (int i = 0; i < gm; ++i) bound[i] = int_dot_error_bound(hq, i, hx.data());
          once = [&, run_dp] { run_dp(x.data()); };
        } else if (which == 1) {
          once = [&] { gemv_int8(q8.data(), scales.data(), x.data(), y.data(), gm, gk, group); };
        } else {
          once = [&] { gemv_int4(q4.data(), scales.data(), x.data(), y.data(), gm, gk, group); };
        }
      }
      y.poison();
      once();
      const auto got = y.download();
      r.verified = bound.empty() ? check_close(got.data(), want.data(), gm, 1e-6, 1.0, r.detail)
                                 : check_within(got.data(), want.data(), bound.data(), gm, r.detail);
      if (r.verified && !bound.empty()) r.detail = "exact with x exact in INT8; " + r.detail;
      if (r.verified) r.seconds = time_device(policy, once);
      return r;
    };
    out.push_back(c);
  }

  // 4. Dense layer 8,192 × 8,192 on batches 1 … 4,096: our FP32 kernel and cuBLAS BF16 (whose
  // ridge, and so its crossing batch, is far higher).
  const int width = quick ? 1024 : 8192;
  std::vector<int> batches =
      quick ? std::vector<int>{1, 16, 256} : std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  struct DenseWeights {
    std::vector<float> host;
    DeviceBuffer<float> w32;
    DeviceBuffer<std::uint16_t> w16;
  };
  auto weights = std::make_shared<DenseWeights>();
  for (int vendor = 0; vendor < 2; ++vendor) {
    for (int batch : batches) {
      Case c = make_case(
          std::string(vendor ? "dense_cublas_bf16_b" : "dense_b") + std::to_string(batch),
          std::string(vendor ? "Dense layer (cuBLAS, BF16), batch " : "Dense layer, batch ") + std::to_string(batch),
          "dense", Kind::dense, vendor ? "bf16" : "fp32", vendor ? "bf16" : "fp32", vendor == 1);
      c.n = batch;
      c.k = c.m = width;
      c.run = [=] {
        Measurement r;
        if (weights->host.empty()) weights->host = small_ints(std::size_t(width) * width, 32);
        const auto hx = small_ints(std::size_t(batch) * width, 31);
        std::function<void()> once;
        std::vector<float> got;
        DeviceBuffer<float> x, y;
        DeviceBuffer<std::uint16_t> x16, y16;
        if (vendor) {
          if (!weights->w16.size()) weights->w16 = DeviceBuffer<std::uint16_t>(to_bf16_all(weights->host));
          x16 = DeviceBuffer<std::uint16_t>(to_bf16_all(hx));
          y16 = DeviceBuffer<std::uint16_t>(std::size_t(batch) * width);
          y16.poison();
          once = [&] { blas->gemm_bf16(x16.data(), weights->w16.data(), y16.data(), batch, width, width); };
          once();
          got = bf16_to_floats(y16.download());
        } else {
          if (!weights->w32.size()) weights->w32 = DeviceBuffer<float>(weights->host);
          x = DeviceBuffer<float>(hx);
          y = DeviceBuffer<float>(std::size_t(batch) * width);
          y.poison();
          once = [&] { matmul_register(x.data(), weights->w32.data(), y.data(), batch, width, width); };
          once();
          got = y.download();
        }
        if (all_finite(got.data(), got.size(), r.detail)) {
          std::vector<float> sample;
          std::vector<double> want;
          for (int q = 0; q < 128; ++q) {
            const std::size_t i = (std::size_t(q) * 7919) % batch, j = (std::size_t(q) * 104729) % width;
            sample.push_back(got[i * width + j]);
            want.push_back(ref_dot(hx.data(), weights->host.data(), width, width, i, j));
          }
          r.verified = check_close(sample.data(), want.data(), sample.size(), vendor ? 1.0 / 128 : 1e-6, 1.0, r.detail);
        }
        if (r.verified) r.seconds = time_device(policy, once);
        return r;
      };
      out.push_back(c);
    }
  }

  // 5. Bias + ReLU after a thin matmul (k = 32, C is 1 GiB): three kernels or one.
  const int fn = quick ? 65536 : (1 << 20), fk = 32, fm = 256;
  for (int fused = 0; fused < 2; ++fused) {
    Case c = make_case(fused ? "bias_relu_fused" : "bias_relu_unfused",
                       fused ? "Matmul + bias + ReLU, fused (1 kernel)" : "Matmul, then bias, then ReLU (3 kernels)",
                       "fusion", fused ? Kind::bias_relu_fused : Kind::bias_relu_unfused, "fp32", "fp32");
    c.n = fn;
    c.k = fk;
    c.m = fm;
    c.run = [=] {
      Measurement r;
      const auto ha = small_ints(std::size_t(fn) * fk, 41), hb = small_ints(std::size_t(fk) * fm, 42),
                 hbias = small_ints(fm, 43, 8);
      DeviceBuffer<float> a(ha), b(hb), bias(hbias), cm(std::size_t(fn) * fm);
      auto once = [&] {
        if (fused) {
          matmul_register(a.data(), b.data(), cm.data(), fn, fk, fm, bias.data());
        } else {
          matmul_register(a.data(), b.data(), cm.data(), fn, fk, fm);
          bias_add(cm.data(), bias.data(), fn, fm);
          relu(cm.data(), std::size_t(fn) * fm);
        }
      };
      cm.poison();
      once();
      const auto got = cm.download();
      r.verified =
          check_matmul_sampled(ha.data(), hb.data(), got.data(), fn, fk, fm, hbias.data(), true, 256, r.detail);
      if (r.verified) r.seconds = time_device(policy, once);
      return r;
    };
    out.push_back(c);
  }
  return out;
}

}  // namespace

bool device_available(std::string& why) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    why = cudaGetErrorString(e);
    return false;
  }
  if (count == 0) {
    why = "no CUDA device";
    return false;
  }
  return true;
}

std::unique_ptr<Backend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace rlk::cuda
