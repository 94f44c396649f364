// The lesson audit: every worked number of the lesson (tests/lesson/oracle.json) reproduced by the
// core through the same API the WebAssembly module exposes.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

#include "json_value.hpp"
#include "roofline/api.hpp"
#include "roofline/error.hpp"

using namespace roofline;
using api::Value;

namespace {

nlohmann::json oracle() {
  std::ifstream in(ROOFLINE_ORACLE);
  REQUIRE(in.good());
  return nlohmann::json::parse(in);
}

// Follows a dotted path ("peakFlopsPerSecond.fp16", "c.0.1") into a result; nullptr if absent.
const Value* resolve(const Value& root, const std::string& path) {
  const Value* v = &root;
  std::stringstream parts(path);
  std::string part;
  while (std::getline(parts, part, '.')) {
    if (v->is(Value::Kind::array)) {
      const std::size_t i = std::stoul(part);
      if (i >= v->items().size()) return nullptr;
      v = &v->items()[i];
    } else {
      v = v->find(part);
      if (!v) return nullptr;
    }
  }
  return v;
}

const Value& select(const Value& list, const nlohmann::json& selector) {
  for (const Value& item : list.items()) {
    bool match = true;
    for (const auto& [k, want] : selector.items()) {
      const Value* got = item.find(k);
      match = match && got && got->is(Value::Kind::string) && got->string() == want.get<std::string>();
    }
    if (match) return item;
  }
  FAIL("no list item matches " << selector.dump());
  throw std::logic_error("unreachable");
}

void check_equal(const Value& got, const nlohmann::json& expected, const nlohmann::json& tolerance) {
  if (expected.is_array()) {
    REQUIRE(got.is(Value::Kind::array));
    REQUIRE(got.items().size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) check_equal(got.items()[i], expected[i], tolerance);
  } else if (expected.is_string()) {
    REQUIRE(got.is(Value::Kind::string));
    CHECK(got.string() == expected.get<std::string>());
  } else {
    REQUIRE(got.is(Value::Kind::number));
    const double want = expected.get<double>();
    const double x = got.number();
    if (tolerance.contains("abs")) {
      CHECK(std::fabs(x - want) <= tolerance["abs"].get<double>());
    } else {
      CHECK(std::fabs(x - want) <= tolerance.value("rel", 0.0) * std::fabs(want));
    }
    INFO("got " << format_number(x) << ", lesson says " << format_number(want));
  }
}

}  // namespace

TEST_CASE("lesson audit: every worked number of the lesson") {
  const nlohmann::json file = oracle();
  REQUIRE(file["checks"].size() > 400);
  for (const auto& check : file["checks"]) {
    const std::string id = check["id"].get<std::string>();
    INFO(id << " — " << check["source"].get<std::string>() << " — \"" << check["lesson_text"].get<std::string>()
            << "\"");
    const std::string call = check["call"].get<std::string>();
    const Value args = testing::to_value(check["args"]);
    if (check.contains("expected_error")) {
      try {
        api::call(call, args);
        FAIL("expected " << check["expected_error"]);
      } catch (const Error& e) {
        CHECK(std::string(e.code_id()) == check["expected_error"].get<std::string>());
      }
      continue;
    }
    const Value result = api::call(call, args);
    const Value& root = check.contains("select") ? select(result, check["select"]) : result;
    const Value* got = check["field"].is_null() ? &root : resolve(root, check["field"].get<std::string>());
    if (check.value("expected_absent", false)) {
      CHECK(got == nullptr);
      continue;
    }
    REQUIRE(got != nullptr);
    if (check.contains("expected_bool")) {
      REQUIRE(got->is(Value::Kind::boolean));
      CHECK(got->boolean() == check["expected_bool"].get<bool>());
      continue;
    }
    check_equal(*got, check["expected"], check["tolerance"]);
  }
}
