// What a backend hands the benchmark: one Case per kernel and size, each able to verify its
// output against a reference and then time itself. C++17, so CUDA sources can include it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "levels.hpp"

namespace rlk {

/// Which cost formula of roofline/kernel_costs.hpp (or the core) applies to a case.
enum class Kind {
  peak,               ///< register-only multiply-add loop: a precision's compute ceiling (n = multiply-adds
                      ///< per run: FMAs, or INT8 multiply-adds for the int8 ceiling)
  copy,               ///< c[i] = a[i]                    (n elements)
  triad,              ///< a[i] = b[i] + s·c[i]           (n elements)
  dot,                ///< sum of a[i]·b[i]               (n elements)
  matmul_no_reuse,    ///< C = A·B, every operand from memory for every MAC
  matmul_tiled,       ///< C = A·B through tile_rows × tile_cols output tiles
  matmul_ideal,       ///< C = A·B, each matrix moved once (vendor libraries)
  gemv,               ///< y = W·x, W m × k in `dtype`, optional group scales
  dense,              ///< (batch × inputs)·(inputs × outputs): n = batch, k = inputs, m = outputs
  bias_relu_unfused,  ///< matmul, then a bias pass, then a ReLU pass
  bias_relu_fused,    ///< matmul with bias + ReLU applied before C is written
};

/// A stream kernel timed right before and right after each timed repetition of another kernel,
/// outside that kernel's timed interval: the memory's rate at the moments around each repetition.
/// `kind`, `n` and `dtype` select its cost in roofline/kernel_costs.hpp, as for a Case.
struct Neighbours {
  Kind kind = Kind::triad;
  double n = 0;
  std::string dtype = "fp32";
  std::vector<double> before_seconds, after_seconds;  ///< one each per timed repetition
};

struct Measurement {
  bool verified = false;
  std::string detail;                    ///< what was checked, or the first mismatch
  std::vector<double> seconds;           ///< one entry per timed repetition, warm-ups excluded
  std::optional<Neighbours> neighbours;  ///< where the backend timed them (CPU GEMVs)
};

struct Case {
  std::string id;      ///< stable, e.g. "gemv_int4"
  std::string name;    ///< human, e.g. "GEMV, INT4 weights, group 128"
  std::string family;  ///< stream | peak | matmul | gemv | dense | fusion | level (the hierarchy sweep)
  Kind kind = Kind::copy;
  std::string dtype;           ///< storage dtype id of the data that dominates traffic
  std::string compute_dtype;   ///< precision of the arithmetic (selects the FLOP/s ceiling)
  bool vendor = false;         ///< a vendor library (cuBLAS, OpenBLAS, memcpy)
  double n = 0, k = 0, m = 0;  ///< sizes; streams use n only
  double group = 0;            ///< quantization group size (0: none)
  std::string scale_dtype;     ///< dtype of group scales
  double tile_rows = 0, tile_cols = 0;
  double working_set_bytes = 0;  ///< family "level": bytes one thread's pass touches (a GPU: all of it)
  std::function<Measurement()> run;
};

inline Case make_case(std::string id, std::string name, std::string family, Kind kind, std::string dtype,
                      std::string compute_dtype, bool vendor = false) {
  Case c;
  c.id = std::move(id);
  c.name = std::move(name);
  c.family = std::move(family);
  c.kind = kind;
  c.dtype = std::move(dtype);
  c.compute_dtype = std::move(compute_dtype);
  c.vendor = vendor;
  return c;
}

struct Options {
  bool quick = false;
  unsigned threads = 0;  ///< CPU threads (0: all hardware threads)
  std::string prefetch;  ///< the CPU GEMVs' software prefetch: "none" or "ahead"; empty: the default (ahead)
  std::string isa;       ///< the CPU float kernels' variant (generic, avx2, avx512); empty: the CPU's best
  std::string int_dot;   ///< the CPU integer-dot GEMVs' variant (scalar, avx2, …); empty: the CPU's best
};

struct MachineInfo {
  std::string name;                                          ///< e.g. "AMD EPYC, 2 threads"
  std::string slug;                                          ///< file-name friendly, e.g. "amd-epyc-2t"
  std::string catalog_id;                                    ///< the core's catalog id of the device ("h200"), or empty
  std::vector<std::pair<std::string, std::string>> details;  ///< extra key/value facts
  std::optional<levels::CacheSizes> caches;                  ///< where the backend sweeps the memory hierarchy
  unsigned threads = 1;                                      ///< threads sharing a sweep's working sets (1 on a GPU)
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string id() const = 0;  // "cpu" | "cuda"
  virtual MachineInfo machine() const = 0;
  virtual std::vector<Case> cases(const Options& options) = 0;
};

}  // namespace rlk
