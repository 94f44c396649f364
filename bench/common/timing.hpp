// Host-side repetition policy shared by the backends: warm-ups first (not recorded), then at
// least `min_reps` timed runs, more while the time budget lasts, at most `max_reps`.
#pragma once

#include <chrono>
#include <vector>

namespace rlk {

struct RepPolicy {
  int warmups = 2;
  int min_reps = 5;
  int max_reps = 50;
  double budget_seconds = 1.0;
};

/// Times `run()` with a steady clock; returns one duration in seconds per timed repetition.
template <class Run>
std::vector<double> time_host(const RepPolicy& policy, Run&& run) {
  using clock = std::chrono::steady_clock;
  for (int i = 0; i < policy.warmups; ++i) run();
  std::vector<double> seconds;
  const auto start = clock::now();
  while (int(seconds.size()) < policy.max_reps) {
    const auto t0 = clock::now();
    run();
    const auto t1 = clock::now();
    seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
    const double spent = std::chrono::duration<double>(t1 - start).count();
    if (int(seconds.size()) >= policy.min_reps && spent >= policy.budget_seconds) break;
  }
  return seconds;
}

/// The same, with `neighbour()` run right before and right after each timed `run()`, each timed
/// on its own (`before`, `after`: one duration per repetition) and outside `run()`'s interval.
/// Warm-ups run the same pattern. Only `run()`'s own time counts towards the budget, so the
/// neighbours do not take repetitions away from it.
template <class Run, class Neighbour>
std::vector<double> time_host_between(const RepPolicy& policy, Run&& run, Neighbour&& neighbour,
                                      std::vector<double>& before, std::vector<double>& after) {
  using clock = std::chrono::steady_clock;
  auto timed = [](auto&& f) {
    const auto t0 = clock::now();
    f();
    return std::chrono::duration<double>(clock::now() - t0).count();
  };
  for (int i = 0; i < policy.warmups; ++i) {
    neighbour();
    run();
    neighbour();
  }
  std::vector<double> seconds;
  before.clear();
  after.clear();
  double spent = 0;
  while (int(seconds.size()) < policy.max_reps) {
    before.push_back(timed(neighbour));
    seconds.push_back(timed(run));
    after.push_back(timed(neighbour));
    spent += seconds.back();
    if (int(seconds.size()) >= policy.min_reps && spent >= policy.budget_seconds) break;
  }
  return seconds;
}

}  // namespace rlk
