// Drawing an exercise's new numbers (exercises.cpp): a generator that depends only on the seed,
// and the pools it draws from. Private to core/src.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "roofline/catalog.hpp"

namespace roofline::exercise_draw {

/// SplitMix64: a small, fast generator whose sequence depends only on the seed (the same seed
/// gives the same exercise everywhere, natively and in WebAssembly).
class Draw {
 public:
  explicit Draw(std::uint64_t seed, int exercise) : state_(seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(exercise)) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[next() % items.size()];
  }
  template <class T>
  T pick(std::initializer_list<T> items) {
    return *(items.begin() + next() % items.size());
  }

  double integer(int lo, int hi) { return double(lo + int(next() % std::uint64_t(hi - lo + 1))); }

 private:
  std::uint64_t state_;
};

// "New numbers" draw from a fixed pool, the lesson's own entries (lesson_order > 0), so that a
// device or model file added to the catalog never changes an exercise a learner has saved.

/// The pool's GPUs with a dense peak at `d`.
inline std::vector<const Gpu*> gpus_with(Dtype d) {
  std::vector<const Gpu*> out;
  for (const Gpu& g : gpus()) {
    if (g.lesson_order > 0 && g.peak(d)) out.push_back(&g);
  }
  return out;
}

inline std::vector<const Model*> llms() {
  std::vector<const Model*> out;
  for (const Model& m : models()) {
    if (m.lesson_order > 0 && m.kind == "llm") out.push_back(&m);
  }
  return out;
}

}  // namespace roofline::exercise_draw
