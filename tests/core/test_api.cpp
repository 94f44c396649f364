#include <catch2/catch.hpp>
#include <limits>
#include <map>
#include <set>

#include "api_cases.hpp"
#include "json_value.hpp"
#include "roofline/api.hpp"
#include "roofline/error.hpp"

using namespace roofline;
using api::Value;
using testing::valid_args;

namespace {

// "function.field" names of the arguments that may be left out, from the API table.
std::set<std::string> optional_fields() {
  std::set<std::string> out;
  const Value functions = api::call("functions", Value::object());
  for (const Value& f : functions.items()) {
    for (const Value& a : f.get("args").items()) {
      if (a.get("optional").boolean()) out.insert(f.get("name").string() + "." + a.get("name").string());
    }
  }
  return out;
}

bool all_finite(const Value& v) {
  if (v.is(Value::Kind::number) && !std::isfinite(v.number())) return false;
  for (const Value& x : v.items()) {
    if (!all_finite(x)) return false;
  }
  return true;
}

Value with(const Value& args, const std::string& key, const Value* replacement) {
  Value out = Value::object();
  for (std::size_t i = 0; i < args.keys().size(); ++i) {
    if (args.keys()[i] == key) {
      if (replacement) out.set(key, *replacement);
    } else {
      out.set(args.keys()[i], args.items()[i]);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("every API function has a valid-argument case, and every case names a function") {
  std::set<std::string> names;
  for (const auto& n : api::function_names()) names.insert(n);
  std::set<std::string> cases;
  const nlohmann::json all = valid_args();
  for (const auto& [k, v] : all.items()) cases.insert(k);
  CHECK(names == cases);
}

TEST_CASE("every API function succeeds on its valid arguments with finite results") {
  const nlohmann::json all = valid_args();
  for (const auto& [name, args] : all.items()) {
    INFO(name);
    const Value r = api::call(name, testing::to_value(args));
    CHECK(all_finite(r));
  }
}

TEST_CASE("API: matmul returns the lesson's calculator numbers by field name") {
  const Value r = api::call("matmul", testing::to_value(valid_args()["matmul"]));
  CHECK(r.get("outputElements").number() == 16000);
  CHECK(r.get("macs").number() == 32768000);
  CHECK(r.get("flops").number() == 65536000);
  CHECK(r.get("bytes").number() == 2211072);
}

TEST_CASE("API: every numeric field, corrupted in every way, gives an error naming that field") {
  const double qnan = std::numeric_limits<double>::quiet_NaN();
  const double pinf = std::numeric_limits<double>::infinity();
  struct Corruption {
    const char* what;
    std::optional<Value> value;  // nullopt: field removed
    std::set<ErrorCode> codes;   // empty: success is allowed too
  };
  const std::vector<Corruption> corruptions = {
      {"missing", std::nullopt, {ErrorCode::missing_field}},
      {"text", Value("abc"), {ErrorCode::not_a_number}},
      {"empty text", Value(""), {ErrorCode::not_a_number}},
      {"null", Value(), {ErrorCode::not_a_number}},
      {"boolean", Value(true), {ErrorCode::not_a_number}},
      {"object", Value::object(), {ErrorCode::not_a_number}},
      {"NaN", Value(qnan), {ErrorCode::not_finite}},
      {"+Infinity", Value(pinf), {ErrorCode::not_finite}},
      {"-Infinity", Value(-pinf), {ErrorCode::not_finite}},
      {"negative", Value(-1.0), {ErrorCode::negative, ErrorCode::not_positive}},
      {"zero", Value(0.0), {}},
      {"fraction", Value(0.5), {}},
      {"huge", Value(1e300), {}},
  };
  const std::set<std::string> optional = optional_fields();
  const nlohmann::json all = valid_args();
  for (const auto& [name, args_json] : all.items()) {
    const Value args = testing::to_value(args_json);
    for (std::size_t i = 0; i < args.keys().size(); ++i) {
      const std::string& field = args.keys()[i];
      if (!args.items()[i].is(Value::Kind::number)) continue;
      for (const Corruption& c : corruptions) {
        INFO(name << "." << field << " = " << c.what);
        const Value bad = with(args, field, c.value ? &*c.value : nullptr);
        try {
          const Value r = api::call(name, bad);
          const bool optional_field = optional.count(name + "." + field) == 1;
          CHECK((c.codes.empty() || (c.what == std::string("missing") && optional_field)));
          CHECK(all_finite(r));
        } catch (const Error& e) {
          if (!c.codes.empty()) {
            CHECK(c.codes.count(e.code()) == 1);
            CHECK(e.field() == field);
          } else if (e.code() != ErrorCode::too_large && e.code() != ErrorCode::out_of_range) {
            CHECK(e.field() == field);
          }
          CHECK(std::string(e.what()).find(e.field()) != std::string::npos);
        }
      }
    }
  }
}

TEST_CASE("API: string fields reject numbers, unknown names and absence") {
  // the error code for a bad id follows the argument's kind in the API table
  std::map<std::string, ErrorCode> expected_for;
  const Value functions = api::call("functions", Value::object());
  const std::map<std::string, ErrorCode> by_kind = {
      {"gpu", ErrorCode::unknown_gpu},           {"model", ErrorCode::unknown_model},
      {"modelRef", ErrorCode::unknown_model},    {"config", ErrorCode::invalid_config},
      {"phase", ErrorCode::out_of_range},        {"format", ErrorCode::unknown_format},
      {"case", ErrorCode::unknown_case},         {"dtype", ErrorCode::unknown_dtype},
      {"function", ErrorCode::unknown_function}, {"stage", ErrorCode::out_of_range},
      {"link", ErrorCode::unknown_link},         {"draftRef", ErrorCode::unknown_model}};
  for (const Value& f : functions.items()) {
    for (const Value& a : f.get("args").items()) {
      const auto it = by_kind.find(a.get("kind").string());
      if (it != by_kind.end()) expected_for[f.get("name").string() + "." + a.get("name").string()] = it->second;
    }
  }
  const nlohmann::json all = valid_args();
  for (const auto& [name, args_json] : all.items()) {
    const Value args = testing::to_value(args_json);
    for (std::size_t i = 0; i < args.keys().size(); ++i) {
      const std::string& field = args.keys()[i];
      if (!args.items()[i].is(Value::Kind::string)) continue;
      REQUIRE(expected_for.count(name + "." + field) == 1);
      const ErrorCode expected = expected_for.at(name + "." + field);
      for (const Value& v : {Value(5.0), Value("nope"), Value(), Value("FP16")}) {
        INFO(name << "." << field);
        try {
          api::call(name, with(args, field, &v));
          FAIL("accepted a bad " << field);
        } catch (const Error& e) {
          CHECK(e.code() == expected);
          CHECK(e.field() == field);
        }
      }
    }
  }
}

TEST_CASE("API: multiply refuses non-lists, ragged rows, text cells and mismatched shapes") {
  const Value good = testing::to_value(valid_args()["multiply"]);
  auto code_for = [&](const char* field, const Value& v) {
    try {
      api::call("multiply", with(good, field, &v));
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::unknown_function;
  };
  CHECK(code_for("a", Value(3.0)) == ErrorCode::ragged_matrix);
  CHECK(code_for("a", Value::array()) == ErrorCode::ragged_matrix);
  CHECK(code_for("a", Value::array({Value::array({1.0, 2.0}), Value::array({1.0})})) == ErrorCode::ragged_matrix);
  CHECK(code_for("a", Value::array({Value::array({Value("x"), 2.0, 3.0})})) == ErrorCode::not_a_number);
  CHECK(code_for("b", Value::array({Value::array({1.0, 2.0})})) == ErrorCode::shape_mismatch);
}

TEST_CASE("API: an unknown function or a non-object argument is a clear error") {
  try {
    api::call("flopz", Value::object());
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::unknown_function);
  }
  try {
    api::call("matmul", Value(3.0));
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::missing_field);
  }
  try {
    api::call("matmul", Value());
    FAIL();
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::missing_field);
    CHECK(e.field() == "n");
  }
}

TEST_CASE("API: catalog listings carry units in their names and omit absent peaks") {
  const Value gpus = api::call("gpus", Value::object());
  REQUIRE(gpus.items().size() > 6);
  const Value& t4 = gpus.items().front();
  CHECK(t4.get("lesson").boolean());
  CHECK(t4.get("kind").string() == "datacenter-gpu");
  CHECK(t4.get("id").string() == "t4");
  CHECK(t4.get("bytesPerSecond").number() == 320e9);
  CHECK(t4.get("peakFlopsPerSecond").find("fp8") == nullptr);
  CHECK(t4.get("peakFlopsPerSecond").get("fp16").number() == 65e12);
  CHECK(api::call("gpu", Value::object().set("id", "h200")).find("pricePerHourUsd") == nullptr);
}

TEST_CASE("API: every bad argument is reported at once, the first as the error's code and field") {
  const Value args = Value::object().set("n", -1.0).set("k", "x").set("m", 2.5).set("dtype", "fp12");
  try {
    api::call("matmul", args);
    FAIL("accepted");
  } catch (const Error& e) {
    const std::vector<ErrorItem> all = e.errors();
    REQUIRE(all.size() == 4);
    CHECK(all[0].field == "n");
    CHECK(all[0].code == ErrorCode::not_positive);
    CHECK(all[1].field == "k");
    CHECK(all[1].code == ErrorCode::not_a_number);
    CHECK(all[2].field == "m");
    CHECK(all[2].code == ErrorCode::not_integer);
    CHECK(all[3].field == "dtype");
    CHECK(all[3].code == ErrorCode::unknown_dtype);
    CHECK(e.code() == ErrorCode::not_positive);
    CHECK(e.field() == "n");
  }
  // one bad argument: a list of one
  try {
    api::call("decode",
              Value::object().set("weightBytes", 1e9).set("kvBytesPerSequence", 0.0).set("bytesPerSecond", 3e11));
    FAIL("accepted");
  } catch (const Error& e) {
    REQUIRE(e.errors().size() == 1);
    CHECK(e.errors()[0].field == "batch");
    CHECK(e.errors()[0].code == ErrorCode::missing_field);
  }
}

TEST_CASE("API: precisionLadder is quantizedWeights and decode for each precision, in one call") {
  // the quant calculator's defaults: Llama 3 8B's parameters and kept share, an L4's bandwidth
  const Value llama = api::call("model", Value::object().set("id", "llama3-8b"));
  const double params = llama.get("params").number(), kept = llama.get("keptParams").number(), bw = 300e9;
  const Value ladder = api::call(
      "precisionLadder",
      Value::object().set("params", params).set("bytesPerSecond", bw).set("keptParams", kept).set("groupSize", 64));
  REQUIRE(ladder.items().size() == 3);
  const char* dtypes[] = {"bf16", "int8", "int4"};
  for (std::size_t i = 0; i < 3; ++i) {
    const Value& rung = ladder.items()[i];
    INFO(dtypes[i]);
    CHECK(rung.get("dtype").string() == dtypes[i]);
    Value q_args = Value::object().set("params", params).set("dtype", dtypes[i]);
    if (i == 2) q_args.set("groupSize", 64).set("keptParams", kept);
    const Value q = api::call("quantizedWeights", q_args);
    for (const char* k : {"bytes", "quantizedBytes", "scaleBytes", "keptBytes", "bitsPerWeight"}) {
      CHECK(rung.get(k).number() == q.get(k).number());
    }
    CHECK(rung.get("bytesReadPerStep").number() == q.get("bytes").number());
    const Value d = api::call("decode", Value::object()
                                            .set("weightBytes", q.get("bytes").number())
                                            .set("kvBytesPerSequence", 0)
                                            .set("batch", 1)
                                            .set("bytesPerSecond", bw));
    CHECK(rung.get("tokensPerSecond").number() == d.get("tokensPerSecond").number());
  }
  // BF16 reads twice INT8's bytes: half the ceiling
  CHECK(ladder.items()[0].get("tokensPerSecond").number() * 2 ==
        Approx(ladder.items()[1].get("tokensPerSecond").number()));
}

TEST_CASE("API: precisionLadder with an MoE model reads its active experts, never more than a rung holds") {
  const Value mixtral = api::call("model", Value::object().set("id", "mixtral-8x7b"));
  const double params = mixtral.get("params").number();
  const Value int4 = api::call("modelWeights", Value::object().set("model", "mixtral-8x7b").set("format", "int4"));
  const Value ladder = api::call("precisionLadder", Value::object()
                                                        .set("params", params)
                                                        .set("bytesPerSecond", 1e12)
                                                        .set("keptParams", int4.get("keptParams").number())
                                                        .set("model", "mixtral-8x7b"));
  for (const Value& rung : ladder.items()) {
    INFO(rung.get("dtype").string());
    CHECK(rung.get("bytesReadPerStep").number() < rung.get("bytes").number() * 0.5);  // 2 of 8 experts
    CHECK(rung.get("tokensPerSecond").number() == Approx(1e12 / rung.get("bytesReadPerStep").number()));
    const Value w = api::call(
        "modelWeights",
        Value::object().set("model", "mixtral-8x7b").set("format", rung.get("dtype").string()).set("batch", 1));
    CHECK(rung.get("bytesReadPerStep").number() ==
          std::min(w.get("bytesReadPerStep").number(), rung.get("bytes").number()));
  }
  // another group than the format's: the INT4 rung is not the model's own, and reads all it holds
  const Value other = api::call("precisionLadder", Value::object()
                                                       .set("params", params)
                                                       .set("bytesPerSecond", 1e12)
                                                       .set("groupSize", 32)
                                                       .set("model", "mixtral-8x7b"));
  CHECK(other.items()[2].get("bytesReadPerStep").number() == other.items()[2].get("bytes").number());
  CHECK(other.items()[1].get("bytesReadPerStep").number() < other.items()[1].get("bytes").number());
}

TEST_CASE("API: one rule for what a GPU may hold: caseArgs' memoryBytesPerGpu is rl.gpu's usableMemoryBytes") {
  int shared = 0;
  const Value gpus = api::call("gpus", Value::object());
  for (const Value& g : gpus.items()) {
    INFO(g.get("id").string());
    if (!g.get("peakFlopsPerSecond").find("fp16")) continue;  // the case computes in FP16 below
    const Value args = api::call(
        "caseArgs", Value::object()
                        .set("id", "llama-l4-decode")
                        .set("function", "decode")
                        .set("values", Value::object().set("gpu", g.get("id").string()).set("format", "fp16")));
    CHECK(args.get("memoryBytesPerGpu").number() == g.get("usableMemoryBytes").number());
    if (g.find("gpuMemoryShare")) {
      ++shared;
      CHECK(g.get("usableMemoryBytes").number() < g.get("memoryBytes").number());
    }
  }
  CHECK(shared >= 3);  // the unified-memory devices (Apple M2 Ultra, M3 Max, M4 Max) give their GPU a share
}
