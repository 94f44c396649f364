// The subset of JSON Schema (2020-12) that bench/roofline-bench.schema.json uses, checked over an
// nlohmann::json document: type, const, enum, required, properties, additionalProperties (a schema
// or false), items, minItems, minLength, minimum, exclusiveMinimum, anyOf and $ref to "#/$defs/…".
// A keyword outside it is an error in the schema, not silently ignored. tests/node/bench-schema.test.mjs
// implements the same subset for the Node side.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace roofline::testing {

class JsonSchema {
 public:
  explicit JsonSchema(nlohmann::json schema) : root_(std::move(schema)) {}

  /// Every way `doc` breaks the schema, each "path: what" (path a JSON pointer, "" the root).
  [[nodiscard]] std::vector<std::string> errors(const nlohmann::json& doc) const {
    std::vector<std::string> out;
    check(root_, doc, "", out);
    return out;
  }

 private:
  using json = nlohmann::json;
  json root_;

  static bool has_type(const json& v, const std::string& t) {
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "boolean") return v.is_boolean();
    if (t == "null") return v.is_null();
    if (t == "number") return v.is_number() && std::isfinite(v.get<double>());
    if (t == "integer")
      return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>());
    throw std::runtime_error("schema: unknown type " + t);
  }

  const json& resolve(const std::string& ref) const {
    const std::string prefix = "#/$defs/";
    if (ref.rfind(prefix, 0) != 0 || !root_["$defs"].contains(ref.substr(prefix.size()))) {
      throw std::runtime_error("schema: unsupported $ref " + ref);
    }
    return root_["$defs"][ref.substr(prefix.size())];
  }

  void check(const json& s, const json& v, const std::string& at, std::vector<std::string>& out) const {
    static const std::set<std::string> known = {
        "$schema", "$id",      "title",     "description", "type",
        "const",   "enum",     "required",  "properties",  "additionalProperties",
        "items",   "minItems", "minLength", "minimum",     "exclusiveMinimum",
        "anyOf",   "$ref",     "$defs"};
    for (const auto& [key, value] : s.items()) {
      if (!known.count(key)) throw std::runtime_error("schema: unsupported keyword " + key);
    }
    const std::string where = at.empty() ? "(the report)" : at;
    if (s.contains("$ref")) check(resolve(s["$ref"]), v, at, out);
    if (s.contains("anyOf")) {
      bool any = false;
      for (const json& option : s["anyOf"]) {
        std::vector<std::string> mine;
        check(option, v, at, mine);
        any = any || mine.empty();
      }
      if (!any) out.push_back(where + ": matches none of its allowed shapes");
      return;
    }
    if (s.contains("type")) {
      bool ok = false;
      std::string names;
      for (const json& t : s["type"].is_array() ? s["type"] : json::array({s["type"]})) {
        ok = ok || has_type(v, t.get<std::string>());
        names += (names.empty() ? "" : " or ") + t.get<std::string>();
      }
      if (!ok) {
        out.push_back(where + ": must be " + names);
        return;
      }
    }
    if (s.contains("const") && v != s["const"]) out.push_back(where + ": must be " + s["const"].dump());
    if (s.contains("enum")) {
      bool in = false;
      for (const json& e : s["enum"]) in = in || v == e;
      if (!in) out.push_back(where + ": must be one of " + s["enum"].dump());
    }
    if (v.is_number()) {
      const double x = v.get<double>();
      if (s.contains("minimum") && !(x >= s["minimum"].get<double>())) {
        out.push_back(where + ": must be at least " + s["minimum"].dump());
      }
      if (s.contains("exclusiveMinimum") && !(x > s["exclusiveMinimum"].get<double>())) {
        out.push_back(where + ": must be more than " + s["exclusiveMinimum"].dump());
      }
    }
    if (v.is_string() && s.contains("minLength") && v.get<std::string>().size() < s["minLength"].get<std::size_t>()) {
      out.push_back(where + ": must have at least " + s["minLength"].dump() + " characters");
    }
    if (v.is_array()) {
      if (s.contains("minItems") && v.size() < s["minItems"].get<std::size_t>()) {
        out.push_back(where + ": must have at least " + s["minItems"].dump() + " items");
      }
      if (s.contains("items")) {
        for (std::size_t i = 0; i < v.size(); ++i) check(s["items"], v[i], at + "/" + std::to_string(i), out);
      }
    }
    if (v.is_object()) {
      if (s.contains("required")) {
        for (const json& r : s["required"]) {
          if (!v.contains(r.get<std::string>())) out.push_back(where + ": lacks " + r.get<std::string>());
        }
      }
      for (const auto& [key, value] : v.items()) {
        const std::string path = at + "/" + key;
        if (s.contains("properties") && s["properties"].contains(key)) {
          check(s["properties"][key], value, path, out);
        } else if (s.contains("additionalProperties")) {
          const json& extra = s["additionalProperties"];
          if (extra.is_boolean()) {
            if (!extra.get<bool>()) out.push_back(path + ": not a field of the schema");
          } else {
            check(extra, value, path, out);
          }
        }
      }
    }
  }
};

}  // namespace roofline::testing
