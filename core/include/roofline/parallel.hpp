// Tensor parallelism's price: each layer's attention and MLP end in an all-reduce of the tokens'
// activations across the GPUs, on the link between them, before the next layer can start.
//
//   all_reduce({8, Bytes{16384}, {BytesPerSecond{450e9}, Seconds{8e-6}}});
//     // 8 µs + 2 × 7/8 × 16,384 B ÷ 450 GB/s ≈ 8.06 µs: at batch 1 the latency, not the bytes
//   Llama 3.1 70B decode at TP 8 on NVLink 4: 2 × 80 layers = 160 all-reduces ≈ 1.29 ms a step,
//   against ≈ 5.27 ms of weight reads per GPU.
#pragma once

#include "roofline/dtype.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// A link's two figures: what one GPU sends each way per second, and a collective's fixed time.
struct LinkFigures {
  BytesPerSecond bandwidth;
  Seconds latency;
};

struct AllReduceInput {
  double gpus = 1;  ///< GPUs in the ring (p)
  Bytes message;    ///< the tensor each GPU holds and all of them sum
  LinkFigures link;
};

struct AllReduce {
  Bytes sent_per_gpu;  ///< a ring's 2(p − 1)/p × message: a reduce-scatter, then an all-gather
  Seconds seconds;     ///< latency + sent_per_gpu ÷ bandwidth; 0 on one GPU
};

/// One ring all-reduce (the cost model of llm-analysis and GenZ): 2(p − 1)/p of the message
/// crosses the link each way, after a fixed latency. One GPU has nothing to reduce.
AllReduce all_reduce(const AllReduceInput& in);

struct TensorParallelInput {
  double layers = 1;  ///< transformer layers: each ends its attention and its MLP in an all-reduce
  double hidden = 1;  ///< the activations' width
  double tokens = 1;  ///< tokens in the step: batch (decode), batch × prompt (prefill)
  Dtype activation_dtype = Dtype::bf16;
  double gpus = 1;
  LinkFigures link;
};

struct TensorParallel {
  double all_reduces = 0;  ///< 2 × layers a step (0 on one GPU)
  AllReduce each;          ///< of tokens × hidden activations
  Seconds seconds;         ///< all_reduces × each: the communication floor of a step
};

/// A step's all-reduces under tensor parallelism (Megatron-LM's layout: two per layer). They sit
/// between the layers' reads and products, so they add to a step's time rather than overlap it.
TensorParallel tensor_parallel(const TensorParallelInput& in);

}  // namespace roofline
