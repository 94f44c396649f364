// The memory hierarchy as ceilings: which working sets a sweep times, and which bandwidth each
// level (L1, L2, L3, DRAM) gets from the sweep's points. Plain host C++17 shared by the CPU and
// the CUDA backend (and tested by ctest, tests/bench/test_levels.cpp); no kernels here.
//
// Working sets are per thread on the CPU (every thread streams its own arrays) and in total on
// the GPU (threads = 1 there). The rule (docs/benchmark.md, "Levels"):
//   L1    per-thread working set ≤ L1 ÷ 2
//   L2    L1 < per-thread working set ≤ L2 ÷ 2              (per-core caches: per thread)
//   L3    per-thread working set > L2, and in total ≤ L3 ÷ 2 (a shared cache: all threads)
//   DRAM  in total ≥ 4 × the last-level cache
// and each level takes the best bandwidth of its points, over every sweep kernel.
#pragma once

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace rlk::levels {

/// Data-cache sizes in bytes: L1 and L2 per core, L3 shared; 0 where the machine has none (a GPU
/// has an L2 only, here). `reported`: read from the machine, or the fallback below.
struct CacheSizes {
  std::size_t l1 = 0, l2 = 0, l3 = 0;
  bool reported = true;
  std::size_t last_level() const { return l3 ? l3 : l2 ? l2 : l1; }
};

/// Where the machine reports nothing: a common x86 server core (32 KiB L1, 1 MiB L2, 32 MiB L3).
inline CacheSizes fallback_caches() {
  return {std::size_t(32) << 10, std::size_t(1) << 20, std::size_t(32) << 20, false};
}

/// "48K", "1024K", "32M", "1G" or a plain byte count (Linux's cache/index*/size) → bytes; 0 when
/// the text is not a size.
inline std::size_t parse_cache_size(const std::string& text) {
  std::size_t i = 0, value = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const std::size_t digits = i;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    value = value * 10 + std::size_t(text[i++] - '0');
  if (i == digits) return 0;
  if (i < text.size()) {
    switch (std::toupper(static_cast<unsigned char>(text[i]))) {
      case 'K':
        value <<= 10;
        ++i;
        break;
      case 'M':
        value <<= 20;
        ++i;
        break;
      case 'G':
        value <<= 30;
        ++i;
        break;
      default: break;
    }
  }
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i == text.size() ? value : 0;
}

/// The per-thread working sets a sweep times, in bytes, ascending: doubling from `smallest` up
/// to the first size whose total (× threads) reaches 4 × the last-level cache, plus half of each
/// cache (half of L3 shared by the threads), each a multiple of `granule` bytes.
inline std::vector<std::size_t> sweep_sizes(const CacheSizes& c, unsigned threads,
                                            std::size_t smallest = std::size_t(16) << 10, std::size_t granule = 4096) {
  threads = std::max(1u, threads);
  granule = std::max<std::size_t>(1, granule);
  smallest = std::max(granule, smallest / granule * granule);
  const std::size_t llc = c.last_level();
  // The smallest per-thread size whose total is ≥ 4 × LLC, rounded up to the granule, plus one
  // granule: a kernel that takes whole vector steps of it (a few bytes less) still reaches 4 × LLC.
  const std::size_t dram =
      std::max(smallest, ((4 * llc + threads - 1) / threads + granule - 1) / granule * granule + granule);
  std::vector<std::size_t> out;
  for (std::size_t s = smallest; s < dram; s *= 2) out.push_back(s);
  out.push_back(dram);
  auto add_half = [&](std::size_t cache, unsigned share) {
    const std::size_t s = cache / 2 / share / granule * granule;
    if (cache && s >= smallest && s < dram) out.push_back(s);
  };
  add_half(c.l1, 1);
  add_half(c.l2, 1);
  add_half(c.l3, threads);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// One timed point of a sweep: `working_set_bytes` per thread (in total on a GPU).
struct Point {
  std::string kernel;  ///< "dot" (reads only) or "triad"
  double working_set_bytes = 0;
  double bytes_per_second = 0;
};

/// A level of the hierarchy as a bandwidth ceiling: the best point that fits it by the rule above.
struct Level {
  std::string name;              ///< "L1", "L2", "L3", "DRAM"
  double working_set_bytes = 0;  ///< per thread, as in Point
  double bytes_per_second = 0;
  std::string kernel;
};

/// Which level a per-thread working set `w` belongs to by the rule above: "L1", "L2", "L3",
/// "DRAM", or "" (between levels: timed, drawn, but no level's ceiling).
inline std::string level_of(double w, const CacheSizes& c, unsigned threads) {
  const double t = std::max(1u, threads);
  const double l1 = double(c.l1), l2 = double(c.l2), l3 = double(c.l3);
  if (l1 > 0 && w <= l1 / 2) return "L1";
  if (l2 > 0 && w > l1 && w <= l2 / 2) return "L2";
  if (l3 > 0 && w > l2 && t * w <= l3 / 2) return "L3";
  if (t * w >= 4 * double(c.last_level())) return "DRAM";
  return "";
}

/// The levels the points reach, in order L1, L2, L3, DRAM; a level without points is left out.
/// Points with a non-finite or non-positive rate are ignored.
inline std::vector<Level> select_levels(const std::vector<Point>& points, const CacheSizes& c, unsigned threads) {
  std::vector<Level> out;
  for (const char* name : {"L1", "L2", "L3", "DRAM"}) {
    Level best;
    for (const Point& p : points) {
      if (!(std::isfinite(p.bytes_per_second) && p.bytes_per_second > 0)) continue;
      if (level_of(p.working_set_bytes, c, threads) != name) continue;
      if (p.bytes_per_second > best.bytes_per_second) best = {name, p.working_set_bytes, p.bytes_per_second, p.kernel};
    }
    if (best.bytes_per_second > 0) out.push_back(best);
  }
  return out;
}

/// Whether each level is strictly slower than the one before it.
inline bool strictly_falling(const std::vector<Level>& levels) {
  for (std::size_t i = 1; i < levels.size(); ++i)
    if (!(levels[i].bytes_per_second < levels[i - 1].bytes_per_second)) return false;
  return true;
}

/// A sweep's dot, checked: `got` must be exactly passes × Σ a[i]·b[i] (small integers: every
/// partial sum is exact in any order). Says what it found in `detail`.
inline bool check_dot(double got, const float* a, const float* b, std::size_t n, long passes, std::string& detail) {
  double want = 0;
  for (std::size_t i = 0; i < n; ++i) want += double(a[i]) * b[i];
  want *= double(passes);
  if (!(got == want)) {
    detail = "sum " + std::to_string(got) + ", want " + std::to_string(want);
    return false;
  }
  detail = std::to_string(n) + "-element sum exact";
  return true;
}

/// A sweep's triad, checked: every out[i] exactly b[i] + s·c[i] (a NaN, an unwritten element, fails).
inline bool check_triad(const float* out, const float* b, const float* c, float s, std::size_t n, std::string& detail) {
  for (std::size_t i = 0; i < n; ++i) {
    const float want = b[i] + s * c[i];
    if (!(out[i] == want)) {
      detail =
          "mismatch at " + std::to_string(i) + ": got " + std::to_string(out[i]) + ", want " + std::to_string(want);
      return false;
    }
  }
  detail = std::to_string(n) + " values exact";
  return true;
}

/// How many times a kernel passes over a working set of `bytes` in one timed run: enough passes
/// to move about `target` bytes (at least one), so that a run of a small set is not all overhead.
inline long passes_for(double bytes, double target) {
  if (!(bytes > 0)) return 1;
  return std::max(1L, long(std::llround(target / bytes)));
}

/// A sweep size as its cases' ids name it: "16KiB", "4MiB" (whole MiB where it is one).
inline std::string size_label(std::size_t bytes) {
  if (bytes % (std::size_t(1) << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  return std::to_string(bytes >> 10) + "KiB";
}

}  // namespace rlk::levels
