// Writes the native core's raw result for every oracle check as JSON, numbers printed with 17
// significant digits, so the WebAssembly tests can demand agreement to the last bit.
// Usage: roofline_oracle_dump <oracle.json> <out.json>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "json_value.hpp"
#include "roofline/api.hpp"
#include "roofline/error.hpp"

namespace {

nlohmann::json to_json(const roofline::api::Value& v) {
  using K = roofline::api::Value::Kind;
  switch (v.kind()) {
    case K::null: return nullptr;
    case K::boolean: return v.boolean();
    case K::number: return v.number();
    case K::string: return v.string();
    case K::array: {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& x : v.items()) a.push_back(to_json(x));
      return a;
    }
    case K::object: {
      nlohmann::json o = nlohmann::json::object();
      for (std::size_t i = 0; i < v.keys().size(); ++i) o[v.keys()[i]] = to_json(v.items()[i]);
      return o;
    }
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: roofline_oracle_dump <oracle.json> <out.json>\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  const nlohmann::json oracle = nlohmann::json::parse(in);
  nlohmann::json out = nlohmann::json::object();
  for (const auto& check : oracle["checks"]) {
    try {
      out[check["id"].get<std::string>()] = {
          {"value",
           to_json(roofline::api::call(check["call"].get<std::string>(), roofline::testing::to_value(check["args"])))}};
    } catch (const roofline::Error& e) {
      out[check["id"].get<std::string>()] = {{"error", std::string(e.code_id())}};
    }
  }
  std::ofstream(argv[2]) << out.dump(1);  // nlohmann prints doubles so that they read back exactly
  return 0;
}
