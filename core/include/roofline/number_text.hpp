// Numbers as text, for messages and JSON: the shortest decimal that reads back as the same double,
// in JavaScript's layout ("2.5", "1.5e-7", "1e+21"). The lowest layer of the core: includes
// nothing of it.
#pragma once

#include <string>

namespace roofline {

/// Shortest text that reads back as the same double ("2.5", "1e+400" never occurs: inputs are
/// checked for finiteness first).
std::string format_number(double value);
/// Four significant digits, for derived values quoted in messages ("401.9").
std::string format_rounded(double value);

}  // namespace roofline
