// The lesson's check questions, and checking one answered part of an exercise or a question.
#include <algorithm>
#include <cmath>
#include <string>

#include "exercise_parts.hpp"
#include "roofline/error.hpp"
#include "roofline/exercises.hpp"

namespace roofline {

using namespace exercise_parts;

ExerciseInstance question(int id) {
  ExerciseInstance q;
  q.id = id;
  q.level = "check";
  switch (id) {
    case 1: q.parts = {choice("formula", "nmk", {"nm", "nmk", "nk"})}; break;
    case 2: {
      const Model& resnet = find_model("resnet50");
      const Flops per_photo = to_flops(Macs{*resnet.working_macs_per_example});
      const FlopsPerSecond peak = *find_gpu("t4").peak(Dtype::fp16);
      const double seconds = time_at_peak(per_photo, peak).seconds.value();
      q.inputs = {num("flops", per_photo.value()), num("peakFlopsPerSecond", peak.value())};
      q.parts = {choice("which", "work_speed", {"same", "work_speed", "speed_work"}),
                 number("seconds", "seconds", seconds)};
      q.solution = {num("seconds", seconds)};
      break;
    }
    case 3: {
      const Device t4 = device_for(find_gpu("t4"), Dtype::fp16);
      q.parts = {choice("against", "ridge", {"peak", "bandwidth", "ridge"})};
      q.solution = {num("ridge", ridge(t4).value())};
      break;
    }
    case 4: {
      const Model& llama = find_model("llama3-8b");
      const Gpu& l4 = find_gpu("l4");
      const ModelWeights w = model_weights(llama);
      const double tokens = ceiling_tokens(w.bytes, l4);
      ExercisePart p = number("tokens", "tokensPerSecond", tokens);
      q.inputs = {named_id("model", llama.id), named_id("gpu", l4.id)};
      q.parts = {choice("bound", "memory", {"compute", "memory"}), p};
      q.solution = {num("bytesPerSecond", l4.bandwidth.value()), num("bytes", w.bytes.value()), num("tokens", tokens)};
      break;
    }
    case 5: q.parts = {choice("why", "weights_once", {"faster_cores", "weights_once", "fewer_flops"})}; break;
    case 6: {
      const Gpu& t4 = find_gpu("t4");
      q.inputs = {num("peakFlopsPerSecond", t4.peak(Dtype::fp16)->value())};
      q.parts = {choice("why", "peak_is_ideal", {"broken", "wrong_precision", "peak_is_ideal"})};
      break;
    }
    case 7: {
      const Gpu &t4 = find_gpu("t4"), &l4 = find_gpu("l4");
      // decode reads the weights: the faster memory writes tokens faster, whatever the peak
      const Model& llama = find_model("llama3-8b");
      const ModelWeights w = model_weights(llama);
      const bool faster = ceiling_tokens(w.bytes, l4) > ceiling_tokens(w.bytes, t4);
      q.inputs = {num("bytesPerSecondT4", t4.bandwidth.value()), num("bytesPerSecondL4", l4.bandwidth.value()),
                  num("memoryL4", l4.memory.value())};
      q.parts = {yes_no("faster", faster)};
      break;
    }
    default:
      throw Error(ErrorCode::out_of_range, "id", "id must be a check question from 1 to 7, got " + format_number(id));
  }
  return q;
}

PartCheck check_part(const ExercisePart& part, const PartAnswer& answer) {
  PartCheck r;
  if (part.kind == "choice") {
    r.answered = !answer.choice.empty();
    r.correct = answer.choice == part.expected_choice;
    return r;
  }
  if (part.kind == "matrix") {
    r.answered = answer.matrix.has_value();
    r.correct = r.answered && *answer.matrix == part.expected_matrix.to_rows();
    return r;
  }
  if (!answer.number) return r;
  r.answered = true;
  const double a = *answer.number;
  auto near = [&](double expected) {
    return std::abs(a - expected) <= std::max(part.relative_tolerance * std::abs(expected), part.absolute_tolerance);
  };
  r.correct = near(*part.expected);
  if (r.correct) return r;
  for (const Mistake& m : part.mistakes) {
    // a mistake is matched with the lesson's rounding even for exact parts (a rounded 204)
    const double tol = std::max({part.relative_tolerance, lesson_rounding}) * std::abs(m.value);
    if (std::abs(a - m.value) <= std::max(tol, part.absolute_tolerance)) {
      r.mistake = m.id;
      break;
    }
  }
  return r;
}

}  // namespace roofline
