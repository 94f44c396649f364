// The lesson's exercises and check questions: the core's expected answers are the lesson's
// published ones (within its rounding), each common mistake is recognized from its own value,
// and new numbers are reproducible from their seed.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "roofline/api.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/exercises.hpp"

using namespace roofline;
using api::Value;

namespace {

const ExercisePart& part(const ExerciseInstance& e, const std::string& id) {
  for (const ExercisePart& p : e.parts) {
    if (p.id == id) return p;
  }
  FAIL("no part " << id);
  throw;
}

PartCheck answer(const ExerciseInstance& e, const std::string& id, double value) {
  PartAnswer a;
  a.number = value;
  return check_part(part(e, id), a);
}

PartCheck answer(const ExerciseInstance& e, const std::string& id, const std::string& choice) {
  PartAnswer a;
  a.choice = choice;
  return check_part(part(e, id), a);
}

}  // namespace

TEST_CASE("exercise 1: 3 × 4 by 4 × 2 is 3 × 2, 24 MACs, 48 FLOPs; 3 × 4 by 2 × 4 does not exist") {
  const ExerciseInstance e = exercise(1, 0);
  CHECK(e.level == "easy");
  CHECK(answer(e, "first", "yes").correct);
  CHECK(answer(e, "rows", 3).correct);
  CHECK(answer(e, "cols", 2).correct);
  CHECK(answer(e, "macs", 24).correct);
  CHECK(answer(e, "flops", 48).correct);
  CHECK(answer(e, "flops", 24).mistake == "macs_for_flops");
  CHECK(answer(e, "second", "no").correct);
  CHECK_FALSE(answer(e, "second", "yes").correct);
}

TEST_CASE("exercise 2: A·B = [[19, 22], [43, 50]], B·A = [[23, 34], [31, 46]], 8 MACs each") {
  const ExerciseInstance e = exercise(2, 0);
  PartAnswer ab;
  ab.matrix = std::vector<std::vector<double>>{{19, 22}, {43, 50}};
  CHECK(check_part(part(e, "ab"), ab).correct);
  PartAnswer ba;
  ba.matrix = std::vector<std::vector<double>>{{23, 34}, {31, 46}};
  CHECK(check_part(part(e, "ba"), ba).correct);
  CHECK_FALSE(check_part(part(e, "ba"), ab).correct);  // the order matters
  CHECK(answer(e, "macs", 8).correct);
  CHECK(answer(e, "macs", 16).mistake == "flops_for_macs");
}

TEST_CASE("exercise 3: 12,845,056 FLOPs and 0.2 µs on a T4") {
  const ExerciseInstance e = exercise(3, 0);
  CHECK(answer(e, "macs", 6422528).correct);
  CHECK(answer(e, "flops", 12845056).correct);
  CHECK(answer(e, "flops", 12.8e6).correct);  // the lesson's rounding
  CHECK(answer(e, "flops", 6422528).mistake == "macs_for_flops");
  CHECK(answer(e, "seconds", 0.2e-6).correct);
  CHECK(answer(e, "seconds", 12845056 / 8.1e12).mistake == "other_precision");  // FP32's 8.1 TFLOPS
  CHECK(!answer(e, "seconds", 2e-6).correct);
}

TEST_CASE("exercise 4: 0.2 ms, 5,000 images per second, 18 %") {
  const ExerciseInstance e = exercise(4, 0);
  CHECK(answer(e, "seconds", 0.2e-3).correct);
  CHECK(answer(e, "ceiling", 5000).correct);
  CHECK(answer(e, "utilization", 0.18).correct);
  CHECK_FALSE(answer(e, "utilization", 0.25).correct);
}

TEST_CASE("exercise 5: 341 FLOPs/byte, compute-bound on a T4, memory-bound on an L4") {
  const ExerciseInstance e = exercise(5, 0);
  CHECK(answer(e, "flops", 2.15e9).correct);
  CHECK(answer(e, "bytes", 6.3e6).correct);
  CHECK(answer(e, "bytes", 6e6).mistake == "gib_for_gb");  // 6 MiB written as 6 MB
  CHECK(answer(e, "intensity", 341).correct);
  CHECK(answer(e, "gpu1", "compute").correct);
  CHECK(answer(e, "gpu2", "memory").correct);
}

TEST_CASE("exercise 6: 127, 209 and 47 tokens per second") {
  const ExerciseInstance e = exercise(6, 0);
  CHECK(answer(e, "gpu1", 127).correct);
  CHECK(answer(e, "gpu2", 209).correct);
  CHECK(answer(e, "gpu2", 210).correct);  // the lesson's own rounding elsewhere
  CHECK(answer(e, "big", 47).correct);
  CHECK(answer(e, "gpu1", 2039 / (16.06e9 / 1073741824.0)).mistake == "gib_for_gb");
}

TEST_CASE("exercise 6, new numbers: INT4 weights without the kept BF16 share are a known mistake") {
  bool seen = false;
  for (std::uint64_t seed = 1; seed < 400 && !seen; ++seed) {
    const ExerciseInstance e = exercise(6, seed);
    for (const ExercisePart& p : e.parts) {
      for (const Mistake& m : p.mistakes) {
        if (m.id != "no_kept_share") continue;
        seen = true;
        PartAnswer a;
        a.number = m.value;
        CHECK(check_part(p, a).mistake == "no_kept_share");
        CHECK_FALSE(check_part(p, a).correct);
      }
    }
  }
  CHECK(seen);
}

TEST_CASE("exercise 7: 226, and 204 is the 'intensity ≈ batch' mistake") {
  const ExerciseInstance e = exercise(7, 0);
  CHECK(answer(e, "batch", 226).correct);
  CHECK_FALSE(answer(e, "batch", 225).correct);
  CHECK(answer(e, "batch", 204).mistake == "intensity_is_batch");
}

TEST_CASE("exercise 8: 13 %, and no: 82 TFLOPS > 65") {
  const ExerciseInstance e = exercise(8, 0);
  CHECK(answer(e, "utilization", 0.13).correct);
  CHECK(answer(e, "utilization", 0.25).mistake == "other_precision");  // divided by the FP16 peak
  CHECK(answer(e, "required", 82e12).correct);
  CHECK(answer(e, "believe", "no").correct);
}

TEST_CASE("exercise 9: 167, 54 and a batch of 4") {
  const ExerciseInstance e = exercise(9, 0);
  CHECK(answer(e, "whole", 167).correct);
  CHECK(answer(e, "stage", 54).correct);
  CHECK(answer(e, "batch", 4).correct);
  CHECK(answer(e, "why", "activations").correct);
  CHECK(answer(e, "whole", 83.4).mistake == "macs_for_flops");
}

TEST_CASE("exercise 10: 10.5 ms, 14.7 ms, 2,700 tokens/s, 591 and 71 ms") {
  const ExerciseInstance e = exercise(10, 0);
  CHECK(answer(e, "aloneStep", 10.5e-3).correct);
  CHECK(answer(e, "busyStep", 14.7e-3).correct);
  CHECK(answer(e, "busyTokens", 2700).correct);
  CHECK(answer(e, "prefillFlops", 2.8e14).correct);
  CHECK(answer(e, "intensity", 4000).correct);
  CHECK(answer(e, "ridge", 591).correct);
  CHECK(answer(e, "prefillSeconds", 71e-3).correct);
  CHECK(answer(e, "prefillSeconds", 142.6e-3).mistake == "other_precision");
}

TEST_CASE("exercise 11: Llama 3 8B drafted by Llama 3.2 1B on an L4 at α 0.8, γ 2: 2.44 tokens, 70 ms, 1.87×") {
  const ExerciseInstance e = exercise(11, 0);
  CHECK(e.level == "challenge");
  // (1 − 0.8³) ÷ (1 − 0.8) = 0.488 ÷ 0.2, the bonus token included
  CHECK(*part(e, "expectedTokens").expected == Approx(2.44));
  CHECK(answer(e, "expectedTokens", 2.44).correct);
  // capped at γ: min(2, 1 ÷ 0.2) = 2.00; the accepted draft tokens alone: 1.44
  CHECK(answer(e, "expectedTokens", 2.00).mistake == "capped_gamma");
  CHECK(answer(e, "expectedTokens", 1.44).mistake == "no_bonus_token");
  CHECK(answer(e, "expectedTokens", 3.0).mistake.empty());
  // 2 draft steps of 2.47 GB and one read of 16.06 GB, at 300 GB/s
  const double draft = 2471628800.0 / 300e9, target = 16.06e9 / 300e9;
  CHECK(*part(e, "cycleSeconds").expected == Approx(2 * draft + target));
  CHECK(answer(e, "cycleSeconds", 70.0e-3).correct);
  CHECK(answer(e, "cycleSeconds", draft + target).mistake == "one_draft_step");
  CHECK(*part(e, "speedup").expected == Approx(2.44 * target / (2 * draft + target)));
  CHECK(answer(e, "speedup", 1.87).correct);
  CHECK(answer(e, "speedup", 2.44).mistake == "draft_free");
}

TEST_CASE("exercise 12: Llama 3.1 70B at TP 8 on H100 SXM: 160 all-reduces, 1.29 ms beside 5.19 ms of reads") {
  const ExerciseInstance e = exercise(12, 0);
  CHECK(e.level == "challenge");
  CHECK(*part(e, "allReduces").expected == 160);
  CHECK(answer(e, "allReduces", 160).correct);
  CHECK(answer(e, "allReduces", 80).mistake == "one_per_layer");
  // 160 × (8 µs + 2 × 7/8 × 16,384 B ÷ 450 GB/s)
  const double comm = 160 * (8e-6 + 2.0 * 7 / 8 * 16384 / 450e9);
  CHECK(*part(e, "communicationSeconds").expected == Approx(comm));
  CHECK(answer(e, "communicationSeconds", 1.29e-3).correct);
  // without the latency: 160 × 28,672 B ÷ 450 GB/s ≈ 10.2 µs
  CHECK(answer(e, "communicationSeconds", 10.2e-6).mistake == "bandwidth_only");
  // at batch 1 the latency alone (1.28 ms) is within the rounding: no mistake, but right
  CHECK(answer(e, "communicationSeconds", 1.28e-3).correct);
  // 1/8 of the weights but the input table's unread rows, at 3.35 TB/s
  const double reads = (70.553706496e9 - 128256.0 * 8192) * 2 / 8 / 3.35e12;
  CHECK(*part(e, "weightSeconds").expected == Approx(reads).epsilon(0.001));
  CHECK(answer(e, "weightSeconds", 5.2e-3).correct);
  CHECK(answer(e, "weightSeconds", 41.5e-3).mistake == "not_split");
  CHECK(*part(e, "tokensPerSecond").expected == Approx(1 / (reads + comm)).epsilon(0.001));
  CHECK(answer(e, "tokensPerSecond", 154).correct);
  CHECK(answer(e, "tokensPerSecond", 193).mistake == "no_communication");
}

TEST_CASE("exercises 11 and 12 over many seeds: every draw is finite, the models fit, and the links are counted") {
  std::set<double> alphas, gammas, gpus_n, batches;
  std::set<std::string> gpus12, targets;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    INFO("seed " << seed);
    for (int id : {11, 12}) {
      const ExerciseInstance e = exercise(id, seed);
      for (const ExercisePart& p : e.parts) {
        REQUIRE(p.expected.has_value());
        CHECK(std::isfinite(*p.expected));
        CHECK(*p.expected > 0);
        for (const Mistake& m : p.mistakes) CHECK(std::isfinite(m.value));
      }
      for (const CaseValue& v : e.solution) CHECK(std::isfinite(v.number));
    }
    const ExerciseInstance s = exercise(11, seed);
    const auto input = [](const ExerciseInstance& e, const char* name) -> const CaseValue& {
      for (const CaseValue& v : e.inputs) {
        if (v.name == name) return v;
      }
      FAIL("no input " << name);
      throw;
    };
    alphas.insert(input(s, "acceptance").number);
    gammas.insert(input(s, "gamma").number);
    targets.insert(input(s, "target").id);
    // both models fit on the one GPU
    CHECK(input(s, "targetBytes").number + input(s, "draftBytes").number <
          usable_memory(find_gpu(input(s, "gpu").id)).value());
    // the speed-up never beats the tokens per verification
    CHECK(*part(s, "speedup").expected <= *part(s, "expectedTokens").expected + 1e-12);
    const ExerciseInstance t = exercise(12, seed);
    gpus_n.insert(input(t, "gpus").number);
    batches.insert(input(t, "batch").number);
    gpus12.insert(input(t, "gpu").id);
    CHECK(input(t, "link").id == *find_gpu(input(t, "gpu").id).link);
    CHECK(*part(t, "allReduces").expected == 160);
    // the weights fit on the GPUs
    CHECK(input(t, "weightBytes").number / input(t, "gpus").number <
          usable_memory(find_gpu(input(t, "gpu").id)).value());
  }
  CHECK(alphas == std::set<double>{0.6, 0.7, 0.8, 0.9});
  CHECK(gammas == std::set<double>{2, 3, 4, 5});
  CHECK(targets.size() >= 3);
  CHECK(gpus_n == std::set<double>{2, 4, 8});
  CHECK(batches == std::set<double>{1, 8, 32});
  CHECK(gpus12.size() >= 3);
}

TEST_CASE("check questions: the lesson's numbers and choices") {
  CHECK(answer(question(1), "formula", "nmk").correct);
  CHECK(answer(question(2), "which", "work_speed").correct);
  CHECK(answer(question(2), "seconds", 0.126e-3).correct);
  CHECK(answer(question(3), "against", "ridge").correct);
  CHECK(answer(question(4), "bound", "memory").correct);
  CHECK(answer(question(4), "tokens", 19).correct);
  CHECK(answer(question(5), "why", "weights_once").correct);
  CHECK(answer(question(6), "why", "peak_is_ideal").correct);
  CHECK(answer(question(7), "faster", "no").correct);
  CHECK_THROWS_AS(question(8), Error);
  CHECK_THROWS_AS(exercise(13, 0), Error);
  CHECK_THROWS_AS(exercise(0, 0), Error);
}

TEST_CASE("new numbers: the same seed gives the same exercise, and every drawn exercise checks its own answers") {
  for (int id = 1; id <= exercise_count; ++id) {
    std::set<std::string> differ;
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      INFO("exercise " << id << " seed " << seed);
      const ExerciseInstance a = exercise(id, seed), b = exercise(id, seed);
      REQUIRE(a.parts.size() == b.parts.size());
      for (std::size_t i = 0; i < a.parts.size(); ++i) {
        const ExercisePart& p = a.parts[i];
        CHECK(p.expected == b.parts[i].expected);
        PartAnswer right;
        if (p.kind == "choice") right.choice = p.expected_choice;
        else if (p.kind == "matrix") right.matrix = p.expected_matrix.to_rows();
        else right.number = *p.expected;
        CHECK(check_part(p, right).correct);
        // no mistake can be mistaken for the right answer
        for (const Mistake& m : p.mistakes) {
          PartAnswer wrong;
          wrong.number = m.value;
          CHECK_FALSE(check_part(p, wrong).correct);
        }
      }
      const ExerciseInstance lesson = exercise(id, 0);
      for (std::size_t i = 0; i < a.inputs.size(); ++i) {
        if (a.inputs[i].number != lesson.inputs[i].number || a.inputs[i].id != lesson.inputs[i].id)
          differ.insert(std::string(a.inputs[i].name));
      }
    }
    CHECK(!differ.empty());  // new numbers really are new
  }
}

TEST_CASE("API: checkExercise says correct, partial or incorrect, with the mistake's id") {
  auto check = [](int id, Value answers) {
    return api::call("checkExercise", Value::object().set("id", double(id)).set("answers", std::move(answers)));
  };
  CHECK(check(7, Value::object().set("batch", 226.0)).get("state").string() == "correct");
  const Value wrong = check(7, Value::object().set("batch", 204.0));
  CHECK(wrong.get("state").string() == "incorrect");
  CHECK(wrong.get("parts").items()[0].get("mistake").string() == "intensity_is_batch");
  CHECK(check(8, Value::object().set("utilization", 0.13).set("believe", "yes")).get("state").string() == "partial");
  CHECK(check(8, Value::object()).get("state").string() == "unanswered");
  const Value m =
      check(2, Value::object().set("ab", Value::array({Value::array({19.0, 22.0}), Value::array({43.0, 50.0})})));
  CHECK(m.get("parts").items()[0].get("correct").boolean());
  try {
    check(7, Value::object().set("batch", "lots"));
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::not_a_number);
    CHECK(e.field() == "answers.batch");
  }
}
