// The CPU backend: the list of cases (kernel × size), each verifying before it times.
#include "backend.hpp"

#include <unistd.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "../common/timing.hpp"
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

/// The data caches cpu0 reports: Linux's cache/index*/ (level, type, size), else sysconf, else
/// the fallback of common/levels.hpp (marked as not reported).
levels::CacheSizes cpu_caches() {
  levels::CacheSizes c;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), type_file(dir + "type"), size_file(dir + "size");
    int level = 0;
    std::string type, size;
    if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size)) continue;
    if (type == "Instruction") continue;
    const std::size_t bytes = levels::parse_cache_size(size);
    if (level == 1) c.l1 = bytes;
    if (level == 2) c.l2 = bytes;
    if (level == 3) c.l3 = bytes;
  }
#if defined(_SC_LEVEL1_DCACHE_SIZE)  // glibc's names (0 where it knows nothing, as on most ARM)
  auto from_sysconf = [](int name) {
    const long v = sysconf(name);
    return v > 0 ? std::size_t(v) : std::size_t(0);
  };
  if (!c.l1) c.l1 = from_sysconf(_SC_LEVEL1_DCACHE_SIZE);
  if (!c.l2) c.l2 = from_sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (!c.l3) c.l3 = from_sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
  if (!c.l1 && !c.l2 && !c.l3) return levels::fallback_caches();
  return c;
}

std::size_t last_level_cache_bytes() { return cpu_caches().last_level(); }

/// x86 Linux names its CPU ("model name"); ARM Linux gives its implementer and part numbers.
std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line, implementer, part;
  auto value = [&](const std::string& l) {
    const auto colon = l.find(':');
    const auto start = colon == std::string::npos ? std::string::npos : l.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : l.substr(start);
  };
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0 && !value(line).empty()) return value(line);
    if (line.rfind("CPU implementer", 0) == 0) implementer = value(line);
    if (line.rfind("CPU part", 0) == 0) part = value(line);
  }
  if (!implementer.empty()) return "ARM CPU (implementer " + implementer + ", part " + part + ")";
#if defined(__aarch64__)
  return "aarch64 CPU";
#else
  return "unknown CPU";
#endif
}

std::string slugify(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      out += char(std::tolower(static_cast<unsigned char>(ch)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

Buffer<float> small_ints(std::size_t count, unsigned seed, int range = 2) {
  Buffer<float> b(count);
  fill_small_ints(b.data(), count, seed, range);
  return b;
}

/// Times `once` into `r` with the stream cases' read-only dot (on its own arrays of `n` floats,
/// out of the caches) right before and right after each repetition, outside its timed interval:
/// the memory's read rate next to each repetition (docs/benchmark.md, "Ceilings and
/// predictions"). The dot's sum is checked first; on a mismatch `r` fails verification and
/// nothing is timed.
void time_between_reads(ThreadPool& pool, const RepPolicy& policy, std::size_t n, const std::function<void()>& once,
                        Measurement& r) {
  Buffer<float> a = small_ints(n, 1), b = small_ints(n, 2);
  double sum = 0;
  auto neighbour = [&] { sum = dot(pool, a.data(), b.data(), n); };
  neighbour();
  double want = 0;
  for (std::size_t i = 0; i < n; ++i) want += double(a[i]) * b[i];
  if (!(sum == want)) {
    r.verified = false;
    r.detail = "neighbouring dot: sum " + std::to_string(sum) + ", want " + std::to_string(want);
    return;
  }
  Neighbours around;
  around.kind = Kind::dot;
  around.n = double(n);
  around.dtype = "fp32";
  r.seconds = time_host_between(policy, once, neighbour, around.before_seconds, around.after_seconds);
  r.neighbours = std::move(around);
}

class CpuBackend final : public Backend {
 public:
  CpuBackend() = default;
  std::string id() const override { return "cpu"; }

  MachineInfo machine() const override {
    MachineInfo info;
    const unsigned threads = pool_ ? pool_->size() : std::max(1u, std::thread::hardware_concurrency());
    info.name = cpu_model() + ", " + std::to_string(threads) + " threads";
    info.slug = slugify(cpu_model()) + "-" + std::to_string(threads) + "t";
    info.details = {{"hardwareThreads", std::to_string(std::thread::hardware_concurrency())},
                    {"threads", std::to_string(threads)},
                    {"lastLevelCacheBytes", std::to_string(last_level_cache_bytes())},
                    {"blas", vendor_blas_name()},
                    {"isa", isa()},
                    {"intDot", std::string(int_dot_name(int_dot_)) + (int_dot_ != best_int_dot()
                                                                          ? std::string(" (--int-dot; this CPU runs ") +
                                                                                int_dot_name(best_int_dot()) + ")"
                                                                          : "")},
                    {"gemvPrefetch", std::string(row_prefetch_name(prefetch_)) +
                                         (prefetch_chosen_ ? " (--prefetch)" : " (the default)")}};
    const levels::CacheSizes caches = cpu_caches();
    info.details.push_back({"caches", "L1d " + std::to_string(caches.l1) + ", L2 " + std::to_string(caches.l2) +
                                          ", L3 " + std::to_string(caches.l3) + " bytes" +
                                          (caches.reported ? "" : " (assumed: none reported)")});
    info.caches = caches;
    info.threads = threads;
    return info;
  }

  std::vector<Case> cases(const Options& options) override;

 private:
  static std::string isa() {
    std::string name = vec_isa_name(vec_isa());
    if (vec_isa() != best_vec_isa())
      name += std::string(" (--isa; this CPU runs ") + vec_isa_name(best_vec_isa()) + ")";
    return name;
  }
  std::unique_ptr<ThreadPool> pool_;
  RowPrefetch prefetch_ = RowPrefetch::ahead;  ///< the GEMVs' (BF16 and integer dot)
  IntDot int_dot_ = best_int_dot();            ///< the integer-dot GEMVs' variant (--int-dot)
  bool prefetch_chosen_ = false;               ///< by --prefetch
};

/// The software prefetch Options::prefetch names; nothing for an unknown id.
std::optional<RowPrefetch> prefetch_from_id(const std::string& id) {
  if (id == "none") return RowPrefetch::none;
  if (id == "ahead") return RowPrefetch::ahead;
  return std::nullopt;
}

std::vector<Case> CpuBackend::cases(const Options& options) {
  const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  pool_ = std::make_unique<ThreadPool>(threads);
  vendor_set_threads(threads);
  prefetch_chosen_ = !options.prefetch.empty();
  prefetch_ = prefetch_from_id(options.prefetch).value_or(RowPrefetch::ahead);
  const RowPrefetch prefetch = prefetch_;
  // main.cpp has checked both ids (isa_choice_error, int_dot_choice_error).
  VecIsa isa = best_vec_isa();
  if (!options.isa.empty()) vec_isa_from_id(options.isa.c_str(), isa);
  set_vec_isa(isa);
  int_dot_ = best_int_dot();
  if (!options.int_dot.empty()) int_dot_from_id(options.int_dot.c_str(), int_dot_);
  const IntDot int_dot_isa = int_dot_;
  ThreadPool* pool = pool_.get();
  const bool quick = options.quick;
  // Full runs take up to 60 repetitions over 2 s per kernel: on a shared machine the best time
  // needs a chance to land in a quiet moment.
  const RepPolicy policy = quick ? RepPolicy{1, 3, 10, 0.05} : RepPolicy{2, 5, 60, 2.0};
  // The naive matmul takes seconds per run: its verification run is its warm-up.
  const RepPolicy slow{0, 3, 3, 0.0};

  std::vector<Case> out;
  auto add = [&](Case c) { out.push_back(std::move(c)); };

  // 0. Compute ceiling.
  {
    const long iterations = quick ? 2'000'000 : 40'000'000;
    Case c = make_case("peak_fp32", "FMA loop in registers (FP32 ceiling)", "peak", Kind::peak, "fp32", "fp32");
    c.n = peak_fma_count(*pool, iterations);
    c.run = [=] {
      Measurement r;
      const float sum = peak_fma(*pool, 1000);
      r.verified = std::isfinite(sum);
      r.detail = r.verified ? "finite result" : "non-finite result";
      if (r.verified) r.seconds = time_host(policy, [&] { peak_fma(*pool, iterations); });
      return r;
    };
    add(c);
  }

  // 0b. The integer ceiling of the integer-dot GEMVs' vpdpbusd (where they use it).
  if (peak_int8_dot_available(int_dot_isa)) {
    const long iterations = quick ? 2'000'000 : 40'000'000;
    Case c = make_case("peak_int8",
                       std::string("INT8 dot products in registers (INT8 ceiling, ") + int_dot_name(int_dot_isa) + ")",
                       "peak", Kind::peak, "int8", "int8");
    c.n = peak_int8_dot_count(*pool, iterations);
    c.run = [=] {
      Measurement r;
      const std::int64_t got = peak_int8_dot(*pool, 1000, int_dot_isa), want = peak_int8_dot_expected(*pool, 1000);
      r.verified = got == want;
      r.detail =
          r.verified ? "exact integer result" : "sum " + std::to_string(got) + ", expected " + std::to_string(want);
      if (r.verified) r.seconds = time_host(policy, [&] { peak_int8_dot(*pool, iterations, int_dot_isa); });
      return r;
    };
    add(c);
  }

  // 1. The memory hierarchy: dot and triad on per-thread working sets from 16 KiB to 4 × the
  // last-level cache in total (sizes from the caches, common/levels.hpp). One set of arrays, made
  // by the first of these cases and freed after the last. Before the streams, so that the sweep's
  // DRAM points and the stream ceiling (copy, triad) are timed as close together as they can be.
  {
    const levels::CacheSizes caches = cpu_caches();
    std::vector<std::size_t> sizes = levels::sweep_sizes(caches, threads);
    if (quick) std::erase_if(sizes, [](std::size_t s) { return s > (std::size_t(1) << 20); });
    const double target = quick ? double(1 << 20) : double(256 << 20);  // bytes per thread per timed run
    const RepPolicy level_policy = quick ? RepPolicy{1, 3, 5, 0.01} : RepPolicy{1, 5, 40, 0.25};
    auto arrays = std::make_shared<std::unique_ptr<LevelArrays>>();
    const std::size_t largest = sizes.back();
    std::size_t left = 2 * sizes.size();
    for (std::size_t size : sizes) {
      for (int which = 0; which < 2; ++which) {
        const bool is_dot = which == 0;
        const std::size_t n = is_dot ? level_dot_floats(size) : level_triad_floats(size);
        const double bytes = double(n) * (is_dot ? 8 : 12);
        const long passes = levels::passes_for(bytes, target);
        const bool streaming = !is_dot && double(threads) * bytes > double(caches.last_level());
        Case c = make_case(std::string(is_dot ? "levels_dot_" : "levels_triad_") + levels::size_label(size),
                           std::string(is_dot      ? "Dot (reads only)"
                                       : streaming ? "Triad (streaming stores)"
                                                   : "Triad") +
                               ", " + levels::size_label(size) + " per thread",
                           "level", is_dot ? Kind::dot : Kind::triad, "fp32", "fp32");
        c.n = double(n) * double(passes) * threads;  // elements of one timed run, all threads
        c.working_set_bytes = bytes;
        const bool last = --left == 0;
        c.run = [=] {
          Measurement r;
          if (!*arrays) *arrays = std::make_unique<LevelArrays>(*pool, largest, 51);
          LevelArrays& A = **arrays;
          if (is_dot) {
            r.verified = check_level_dot(A, n, 1, level_dot(*pool, A, n, 1), r.detail);
            if (r.verified) r.seconds = time_host(level_policy, [&] { level_dot(*pool, A, n, passes); });
          } else {
            std::fill(A.out(0), A.out(0) + n, std::nanf(""));
            level_triad(*pool, A, n, 1, streaming);
            r.verified = check_level_triad(A, pool->size(), n, r.detail);
            if (r.verified) r.seconds = time_host(level_policy, [&] { level_triad(*pool, A, n, passes, streaming); });
          }
          if (r.verified) r.detail += ", " + std::to_string(passes) + " passes per timed run";
          if (last) arrays->reset();
          return r;
        };
        add(c);
      }
    }
  }

  // 1b. Streams, arrays ≥ 4 × the last-level cache.
  const std::size_t llc = last_level_cache_bytes();
  const std::size_t stream_n = quick ? (std::size_t(4) << 20) : std::max(4 * llc, std::size_t(64) << 20) / 4;
  auto stream_case = [&](std::string id, std::string name, Kind kind, bool vendor) {
    Case c = make_case(id, name, "stream", kind, "fp32", "fp32", vendor);
    c.n = double(stream_n);
    c.run = [=] {
      Measurement r;
      const std::size_t n = stream_n;
      Buffer<float> a = small_ints(n, 1), b = small_ints(n, 2), cc = small_ints(n, 3);
      double sum = 0;
      auto once = [&] {
        if (kind == Kind::copy && !vendor) copy(*pool, a.data(), cc.data(), n);
        else if (kind == Kind::copy) vendor_memcpy(*pool, a.data(), cc.data(), n);
        else if (kind == Kind::dot) sum = dot(*pool, a.data(), b.data(), n);
        else triad(*pool, a.data(), b.data(), cc.data(), 3.0f, n);
      };
      if (kind == Kind::copy) std::fill(cc.data(), cc.data() + n, std::nanf(""));  // an unwritten element fails
      if (kind == Kind::triad) std::fill(a.data(), a.data() + n, std::nanf(""));
      once();
      // Check every element (or the sum) against its value from the inputs, which no kernel
      // writes (copy and memcpy write c, the triad a; no second copy of the arrays is needed).
      const float *a0 = a.data(), *b0 = b.data(), *c0 = cc.data();
      if (kind == Kind::dot) {
        double want = 0;
        for (std::size_t i = 0; i < n; ++i) want += double(a0[i]) * b0[i];
        const float got = float(sum);
        r.verified = check_close(&got, &want, 1, 1e-6, 1.0, r.detail);
      } else {
        const float* got = kind == Kind::copy ? cc.data() : a.data();
        std::size_t bad = n;
        for (std::size_t i = 0; i < n && bad == n; ++i) {
          const float want = kind == Kind::copy ? a0[i] : b0[i] + 3.0f * c0[i];  // c0: the triad's c, unchanged
          if (!(got[i] == want)) bad = i;
        }
        r.verified = bad == n;
        r.detail = r.verified ? std::to_string(n) + " values exact"
                              : "mismatch at " + std::to_string(bad) + ": got " + std::to_string(got[bad]);
      }
      if (r.verified) r.seconds = time_host(policy, once);
      return r;
    };
    add(c);
  };
  stream_case("copy", "Copy c = a", Kind::copy, false);
  stream_case("triad", "Triad a = b + s·c", Kind::triad, false);
  stream_case("dot", "Dot sum of a·b (reads only)", Kind::dot, false);
  stream_case("memcpy", "glibc memcpy", Kind::copy, true);

  // 2. Matmul: no reuse, tiles, registers, OpenBLAS.
  auto matmul_case = [&](std::string id, std::string name, Kind kind, std::size_t size, double tr, double tc,
                         bool vendor, int which) {
    Case c = make_case(id, name, "matmul", kind, "fp32", "fp32", vendor);
    c.n = c.k = c.m = double(size);
    c.tile_rows = tr;
    c.tile_cols = tc;
    const RepPolicy p = which == 0 ? slow : policy;
    c.run = [=] {
      Measurement r;
      const std::size_t n = size;
      Buffer<float> a = small_ints(n * n, 11), b = small_ints(n * n, 12), cm(n * n);
      auto once = [&] {
        switch (which) {
          case 0: matmul_naive(*pool, a.data(), b.data(), cm.data(), n, n, n); break;
          case 1: matmul_tiled(*pool, a.data(), b.data(), cm.data(), n, n, n); break;
          case 2: matmul_register(*pool, a.data(), b.data(), cm.data(), n, n, n); break;
          default: vendor_sgemm(a.data(), b.data(), cm.data(), n, n, n); break;
        }
      };
      std::fill(cm.data(), cm.data() + n * n, std::nanf(""));
      once();
      r.verified = check_matmul_sampled(a.data(), b.data(), cm.data(), n, n, n, nullptr, false, 256, r.detail);
      if (r.verified) r.seconds = time_host(p, once);
      return r;
    };
    add(c);
  };
  const std::size_t naive_n = quick ? 256 : 1024, mm_n = quick ? 512 : 2048;
  matmul_case("matmul_naive", "Matmul, naive loop (no reuse)", Kind::matmul_no_reuse, naive_n, 1, 1, false, 0);
  matmul_case("matmul_tiled", "Matmul, 64 × 64 cache tiles", Kind::matmul_tiled, mm_n, tiled_tile, tiled_tile, false,
              1);
  matmul_case("matmul_register", "Matmul, 6 × 16 register tiles, packed 144 × 2,048 blocks", Kind::matmul_tiled, mm_n,
              reg_mc, reg_nc, false, 2);
  const bool blas = vendor_blas_available();
  if (blas) matmul_case("sgemm_openblas", "OpenBLAS SGEMM", Kind::matmul_ideal, mm_n, 0, 0, true, 3);

  // 3. GEMV, the decode step.
  const std::size_t gm = quick ? 4096 : 32768, gk = quick ? 4096 : 8192, group = 128;
  auto gemv_case = [&](std::string id, std::string name, std::string dtype, int bits, bool vendor,
                       bool int_dot = false) {
    // the integer-dot GEMVs' arithmetic is INT8 dot products (OPS), the others' FP32 (FLOPS)
    Case c = make_case(id, name, "gemv", Kind::gemv, dtype, int_dot ? "int8" : "fp32", vendor);
    c.m = double(gm);
    c.k = double(gk);
    c.n = 1;
    if (bits == 8 || bits == 4) {
      c.group = double(group);
      c.scale_dtype = "bf16";
    }
    c.run = [=] {
      Measurement r;
      Buffer<float> x = small_ints(gk, 21), y(gm);
      std::vector<double> want(gm), bound;  // bound: absolute, for the integer-dot kernels
      std::function<void()> once;
      Buffer<float> w32;
      Buffer<std::uint16_t> w16;
      QuantizedMatrix q;
      if (bits == 32 || bits == 16) {
        w32 = small_ints(gm * gk, 22);
        // x is the single column of B (m = 1).
        for (std::size_t i = 0; i < gm; ++i) want[i] = ref_dot(w32.data(), x.data(), gk, 1, i, 0);
        if (bits == 16) {
          w16 = Buffer<std::uint16_t>(gm * gk);
          for (std::size_t i = 0; i < gm * gk; ++i) w16[i] = to_bf16(w32[i]);
          w32 = Buffer<float>();
          once = [&] { gemv_bf16(*pool, w16.data(), x.data(), y.data(), gm, gk, prefetch); };
        } else {
          once = [&] { vendor_sgemv(w32.data(), x.data(), y.data(), gm, gk); };
        }
      } else {
        q = make_quantized(gm, gk, group, bits, 23);
        for (std::size_t i = 0; i < gm; ++i) {
          double s = 0;
          for (std::size_t j = 0; j < gk; ++j) s += double(dequantized(q, i, j)) * x[j];
          want[i] = s;
        }
        if (int_dot) {
          // x is rounded to INT8 per call, so two checks. First an x that INT8 holds exactly (one
          // ±127 per block of 32, small integers elsewhere): the exact small-integer check.
          Buffer<float> xe(gk);
          fill_exactly_quantizable(xe.data(), gk, 24);
          std::vector<double> exact(gm);
          for (std::size_t i = 0; i < gm; ++i) {
            double s = 0;
            for (std::size_t j = 0; j < gk; ++j) s += double(dequantized(q, i, j)) * xe[j];
            exact[i] = s;
          }
          std::fill(y.data(), y.data() + gm, std::nanf(""));
          if (bits == 8) gemv_int8_dp(*pool, q, xe.data(), y.data(), int_dot_isa, prefetch);
          else gemv_int4_dp(*pool, q, xe.data(), y.data(), int_dot_isa, prefetch);
          if (!check_close(y.data(), exact.data(), gm, 0.0, 1.0, r.detail)) {
            r.detail = "x exact in INT8: " + r.detail;
            return r;
          }
          // Then the timed x (−2 … 2, which INT8 rounds): within the bound its rounding allows.
          bound.resize(gm);
          for (std::size_t i = 0; i < gm; ++i) bound[i] = int_dot_gemv_bound(q, i, x.data());
          if (bits == 8) once = [&] { gemv_int8_dp(*pool, q, x.data(), y.data(), int_dot_isa, prefetch); };
          else once = [&] { gemv_int4_dp(*pool, q, x.data(), y.data(), int_dot_isa, prefetch); };
        } else if (bits == 8) {
          once = [&] { gemv_int8(*pool, q, x.data(), y.data()); };
        } else {
          once = [&] { gemv_int4(*pool, q, x.data(), y.data()); };
        }
      }
      std::fill(y.data(), y.data() + gm, std::nanf(""));
      once();
      r.verified = bound.empty() ? check_close(y.data(), want.data(), gm, 1e-6, 1.0, r.detail)
                                 : check_within(y.data(), want.data(), bound.data(), gm, r.detail);
      if (r.verified && !bound.empty()) r.detail = "exact with x exact in INT8; " + r.detail;
      if (r.verified) time_between_reads(*pool, policy, stream_n, once, r);
      return r;
    };
    add(c);
  };
  gemv_case("gemv_bf16", "GEMV, BF16 weights", "bf16", 16, false);
  gemv_case("gemv_int8", "GEMV, INT8 weights, BF16 scale per 128", "int8", 8, false);
  gemv_case("gemv_int4", "GEMV, INT4 weights, BF16 scale per 128", "int4", 4, false);
  gemv_case("gemv_int8_dp", "GEMV, INT8 weights, BF16 scale per 128, x in INT8, integer dot products", "int8", 8, false,
            true);
  gemv_case("gemv_int4_dp", "GEMV, INT4 weights, BF16 scale per 128, x in INT8, integer dot products", "int4", 4, false,
            true);
  if (blas) gemv_case("sgemv_openblas", "OpenBLAS SGEMV (FP32 weights)", "fp32", 32, true);

  // 4. A dense layer on a growing batch, ours and OpenBLAS's.
  const std::size_t width = quick ? 1024 : 4096;
  std::vector<std::size_t> batches =
      quick ? std::vector<std::size_t>{1, 8, 64} : std::vector<std::size_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
  for (int vendor = 0; vendor < (blas ? 2 : 1); ++vendor) {
    for (std::size_t batch : batches) {
      Case c = make_case(
          std::string(vendor ? "dense_openblas_b" : "dense_b") + std::to_string(batch),
          std::string(vendor ? "Dense layer (OpenBLAS), batch " : "Dense layer, batch ") + std::to_string(batch),
          "dense", Kind::dense, "fp32", "fp32", vendor == 1);
      c.n = double(batch);
      c.k = c.m = double(width);
      c.run = [=] {
        Measurement r;
        Buffer<float> xb = small_ints(batch * width, 31), w = small_ints(width * width, 32), yb(batch * width);
        auto once = [&] {
          if (vendor) vendor_sgemm(xb.data(), w.data(), yb.data(), batch, width, width);
          else dense_layer(*pool, xb.data(), w.data(), yb.data(), batch, width, width);
        };
        std::fill(yb.data(), yb.data() + batch * width, std::nanf(""));
        once();
        r.verified =
            check_matmul_sampled(xb.data(), w.data(), yb.data(), batch, width, width, nullptr, false, 128, r.detail);
        if (r.verified) r.seconds = time_host(policy, once);
        return r;
      };
      add(c);
    }
  }

  // 5. Bias + ReLU after a thin matmul (k = 32): three passes or one.
  const std::size_t fn = quick ? 16384 : 131072, fk = 32, fm = 256;
  for (int fused = 0; fused < 2; ++fused) {
    Case c = make_case(fused ? "bias_relu_fused" : "bias_relu_unfused",
                       fused ? "Matmul + bias + ReLU, fused (1 pass)" : "Matmul, then bias, then ReLU (3 passes)",
                       "fusion", fused ? Kind::bias_relu_fused : Kind::bias_relu_unfused, "fp32", "fp32");
    c.n = double(fn);
    c.k = double(fk);
    c.m = double(fm);
    c.run = [=] {
      Measurement r;
      Buffer<float> a = small_ints(fn * fk, 41), b = small_ints(fk * fm, 42), bias = small_ints(fm, 43, 8), cm(fn * fm);
      auto once = [&] {
        if (fused) bias_relu_fused(*pool, a.data(), b.data(), bias.data(), cm.data(), fn, fk, fm);
        else bias_relu_unfused(*pool, a.data(), b.data(), bias.data(), cm.data(), fn, fk, fm);
      };
      std::fill(cm.data(), cm.data() + fn * fm, std::nanf(""));
      once();
      r.verified = check_matmul_sampled(a.data(), b.data(), cm.data(), fn, fk, fm, bias.data(), true, 256, r.detail);
      if (r.verified) r.seconds = time_host(policy, once);
      return r;
    };
    add(c);
  }
  return out;
}

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

bool prefetch_id_known(const std::string& id) { return prefetch_from_id(id).has_value(); }

namespace {
template <class Isa, std::size_t N>
std::string choice_error(const std::string& id, bool known, Isa chosen, const Isa (&all)[N], bool (*available)(Isa),
                         const char* (*id_of)(Isa), const char* (*name_of)(Isa)) {
  if (known && available(chosen)) return "";
  std::string runs;
  for (Isa isa : all)
    if (available(isa)) runs += std::string(runs.empty() ? "" : ", ") + id_of(isa);
  return (known ? std::string("this CPU has no ") + name_of(chosen) : "unknown variant " + id) + "; this CPU runs " +
         runs;
}
}  // namespace

std::string isa_choice_error(const std::string& id) {
  VecIsa isa = VecIsa::generic;
  const bool known = vec_isa_from_id(id.c_str(), isa);
  static constexpr VecIsa all[] = {VecIsa::generic, VecIsa::avx2, VecIsa::avx512};
  return choice_error(id, known, isa, all, vec_isa_available, vec_isa_id, vec_isa_name);
}

std::string int_dot_choice_error(const std::string& id) {
  IntDot isa = IntDot::scalar;
  const bool known = int_dot_from_id(id.c_str(), isa);
  return choice_error(id, known, isa, all_int_dots, int_dot_available, int_dot_id, int_dot_name);
}

}  // namespace rlk::cpu
