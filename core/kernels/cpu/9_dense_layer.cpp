// Y = X·W for a batch: reads W (inputs × outputs) once whatever the batch, X and Y once; 2 FLOPs
// per weight per example. Each weight read is used `batch` times: intensity ≈ batch ÷ 2 in FP32
// until the compute roof. Runs on the register-blocked matmul (5).
#include "kernels.hpp"

namespace rlk::cpu {

void dense_layer(ThreadPool& pool, const float* x, const float* w, float* y, std::size_t batch,
                 std::size_t inputs, std::size_t outputs) {
  matmul_register(pool, x, w, y, batch, inputs, outputs);
}

}  // namespace rlk::cpu
