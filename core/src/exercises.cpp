#include "roofline/exercises.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "exercise_draw.hpp"
#include "exercise_parts.hpp"
#include "roofline/batching.hpp"
#include "roofline/error.hpp"
#include "roofline/llm.hpp"
#include "roofline/matrix.hpp"
#include "roofline/precision.hpp"
#include "roofline/roofline.hpp"

namespace roofline {

namespace {

using namespace exercise_parts;
using namespace exercise_draw;

// ---- the first ten exercises (11 and 12: exercises_serving.cpp) ---------------------------------

// 1. Which products exist, their size, MACs and FLOPs.
ExerciseInstance exercise1(std::uint64_t seed) {
  double n = 3, k = 4, m = 2;
  if (seed != 0) {
    Draw d(seed, 1);
    n = d.integer(2, 6);
    k = d.integer(2, 6);
    do m = d.integer(2, 6);
    while (m == k);
  }
  const MatmulCost c = matmul_cost(n, k, m, Dtype::fp16);
  ExerciseInstance e;
  e.inputs = {num("n", n), num("k", k), num("m", m)};
  e.parts.push_back(yes_no("first", true));
  e.parts.push_back(exact("rows", "count", c.result.rows));
  e.parts.push_back(exact("cols", "count", c.result.cols));
  e.parts.push_back(exact("macs", "macs", c.macs.value()));
  ExercisePart flops = exact("flops", "flops", c.flops.value());
  with(flops, "macs_for_flops", c.macs.value());
  e.parts.push_back(flops);
  // n × k by m × k: the inner sizes (k and m) differ
  bool second = true;
  try {
    product_shape({n, k}, {m, k});
  } catch (const Error&) {
    second = false;
  }
  e.parts.push_back(yes_no("second", second));
  e.solution = {num("rows", c.result.rows), num("cols", c.result.cols), num("macs", c.macs.value()),
                num("flops", c.flops.value())};
  return e;
}

// 2. A · B and B · A: different results, the same MACs.
ExerciseInstance exercise2(std::uint64_t seed) {
  std::vector<std::vector<double>> a = {{1, 2}, {3, 4}}, b = {{5, 6}, {7, 8}};
  if (seed != 0) {
    Draw d(seed, 2);
    for (auto* mat : {&a, &b}) {
      for (auto& row : *mat) {
        for (double& x : row) x = d.integer(1, 9);
      }
    }
  }
  const MultiplyResult ab = multiply(Matrix::from_rows(a, "a"), Matrix::from_rows(b, "b"));
  const MultiplyResult ba = multiply(Matrix::from_rows(b, "b"), Matrix::from_rows(a, "a"));
  ExerciseInstance e;
  // names of the cells, row and column: a11 … b22 for the inputs, ab11 … ba22 for the products
  static constexpr std::string_view names[4][4] = {{"a11", "b11", "ab11", "ba11"},
                                                   {"a12", "b12", "ab12", "ba12"},
                                                   {"a21", "b21", "ab21", "ba21"},
                                                   {"a22", "b22", "ab22", "ba22"}};
  for (std::size_t r = 0; r < 2; ++r) {
    for (std::size_t c = 0; c < 2; ++c) {
      const auto& n = names[r * 2 + c];
      e.inputs.push_back(num(n[0], a[r][c]));
      e.inputs.push_back(num(n[1], b[r][c]));
      e.solution.push_back(num(n[2], ab.c(r, c)));
      e.solution.push_back(num(n[3], ba.c(r, c)));
    }
  }
  ExercisePart pab;
  pab.id = "ab";
  pab.kind = "matrix";
  pab.expected_matrix = SmallMatrix::from(ab.c.to_rows());
  ExercisePart pba = pab;
  pba.id = "ba";
  pba.expected_matrix = SmallMatrix::from(ba.c.to_rows());
  e.parts = {pab, pba, exact("macs", "macs", ab.macs.value())};
  with(e.parts.back(), "flops_for_macs", to_flops(ab.macs).value());
  e.solution.push_back(num("macs", ab.macs.value()));
  e.solution.push_back(num("flops", to_flops(ab.macs).value()));
  return e;
}

// 3. A dense layer on a batch: MACs, FLOPs and the floor time at a GPU's peak.
ExerciseInstance exercise3(std::uint64_t seed) {
  double inputs = 784, outputs = 128, batch = 64;
  const Gpu* gpu = &find_gpu("t4");
  if (seed != 0) {
    Draw d(seed, 3);
    inputs = d.pick<double>({256, 512, 784, 1024, 2048});
    outputs = d.pick<double>({64, 128, 256, 512, 1000});
    batch = d.pick<double>({16, 32, 64, 128, 256});
    gpu = d.pick(gpus_with(Dtype::fp16));
  }
  const DenseLayerCost c = dense_layer(batch, inputs, outputs, Dtype::fp16);
  const Device dev = device_for(*gpu, Dtype::fp16);
  const AtPeak t = time_at_peak(c.matmul.flops, dev.peak);
  const Clocks clk = clocks(c.matmul.flops, c.matmul.bytes, dev);
  ExerciseInstance e;
  e.inputs = {num("inputs", inputs), num("outputs", outputs), num("batch", batch), named_id("gpu", gpu->id),
              num("peakFlopsPerSecond", dev.peak.value())};
  e.parts.push_back(number("macs", "macs", c.matmul.macs.value()));
  ExercisePart flops = number("flops", "flops", c.matmul.flops.value());
  with(flops, "macs_for_flops", c.matmul.macs.value());
  e.parts.push_back(flops);
  ExercisePart seconds = number("seconds", "seconds", t.seconds.value());
  with(seconds, "macs_for_flops", time_at_peak(to_flops(Macs{c.matmul.macs.value() / 2}), dev.peak).seconds.value());
  if (auto fp32 = gpu->peak(Dtype::fp32))
    with(seconds, "other_precision", time_at_peak(c.matmul.flops, *fp32).seconds.value());
  e.parts.push_back(seconds);
  e.solution = {num("macs", c.matmul.macs.value()),       num("flops", c.matmul.flops.value()),
                num("seconds", t.seconds.value()),        num("bytes", c.matmul.bytes.value()),
                num("memorySeconds", clk.memory.value()), num("bytesPerSecond", dev.bandwidth.value())};
  return e;
}

// 4. Floor time per item, the ceiling of items per second, and the utilization of a measurement.
ExerciseInstance exercise4(std::uint64_t seed) {
  double per_item = 20e9, peak = 100e12, measured = 900;
  if (seed != 0) {
    Draw d(seed, 4);
    per_item = d.pick<double>({5e9, 10e9, 20e9, 40e9, 80e9});
    peak = d.pick<double>({50e12, 100e12, 200e12, 400e12});
    const double ceiling = time_at_peak(Flops{per_item}, FlopsPerSecond{peak}).per_second;
    measured = std::max(1.0, std::round(ceiling * d.integer(8, 40) / 100 / 10) * 10);
  }
  const Throughput t = throughput(Flops{per_item}, measured, FlopsPerSecond{peak});
  ExerciseInstance e;
  e.inputs = {num("flopsPerItem", per_item), num("peakFlopsPerSecond", peak), num("itemsPerSecond", measured)};
  e.parts.push_back(number("seconds", "seconds", t.seconds_per_item_at_peak.value()));
  e.parts.push_back(number("ceiling", "itemsPerSecond", t.ceiling_items_per_second));
  ExercisePart u = fraction("utilization", t.utilization.fraction);
  e.parts.push_back(u);
  e.solution = {num("seconds", t.seconds_per_item_at_peak.value()), num("ceiling", t.ceiling_items_per_second),
                num("utilization", t.utilization.fraction), num("achievedFlopsPerSecond", t.achieved.value())};
  return e;
}

// 5. Two square matrices: FLOPs, bytes, intensity, and which side of two GPUs' ridges.
ExerciseInstance exercise5(std::uint64_t seed) {
  // the lesson's case, and the L4 it compares with
  const LessonCase& lesson = find_case("matmul-1024");
  double size = lesson.find("n")->number;
  const Gpu* g1 = &find_gpu(lesson.find("gpu")->id);
  const Gpu* g2 = &find_gpu("l4");
  if (seed != 0) {
    Draw d(seed, 5);
    size = d.pick<double>({256, 512, 1024, 2048, 4096});
    const auto all = gpus_with(Dtype::fp16);
    g1 = d.pick(all);
    do g2 = d.pick(all);
    while (g2 == g1);
  }
  const MatmulCost c = matmul_cost(size, size, size, Dtype::fp16);
  const Device d1 = device_for(*g1, Dtype::fp16), d2 = device_for(*g2, Dtype::fp16);
  const Clocks c1 = clocks(c.flops, c.bytes, d1), c2 = clocks(c.flops, c.bytes, d2);
  ExerciseInstance e;
  e.inputs = {num("size", size), named_id("gpu1", g1->id), named_id("gpu2", g2->id)};
  ExercisePart flops = number("flops", "flops", c.flops.value());
  with(flops, "macs_for_flops", c.macs.value());
  ExercisePart bytes = number("bytes", "bytes", c.bytes.value());
  gib_mistakes(bytes, c.bytes.value());
  ExercisePart intensity = number("intensity", "flopsPerByte", c.intensity.value());
  with(intensity, "macs_for_flops", c.intensity.value() / 2);
  e.parts = {flops, bytes, intensity, choice("gpu1", verdict(c1), {"compute", "memory"}),
             choice("gpu2", verdict(c2), {"compute", "memory"})};
  e.solution = {num("flops", c.flops.value()),
                num("bytes", c.bytes.value()),
                num("intensity", c.intensity.value()),
                num("ridge1", c1.ridge.value()),
                num("ridge2", c2.ridge.value()),
                num("computeSeconds2", c2.compute.value()),
                num("memorySeconds2", c2.memory.value()),
                num("peak2", d2.peak.value()),
                num("bytesPerSecond2", d2.bandwidth.value()),
                named_id("verdict1", verdict(c1)),
                named_id("verdict2", verdict(c2))};
  return e;
}

// 6. Decode ceilings: a model on two GPUs, and a big model on one.
ExerciseInstance exercise6(std::uint64_t seed) {
  const Model* m1 = &find_model("llama3-8b");
  const WeightFormat* f1 = &find_format("bf16");
  const Gpu* g1 = &find_gpu("a100-80gb");
  const Gpu* g2 = &find_gpu("h100-sxm");
  const Model* m2 = &find_model("c10-70b");
  const Gpu* g3 = &find_gpu("h100-sxm");
  if (seed != 0) {
    Draw d(seed, 6);
    const auto models = llms();
    m1 = d.pick(models);
    f1 = &find_format(d.pick<std::string_view>({"bf16", "fp8", "int8", "int4"}));
    std::vector<const Gpu*> all;
    for (const Gpu& g : gpus()) {
      if (g.lesson_order > 0) all.push_back(&g);
    }
    g1 = d.pick(all);
    do g2 = d.pick(all);
    while (g2 == g1);
    do m2 = d.pick(models);
    while (m2 == m1);
    g3 = d.pick(all);
  }
  const ModelWeights w1 = model_weights(*m1, *f1);
  const ModelWeights w2 = model_weights(*m2);
  ExerciseInstance e;
  e.inputs = {named_id("model1", m1->id),     named_id("format1", f1->id), num("bytes1", w1.bytes.value()),
              named_id("gpu1", g1->id),       named_id("gpu2", g2->id),    named_id("model2", m2->id),
              named_id("format2", w2.format), num("params2", w2.params),   num("bytes2", w2.bytes.value()),
              named_id("gpu3", g3->id)};
  auto part = [&](const char* name, const char* solution_name, const ModelWeights& w, const Model& m, const Gpu& g) {
    const double tokens = ceiling_tokens(w.bytes, g);
    ExercisePart p = number(name, "tokensPerSecond", tokens);
    with(p, "gib_for_gb", tokens * 1073741824.0 / 1e9);  // the weights in GiB against GB/s
    with(p, "gib_for_gb", tokens * 1e9 / 1073741824.0);  // the bandwidth in GiB/s against GB
    if (w.kept_params > 0) {
      QuantizedWeightsInput none{};
      none.params = m.params;
      none.dtype = *find_format(w.format).dtype;
      none.group_size = find_format(w.format).group_size;
      none.scale_dtype = find_format(w.format).scale_dtype;
      with(p, "no_kept_share", ceiling_tokens(quantized_weights(none).bytes, g));
    }
    e.solution.push_back(num(solution_name, tokens));
    return p;
  };
  e.parts = {part("gpu1", "tokens1", w1, *m1, *g1), part("gpu2", "tokens2", w1, *m1, *g2),
             part("big", "tokens3", w2, *m2, *g3)};
  e.solution.push_back(num("bytesPerSecond1", g1->bandwidth.value()));
  e.solution.push_back(num("bytesPerSecond2", g2->bandwidth.value()));
  e.solution.push_back(num("bytesPerSecond3", g3->bandwidth.value()));
  e.solution.push_back(num("bytes1", w1.bytes.value()));
  e.solution.push_back(num("bytes2", w2.bytes.value()));
  // the same big model over two GPUs in tensor parallel (the lesson's C10)
  const DecodeStep two = decode({w2.bytes, Bytes{0}, 1, g3->bandwidth, 2});
  e.solution.push_back(num("twoGpuSeconds", two.step.value()));
  e.solution.push_back(num("twoGpuTokens", two.tokens_per_second));
  return e;
}

// 7. The smallest batch that takes a square layer past a GPU's ridge, against "intensity ≈ b".
ExerciseInstance exercise7(std::uint64_t seed) {
  double size = 4096;
  const Gpu* g = &find_gpu("t4");
  if (seed != 0) {
    Draw d(seed, 7);
    size = d.pick<double>({2048, 4096, 8192});
    g = d.pick(gpus_with(Dtype::fp16));
  }
  const Device dev = device_for(*g, Dtype::fp16);
  const FlopsPerByte r = ridge(dev);
  const double batch = min_batch_for_ridge(size, size, Dtype::fp16, r);
  ExerciseInstance e;
  e.inputs = {num("size", size), named_id("gpu", g->id), num("ridge", r.value())};
  ExercisePart p = exact("batch", "count", batch);
  with(p, "intensity_is_batch", std::ceil(r.value()));
  e.parts = {p};
  const DenseLayerCost at = dense_layer(batch, size, size, Dtype::fp16);
  const double approx = std::ceil(r.value());
  e.solution = {num("ridge", r.value()),
                num("twiceRidge", 2 * r.value()),
                num("numerator", r.value() * size),
                num("denominator", size - 2 * r.value()),
                num("exactBatch", r.value() * size / (size - 2 * r.value())),
                num("batch", batch),
                num("check", at.matmul.intensity.value()),
                num("checkBytesTerm", 2 * batch + size),
                num("approx", approx),
                num("gap", 1 - approx / batch)};
  return e;
}

// 8. Utilization against the peak of the precision used, and a claim that beats the peak.
ExerciseInstance exercise8(std::uint64_t seed) {
  double photos = 2000, claim = 10000;
  const Gpu* g = &find_gpu("t4");
  const Model& resnet = find_model("resnet50");
  if (seed != 0) {
    Draw d(seed, 8);
    photos = d.pick<double>({1000, 1500, 2000, 3000, 4000});
    claim = d.pick<double>({5000, 8000, 10000, 12000, 20000});
    std::vector<const Gpu*> both;
    for (const Gpu* x : gpus_with(Dtype::int8)) {
      if (x->peak(Dtype::fp16)) both.push_back(x);
    }
    g = d.pick(both);
  }
  // the lesson's working figure, 8.2 GFLOPs a photo (4.1 GMACs), not the 4,088 million counted
  const Flops per_photo = to_flops(Macs{*resnet.working_macs_per_example});
  const FlopsPerSecond int8 = *g->peak(Dtype::int8), fp16 = *g->peak(Dtype::fp16);
  const Throughput a = throughput(per_photo, photos, int8);
  const Throughput b = throughput(per_photo, claim, fp16);
  ExerciseInstance e;
  e.inputs = {num("photos", photos),
              named_id("gpu", g->id),
              num("int8OpsPerSecond", int8.value()),
              num("claim", claim),
              num("fp16FlopsPerSecond", fp16.value()),
              num("flopsPerPhoto", per_photo.value())};
  ExercisePart u = fraction("utilization", a.utilization.fraction);
  with(u, "other_precision", throughput(per_photo, photos, fp16).utilization.fraction);
  e.parts = {u, number("required", "flopsPerSecond", b.achieved.value()), yes_no("believe", b.utilization.possible)};
  e.solution = {num("achieved", a.achieved.value()), num("utilization", a.utilization.fraction),
                num("required", b.achieved.value()), named_id("believe", b.utilization.possible ? "yes" : "no")};
  return e;
}

// 9. ResNet-50's intensity counting only the weights, a stage's, its crossing batch, and why
// the real intensity is lower.
ExerciseInstance exercise9(std::uint64_t seed) {
  const Model& resnet = find_model("resnet50");
  const Stage* stage = &resnet.stages[3];  // stage 4
  const Gpu* g = &find_gpu("t4");
  if (seed != 0) {
    Draw d(seed, 9);
    std::vector<const Stage*> stages;
    for (const Stage& s : resnet.stages) {
      // the stages the lesson tabulates (not its first layer, nor the 1 × 1 convolution it mentions)
      if (s.id != "conv1" && s.id != "stage1-1x1") stages.push_back(&s);
    }
    stage = d.pick(stages);
    g = d.pick(gpus_with(Dtype::fp16));
  }
  const FlopsPerByte r = ridge(device_for(*g, Dtype::fp16));
  const Flops flops = to_flops(Macs{*resnet.working_macs_per_example});
  const Bytes weights = bytes_of(resnet.params, Dtype::fp16);
  const FlopsPerByte whole = flops / weights;
  const FlopsPerByte part = to_flops(Macs{stage->macs}) / bytes_of(stage->weights, Dtype::fp16);
  // with a batch of b, the weights' intensity grows b times: the first b at or past the ridge
  const double batch = std::max(1.0, std::ceil(r.value() / part.value() - 1e-12));
  ExerciseInstance e;
  e.inputs = {num("params", resnet.params),  num("macs", *resnet.working_macs_per_example),
              named_id("stage", stage->id),  num("stageWeights", stage->weights),
              num("stageMacs", stage->macs), named_id("gpu", g->id)};
  ExercisePart a = number("whole", "flopsPerByte", whole.value());
  with(a, "macs_for_flops", whole.value() / 2);
  ExercisePart b = number("stage", "flopsPerByte", part.value());
  with(b, "macs_for_flops", part.value() / 2);
  e.parts = {a, b, exact("batch", "count", batch), choice("why", "activations", {"peak", "activations", "precision"})};
  e.solution = {num("flops", flops.value()),
                num("weightBytes", weights.value()),
                num("wholeIntensity", whole.value()),
                num("stageIntensity", part.value()),
                num("ridge", r.value()),
                num("batch", batch),
                num("atBatch", part.value() * batch)};
  return e;
}

// 10. A big model over GPUs in tensor parallel: decode floors with and without KV caches,
// tokens per second, and the prefill of a prompt.
ExerciseInstance exercise10(std::uint64_t seed) {
  const Model& m = find_model("c10-70b");
  const Gpu* g = &find_gpu("h100-sxm");
  double gpus_n = 2, batch = 40, prompt = 2000;
  const double kv_per_sequence = 695e6;  // the lesson's 13.9 GB per GPU for 40 conversations on 2 GPUs
  if (seed != 0) {
    Draw d(seed, 10);
    g = d.pick(gpus_with(Dtype::fp8));
    gpus_n = d.pick<double>({2, 4, 8});
    batch = d.pick<double>({16, 32, 40, 64});
    prompt = d.pick<double>({500, 1000, 2000, 4000});
  }
  const ModelWeights w = model_weights(m);
  const WeightFormat& f = find_format(w.format);
  const Device dev = device_for(*g, f.compute_dtype);
  const DecodeStep alone = decode({w.bytes, Bytes{0}, 1, dev.bandwidth, gpus_n});
  const DecodeStep busy = decode({w.bytes, Bytes{kv_per_sequence}, batch, dev.bandwidth, gpus_n});
  PrefillInput pin{};
  pin.params = w.params;
  pin.tokens = prompt;
  pin.weights = w.bytes;
  pin.device = dev;
  pin.gpus = gpus_n;
  const Prefill pre = prefill(pin);
  ExerciseInstance e;
  e.inputs = {named_id("model", m.id),
              num("params", w.params),
              named_id("format", w.format),
              named_id("gpu", g->id),
              num("gpus", gpus_n),
              num("batch", batch),
              num("kvBytesPerGpu", kv_per_sequence * batch / gpus_n),
              num("promptTokens", prompt),
              num("peakFlopsPerSecond", dev.peak.value())};
  ExercisePart seconds = number("prefillSeconds", "seconds", pre.clocks.lower_bound.value());
  if (auto fp16 = g->peak(Dtype::fp16)) {
    PrefillInput other = pin;
    other.device = {*fp16, dev.bandwidth};
    with(seconds, "other_precision", prefill(other).clocks.lower_bound.value());
  }
  ExercisePart step = number("busyStep", "seconds", busy.step.value());
  ExercisePart flops = number("prefillFlops", "flops", pre.flops.value());
  with(flops, "macs_for_flops", pre.flops.value() / 2);
  e.parts = {number("aloneStep", "seconds", alone.step.value()),
             step,
             number("busyTokens", "tokensPerSecond", busy.tokens_per_second),
             flops,
             number("intensity", "flopsPerByte", pre.clocks.intensity.value()),
             number("ridge", "flopsPerByte", pre.clocks.ridge.value()),
             seconds};
  e.solution = {num("bytesPerGpu", alone.bytes_per_step.value()),
                num("bytesPerSecond", dev.bandwidth.value()),
                num("aloneStep", alone.step.value()),
                num("busyBytesPerGpu", busy.bytes_per_step.value()),
                num("busyStep", busy.step.value()),
                num("busyTokens", busy.tokens_per_second),
                num("busyPerConversation", busy.tokens_per_second_per_sequence),
                num("prefillFlops", pre.flops.value()),
                num("intensity", pre.clocks.intensity.value()),
                num("ridge", pre.clocks.ridge.value()),
                num("prefillSeconds", pre.clocks.lower_bound.value()),
                num("decodeSteps", alone.step.value() * prompt)};
  return e;
}

}  // namespace

ExerciseInstance exercise(int id, std::uint64_t seed) {
  ExerciseInstance e;
  switch (id) {
    case 1: e = exercise1(seed); break;
    case 2: e = exercise2(seed); break;
    case 3: e = exercise3(seed); break;
    case 4: e = exercise4(seed); break;
    case 5: e = exercise5(seed); break;
    case 6: e = exercise6(seed); break;
    case 7: e = exercise7(seed); break;
    case 8: e = exercise8(seed); break;
    case 9: e = exercise9(seed); break;
    case 10: e = exercise10(seed); break;
    case 11: e = speculative_exercise(seed); break;
    case 12: e = tensor_parallel_exercise(seed); break;
    default:
      throw Error(ErrorCode::out_of_range, "id",
                  "id must be an exercise from 1 to " + format_number(exercise_count) + ", got " + format_number(id));
  }
  e.id = id;
  e.seed = seed;
  e.level = id <= 4 ? "easy" : id <= 8 ? "medium" : "challenge";
  return e;
}

}  // namespace roofline
