// The valid argument object of every API function (tests/api/valid_args.json), for the tests
// that corrupt or extend them.
#pragma once

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

namespace roofline::testing {

inline nlohmann::json valid_args() {
  std::ifstream in(ROOFLINE_API_CASES);
  REQUIRE(in.good());
  nlohmann::json j = nlohmann::json::parse(in);
  j.erase("_comment");
  return j;
}

}  // namespace roofline::testing
