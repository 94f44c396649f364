// Building an exercise's or a check question's parts (exercises.cpp, questions.cpp): the answer
// each part expects, its tolerance, and the common mistakes it recognises. Private to core/src.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/exercises.hpp"
#include "roofline/llm.hpp"
#include "roofline/precision.hpp"

namespace roofline::exercise_parts {

/// The lesson rounds to two or three significant figures: 2.5 % accepts its rounded answers
/// (209 for 208.6, 0.2 µs for 0.198 µs, 2,700 for 2,722) and no common mistake (2×, 1.07×).
constexpr double lesson_rounding = 0.025;

inline CaseValue num(std::string_view name, double v) { return {std::string(name), v, {}}; }
inline CaseValue named_id(std::string_view name, std::string_view v) { return {std::string(name), 0, std::string(v)}; }

inline ExercisePart number(std::string_view part_id, std::string_view kind, double expected,
                           double rel = lesson_rounding) {
  ExercisePart p;
  p.id = part_id;
  p.kind = kind;
  p.expected = require_result(p.id, expected);
  p.relative_tolerance = rel;
  return p;
}

inline ExercisePart exact(std::string_view part_id, std::string_view kind, double expected) {
  return number(part_id, kind, expected, 0);
}

inline ExercisePart fraction(std::string_view part_id, double expected) {
  // percentages are rounded to whole points: "13 %" for 12.6 % is 3.3 % off
  ExercisePart p = number(part_id, "fraction", expected, 0.05);
  p.absolute_tolerance = 0.0005;  // and a twentieth of a point near zero
  return p;
}

inline ExercisePart choice(std::string_view part_id, std::string_view expected,
                           std::initializer_list<std::string_view> choices) {
  ExercisePart p;
  p.id = part_id;
  p.kind = "choice";
  p.expected_choice = expected;
  p.choices = Slots<std::string_view, 4>(choices);
  return p;
}

inline ExercisePart yes_no(std::string_view part_id, bool yes) {
  return choice(part_id, yes ? "yes" : "no", {"yes", "no"});
}

/// Adds a mistake a wrong answer may match, unless the part would take its value as right (a
/// mistake that lands within the rounding of the answer, as "capped at γ" may, is no mistake there).
inline ExercisePart& with(ExercisePart& p, std::string_view mistake, double value) {
  if (!std::isfinite(value) || value <= 0) return p;
  if (p.expected &&
      std::abs(value - *p.expected) <= std::max(p.relative_tolerance * std::abs(*p.expected), p.absolute_tolerance))
    return p;
  p.mistakes.push_back({mistake, value});
  return p;
}

/// A byte count read as the wrong prefix: the bytes divided by 2^20 (2^30) but written as
/// decimal megabytes (gigabytes), and the other way round.
inline void gib_mistakes(ExercisePart& p, double bytes) {
  with(p, "gib_for_gb", bytes / 1048576.0 * 1e6);
  with(p, "gib_for_gb", bytes / 1073741824.0 * 1e9);
}

inline std::string_view verdict(const Clocks& c) { return bound_id(c.bound); }

/// Tokens per second of one decode step that reads `bytes` on `gpu`, KV cache left out (the
/// lesson's first example).
inline double ceiling_tokens(Bytes bytes, const Gpu& gpu) {
  return decode({bytes, Bytes{0}, 1, gpu.bandwidth, 1}).tokens_per_second;
}

/// Exercises 11 and 12, the serving levers (exercises_serving.cpp).
ExerciseInstance speculative_exercise(std::uint64_t seed);
ExerciseInstance tensor_parallel_exercise(std::uint64_t seed);

}  // namespace roofline::exercise_parts
