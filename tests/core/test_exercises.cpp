// The lesson's exercises and check questions: the core's expected answers are the lesson's
// published ones (within its rounding), each common mistake is recognized from its own value,
// and new numbers are reproducible from their seed.
#include <catch2/catch.hpp>
#include <set>

#include "roofline/api.hpp"
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
  CHECK_THROWS_AS(exercise(11, 0), Error);
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
