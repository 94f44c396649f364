// Reading JSON text into a json::Value (roofline/json.hpp).
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "roofline/error.hpp"
#include "roofline/json.hpp"

namespace roofline::json {

namespace {

// Exact powers of ten: every 10^k with k <= 22 is a double without rounding.
constexpr double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
constexpr int max_exact_pow10 = 22;

// The parser's fast path relies on one correctly rounded IEEE operation: an integer below 2^53
// times or divided by an exact power of ten is the double nearest the exact decimal, which is
// what strtod (and JavaScript) read. That holds where doubles are evaluated as doubles (SSE2,
// wasm, AArch64); elsewhere (x87) every number goes through strtod.
constexpr bool exact_double_arithmetic = FLT_EVAL_METHOD == 0;

// ---- reading ------------------------------------------------------------------------------

class Parser {
 public:
  explicit Parser(std::string_view text, bool non_finite = true)
      : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()), non_finite_(non_finite) {}

  Value document() {
    Value v = value(0);
    skip_space();
    if (p_ != end_) fail("the end of the text");
    return v;
  }

 private:
  const char* begin_;
  const char* p_;
  const char* end_;
  bool non_finite_;  ///< NaN, Infinity and -Infinity read as numbers (parse_json), or refused
  double values_ = 0;

  [[noreturn]] void fail(std::string_view expected) const {
    throw Error(ErrorCode::invalid_json, "",
                "invalid JSON at byte " + std::to_string(p_ - begin_) + ": expected " + std::string(expected));
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool consume(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) {
      return false;
    }
    p_ += word.size();
    return true;
  }

  Value value(int depth) {
    if (depth > max_json_depth) throw Error(ErrorCode::too_large, "", "arguments are nested too deeply");
    if (++values_ > max_json_values) throw Error(ErrorCode::too_large, "", "arguments hold too many values");
    skip_space();
    if (p_ == end_) fail("a value");
    switch (*p_) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': {
        ++p_;
        std::string s;
        string_body(s);
        return Value(std::move(s));
      }
      case 't':
        if (consume("true")) return Value(true);
        break;
      case 'f':
        if (consume("false")) return Value(false);
        break;
      case 'n':
        if (consume("null")) return Value();
        break;
      case 'N':
        if (non_finite_ && consume("NaN")) return Value(std::numeric_limits<double>::quiet_NaN());
        break;
      case 'I':
        if (non_finite_ && consume("Infinity")) return Value(std::numeric_limits<double>::infinity());
        break;
      case '-':
        if (non_finite_ && consume("-Infinity")) return Value(-std::numeric_limits<double>::infinity());
        return Value(number());
      default:
        if (is_digit(*p_)) return Value(number());
        break;
    }
    fail("a value");
  }

  Value object(int depth) {
    ++p_;  // '{'
    Value out = Value::object();
    skip_space();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      return out;
    }
    for (;;) {
      skip_space();
      if (p_ == end_ || *p_ != '"') fail("a key in double quotes");
      ++p_;
      std::string key;
      string_body(key);
      skip_space();
      if (p_ == end_ || *p_ != ':') fail("':'");
      ++p_;
      Value field = value(depth + 1);
      out.set(std::move(key), std::move(field));
      skip_space();
      if (p_ != end_ && *p_ == ',') {
        ++p_;
        continue;
      }
      if (p_ != end_ && *p_ == '}') {
        ++p_;
        return out;
      }
      fail("',' or '}'");
    }
  }

  Value array(int depth) {
    ++p_;  // '['
    Value out = Value::array();
    skip_space();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return out;
    }
    for (;;) {
      out.push(value(depth + 1));
      skip_space();
      if (p_ != end_ && *p_ == ',') {
        ++p_;
        continue;
      }
      if (p_ != end_ && *p_ == ']') {
        ++p_;
        return out;
      }
      fail("',' or ']'");
    }
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // Four hex digits at `at`, or -1.
  int hex4(const char* at) const {
    if (end_ - at < 4) return -1;
    int out = 0;
    for (int i = 0; i < 4; ++i) {
      const int d = hex_digit(at[i]);
      if (d < 0) return -1;
      out = out * 16 + d;
    }
    return out;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // The rest of a string after its opening quote, up to and including the closing one.
  void string_body(std::string& out) {
    for (;;) {
      const char* run = p_;
      while (p_ != end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
      out.append(run, p_);
      if (p_ == end_) fail("'\"' closing the string");
      if (*p_ == '"') {
        ++p_;
        return;
      }
      if (*p_ != '\\') fail("no control character inside a string (they must be escaped)");
      ++p_;
      if (p_ == end_) fail("an escape after '\\'");
      const char c = *p_;
      switch (c) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const int unit = hex4(p_ + 1);
          if (unit < 0) fail("four hex digits after \\u");
          p_ += 4;
          std::uint32_t cp = static_cast<std::uint32_t>(unit);
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            // A high surrogate: whole only when a low one follows as the next escape.
            const int low = (end_ - p_ >= 7 && p_[1] == '\\' && p_[2] == 'u') ? hex4(p_ + 3) : -1;
            if (low >= 0xDC00 && low <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (static_cast<std::uint32_t>(low) - 0xDC00);
              p_ += 6;
            } else {
              cp = 0xFFFD;
            }
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            cp = 0xFFFD;
          }
          append_utf8(out, cp);
          break;
        }
        default: fail("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
      }
      ++p_;
    }
  }

  // A number by JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  double number() {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    std::uint64_t mantissa = 0;  // the first 19 significant digits
    int digits = 0;              // significant digits seen (past 19 only counted)
    long long exponent = 0;      // value = mantissa * 10^exponent while digits <= 19
    auto digit = [&](int d) {
      if (mantissa == 0 && d == 0) return;  // a leading zero
      if (digits < 19) mantissa = mantissa * 10 + static_cast<std::uint64_t>(d);
      ++digits;
    };
    if (p_ == end_ || !is_digit(*p_)) fail("a digit");
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && is_digit(*p_)) {
        digit(*p_++ - '0');
        if (digits > 19) ++exponent;
      }
    }
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) fail("a digit after '.'");
      while (p_ != end_ && is_digit(*p_)) {
        digit(*p_++ - '0');
        if (digits <= 19) --exponent;
      }
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      bool minus = false;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) minus = *p_++ == '-';
      if (p_ == end_ || !is_digit(*p_)) fail("a digit in the exponent");
      long long e = 0;
      while (p_ != end_ && is_digit(*p_)) {
        if (e < 1000000000000000LL) e = e * 10 + (*p_ - '0');  // far past any double's range
        ++p_;
      }
      exponent += minus ? -e : e;
    }
    if (mantissa == 0) return negative ? -0.0 : 0.0;
    if (exact_double_arithmetic && digits <= 15 && exponent >= -max_exact_pow10 && exponent <= max_exact_pow10) {
      // Clinger's fast path: mantissa < 10^15 < 2^53 and 10^|exponent| are exact doubles, so one
      // correctly rounded operation gives the correctly rounded value.
      const double m = static_cast<double>(mantissa);
      const double v = exponent < 0 ? m / exact_pow10[-exponent] : m * exact_pow10[exponent];
      return negative ? -v : v;
    }
    // Everything else: strtod, which rounds correctly (glibc, musl) in the "C" locale.
    const std::string token(start, p_);
    return std::strtod(token.c_str(), nullptr);
  }
};

}  // namespace

Value parse_json(std::string_view text) { return Parser(text).document(); }

Value parse_strict_json(std::string_view text) { return Parser(text, false).document(); }

}  // namespace roofline::json
