// Vendor references measured in the same run: glibc memcpy for copying, OpenBLAS for GEMM/GEMV.
#include <stdexcept>

#include "kernels.hpp"

#if defined(ROOFLINE_HAVE_BLAS)
#include <cblas.h>
#endif

#if defined(ROOFLINE_HAVE_OPENBLAS)
extern "C" void openblas_set_num_threads(int);
extern "C" char* openblas_get_config(void);
#endif

namespace rlk::cpu {

void vendor_memcpy(ThreadPool& pool, const float* a, float* c, std::size_t n) {
  parallel_for(pool, n, 1024,
               [&](std::size_t b, std::size_t e) { std::memcpy(c + b, a + b, (e - b) * sizeof(float)); });
}

#if defined(ROOFLINE_HAVE_BLAS)
bool vendor_blas_available() { return true; }

void vendor_sgemm(const float* a, const float* b, float* c, std::size_t n, std::size_t k, std::size_t m) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(n), int(m), int(k), 1.0f, a, int(k), b, int(m), 0.0f, c,
              int(m));
}

void vendor_sgemv(const float* w, const float* x, float* y, std::size_t m, std::size_t k) {
  cblas_sgemv(CblasRowMajor, CblasNoTrans, int(m), int(k), 1.0f, w, int(k), x, 1, 0.0f, y, 1);
}
#else
bool vendor_blas_available() { return false; }

void vendor_sgemm(const float*, const float*, float*, std::size_t, std::size_t, std::size_t) {
  throw std::runtime_error("built without BLAS");
}

void vendor_sgemv(const float*, const float*, float*, std::size_t, std::size_t) {
  throw std::runtime_error("built without BLAS");
}
#endif

void vendor_set_threads(unsigned threads) {
#if defined(ROOFLINE_HAVE_OPENBLAS)
  openblas_set_num_threads(int(threads));
#else
  (void)threads;
#endif
}

const char* vendor_blas_name() {
#if defined(ROOFLINE_HAVE_OPENBLAS)
  return openblas_get_config();
#elif defined(ROOFLINE_HAVE_BLAS)
  return "BLAS (not OpenBLAS)";
#else
  return "none";
#endif
}

}  // namespace rlk::cpu
