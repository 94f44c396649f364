#pragma once

#include <ostream>

#include "analysis.hpp"

namespace rlk::bench {

/// The human table: one line per kernel, then ceilings, knees and ratios.
void print_report(std::ostream& out, const Report& report);
/// JSON, schema "roofline-bench/1" (docs/benchmark.md).
void write_json(std::ostream& out, const Report& report);
/// CSV, one row per kernel, units in the column names.
void write_csv(std::ostream& out, const Report& report);

}  // namespace rlk::bench
