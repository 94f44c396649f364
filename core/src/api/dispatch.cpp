// One call of the API: its arguments checked against the table, the function run, its result
// checked for finiteness; and the table itself, as rl.functions() lists it.
#include <cmath>
#include <new>
#include <optional>

#include "api_internal.hpp"

namespace roofline::api {

namespace detail {

namespace {

std::string_view kind_id(Kind k) {
  switch (k) {
    case Kind::count: return "count";
    case Kind::count_or_zero: return "countOrZero";
    case Kind::positive: return "positive";
    case Kind::non_negative: return "nonNegative";
    case Kind::fraction: return "fraction";
    case Kind::number: return "number";
    case Kind::dtype: return "dtype";
    case Kind::gpu: return "gpu";
    case Kind::model: return "model";
    case Kind::model_ref: return "modelRef";
    case Kind::config: return "config";
    case Kind::format: return "format";
    case Kind::stage: return "stage";
    case Kind::lesson_case: return "case";
    case Kind::function: return "function";
    case Kind::case_values: return "caseValues";
    case Kind::answers: return "answers";
    case Kind::matrix: return "matrix";
    case Kind::phase: return "phase";
    case Kind::flag: return "flag";
    case Kind::link: return "link";
    case Kind::draft_ref: return "draftRef";
  }
  return "?";
}

/// The TypeScript type of an argument of this kind (wasm/roofline.d.ts; its named types are declared
/// in wasm/roofline.d.ts.in).
std::string_view kind_type(Kind k) {
  switch (k) {
    case Kind::count:
    case Kind::count_or_zero:
    case Kind::positive:
    case Kind::non_negative:
    case Kind::fraction:
    case Kind::number: return "number";
    case Kind::dtype: return "Dtype";
    case Kind::gpu:
    case Kind::model:
    case Kind::format:
    case Kind::stage:
    case Kind::lesson_case:
    case Kind::link: return "string";
    case Kind::model_ref: return "ModelRef";
    case Kind::draft_ref: return "ModelRef | 'mtp'";
    case Kind::config: return "string | object";
    case Kind::function: return "FunctionName";
    case Kind::case_values: return "CaseValues";
    case Kind::answers: return "Answers";
    case Kind::matrix: return "number[][]";
    case Kind::phase: return "'decode' | 'prefill'";
    case Kind::flag: return "boolean";
  }
  return "?";
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

/// Calls each(name, type, absent, doc) for each member of a table's "/** doc */ name?: type; ..." list.
template <typename Each>
void for_each_field(std::string_view s, Each each) {
  while (!(s = trimmed(s)).empty()) {
    std::string_view doc;
    if (s.starts_with("/**")) {
      const std::size_t end = s.find("*/");
      doc = trimmed(s.substr(3, end == std::string_view::npos ? s.size() : end - 3));
      s.remove_prefix(end == std::string_view::npos ? s.size() : end + 2);
    }
    const std::size_t semi = s.find(';');
    const std::string_view decl = trimmed(s.substr(0, semi));
    s.remove_prefix(semi == std::string_view::npos ? s.size() : semi + 1);
    const std::size_t colon = decl.find(':');
    std::string_view name = trimmed(decl.substr(0, colon));
    const bool absent = name.ends_with('?');
    if (absent) name.remove_suffix(1);
    each(name, colon == std::string_view::npos ? std::string_view{} : trimmed(decl.substr(colon + 1)), absent, doc);
  }
}

}  // namespace

const std::vector<Function>& table() {
  // each domain's part after the one before (a copy of constant data, made once)
  static const std::vector<Function> all = [] {
    std::vector<Function> v;
    for (std::span<const Function> part :
         {catalog_functions(), step_functions(), lesson_functions(), basics_functions(), llm_functions(),
          serving_functions(), kernels_functions()}) {
      v.insert(v.end(), part.begin(), part.end());
    }
    return v;
  }();
  return all;
}

namespace {

/// An argument the function does not take is an error (a typo must not fall back to a default).
void reject_unknown(const Function& f, const Value& args) {
  for (const std::string& key : args.keys()) {
    bool known = false;
    for (const Arg& a : f.args()) known = known || a.name == key;
    if (known) continue;
    std::string takes;
    for (const Arg& a : f.args()) takes += (takes.empty() ? "" : ", ") + std::string(a.name);
    throw Error(ErrorCode::unknown_argument, key.substr(0, 40),
                std::string(f.name) + " takes no argument \"" + key.substr(0, 40) + "\"" +
                    (takes.empty() ? std::string("; it takes none") : "; it takes " + takes));
  }
}

// The last line of defence for "never NaN or Infinity": every number of every result.
void check_finite(const Value& v) {
  if (v.is(Value::Kind::number) && !std::isfinite(v.number())) require_result("result", v.number());
  if (v.kind() < Value::Kind::array) return;
  for (const Value& item : v.items()) check_finite(item);
}

/// Checks every argument against its kind before the function runs, so that all bad ones are
/// reported at once (RooflineError.errors): presence, type and the rule of each numeric kind, and
/// that each id names a catalog entry. Rules between arguments stay with the function.
void check_arguments(const Function& f, const Args& a) {
  std::vector<ErrorItem> found;
  for (const Arg& arg : f.args()) {
    try {
      if (!a.has(arg.name)) {
        if (!arg.optional) static_cast<void>(a.raw(arg.name));  // missing_field
        continue;
      }
      switch (arg.kind) {
        case Kind::count: require_count(arg.name, a.number(arg.name)); break;
        case Kind::count_or_zero: require_count_or_zero(arg.name, a.number(arg.name)); break;
        case Kind::positive: require_positive(arg.name, a.number(arg.name)); break;
        case Kind::non_negative: require_non_negative(arg.name, a.number(arg.name)); break;
        case Kind::fraction: require_fraction(arg.name, a.number(arg.name)); break;
        case Kind::number: static_cast<void>(a.number(arg.name)); break;
        case Kind::dtype: static_cast<void>(a.dtype(arg.name)); break;
        case Kind::gpu: static_cast<void>(gpu_arg(a, arg.name)); break;
        case Kind::model: static_cast<void>(model_arg(a, arg.name)); break;
        case Kind::model_ref: static_cast<void>(model_ref(a, arg.name)); break;
        case Kind::draft_ref:
          if (!(a.raw(arg.name).is(Value::Kind::string) && a.raw(arg.name).string() == "mtp")) {
            static_cast<void>(model_ref(a, arg.name));
          }
          break;
        case Kind::phase: static_cast<void>(phase_arg(a, arg.name)); break;
        case Kind::flag: static_cast<void>(flag_arg(a, arg.name)); break;
        case Kind::format: find_format(a.text(arg.name, ErrorCode::unknown_format, "a format id"), arg.name); break;
        case Kind::lesson_case:
          find_case(a.text(arg.name, ErrorCode::unknown_case, "a lesson case id"), arg.name);
          break;
        case Kind::link: find_link(a.text(arg.name, ErrorCode::unknown_link, "a link id"), arg.name); break;
        default: break;  // stages, case values, answers, matrices, configs: the function checks them
      }
    } catch (const Error& e) {
      for (const ErrorItem& item : e.errors()) found.push_back(item);
    }
  }
  if (found.size() == 1) throw Error(found.front().code, found.front().field, found.front().message);
  if (!found.empty()) throw Error(std::move(found));
}

/// Runs f. An error it throws is caught here and thrown again from this frame, as
/// check_arguments does: in WebKitGTK 2.50's wasm interpreter (IPInt), an error thrown by a
/// function's handler straight to the module's entry stopped the module on the next such throw
/// ("Out of bounds memory access"; tests/engines/suite.mjs, "errors one after another").
[[gnu::noinline]] Value run(const Function& f, const Args& a) {
  std::optional<Error> error;
  try {
    return f.run(a);
  } catch (const Error& e) {
    error.emplace(e);
  }
  throw *error;
}

}  // namespace

Value functions_value() {
  Value v = Value::array();
  for (const Function& f : table()) {
    Value args = Value::array();
    for (const Arg& a : f.args()) {
      args.push(Value::object()
                    .set("name", std::string(a.name))
                    .set("kind", std::string(kind_id(a.kind)))
                    .set("type", std::string(kind_type(a.kind)))
                    .set("unit", std::string(a.unit))
                    .set("optional", a.optional)
                    .set("default", a.fallback.empty() ? Value() : Value(a.fallback)));
    }
    Value result = Value::array();
    for_each_field(f.fields, [&](std::string_view name, std::string_view type, bool absent, std::string_view doc) {
      result.push(Value::object()
                      .set("name", std::string(name))
                      .set("type", std::string(type))
                      .set("optional", absent)
                      .set("doc", std::string(doc)));
    });
    v.push(Value::object()
               .set("name", std::string(f.name))
               .set("doc", std::string(f.doc))
               .set("args", std::move(args))
               .set("returns", f.list ? "list" : "object")
               .set("resultType", std::string(f.type))
               .set("result", std::move(result)));
  }
  return v;
}

}  // namespace detail

namespace {

Value call_function(const detail::Function& f, const Value& args) {
  const Value empty = Value::object();
  const Value& given = args.is(Value::Kind::null) ? empty : args;
  const detail::Args a(given);
  detail::reject_unknown(f, given);
  detail::check_arguments(f, a);
  Value result = detail::run(f, a);
  detail::check_finite(result);
  return result;
}

}  // namespace

Value call(std::string_view name, const Value& args) {
  for (const detail::Function& f : detail::table()) {
    if (name == f.name) return call_function(f, args);
  }
  throw Error(ErrorCode::unknown_function, "", "no API function named \"" + std::string(name.substr(0, 40)) + "\"");
}

Value call(std::size_t index, const Value& args) {
  const std::vector<detail::Function>& all = detail::table();
  if (index >= all.size()) {
    throw Error(ErrorCode::unknown_function, "", "no API function number " + std::to_string(index));
  }
  return call_function(all[index], args);
}

std::vector<std::string> function_names() {
  std::vector<std::string> names;
  for (const detail::Function& f : detail::table()) names.emplace_back(f.name);
  return names;
}

}  // namespace roofline::api
