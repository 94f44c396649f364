#pragma once

#include <ostream>

#include "analysis.hpp"
#include "roofline/value.hpp"

namespace rlk::bench {

/// The human table: one line per kernel, then ceilings, knees and ratios.
void print_report(std::ostream& out, const Report& report);
/// The JSON report as the core's value (what write_json writes).
roofline::json::Value report_value(const Report& report);
/// JSON through the core's writer (roofline/json.hpp), schema "roofline-bench/1" (docs/benchmark.md).
void write_json(std::ostream& out, const Report& report);
/// CSV, one row per kernel, units in the column names.
void write_csv(std::ostream& out, const Report& report);

}  // namespace rlk::bench
