// The lesson's twelve exercises and seven check questions, answered by the core: each exercise is
// drawn from a seed (seed 0 is the lesson's own numbers; any other seed draws other sizes, GPUs
// and models from the catalog), its expected answers come from the same functions the
// calculators use, and a wrong answer is matched against the common mistakes of the lesson
// (MACs given for FLOPs, GB against GiB, another precision's peak, intensity ≈ batch, weights
// without the kept BF16 share, a speculative draft taken as free, an all-reduce without its
// latency), each computed from the same inputs.
//
//   const ExerciseInstance e = exercise(7, 0);
//   e.parts[0].expected;                               // 226
//   check_part(e.parts[0], PartAnswer::number(204));   // {correct: false, mistake: "intensity_is_batch"}
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/catalog.hpp"

namespace roofline {

/// A few values in place, without the heap: parts of an exercise are plain data, cheap to copy
/// (in WebAssembly, vectors of vectors in every part made most of the exercises' code).
template <class T, std::size_t N>
class Slots {
 public:
  Slots() = default;
  Slots(std::initializer_list<T> items) {
    for (const T& x : items) push_back(x);
  }
  void push_back(const T& x) {
    if (n_ < N) items_[n_++] = x;
  }
  [[nodiscard]] const T* begin() const { return items_; }
  [[nodiscard]] const T* end() const { return items_ + n_; }
  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] bool empty() const { return n_ == 0; }
  [[nodiscard]] const T& operator[](std::size_t i) const { return items_[i]; }

 private:
  T items_[N]{};
  std::size_t n_ = 0;
};

/// A small matrix answer (exercise 2's 2 × 2 products), rows of at most 4 numbers.
struct SmallMatrix {
  double cells[4][4]{};
  std::size_t rows = 0, cols = 0;

  static SmallMatrix from(const std::vector<std::vector<double>>& r) {
    SmallMatrix m;
    m.rows = r.size();
    m.cols = r.empty() ? 0 : r[0].size();
    for (std::size_t i = 0; i < m.rows && i < 4; ++i) {
      for (std::size_t j = 0; j < m.cols && j < 4; ++j) m.cells[i][j] = r[i][j];
    }
    return m;
  }
  [[nodiscard]] std::vector<std::vector<double>> to_rows() const {
    std::vector<std::vector<double>> r(rows, std::vector<double>(cols));
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::size_t j = 0; j < cols; ++j) r[i][j] = cells[i][j];
    }
    return r;
  }
};

/// A value a wrong answer may have come from, and its name (a hint id).
struct Mistake {
  /// "macs_for_flops", "flops_for_macs", "gib_for_gb", "other_precision", "intensity_is_batch",
  /// "no_kept_share"; speculative decoding: "capped_gamma", "no_bonus_token", "one_draft_step",
  /// "draft_free"; tensor parallelism: "one_per_layer", "bandwidth_only", "latency_only",
  /// "not_split", "no_communication"
  std::string_view id;
  double value;
};

/// One quantity an exercise asks for.
struct ExercisePart {
  std::string_view id;
  /// What it is, which sets the units the page offers: "count", "flops", "macs", "seconds",
  /// "bytes", "flopsPerByte", "flopsPerSecond", "opsPerSecond", "tokensPerSecond",
  /// "itemsPerSecond", "fraction", "tokens" (per verification), "ratio" (a speed-up), "choice",
  /// "matrix".
  std::string_view kind;
  std::optional<double> expected;      ///< numbers
  std::string_view expected_choice;    ///< choices
  Slots<std::string_view, 4> choices;  ///< the choice ids, in the order shown (the right one not always first)
  SmallMatrix expected_matrix;         ///< matrices
  double relative_tolerance = 0;       ///< accepted |answer − expected| ÷ expected (the lesson's rounding)
  double absolute_tolerance = 0;       ///< or this much, whichever is larger
  Slots<Mistake, 4> mistakes;
};

struct ExerciseInstance {
  int id = 0;
  std::string_view level;  ///< "easy", "medium", "challenge"
  std::uint64_t seed = 0;
  std::vector<CaseValue> inputs;  ///< what the statement names (numbers in base units, ids)
  std::vector<ExercisePart> parts;
  std::vector<CaseValue> solution;  ///< the step-by-step solution's numbers, by name
};

/// The number of exercises (12) and check questions (7).
inline constexpr int exercise_count = 12;
inline constexpr int question_count = 7;

/// Exercise `id` (1–12) drawn from `seed`; throws out_of_range for another id.
ExerciseInstance exercise(int id, std::uint64_t seed);
/// Check question `id` (1–7): the lesson's own numbers only.
ExerciseInstance question(int id);

/// A learner's answer to one part: a number (base units), a choice id or a matrix.
struct PartAnswer {
  std::optional<double> number;
  std::string choice;
  std::optional<std::vector<std::vector<double>>> matrix;
};

struct PartCheck {
  bool answered = false;
  bool correct = false;
  std::string_view mistake;  ///< the matching mistake's id, or empty
};

PartCheck check_part(const ExercisePart& part, const PartAnswer& answer);

}  // namespace roofline
