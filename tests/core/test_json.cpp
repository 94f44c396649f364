#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "roofline/api.hpp"
#include "roofline/error.hpp"
#include "roofline/json.hpp"

using namespace roofline;
using json::parse_json;
using json::Value;
using json::write_json;

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

double from_bits(std::uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

bool same(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Value::Kind::null: return true;
    case Value::Kind::boolean: return a.boolean() == b.boolean();
    case Value::Kind::number: return bits(a.number()) == bits(b.number());
    case Value::Kind::string: return a.string() == b.string();
    case Value::Kind::array:
    case Value::Kind::object:
      if (a.keys() != b.keys() || a.items().size() != b.items().size()) return false;
      for (std::size_t i = 0; i < a.items().size(); ++i) {
        if (!same(a.items()[i], b.items()[i])) return false;
      }
      return true;
  }
  return false;
}

double number(const std::string& text) {
  const Value v = parse_json(text);
  REQUIRE(v.is(Value::Kind::number));
  return v.number();
}

std::string text_of(double x) { return write_json(Value(x)); }

// The Error parse_json throws for `text` (fails the test when none).
Error error_of(const std::string& text) {
  try {
    (void)parse_json(text);
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error for " << text);
  return Error(ErrorCode::internal_error, "", "");
}

std::string nested_arrays(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']');
}

}  // namespace

TEST_CASE("json: parse_json reads every kind of value, keys in order") {
  const Value v = parse_json(R"( {"n": 32, "ok" : true, "no":false, "none":null, "s":"fp16",
                                  "list":[1, [2, 3], {}], "o":{"x":[]}} )");
  REQUIRE(v.is(Value::Kind::object));
  CHECK(v.keys() == std::vector<std::string>{"n", "ok", "no", "none", "s", "list", "o"});
  CHECK(v.get("n").number() == 32);
  CHECK(v.get("ok").boolean());
  CHECK(v.get("no").is(Value::Kind::boolean));
  CHECK_FALSE(v.get("no").boolean());
  CHECK(v.get("none").is(Value::Kind::null));
  CHECK(v.get("s").string() == "fp16");
  const Value& list = v.get("list");
  REQUIRE(list.items().size() == 3);
  CHECK(list.items()[1].items()[1].number() == 3);
  CHECK(list.items()[2].is(Value::Kind::object));
  CHECK(v.get("o").get("x").is(Value::Kind::array));
  CHECK(parse_json("\t\r\n 7 \n").number() == 7);
  CHECK(parse_json("\"\"").string().empty());
}

TEST_CASE("json: a repeated key keeps its first place and its last value, as JSON.parse does") {
  const Value v = parse_json(R"({"a":1,"b":2,"a":3})");
  CHECK(v.keys() == std::vector<std::string>{"a", "b"});
  CHECK(v.get("a").number() == 3);
}

TEST_CASE("json: NaN, Infinity and -Infinity are numbers, and the core rejects them as not_finite") {
  CHECK(std::isnan(number("NaN")));
  CHECK(number("Infinity") == std::numeric_limits<double>::infinity());
  CHECK(number("-Infinity") == -std::numeric_limits<double>::infinity());
  CHECK(parse_json("[NaN,-Infinity]").items().size() == 2);
  CHECK(text_of(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  CHECK(text_of(-std::numeric_limits<double>::infinity()) == "-Infinity");
  for (const char* bad : {"NaN", "Infinity", "-Infinity"}) {
    const Value args = parse_json(
        std::string(R"({"peakFlopsPerSecond":65000000000000,"bytesPerSecond":320000000000,"flopsPerByte":)") + bad +
        "}");
    try {
      (void)api::call("roofline", args);
      FAIL("accepted " << bad);
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::not_finite);
      CHECK(e.field() == "flopsPerByte");
    }
  }
}

TEST_CASE("json: numbers are read exactly as strtod reads them") {
  for (const char* text : {"0",
                           "-0",
                           "1",
                           "0.1",
                           "203.125",
                           "65000000000000",
                           "320000000000",
                           "3.2e11",
                           "1E-7",
                           "0.30000000000000004",
                           "2.2250738585072014e-308",
                           "4.9e-324",
                           "1.7976931348623157e308",
                           "9007199254740993",
                           "123456789012345678901234567890",
                           "0.000001",
                           "1e22",
                           "1e23",
                           "8.03e9",
                           "1e-400",
                           "5e-324",
                           "123.456e-5",
                           "0.0000000000000000000000001e25"}) {
    INFO(text);
    CHECK(bits(number(text)) == bits(std::strtod(text, nullptr)));
  }
  CHECK(std::signbit(number("-0")));
  CHECK(std::signbit(number("-0.0e5")));
  CHECK(number("1e400") == std::numeric_limits<double>::infinity());
  CHECK(number("-1e400") == -std::numeric_limits<double>::infinity());

  // Random decimal texts of every length and exponent: the fast path and strtod agree.
  std::mt19937_64 rng(2026);
  for (int i = 0; i < 200000; ++i) {
    const int digits = 1 + static_cast<int>(rng() % 20);
    // [-]d[ddd][.ddd][e[-]x]: a first digit 1-9, the decimal point anywhere or nowhere.
    std::string text;
    if (rng() % 2) text.push_back('-');
    const int point = 1 + static_cast<int>(rng() % static_cast<unsigned>(digits));
    for (int d = 0; d < digits; ++d) {
      if (d == point) text.push_back('.');
      text.push_back(static_cast<char>(d == 0 ? '1' + rng() % 9 : '0' + rng() % 10));
    }
    if (rng() % 2) {
      text.push_back('e');
      text.append(std::to_string(static_cast<int>(rng() % 70) - 35));
    }
    INFO(text);
    REQUIRE(bits(number(text)) == bits(std::strtod(text.c_str(), nullptr)));
  }
}

TEST_CASE("json: numbers are written so that they read back as the identical double") {
  std::mt19937_64 rng(53);
  auto check = [](double x) {
    const std::string text = text_of(x);
    INFO(text);
    REQUIRE(bits(std::strtod(text.c_str(), nullptr)) == bits(x));
    REQUIRE(bits(number(text)) == bits(x));
  };
  for (int i = 0; i < 200000; ++i) {
    const double x = from_bits(rng());
    if (std::isfinite(x)) check(x);
  }
  // Quotients and products of "nice" numbers, like the core's results.
  for (int i = 0; i < 100000; ++i) {
    const double a = static_cast<double>(rng() % 100000) * std::pow(10.0, static_cast<int>(rng() % 30) - 15);
    const double b = static_cast<double>(1 + rng() % 100000);
    check(a / b);
    check(a * b);
    check(a);
  }
  for (double x : {0.0, -0.0, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 9007199254740992.0,
                   9007199254740994.0, 1.0 / 3, 2.0 / 3, 0.1 + 0.2, 1e21, 1e-7}) {
    check(x);
  }
}

TEST_CASE("json: common numbers are written as JavaScript's String(x) writes them") {
  CHECK(text_of(0) == "0");
  CHECK(text_of(-0.0) == "-0");
  CHECK(text_of(42) == "42");
  CHECK(text_of(-7) == "-7");
  CHECK(text_of(65e12) == "65000000000000");
  CHECK(text_of(9007199254740992.0) == "9007199254740992");
  CHECK(text_of(0.1) == "0.1");
  CHECK(text_of(-0.5) == "-0.5");
  CHECK(text_of(203.125) == "203.125");
  CHECK(text_of(0.0535) == "0.0535");
  CHECK(text_of(18.68) == "18.68");
  CHECK(text_of(0.000001) == "0.000001");
  CHECK(text_of(1e-7) == "1e-7");
  CHECK(text_of(1.5e-7) == "1.5e-7");
  CHECK(text_of(1e21) == "1e+21");
  CHECK(text_of(1.25e30) == "1.25e+30");
  CHECK(text_of(123456789012.5) == "123456789012.5");
  CHECK(text_of(1e300) == "1e+300");
  CHECK(text_of(0.1 + 0.2) == "0.30000000000000004");
  CHECK(text_of(1.0 / 3) == "0.3333333333333333");
  CHECK(text_of(65536000.0 / 2211072) == "29.639921268959128");
  CHECK(text_of(0.32e12 / 65e12) == "0.004923076923076923");
  CHECK(text_of(5e-324) == "5e-324");
  CHECK(text_of(1.7976931348623157e308) == "1.7976931348623157e+308");
}

TEST_CASE("json: strings: escapes in, escapes out, UTF-8 unchanged") {
  CHECK(parse_json(R"("a\"b\\c\/d\b\f\n\r\t")").string() == "a\"b\\c/d\b\f\n\r\t");
  CHECK(parse_json(R"("\u0041\u00e9\u20ac")").string() == "A\xC3\xA9\xE2\x82\xAC");
  CHECK(parse_json(R"("\ud83d\ude00")").string() == "\xF0\x9F\x98\x80");  // U+1F600
  CHECK(parse_json(R"("\uD83D\uDE00")").string() == "\xF0\x9F\x98\x80");
  CHECK(parse_json(R"("\ud83dx")").string() == "\xEF\xBF\xBDx");  // lone high surrogate
  CHECK(parse_json(R"("\ude00")").string() == "\xEF\xBF\xBD");    // lone low surrogate
  CHECK(parse_json(R"("\ud83d\u0041")").string() ==
        "\xEF\xBF\xBD"
        "A");
  const std::string utf8 = "d\xC3\xA9j\xC3\xA0 vu \xE2\x80\x94 \xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x98\x80";
  CHECK(parse_json("\"" + utf8 + "\"").string() == utf8);
  CHECK(write_json(Value(utf8)) == "\"" + utf8 + "\"");
  CHECK(write_json(Value(std::string("q\"b\\s\n\x01\x1f", 8))) == R"("q\"b\\s\n\u0001\u001f")");
  const std::string every_byte = [] {
    std::string s;
    for (int c = 1; c < 256; ++c) s += static_cast<char>(c);
    return s;
  }();
  CHECK(parse_json(write_json(Value(every_byte))).string() == every_byte);
  CHECK(parse_json(write_json(Value(std::string("a\0b", 3)))).string() == std::string("a\0b", 3));
}

TEST_CASE("json: write_json is compact, keeps key order and round-trips through parse_json") {
  Value v = Value::object();
  v.set("z", 1).set("a", Value::array({Value(true), Value(), Value("x"), Value::object()})).set("m", 0.25);
  CHECK(write_json(v) == R"({"z":1,"a":[true,null,"x",{}],"m":0.25})");
  CHECK(same(parse_json(write_json(v)), v));
  CHECK(write_json(Value::array()) == "[]");
  // Longer than any internal buffer: a long string, and many short pieces.
  const std::string long_text(5000, 'x');
  CHECK(write_json(Value(long_text)) == "\"" + long_text + "\"");
  Value many = Value::array();
  for (int i = 0; i < 3000; ++i)
    many.push(Value::array({Value(i + 0.5), Value(long_text.substr(0, static_cast<std::size_t>(i % 700)))}));
  CHECK(same(parse_json(write_json(many)), many));
  std::string out = "prefix:";
  write_json(Value(false), out);
  CHECK(out == "prefix:false");
}

TEST_CASE("json: results of the API cross as JSON unchanged") {
  const Value args = parse_json(R"({"n":32,"k":2048,"m":500,"dtype":"fp16"})");
  const Value result = api::call("matmul", args);
  CHECK(same(parse_json(write_json(result)), result));
  CHECK(write_json(result).find("\"flops\":65536000") != std::string::npos);
  for (const std::string& name : {std::string("gpus"), std::string("models")}) {
    const Value all = api::call(name, Value::object());
    CHECK(same(parse_json(write_json(all)), all));
  }
}

TEST_CASE("json: limits: nesting deeper than 8 and more than a million values are too_large") {
  CHECK_NOTHROW(parse_json(nested_arrays(9)));  // the outer list is depth 0, the innermost depth 8
  Error deep = error_of(nested_arrays(10));
  CHECK(deep.code() == ErrorCode::too_large);
  CHECK(deep.field().empty());
  CHECK(std::string(deep.what()) == "arguments are nested too deeply");
  CHECK(error_of(R"({"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":1}}}}}}}}})").code() == ErrorCode::too_large);
  CHECK_NOTHROW(parse_json(R"({"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":1}}}}}}}})"));

  auto list_of = [](std::size_t n) {
    std::string s = "[";
    for (std::size_t i = 0; i < n; ++i) s += i ? ",0" : "0";
    return s + "]";
  };
  CHECK(parse_json(list_of(999999)).items().size() == 999999);  // and the list itself: 1e6 values
  Error many = error_of(list_of(1000000));
  CHECK(many.code() == ErrorCode::too_large);
  CHECK(std::string(many.what()) == "arguments hold too many values");
}

TEST_CASE("json: text that is not JSON is invalid_json, saying where") {
  for (const char* bad : {"",          " ",           "{",     "}",          "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}",
                          "{a:1}",     "01",          "1.",    ".5",         "+1",   "1e",    "1e+",       "-",
                          "tru",       "nul",         "nan",   "infinity",   "NaNa", "\"abc", "\"a\x01\"", "\"\\x\"",
                          "\"\\u12\"", "\"\\u12g4\"", "[1] x", "{\"a\":1}}", "'a'",  "[",     "\"\\"}) {
    INFO(bad);
    const Error e = error_of(bad);
    CHECK(e.code() == ErrorCode::invalid_json);
    CHECK(std::string(e.what()).rfind("invalid JSON at byte ", 0) == 0);
  }
  CHECK(std::string(error_of("[1,]").what()) == "invalid JSON at byte 3: expected a value");
  CHECK(std::string(error_of("{\"a\" 1}").what()) == "invalid JSON at byte 5: expected ':'");
}
