// C = A·B with register blocking: each 6 × 16 block of C lives in 12 vector registers while a
// packed 6-row strip of A (L1/L2) and a 16-column strip of B (L1) stream past it; per loaded
// number 6 or 16 FMAs instead of 1. Reads A once per 2,048-column panel of B and B once; writes C
// once (with bias: C = max(A·B + bias, 0) applied in registers).
#include "kernels.hpp"

namespace rlk::cpu {
namespace {

constexpr std::size_t MR = reg_mr, NR = reg_nr, KC = reg_kc, MC = reg_mc, NC = reg_nc;

// Rows i0..i0+mc, columns p0..p0+kc of A → strips of MR rows, each kc × MR, zero-padded.
void pack_a(const float* a, std::size_t lda, std::size_t i0, std::size_t mc, std::size_t p0, std::size_t kc,
            float* out) {
  for (std::size_t ir = 0; ir < mc; ir += MR) {
    const std::size_t rows = std::min(MR, mc - ir);
    for (std::size_t p = 0; p < kc; ++p)
      for (std::size_t r = 0; r < MR; ++r) *out++ = r < rows ? a[(i0 + ir + r) * lda + p0 + p] : 0.0f;
  }
}

// Rows p0..p0+kc, columns j0..j0+nc of B → strips of NR columns, each kc × NR, zero-padded.
void pack_b(const float* b, std::size_t ldb, std::size_t p0, std::size_t kc, std::size_t j0, std::size_t nc,
            float* out) {
  for (std::size_t jr = 0; jr < nc; jr += NR) {
    const std::size_t cols = std::min(NR, nc - jr);
    for (std::size_t p = 0; p < kc; ++p) {
      const float* src = b + (p0 + p) * ldb + j0 + jr;
      if (cols == NR) {
        std::memcpy(out, src, NR * sizeof(float));
      } else {
        for (std::size_t j = 0; j < NR; ++j) out[j] = j < cols ? src[j] : 0.0f;
      }
      out += NR;
    }
  }
}

// The micro-kernel: C[0..mr, 0..nr] (+)= Ap · Bp over kc. `first`: overwrite instead of add;
// `bias`: apply bias + ReLU (only on the last block of the inner dimension).
template <class Isa>
RLK_INLINE void micro(std::size_t kc, const float* __restrict ap, const float* __restrict bp, float* c, std::size_t ldc,
                      std::size_t mr, std::size_t nr, bool first, const float* bias) {
  v8f acc[MR][2] = {};
  for (std::size_t p = 0; p < kc; ++p) {
    const v8f b0 = load8(bp), b1 = load8(bp + 8);
#pragma GCC unroll 6
    for (std::size_t r = 0; r < MR; ++r) {
      const v8f x = splat(ap[r]);
      acc[r][0] += x * b0;
      acc[r][1] += x * b1;
    }
    ap += MR;
    bp += NR;
  }
  const v8f zero{};
  if (mr == MR && nr == NR) {
#pragma GCC unroll 6
    for (std::size_t r = 0; r < MR; ++r) {
      float* row = c + r * ldc;
      v8f c0 = acc[r][0], c1 = acc[r][1];
      if (!first) {
        c0 += load8(row);
        c1 += load8(row + 8);
      }
      if (bias) {
        c0 += load8(bias);
        c1 += load8(bias + 8);
        c0 = c0 > zero ? c0 : zero;
        c1 = c1 > zero ? c1 : zero;
      }
      store8(row, c0);
      store8(row + 8, c1);
    }
    return;
  }
  alignas(32) float tmp[MR][NR];
  for (std::size_t r = 0; r < MR; ++r) {
    store8(tmp[r], acc[r][0]);
    store8(tmp[r] + 8, acc[r][1]);
  }
  for (std::size_t r = 0; r < mr; ++r)
    for (std::size_t j = 0; j < nr; ++j) {
      float v = tmp[r][j] + (first ? 0.0f : c[r * ldc + j]);
      if (bias) {
        v += bias[j];
        v = v > 0 ? v : 0;
      }
      c[r * ldc + j] = v;
    }
}

// One thread's columns [j_begin, j_end) of C, through its own packed blocks.
template <class Isa>
RLK_INLINE void register_columns(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                                 const float* bias, std::size_t j_begin, std::size_t j_end, float* a_pack,
                                 float* b_pack) {
  for (std::size_t jc = j_begin; jc < j_end; jc += NC) {
    const std::size_t nc = std::min(NC, j_end - jc);
    for (std::size_t pc = 0; pc < k; pc += KC) {
      const std::size_t kc = std::min(KC, k - pc);
      const bool first = pc == 0, last = pc + kc == k;
      pack_b(b, m, pc, kc, jc, nc, b_pack);
      for (std::size_t ic = 0; ic < n; ic += MC) {
        const std::size_t mc = std::min(MC, n - ic);
        pack_a(a, k, ic, mc, pc, kc, a_pack);
        for (std::size_t jr = 0; jr < nc; jr += NR)
          for (std::size_t ir = 0; ir < mc; ir += MR)
            micro<Isa>(kc, a_pack + ir * kc, b_pack + jr * kc, c + (ic + ir) * m + jc + jr, m, std::min(MR, mc - ir),
                       std::min(NR, nc - jr), first, last && bias ? bias + jc + jr : nullptr);
      }
    }
  }
}
RLK_VEC_VARIANTS(register_columns,
                 (const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m,
                  const float* bias, std::size_t j_begin, std::size_t j_end, float* a_pack, float* b_pack),
                 (a, b, c, n, k, m, bias, j_begin, j_end, a_pack, b_pack))

}  // namespace

void matmul_register(ThreadPool& pool, const float* a, const float* b, float* c, std::size_t n, std::size_t k,
                     std::size_t m, const float* bias) {
  // Threads split the columns of C: each packs its own panels of B, none waits for another.
  pool.run([&](unsigned t, unsigned threads) {
    std::size_t j_begin, j_end;
    split(m, t, threads, NR, j_begin, j_end);
    if (j_begin >= j_end) return;
    thread_local Buffer<float> a_pack(MC * KC), b_pack(KC * NC);
    RLK_VEC_CALL(register_columns, (a, b, c, n, k, m, bias, j_begin, j_end, a_pack.data(), b_pack.data()));
  });
}

}  // namespace rlk::cpu
