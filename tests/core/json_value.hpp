// Converts nlohmann::json to the core API's Value (tests only).
#pragma once

#include <nlohmann/json.hpp>

#include "roofline/api.hpp"

namespace roofline::testing {

inline api::Value to_value(const nlohmann::json& j) {
  using api::Value;
  switch (j.type()) {
    case nlohmann::json::value_t::null: return Value{};
    case nlohmann::json::value_t::boolean: return Value(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return Value(j.get<double>());
    case nlohmann::json::value_t::string: return Value(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      Value v = Value::array();
      for (const auto& x : j) v.push(to_value(x));
      return v;
    }
    case nlohmann::json::value_t::object: {
      Value v = Value::object();
      for (const auto& [k, x] : j.items()) v.set(k, to_value(x));
      return v;
    }
    default: return Value{};
  }
}

}  // namespace roofline::testing
