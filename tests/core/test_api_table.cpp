// The API table (functions()) against what the functions do: every argument it lists is taken,
// every argument it does not list is refused, the rule it declares for a number is enforced, and
// every result has exactly the fields it declares, each a value of the TypeScript type it declares.
#include <catch2/catch.hpp>
#include <cctype>
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

std::map<std::string, Value> table() {
  std::map<std::string, Value> out;
  const Value functions = api::call("functions", Value::object());
  for (const Value& f : functions.items()) out[f.get("name").string()] = f;
  return out;
}

Value with(const Value& args, const std::string& key, const Value& v) {
  Value out = args;
  out.set(key, v);
  return out;
}

ErrorCode code_of(const std::string& name, const Value& args, std::string* field = nullptr) {
  try {
    api::call(name, args);
  } catch (const Error& e) {
    if (field) *field = e.field();
    return e.code();
  }
  FAIL("no error from " << name);
  return ErrorCode::internal_error;
}

}  // namespace

TEST_CASE("API table: lists every function once, in call order") {
  std::vector<std::string> listed;
  const Value functions = api::call("functions", Value::object());
  for (const Value& f : functions.items()) listed.push_back(f.get("name").string());
  CHECK(listed == api::function_names());
}

TEST_CASE("API table: every argument and result field has a TypeScript type, every result a type name") {
  const auto is_name = [](const std::string& s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s.front())) || s.front() == '_')) return false;
    for (char c : s) {
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    }
    return true;
  };
  const auto trimmed = [](const std::string& s) { return !s.empty() && s.front() != ' ' && s.back() != ' '; };
  const Value functions = api::call("functions", Value::object());
  for (const Value& f : functions.items()) {
    const std::string& name = f.get("name").string();
    INFO(name);
    CHECK(is_name(f.get("resultType").string()));
    CHECK(f.get("doc").is(Value::Kind::string));
    for (const Value& a : f.get("args").items()) {
      INFO(a.get("name").string());
      CHECK(trimmed(a.get("type").string()));
      // a default is documented only for an argument that may be left out
      if (!a.get("default").is(Value::Kind::null)) CHECK(a.get("optional").boolean());
    }
    std::set<std::string> fields;
    for (const Value& r : f.get("result").items()) {
      const std::string& field = r.get("name").string();
      INFO(field);
      CHECK((is_name(field) || (field == "*" && f.get("result").items().size() == 1)));
      CHECK(trimmed(r.get("type").string()));
      CHECK(fields.insert(field).second);  // not declared twice
    }
  }
}

TEST_CASE("API table: an argument a function does not take is unknown_argument naming it, on every function") {
  const nlohmann::json all = valid_args();
  for (const auto& [name, args_json] : all.items()) {
    INFO(name);
    const Value args = testing::to_value(args_json);
    std::string field;
    CHECK(code_of(name, with(args, "gpu_", Value(2.0)), &field) == ErrorCode::unknown_argument);
    CHECK(field == "gpu_");
  }
  // the typo of the issue: gpu for gpus
  std::string field;
  const Value typo = Value::object()
                         .set("weightBytes", 16.06e9)
                         .set("kvBytesPerSequence", 0.0)
                         .set("batch", 1.0)
                         .set("bytesPerSecond", 300e9)
                         .set("gpu", 2.0);
  CHECK(code_of("decode", typo, &field) == ErrorCode::unknown_argument);
  CHECK(field == "gpu");
  try {
    api::call("decode", typo);
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Catch::Contains("takes no argument \"gpu\"") && Catch::Contains("gpus"));
  }
}

TEST_CASE("API table: every valid call takes exactly the declared arguments and returns the declared fields") {
  const auto t = table();
  const nlohmann::json all = valid_args();
  for (const auto& [name, args_json] : all.items()) {
    INFO(name);
    REQUIRE(t.count(name) == 1);
    const Value& spec = t.at(name);
    const Value args = testing::to_value(args_json);
    std::set<std::string> declared_args;
    for (const Value& a : spec.get("args").items()) declared_args.insert(a.get("name").string());
    const std::set<std::string> given(args.keys().begin(), args.keys().end());
    CHECK(given == declared_args);  // the valid case exercises every argument

    std::set<std::string> required, optional;
    std::map<std::string, std::string> types;
    for (const Value& r : spec.get("result").items()) {
      const std::string& f = r.get("name").string();
      (r.get("optional").boolean() ? optional : required).insert(f);
      types[f] = r.get("type").string();
    }
    const Value result = api::call(name, args);
    std::vector<const Value*> objects;
    if (spec.get("returns").string() == "list") {
      REQUIRE(result.is(Value::Kind::array));
      CHECK(!result.items().empty());
      for (const Value& item : result.items()) objects.push_back(&item);
      if (required.empty() && optional.empty()) {  // a list of strings
        for (const Value& item : result.items()) CHECK(item.is(Value::Kind::string));
        continue;
      }
    } else {
      REQUIRE(result.is(Value::Kind::object));
      objects.push_back(&result);
    }
    if (required.count("*") == 1) continue;  // caseArgs: the fields of another function's arguments
    for (const Value* o : objects) {
      std::set<std::string> keys(o->keys().begin(), o->keys().end());
      for (const std::string& r : required) CHECK(keys.count(r) == 1);
      for (const std::string& k : keys) CHECK((required.count(k) + optional.count(k)) == 1);
      // each value of the kind its TypeScript type says (tests/node/api-table.test.mjs checks the
      // whole results against wasm/roofline.d.ts with tsc)
      for (std::size_t i = 0; i < o->keys().size(); ++i) {
        const std::string& k = o->keys()[i];
        if (types.count(k) == 0) continue;
        const std::string& type = types.at(k);
        const Value& v = o->items()[i];
        INFO(k << ": " << type);
        const bool nullable = type.size() > 7 && type.compare(type.size() - 7, 7, " | null") == 0;
        const std::string base = nullable ? type.substr(0, type.size() - 7) : type;
        switch (v.kind()) {
          case Value::Kind::null: CHECK(nullable); break;
          case Value::Kind::boolean: CHECK(base == "boolean"); break;
          case Value::Kind::number: CHECK(base == "number"); break;
          case Value::Kind::string:  // string, a union of literals or a named one (Dtype, Bound, ...)
            CHECK((base == "string" || base.front() == '\'' || std::isupper(static_cast<unsigned char>(base.front()))));
            break;
          case Value::Kind::array:
            CHECK(base.size() > 2);
            CHECK(base.compare(base.size() - 2, 2, "[]") == 0);
            break;
          case Value::Kind::object: CHECK(std::isupper(static_cast<unsigned char>(base.front()))); break;
        }
      }
    }
  }
}

TEST_CASE("API table: the rule declared for each numeric argument is the one enforced") {
  const auto t = table();
  const nlohmann::json all = valid_args();
  for (const auto& [name, args_json] : all.items()) {
    const Value args = testing::to_value(args_json);
    for (const Value& a : t.at(name).get("args").items()) {
      const std::string field = a.get("name").string();
      const std::string kind = a.get("kind").string();
      INFO(name << "." << field << " (" << kind << ")");
      std::string at;
      if (kind == "count") {
        CHECK(code_of(name, with(args, field, Value(0.0)), &at) == ErrorCode::not_positive);
        CHECK(at == field);
        CHECK(code_of(name, with(args, field, Value(2.5)), &at) == ErrorCode::not_integer);
        CHECK(at == field);
      } else if (kind == "countOrZero") {
        CHECK(code_of(name, with(args, field, Value(-1.0)), &at) == ErrorCode::negative);
        CHECK(code_of(name, with(args, field, Value(0.5)), &at) == ErrorCode::not_integer);
        CHECK(at == field);
      } else if (kind == "positive") {
        CHECK(code_of(name, with(args, field, Value(0.0)), &at) == ErrorCode::not_positive);
        CHECK(at == field);
      } else if (kind == "fraction") {
        CHECK(code_of(name, with(args, field, Value(-0.1)), &at) == ErrorCode::negative);
        CHECK(at == field);
        CHECK(code_of(name, with(args, field, Value(1.5)), &at) == ErrorCode::out_of_range);
        CHECK(at == field);
      } else if (kind == "nonNegative") {
        CHECK(code_of(name, with(args, field, Value(-1.0)), &at) == ErrorCode::negative);
        CHECK(at == field);
      } else if (kind == "gpu") {
        CHECK(code_of(name, with(args, field, Value("rtx")), &at) == ErrorCode::unknown_gpu);
        CHECK(at == field);
      } else if (kind == "model") {
        CHECK(code_of(name, with(args, field, Value("gpt")), &at) == ErrorCode::unknown_model);
        CHECK(at == field);
      } else if (kind == "modelRef" || kind == "draftRef") {
        CHECK(code_of(name, with(args, field, Value("gpt")), &at) == ErrorCode::unknown_model);
        CHECK(at == field);
        CHECK(code_of(name, with(args, field, Value::object()), &at) == ErrorCode::missing_field);
        CHECK(at == field + ".architecture");
        CHECK(code_of(name, with(args, field, Value(1.0)), &at) == ErrorCode::unknown_model);
        CHECK(at == field);
      } else if (kind == "config") {
        CHECK(code_of(name, with(args, field, Value("{\"model_type\": ")), &at) == ErrorCode::invalid_config);
        CHECK(at == field);
        CHECK(code_of(name, with(args, field, Value::object().set("model_type", "bert")), &at) ==
              ErrorCode::unknown_architecture);
        CHECK(at == field + ".model_type");
      } else if (kind == "format") {
        CHECK(code_of(name, with(args, field, Value("int3")), &at) == ErrorCode::unknown_format);
        CHECK(at == field);
      } else if (kind == "stage") {
        CHECK(code_of(name, with(args, field, Value("stage9")), &at) == ErrorCode::out_of_range);
        CHECK(at == field);
      } else if (kind == "case") {
        CHECK(code_of(name, with(args, field, Value("c99")), &at) == ErrorCode::unknown_case);
        CHECK(at == field);
      } else if (kind == "dtype") {
        CHECK(code_of(name, with(args, field, Value("fp64")), &at) == ErrorCode::unknown_dtype);
        CHECK(at == field);
      } else if (kind == "caseValues") {
        CHECK(code_of(name, with(args, field, Value::object().set("gpux", "t4")), &at) == ErrorCode::unknown_argument);
        CHECK(at == "values.gpux");
        CHECK(code_of(name, with(args, field, Value::object().set("gpu", "t9")), &at) == ErrorCode::unknown_gpu);
        CHECK(at == "gpu");
      } else if (kind == "answers") {
        CHECK(code_of(name, with(args, field, Value::object().set("nope", 1.0)), &at) == ErrorCode::unknown_argument);
        CHECK(at == "answers.nope");
      } else if (kind == "phase") {
        CHECK(code_of(name, with(args, field, Value("train")), &at) == ErrorCode::out_of_range);
        CHECK(at == field);
      } else if (kind == "flag") {
        CHECK(code_of(name, with(args, field, Value("yes")), &at) == ErrorCode::out_of_range);
        CHECK(at == field);
      } else if (kind == "link") {
        CHECK(code_of(name, with(args, field, Value("nvlink9")), &at) == ErrorCode::unknown_link);
        CHECK(at == field);
      } else if (kind == "function") {
        CHECK(code_of(name, with(args, field, Value("nope")), &at) == ErrorCode::unknown_function);
        CHECK(at == field);
      } else {
        CHECK(kind == "matrix");
      }
    }
  }
}

TEST_CASE("device: the T4 has no BF16 peak; the L4's BF16 roofline") {
  std::string field;
  CHECK(code_of("device", Value::object().set("gpu", "t4").set("dtype", "bf16"), &field) ==
        ErrorCode::unsupported_dtype);
  CHECK(field == "dtype");
  const Value l4 = api::call("device", Value::object().set("gpu", "l4").set("dtype", "bf16"));
  CHECK(l4.get("peakFlopsPerSecond").number() == 121e12);
  CHECK(l4.get("bytesPerSecond").number() == 300e9);
  CHECK(l4.get("memoryBytes").number() == 24e9);
  CHECK(l4.get("ridgeFlopsPerByte").number() == Approx(403.33).epsilon(1e-4));
  // exact ids only: no prefix or name matching
  CHECK(code_of("device", Value::object().set("gpu", "h100").set("dtype", "fp16")) == ErrorCode::unknown_gpu);
  CHECK(code_of("device", Value::object().set("gpu", "T4").set("dtype", "fp16")) == ErrorCode::unknown_gpu);
}

TEST_CASE("modelWeights: the lesson's weights per format") {
  auto bytes = [](const char* model, const char* format) {
    Value args = Value::object().set("model", model);
    if (format) args.set("format", format);
    return api::call("modelWeights", args);
  };
  CHECK(bytes("llama3-8b", nullptr).get("bytes").number() == Approx(16.06e9));
  CHECK(bytes("llama3-8b", nullptr).get("format").string() == "bf16");
  CHECK(bytes("llama3-8b", "int8").get("bytes").number() == Approx(8.03e9));
  const Value int4 = bytes("llama3-8b", "int4");
  CHECK(int4.get("bytes").number() == Approx(5.73e9).margin(5e6));
  CHECK(int4.get("keptParams").number() == 1e9);
  CHECK(int4.get("bitsPerWeight").number() == Approx(5.713).epsilon(1e-3));
  CHECK(bytes("c10-70b", nullptr).get("bytes").number() == Approx(70.6e9));
  CHECK(bytes("c10-70b", nullptr).get("format").string() == "fp8");
  CHECK(bytes("phone-3b", nullptr).get("bytes").number() == Approx(1.3125e9));
  CHECK(bytes("phone-3b", nullptr).get("bitsPerWeight").number() == 3.5);
  // INT4 without a kept share for a model that keeps none
  CHECK(bytes("c10-70b", "int4").get("keptParams").number() == 0);
}

TEST_CASE("cases: every id a case names is in the catalog") {
  const Value cases = api::call("cases", Value::object());
  for (const Value& c : cases.items()) {
    INFO(c.get("id").string());
    const Value& v = c.get("values");
    for (std::size_t i = 0; i < v.keys().size(); ++i) {
      const std::string& k = v.keys()[i];
      if (!v.items()[i].is(Value::Kind::string)) {
        CHECK(std::isfinite(v.items()[i].number()));
        continue;
      }
      const std::string& id = v.items()[i].string();
      if (k == "gpu") CHECK_NOTHROW(api::call("gpu", Value::object().set("id", id)));
      else if (k == "model") CHECK_NOTHROW(api::call("model", Value::object().set("id", id)));
      else if (k == "format")
        CHECK_NOTHROW(api::call("modelWeights", Value::object().set("model", "llama3-8b").set("format", id)));
      else if (k == "dtype")
        CHECK_NOTHROW(api::call("tile", Value::object().set("rows", 1.0).set("cols", 1.0).set("dtype", id)));
      else FAIL("unexpected id field " << k);
    }
  }
}

namespace {
Value llama_l4(double batch, double kv) {
  const Value w = api::call("modelWeights", Value::object().set("model", "llama3-8b"));
  const Value d = api::call("device", Value::object().set("gpu", "l4").set("dtype", "bf16"));
  const Value f = api::call("flopsPerToken", Value::object().set("params", w.get("params").number()));
  return Value::object()
      .set("weightBytes", w.get("bytes").number())
      .set("kvBytesPerSequence", kv)
      .set("batch", batch)
      .set("bytesPerSecond", d.get("bytesPerSecond").number())
      .set("flopsPerToken", f.get("flops").number())
      .set("peakFlopsPerSecond", d.get("peakFlopsPerSecond").number())
      .set("memoryBytesPerGpu", d.get("memoryBytes").number());
}
}  // namespace

TEST_CASE("decode: Llama 3 8B on an L4 is compute-bound at a batch of 1,024, ≈ 7,530 tokens/s") {
  const Value r = api::call("decode", llama_l4(1024, 0));
  CHECK(r.get("bound").string() == "compute");
  CHECK(r.get("tokensPerSecond").number() == Approx(7534).margin(1));
  CHECK(r.get("stepSeconds").number() == r.get("computeSeconds").number());
  CHECK(r.get("memorySeconds").number() == Approx(0.05353).epsilon(1e-3));
  CHECK(r.get("maxBatch").is(Value::Kind::null));  // no KV cache: no batch limit from memory
  CHECK(r.get("fits").boolean());
  // batch 1: memory-bound, the lesson's 18.7 tokens/s
  const Value one = api::call("decode", llama_l4(1, 0));
  CHECK(one.get("bound").string() == "memory");
  CHECK(one.get("tokensPerSecond").number() == Approx(18.68).epsilon(1e-3));
  // without a peak, no compute clock
  Value plain = llama_l4(1024, 0);
  plain = Value::object()
              .set("weightBytes", plain.get("weightBytes").number())
              .set("kvBytesPerSequence", 0.0)
              .set("batch", 1024.0)
              .set("bytesPerSecond", 300e9);
  const Value mem_only = api::call("decode", plain);
  CHECK(mem_only.get("computeSeconds").is(Value::Kind::null));
  CHECK(mem_only.get("bound").string() == "memory");
  CHECK(mem_only.get("fits").is(Value::Kind::null));
}

TEST_CASE("decode: a peak needs its FLOPs per token, and the other way round") {
  Value args = llama_l4(1, 0);
  Value no_flops = Value::object();
  for (std::size_t i = 0; i < args.keys().size(); ++i) {
    if (args.keys()[i] != "flopsPerToken") no_flops.set(args.keys()[i], args.items()[i]);
  }
  std::string field;
  CHECK(code_of("decode", no_flops, &field) == ErrorCode::missing_field);
  CHECK(field == "flopsPerToken");
}

TEST_CASE("decode: 24 GB hold Llama 3 8B in BF16 and 7 conversations of 8,192 tokens, not 8") {
  const double kv = api::call("kvCacheBytes", Value::object()
                                                  .set("layers", 32.0)
                                                  .set("kvHeads", 8.0)
                                                  .set("headDim", 128.0)
                                                  .set("tokens", 8192.0)
                                                  .set("dtype", "bf16"))
                        .get("bytes")
                        .number();
  CHECK(kv == 1073741824);
  CHECK(api::call("decode", llama_l4(7, kv)).get("maxBatch").number() == 7);
  CHECK(api::call("decode", llama_l4(7, kv)).get("fits").boolean());
  CHECK_FALSE(api::call("decode", llama_l4(8, kv)).get("fits").boolean());
  CHECK_FALSE(api::call("decode", llama_l4(512, kv)).get("fits").boolean());
  // the lesson's four conversations fit, and their numbers are unchanged by the new roofs
  const Value four = api::call("decode", llama_l4(4, 1.07e9));
  CHECK(four.get("fits").boolean());
  CHECK(four.get("bound").string() == "memory");
  CHECK(four.get("tokensPerSecond").number() == Approx(59).margin(0.5));
}

TEST_CASE("cases: the lesson's intensity table and its Python listing, from cases") {
  auto matmul = [](const char* id) {
    return api::call("matmul", api::call("caseArgs", Value::object().set("id", id).set("function", "matmul")));
  };
  const Value dot = matmul("dot-4096");
  CHECK(dot.get("flops").number() == 8192);
  CHECK(dot.get("bytes").number() == 16386);  // the lesson's 16,384 bytes read, and the 2-byte result
  CHECK(dot.get("flopsPerByte").number() == Approx(0.5).margin(0.001));
  const Value mv = matmul("matvec-4096");
  CHECK(mv.get("flops").number() == Approx(33.6e6).margin(0.05e6));
  CHECK(mv.get("bytes").number() == Approx(33.6e6).margin(0.05e6));
  CHECK(mv.get("flopsPerByte").number() == Approx(1).margin(0.001));
  // the listing's row "matriz por vector, T4": 1.0, 0.0005 ms, 0.1049 ms, memory-bound
  Value clocks = api::call("caseArgs", Value::object().set("id", "matvec-4096").set("function", "clocks"));
  clocks.set("flops", mv.get("flops").number()).set("bytes", mv.get("bytes").number());
  const Value c = api::call("clocks", clocks);
  CHECK(c.get("computeSeconds").number() == Approx(0.0005e-3).margin(0.00005e-3));
  CHECK(c.get("memorySeconds").number() == Approx(0.1049e-3).margin(0.00005e-3));
  CHECK(c.get("bound").string() == "memory");
  // stages of ResNet-50 carry their uses per weight
  const Value stages = api::call("model", Value::object().set("id", "resnet50")).get("stages");
  for (const Value& s : stages.items()) {
    CHECK(s.get("usesPerWeight").number() == s.get("macs").number() / s.get("weights").number());
  }
}

TEST_CASE("caseArgs: a lesson case gives the arguments of any function, derived by the core") {
  auto args = [](const char* id, const char* fn) {
    return api::call("caseArgs", Value::object().set("id", id).set("function", fn));
  };
  const Value mm = args("c01-last-layer", "matmul");
  CHECK(api::call("matmul", mm).get("flops").number() == 65536000);
  const Value t4 = args("c01-last-layer", "timeAtPeak");
  CHECK(t4.get("peakFlopsPerSecond").number() == 65e12);
  CHECK(t4.find("flops") == nullptr);  // not the case's to give

  // the case carries the lesson's 1.07 GB per conversation, which a typed kvTokens does not override
  const Value four = args("four-conversations", "decode");
  CHECK(four.get("kvBytesPerSequence").number() == 1.07e9);
  CHECK(four.get("memoryBytesPerGpu").number() == 24e9);
  const Value d = api::call("decode", four);
  CHECK(d.get("tokensPerSecond").number() == Approx(59).margin(0.5));
  CHECK(d.get("bytesPerStep").number() == 16.06e9 + 4 * 1.07e9);
  CHECK(d.get("tokensPerSecondPerSequence").number() == Approx(14.75).margin(0.005));

  const Value c10 = api::call("decode", args("c10-2xh100", "decode"));
  CHECK(c10.get("stepSeconds").number() == Approx(0.0147).margin(0.00005));
  CHECK(c10.get("tokensPerSecond").number() == Approx(2720).margin(10));
  const Value pre = api::call("prefill", args("c10-2xh100", "prefill"));
  CHECK(pre.get("seconds").number() == Approx(0.0713).margin(0.0005));

  const Value l4 = api::call("decode", args("llama-l4-decode", "decode"));
  CHECK(l4.get("tokensPerSecond").number() == Approx(18.68).margin(0.01));
  CHECK(api::call("prefill", args("llama-l4-prefill", "prefill")).get("seconds").number() ==
        Approx(0.265).margin(0.001));
  CHECK(api::call("minBatchForRidge", args("layer-4096", "minBatchForRidge")).get("batch").number() == 226);
  CHECK(api::call("tile", args("conv1-tiles", "tile")).get("flopsPerByte").number() == 32);

  // the lesson's variations: another GPU, another format, and the T4's missing BF16
  auto with_values = [](const char* id, const char* fn, Value values) {
    return api::call(fn,
                     api::call("caseArgs", Value::object().set("id", id).set("function", fn).set("values", values)));
  };
  CHECK(with_values("llama-l4-decode", "decode", Value::object().set("gpu", "h100-sxm"))
            .get("tokensPerSecond")
            .number() == Approx(208.6).margin(0.1));
  CHECK(
      with_values("llama-l4-decode", "decode", Value::object().set("format", "int4")).get("tokensPerSecond").number() ==
      Approx(52.3).margin(0.1));
  std::string field;
  CHECK(code_of("caseArgs",
                Value::object()
                    .set("id", "llama-l4-decode")
                    .set("function", "decode")
                    .set("values", Value::object().set("gpu", "t4")),
                &field) == ErrorCode::unsupported_dtype);
  CHECK(field == "dtype");
  CHECK(code_of("caseArgs", Value::object().set("id", "c01-last-layer").set("function", "nope"), &field) ==
        ErrorCode::unknown_function);
  CHECK(field == "function");
}
