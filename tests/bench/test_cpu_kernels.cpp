// Correctness of every CPU kernel on awkward sizes (edges of tiles, odd row counts, one thread
// and several), against double-precision references. Returns non-zero on the first failure.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/kernels.hpp"
#include "cuda/dequant.hpp"
#include "cuda/int_dot.hpp"

using namespace rlk;
using namespace rlk::cpu;

namespace {

int failures = 0;

void expect(bool ok, const std::string& what, const std::string& detail) {
  std::printf("%s %s: %s\n", ok ? "ok  " : "FAIL", what.c_str(), detail.c_str());
  if (!ok) ++failures;
}

std::vector<float> ints(std::size_t n, unsigned seed, int range = 2) {
  std::vector<float> v(n);
  fill_small_ints(v.data(), n, seed, range);
  return v;
}

// Random non-integer data: exercises rounding, checked with a relative tolerance.
std::vector<float> reals(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  std::uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = float(s >> 8) / float(1u << 24) - 0.5f;
  }
  return v;
}

bool full_matmul_check(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                       std::size_t n, std::size_t k, std::size_t m, const float* bias, double tol,
                       std::string& detail) {
  std::vector<double> want(n * m);
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      double v = ref_dot(a.data(), b.data(), k, m, i, j);
      if (bias) v = std::max(v + bias[j], 0.0);
      want[i * m + j] = v;
      scale = std::max(scale, std::fabs(v));
    }
  return check_close(c.data(), want.data(), n * m, tol, std::max(1.0, scale * 1e-2), detail);
}

void test_streams(ThreadPool& pool) {
  for (std::size_t n : {1ul, 7ul, 1000ul, 4099ul, 100000ul, 1000003ul}) {
    auto a = ints(n, 1), b = ints(n, 2), c = ints(n, 3);
    std::vector<float> out(n, NAN);
    copy(pool, a.data(), out.data(), n);
    bool ok = out == a;
    expect(ok, "copy n=" + std::to_string(n), ok ? "exact" : "differs");
    std::fill(out.begin(), out.end(), NAN);
    vendor_memcpy(pool, a.data(), out.data(), n);
    expect(out == a, "memcpy n=" + std::to_string(n), "exact");
    double want_dot = 0;
    for (std::size_t i = 0; i < n; ++i) want_dot += double(a[i]) * b[i];
    const double got_dot = dot(pool, a.data(), b.data(), n);
    expect(got_dot == want_dot, "dot n=" + std::to_string(n), std::to_string(got_dot));
    triad(pool, out.data(), b.data(), c.data(), 3.0f, n);
    ok = true;
    for (std::size_t i = 0; i < n; ++i) ok = ok && out[i] == b[i] + 3.0f * c[i];
    expect(ok, "triad n=" + std::to_string(n), ok ? "exact" : "differs");
  }
}

void test_matmuls(ThreadPool& pool) {
  struct Size {
    std::size_t n, k, m;
  };
  for (Size s : {Size{1, 1, 1}, Size{5, 3, 7}, Size{6, 16, 16}, Size{13, 70, 33}, Size{64, 64, 64},
                 Size{150, 300, 2100}, Size{1, 257, 4100}}) {
    const std::string shape = std::to_string(s.n) + "x" + std::to_string(s.k) + "x" + std::to_string(s.m);
    for (int data = 0; data < 2; ++data) {
      auto a = data ? reals(s.n * s.k, 5) : ints(s.n * s.k, 5);
      auto b = data ? reals(s.k * s.m, 6) : ints(s.k * s.m, 6);
      const double tol = data ? 1e-4 : 0;
      std::string detail;
      std::vector<float> c(s.n * s.m, NAN);
      const std::string kind = data ? " (reals)" : " (integers)";
      matmul_naive(pool, a.data(), b.data(), c.data(), s.n, s.k, s.m);
      expect(full_matmul_check(a, b, c, s.n, s.k, s.m, nullptr, tol, detail), "naive " + shape + kind, detail);
      std::fill(c.begin(), c.end(), NAN);
      matmul_tiled(pool, a.data(), b.data(), c.data(), s.n, s.k, s.m);
      expect(full_matmul_check(a, b, c, s.n, s.k, s.m, nullptr, tol, detail), "tiled " + shape + kind, detail);
      std::fill(c.begin(), c.end(), NAN);
      matmul_register(pool, a.data(), b.data(), c.data(), s.n, s.k, s.m);
      expect(full_matmul_check(a, b, c, s.n, s.k, s.m, nullptr, tol, detail), "register " + shape + kind, detail);
      std::fill(c.begin(), c.end(), NAN);
      dense_layer(pool, a.data(), b.data(), c.data(), s.n, s.k, s.m);
      expect(full_matmul_check(a, b, c, s.n, s.k, s.m, nullptr, tol, detail), "dense " + shape + kind, detail);
      auto bias = ints(s.m, 9, 8);
      for (int fused = 0; fused < 2; ++fused) {
        std::fill(c.begin(), c.end(), NAN);
        if (fused) bias_relu_fused(pool, a.data(), b.data(), bias.data(), c.data(), s.n, s.k, s.m);
        else bias_relu_unfused(pool, a.data(), b.data(), bias.data(), c.data(), s.n, s.k, s.m);
        expect(full_matmul_check(a, b, c, s.n, s.k, s.m, bias.data(), tol, detail),
               std::string(fused ? "bias+relu fused " : "bias+relu unfused ") + shape + kind, detail);
      }
      if (!vendor_blas_available()) continue;
      std::fill(c.begin(), c.end(), NAN);
      vendor_sgemm(a.data(), b.data(), c.data(), s.n, s.k, s.m);
      expect(full_matmul_check(a, b, c, s.n, s.k, s.m, nullptr, data ? 1e-4 : 1e-6, detail), "sgemm " + shape + kind,
             detail);
    }
  }
}

// GemvWalk: every row of a slice once, in gemv_streams long runs of consecutive rows; the rows
// left over alone (the same row in every place); nothing outside the slice.
void test_gemv_walk() {
  bool ok = true;
  std::string detail = "slices of 0 to 40 rows from 3";
  for (std::size_t n = 0; n <= 40 && ok; ++n) {
    std::vector<int> seen(n + 6, 0);
    std::size_t last[gemv_streams] = {}, calls = 0;
    std::size_t row[gemv_streams];
    for (GemvWalk walk(3, 3 + n); walk.next(row);) {
      const bool alone = std::all_of(row, row + gemv_streams, [&](std::size_t r) { return r == row[0]; });
      for (std::size_t s = 0; s < gemv_streams; ++s) {
        if (row[s] < 3 || row[s] >= 3 + n) ok = false;
        else if (!alone || s == 0) ++seen[row[s]];
        // a stream goes on at the next row
        if (!alone && calls > 0 && row[s] != last[s] + 1) ok = false;
        last[s] = row[s];
      }
      if (!alone) ++calls;
    }
    for (std::size_t r = 0; r < seen.size(); ++r)
      if (seen[r] != (r >= 3 && r < 3 + n ? 1 : 0)) ok = false;
    if (calls != n / gemv_streams) ok = false;
    if (!ok) detail = "slice of " + std::to_string(n) + " rows";
  }
  expect(ok, "GemvWalk visits each row once, in long streams", detail);
}

// quantize_x_groups (vectorized where the CPU can) against quantize_x_block, code for code: real
// values, halves that round to even, an all-zero group and a NaN.
void test_quantize_x_groups() {
  for (std::size_t group : {32ul, 96ul, 128ul}) {
    const std::size_t k = group * 5;
    auto x = reals(k, 23);
    for (std::size_t j = 0; j < group; ++j) x[j] = 0.5f * float(int(j % 9) - 4);  // ±127·m/4: halves
    for (std::size_t j = group; j < 2 * group; ++j) x[j] = 0;
    x[3 * group + 7] = NAN;
    std::vector<std::int8_t> q(k), want_q(k);
    std::vector<float> d(k / group);
    std::vector<int> sums(k / group);
    quantize_x_groups(x.data(), k, group, q.data(), d.data(), sums.data());
    bool same = true;
    for (std::size_t g = 0; g < k / group; ++g) {
      int sum;
      const float want_d = quantize_x_block(x.data() + g * group, want_q.data() + g * group, sum, group);
      same = same && sum == sums[g] && (want_d == d[g] || (std::isnan(want_d) && std::isnan(d[g])));
    }
    same = same && q == want_q;
    expect(same, "quantize_x_groups, group " + std::to_string(group), "the codes, scales and sums of quantize_x_block");
  }
}

void test_gemv(ThreadPool& pool) {
  for (std::size_t rows : {1ul, 3ul, 4ul, 9ul, 130ul}) {
    for (std::size_t cols : {128ul, 384ul, 1024ul}) {
      const std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
      auto x = reals(cols, 3);
      std::vector<float> y(rows, NAN);
      std::vector<double> want(rows);
      std::string detail;
      // BF16: random weights, rounded once; the kernel must match that rounded matrix.
      auto w = reals(rows * cols, 4);
      std::vector<std::uint16_t> w16(w.size());
      for (std::size_t i = 0; i < w.size(); ++i) w16[i] = to_bf16(w[i]);
      for (std::size_t i = 0; i < rows; ++i) {
        double s = 0;
        for (std::size_t j = 0; j < cols; ++j) s += double(from_bf16(w16[i * cols + j])) * x[j];
        want[i] = s;
      }
      for (RowPrefetch prefetch : {RowPrefetch::none, RowPrefetch::ahead}) {
        std::fill(y.begin(), y.end(), NAN);
        gemv_bf16(pool, w16.data(), x.data(), y.data(), rows, cols, prefetch);
        expect(check_close(y.data(), want.data(), rows, 1e-4, 1.0, detail),
               "gemv bf16 " + shape + ", prefetch " + row_prefetch_name(prefetch), detail);
      }
      if (vendor_blas_available()) {
        std::fill(y.begin(), y.end(), NAN);
        vendor_sgemv(w.data(), x.data(), y.data(), rows, cols);
        for (std::size_t i = 0; i < rows; ++i) want[i] = ref_dot(w.data(), x.data(), cols, 1, i, 0);
        expect(check_close(y.data(), want.data(), rows, 1e-4, 1.0, detail), "sgemv " + shape, detail);
      }
      for (int bits : {8, 4}) {
        const QuantizedMatrix q = make_quantized(rows, cols, 128, bits, 7);
        for (std::size_t i = 0; i < rows; ++i) {
          double s = 0;
          for (std::size_t j = 0; j < cols; ++j) s += double(dequantized(q, i, j)) * x[j];
          want[i] = s;
        }
        std::fill(y.begin(), y.end(), NAN);
        if (bits == 8) gemv_int8(pool, q, x.data(), y.data());
        else gemv_int4(pool, q, x.data(), y.data());
        expect(check_close(y.data(), want.data(), rows, 1e-4, 1.0, detail),
               "gemv int" + std::to_string(bits) + " " + shape, detail);
      }
    }
  }
}

// x with an exact INT8 image (numeric.hpp): the integer-dot GEMVs must match exactly.
std::vector<float> exactly_quantizable(std::size_t n, unsigned seed) {
  std::vector<float> x(n);
  fill_exactly_quantizable(x.data(), n, seed);
  return x;
}

// The integer-dot GEMVs (7b, 8b) on every instruction set this CPU has: rows not a multiple of
// the 4 rows a step takes, columns not a multiple of the 64 weights an INT4 step takes (groups
// of 32 and 96 weights end with a block on its own), group 128 as in the benchmark.
void test_gemv_int_dot(ThreadPool& pool) {
  struct Shape {
    std::size_t cols, group;
  };
  for (IntDot isa : all_int_dots) {
    if (!int_dot_available(isa)) {
      std::printf("skip %s: not on this CPU\n", int_dot_name(isa));
      continue;
    }
    for (std::size_t rows : {1ul, 3ul, 5ul, 9ul, 130ul}) {
      for (Shape sh : {Shape{32, 32}, Shape{96, 32}, Shape{288, 96}, Shape{384, 128}, Shape{1024, 128}}) {
        const std::string shape = std::to_string(rows) + "x" + std::to_string(sh.cols) + " group " +
                                  std::to_string(sh.group) + " " + int_dot_name(isa);
        for (int bits : {8, 4}) {
          const QuantizedMatrix q = make_quantized(rows, sh.cols, sh.group, bits, 11);
          const std::string name = "gemv int" + std::to_string(bits) + " integer dot " + shape;
          std::vector<float> y(rows, NAN);
          std::vector<double> want(rows), bound(rows);
          std::string detail;
          // Real x: within the bound that x's rounding and FP32 allow.
          const auto x = reals(sh.cols, 13);
          for (std::size_t i = 0; i < rows; ++i) {
            double s = 0;
            for (std::size_t j = 0; j < sh.cols; ++j) s += double(dequantized(q, i, j)) * x[j];
            want[i] = s;
            bound[i] = int_dot_gemv_bound(q, i, x.data());
          }
          // both ways of prefetching: the same results
          for (RowPrefetch prefetch : {RowPrefetch::none, RowPrefetch::ahead}) {
            std::fill(y.begin(), y.end(), NAN);
            if (bits == 8) gemv_int8_dp(pool, q, x.data(), y.data(), isa, prefetch);
            else gemv_int4_dp(pool, q, x.data(), y.data(), isa, prefetch);
            expect(check_within(y.data(), want.data(), bound.data(), rows, detail),
                   name + ", prefetch " + row_prefetch_name(prefetch) + " (reals)", detail);
          }
          // x that INT8 holds exactly: exact.
          const auto xe = exactly_quantizable(sh.cols, 17);
          for (std::size_t i = 0; i < rows; ++i) {
            double s = 0;
            for (std::size_t j = 0; j < sh.cols; ++j) s += double(dequantized(q, i, j)) * xe[j];
            want[i] = s;
          }
          std::fill(y.begin(), y.end(), NAN);
          if (bits == 8) gemv_int8_dp(pool, q, xe.data(), y.data(), isa);
          else gemv_int4_dp(pool, q, xe.data(), y.data(), isa);
          expect(check_close(y.data(), want.data(), rows, 0.0, 1.0, detail), name + " (exact)", detail);
        }
      }
    }
  }
  const auto x = reals(96, 5);
  try {
    QuantizedMatrix bad = make_quantized(2, 96, 48, 8, 3);
    std::vector<float> y(2);
    gemv_int8_dp(pool, bad, x.data(), y.data());
    expect(false, "integer-dot GEMV rejects a group of 48", "no exception");
  } catch (const std::invalid_argument& e) {
    expect(true, "integer-dot GEMV rejects a group of 48", e.what());
  }
}

void test_formats() {
  expect(from_bf16(to_bf16(1.0f)) == 1.0f && from_bf16(to_bf16(-3.5f)) == -3.5f, "bf16 exact values", "1, -3.5");
  expect(from_bf16(to_bf16(1.00390625f)) == 1.0f, "bf16 ties to even", "1 + 2^-8 -> 1");
  expect(std::isnan(from_bf16(to_bf16(NAN))), "bf16 NaN stays NaN", "");
  QuantizedMatrix q = make_quantized(1, 64, 32, 4, 1);
  q.q4.assign(32, 0);
  q.q4[0] = 0x1f;  // weight 0: nibble 15 -> q = 7; weight 16: nibble 1 -> q = -7
  const float s = q.scale(0, 0);
  expect(dequantized(q, 0, 0) == 7 * s && dequantized(q, 0, 16) == -7 * s && dequantized(q, 0, 1) == -8 * s,
         "int4 layout", "low nibble = weight j, high nibble = weight j + 16, offset 8");
}

// The GPU GEMVs' conversion tricks (cuda/dequant.hpp), run on the host.
void test_dequant() {
  bool ok = true;
  for (int v = -128; v < 128; ++v) {
    for (int pos = 0; pos < 4; ++pos) {
      const std::uint32_t word = std::uint32_t(std::uint8_t(v)) << (8 * pos) | (pos ? 0x5au : 0xa500u);
      float out[4];
      dequant::int8x4(word, out);
      ok = ok && out[pos] == float(v);
    }
  }
  expect(ok, "int8x4", "every byte value in every position");
  ok = true;
  std::uint32_t s = 12345;
  for (int trial = 0; trial < 10000 && ok; ++trial) {
    s = s * 1664525u + 1013904223u;
    float out[8];
    dequant::int4x8_scaled(s, out);
    for (int i = 0; i < 8; ++i) {
      const int nib = int((s >> (4 * i)) & 15u) - 8;
      ok = ok && out[i] * dequant::int4_unscale(i) == float(nib);
    }
  }
  expect(ok, "int4x8_scaled", "10,000 words, every nibble");

  // The GPU GEMVs' per-lane arithmetic on whole rows of the reference layout (numeric.hpp).
  const std::size_t cols = 1024;
  const auto xr = reals(cols, 17);
  for (int bits : {8, 4}) {
    const QuantizedMatrix q = make_quantized(3, cols, 128, bits, 5);
    bool same = true;
    std::string detail = "3 rows × 1,024";
    for (std::size_t r = 0; r < q.rows; ++r) {
      double want = 0, got = 0;
      for (std::size_t c = 0; c < cols; ++c) want += double(dequantized(q, r, c)) * xr[c];
      const std::size_t step = bits == 8 ? 16 : 32;
      for (std::size_t j = 0; j < cols; j += step) {
        std::uint32_t words[4];
        if (bits == 8) {
          std::memcpy(words, q.q8.data() + r * cols + j, 16);
          got += double(q.scale(r, j / 128)) * dequant::dot16_int8(words, xr.data() + j, 0.0f);
        } else {
          std::memcpy(words, q.q4.data() + (r * cols + j) / 2, 16);
          float sx[4][8];
          dequant::int4_scale_x(xr.data() + j, sx);
          got += double(q.scale(r, j / 128)) * dequant::block_dot_int4(words, sx, 0.0f);
        }
      }
      if (std::fabs(got - want) > 1e-4 * std::max(1.0, std::fabs(want))) {
        same = false;
        detail = "row " + std::to_string(r) + ": got " + std::to_string(got) + ", want " + std::to_string(want);
      }
    }
    expect(same, bits == 8 ? "GPU INT8 lane arithmetic" : "GPU INT4 lane arithmetic", detail);
  }
}

// The __dp4a GEMVs' block arithmetic (cuda/int_dot.hpp), run on the host: every block's integer
// sum against plain integer arithmetic, then whole rows in the kernels' order (a lane per block,
// two multiplies and an FMA per block) against the double-precision reference and its bound.
void test_int_dot_lanes() {
  bool ok = true;
  std::uint32_t s = 777;
  for (int trial = 0; trial < 10000 && ok; ++trial) {
    std::uint32_t a, b;
    s = s * 1664525u + 1013904223u;
    a = s;
    s = s * 1664525u + 1013904223u;
    b = s;
    int want = 5;
    for (int i = 0; i < 4; ++i) want += int(std::int8_t(a >> (8 * i))) * int(std::int8_t(b >> (8 * i)));
    ok = int_dot::dp4a(a, b, 5) == want;
  }
  expect(ok, "dp4a", "10,000 random word pairs, signed bytes");

  const std::size_t cols = 1024;
  const auto x = reals(cols, 19);
  std::vector<std::int8_t> xq(cols);
  std::vector<float> d(cols / x_block);
  std::vector<int> sums(cols / x_block);
  for (std::size_t b = 0; b < cols / x_block; ++b)
    d[b] = quantize_x_block(x.data() + b * x_block, xq.data() + b * x_block, sums[b]);
  for (int bits : {8, 4}) {
    const QuantizedMatrix q = make_quantized(3, cols, 128, bits, 9);
    bool blocks_exact = true, rows_within = true;
    std::string detail = "3 rows × 1,024";
    for (std::size_t r = 0; r < q.rows; ++r) {
      float lanes[32] = {};
      for (std::size_t j = 0; j < cols; j += x_block) {
        std::uint32_t xw[8], w[8];
        std::memcpy(xw, xq.data() + j, 32);
        int want = 0;
        for (int t = 0; t < x_block; ++t)
          want += int(std::lrint(dequantized(q, r, j + t) / q.scale(r, j / 128))) * xq[j + t];
        int got;
        if (bits == 8) {
          std::memcpy(w, q.q8.data() + r * cols + j, 32);
          got = int_dot::block_dot_int8(w, xw, 0);
        } else {
          std::memcpy(w, q.q4.data() + (r * cols + j) / 2, 16);
          got = int_dot::block_dot_int4(w, xw, -8 * sums[j / x_block]);
        }
        blocks_exact = blocks_exact && got == want;
        float& acc = lanes[(j / x_block) % 32];
        acc = std::fma(q.scale(r, j / 128) * d[j / x_block], float(got), acc);
      }
      double y = 0, want = 0;
      for (float v : lanes) y += v;
      for (std::size_t c = 0; c < cols; ++c) want += double(dequantized(q, r, c)) * x[c];
      const double bound = int_dot_error_bound(q, r, x.data());
      if (!(std::fabs(y - want) <= bound)) {
        rows_within = false;
        detail = "row " + std::to_string(r) + ": got " + std::to_string(y) + ", want " + std::to_string(want) + " ± " +
                 std::to_string(bound);
      }
    }
    expect(blocks_exact, bits == 8 ? "GPU INT8 __dp4a block sums" : "GPU INT4 __dp4a block sums",
           "every block of 3 rows × 1,024, exact");
    expect(rows_within, bits == 8 ? "GPU INT8 __dp4a lane arithmetic" : "GPU INT4 __dp4a lane arithmetic", detail);
  }
}

void test_peak(ThreadPool& pool) {
  const float v = peak_fma(pool, 1000);
  expect(std::isfinite(v), "peak loop", "finite result");
}

}  // namespace

int main(int argc, char** argv) {
  // --best-only: the float kernels in the variant this CPU would run, not every variant it can
  // (.ci/portability, under an emulator: each emulated CPU's own branch, at a tenth of the time).
  const bool best_only = argc > 1 && std::string(argv[1]) == "--best-only";
  test_formats();
  test_dequant();
  test_int_dot_lanes();
  test_gemv_walk();
  test_quantize_x_groups();
  // Every float variant this CPU runs (isa.hpp), each against the same references; the
  // integer-dot variants are each run inside test_gemv_int_dot.
  int variants = 0;
  for (VecIsa isa : {VecIsa::generic, VecIsa::avx2, VecIsa::avx512}) {
    if (!vec_isa_available(isa) || (best_only && isa != best_vec_isa())) {
      std::printf("skip float kernels %s: %s\n", vec_isa_name(isa), best_only ? "--best-only" : "not on this CPU");
      continue;
    }
    set_vec_isa(isa);
    ++variants;
    for (unsigned threads : {1u, 3u}) {
      ThreadPool pool(threads);
      vendor_set_threads(threads);
      std::printf("-- float kernels %s, %u thread(s)\n", vec_isa_name(isa), threads);
      test_streams(pool);
      test_matmuls(pool);
      test_gemv(pool);
      if (isa == best_vec_isa()) test_gemv_int_dot(pool);
      test_peak(pool);
    }
  }
  set_vec_isa(best_vec_isa());
  expect(variants >= 1 && vec_isa() == best_vec_isa(), "float variants run",
         std::to_string(variants) + ", the best " + vec_isa_name(best_vec_isa()) +
             "; integer dot: " + int_dot_name(best_int_dot()));
  std::printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
