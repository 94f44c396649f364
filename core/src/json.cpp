#include "roofline/json.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "roofline/error.hpp"

namespace roofline::api {

namespace {

// Exact powers of ten: every 10^k with k <= 22 is a double without rounding.
constexpr double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
constexpr int max_exact_pow10 = 22;
constexpr double two_to_53 = 9007199254740992.0;

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

// ---- writing ------------------------------------------------------------------------------

// Writes straight into the string's own storage, grown ahead of what is written and trimmed by
// finish(): most pieces are a character or a few, and appending each to a std::string costs a
// call that the size-optimized WebAssembly build does not inline. (A buffer of its own, appended
// to the string when full, cost a second copy of the whole text: at -Oz, Emscripten's libc
// copies and fills memory a byte at a time.)
class Writer {
 public:
  explicit Writer(std::string& out) : out_(out), start_(out.size()), p_(nullptr), end_(nullptr) { grow(start_, 0); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void put(char c) {
    if (p_ == end_) grow(written(), 1);
    *p_++ = c;
  }
  void put(const char* s, std::size_t n) {
    std::memcpy(room(n), s, n);
    p_ += n;
  }
  void put(std::string_view s) { put(s.data(), s.size()); }
  void put(std::size_t count, char c) {
    for (std::size_t i = 0; i < count; ++i) put(c);
  }
  /// Where to write the next n bytes directly (then wrote()).
  char* room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) grow(written(), n);
    return p_;
  }
  /// Ends a direct write that room() began, at `end`.
  void wrote(char* end) { p_ = end; }
  /// Trims the string to what was written.
  void finish() { out_.resize(written()); }

 private:
  std::string& out_;
  std::size_t start_;  // the string's size before
  char* p_;
  char* end_;

  [[nodiscard]] std::size_t written() const { return static_cast<std::size_t>(p_ - out_.data()); }

  // Makes room for n more bytes after the first `used`, and for half as many again as written
  // so far. Growing the string fills the new part with zeros, so it grows in steps near what is
  // written rather than to its capacity at once (which cost a small result 2.5 µs in wasm).
  void grow(std::size_t used, std::size_t n) {
    out_.resize(used + std::max(n, (used - start_) / 2 + 256));
    p_ = out_.data() + used;
    end_ = out_.data() + out_.size();
  }
};

// The decimal digits of n (no sign), written at the end of `out`. The arithmetic is 32-bit
// wherever it can be: WebAssembly has no 64-bit multiply-high, so a 64-bit division by a
// constant stays a division, where a 32-bit one becomes a multiplication and a shift.
void append_digits(std::uint64_t n, Writer& out) {
  int count = 1;
  for (std::uint64_t limit = 10; count < 20 && n >= limit; limit *= 10) ++count;
  char* const end = out.room(static_cast<std::size_t>(count)) + count;  // written backwards, in place
  char* p = end;
  while (n > 0xFFFFFFFFu) {  // eight digits for one 64-bit division
    auto low = static_cast<std::uint32_t>(n % 100000000);
    n /= 100000000;
    for (int i = 0; i < 8; ++i) {
      *--p = static_cast<char>('0' + low % 10);
      low /= 10;
    }
  }
  auto m = static_cast<std::uint32_t>(n);
  do {
    *--p = static_cast<char>('0' + m % 10);
    m /= 10;
  } while (m != 0);
  out.wrote(end);
}

// a > 0 written as the n decimal digits at `begin` (the first not 0) × 10^-scale, in
// JavaScript's layout: plain decimals for magnitudes from 1e-6 up to 1e21, exponent notation
// outside.
void append_scaled(const char* begin, int n, int scale, Writer& out) {
  while (n > 1 && begin[n - 1] == '0') {
    --n;
    --scale;
  }
  const int point = n - scale;  // digits before the decimal point
  if (point > 0 && point <= 21) {
    if (scale <= 0) {
      out.put(begin, static_cast<std::size_t>(n));
      out.put(static_cast<std::size_t>(-scale), '0');
    } else {
      out.put(begin, static_cast<std::size_t>(point));
      out.put('.');
      out.put(begin + point, static_cast<std::size_t>(n - point));
    }
  } else if (point <= 0 && point > -6) {
    out.put("0.");
    out.put(static_cast<std::size_t>(-point), '0');
    out.put(begin, static_cast<std::size_t>(n));
  } else {
    out.put(*begin);
    if (n > 1) {
      out.put('.');
      out.put(begin + 1, static_cast<std::size_t>(n - 1));
    }
    out.put('e');
    const int e = point - 1;
    out.put(e < 0 ? '-' : '+');
    append_digits(static_cast<std::uint64_t>(e < 0 ? -e : e), out);
  }
}

// ---- Grisu2 (Loitsch, "Printing floating-point numbers quickly and accurately with integers",
// PLDI 2010): the digits of a double with 64-bit integer arithmetic only. The digits always read
// back as the same double; they are the shortest such digits for all but a small fraction of
// doubles (which get one digit more). No printf: in WebAssembly its floating-point formatting
// goes through software 128-bit long doubles and costs a few hundred nanoseconds a number.

struct DiyFp {  // f × 2^e
  std::uint64_t f;
  int e;
};

DiyFp operator-(DiyFp a, DiyFp b) { return {a.f - b.f, a.e}; }

// The upper 64 bits of the 128-bit product, rounded.
DiyFp operator*(DiyFp a, DiyFp b) {
  constexpr std::uint64_t m32 = 0xFFFFFFFFu;
  const std::uint64_t a_hi = a.f >> 32, a_lo = a.f & m32, b_hi = b.f >> 32, b_lo = b.f & m32;
  const std::uint64_t ac = a_hi * b_hi, bc = a_lo * b_hi, ad = a_hi * b_lo, bd = a_lo * b_lo;
  std::uint64_t mid = (bd >> 32) + (ad & m32) + (bc & m32);
  mid += 1u << 31;  // round
  return {ac + (ad >> 32) + (bc >> 32) + (mid >> 32), a.e + b.e + 64};
}

DiyFp normalized(DiyFp x) {
  const int shift = std::countl_zero(x.f);
  return {x.f << shift, x.e - shift};
}

// Normalized powers of ten 10^k, k = -348, -340, ..., 340: 64-bit significand, binary exponent.
constexpr DiyFp cached_powers[] = {
    {0xfa8fd5a0081c0288ULL, -1220}, {0xbaaee17fa23ebf76ULL, -1193}, {0x8b16fb203055ac76ULL, -1166},
    {0xcf42894a5dce35eaULL, -1140}, {0x9a6bb0aa55653b2dULL, -1113}, {0xe61acf033d1a45dfULL, -1087},
    {0xab70fe17c79ac6caULL, -1060}, {0xff77b1fcbebcdc4fULL, -1034}, {0xbe5691ef416bd60cULL, -1007},
    {0x8dd01fad907ffc3cULL, -980}, {0xd3515c2831559a83ULL, -954}, {0x9d71ac8fada6c9b5ULL, -927},
    {0xea9c227723ee8bcbULL, -901}, {0xaecc49914078536dULL, -874}, {0x823c12795db6ce57ULL, -847},
    {0xc21094364dfb5637ULL, -821}, {0x9096ea6f3848984fULL, -794}, {0xd77485cb25823ac7ULL, -768},
    {0xa086cfcd97bf97f4ULL, -741}, {0xef340a98172aace5ULL, -715}, {0xb23867fb2a35b28eULL, -688},
    {0x84c8d4dfd2c63f3bULL, -661}, {0xc5dd44271ad3cdbaULL, -635}, {0x936b9fcebb25c996ULL, -608},
    {0xdbac6c247d62a584ULL, -582}, {0xa3ab66580d5fdaf6ULL, -555}, {0xf3e2f893dec3f126ULL, -529},
    {0xb5b5ada8aaff80b8ULL, -502}, {0x87625f056c7c4a8bULL, -475}, {0xc9bcff6034c13053ULL, -449},
    {0x964e858c91ba2655ULL, -422}, {0xdff9772470297ebdULL, -396}, {0xa6dfbd9fb8e5b88fULL, -369},
    {0xf8a95fcf88747d94ULL, -343}, {0xb94470938fa89bcfULL, -316}, {0x8a08f0f8bf0f156bULL, -289},
    {0xcdb02555653131b6ULL, -263}, {0x993fe2c6d07b7facULL, -236}, {0xe45c10c42a2b3b06ULL, -210},
    {0xaa242499697392d3ULL, -183}, {0xfd87b5f28300ca0eULL, -157}, {0xbce5086492111aebULL, -130},
    {0x8cbccc096f5088ccULL, -103}, {0xd1b71758e219652cULL, -77}, {0x9c40000000000000ULL, -50},
    {0xe8d4a51000000000ULL, -24}, {0xad78ebc5ac620000ULL, 3}, {0x813f3978f8940984ULL, 30},
    {0xc097ce7bc90715b3ULL, 56}, {0x8f7e32ce7bea5c70ULL, 83}, {0xd5d238a4abe98068ULL, 109},
    {0x9f4f2726179a2245ULL, 136}, {0xed63a231d4c4fb27ULL, 162}, {0xb0de65388cc8ada8ULL, 189},
    {0x83c7088e1aab65dbULL, 216}, {0xc45d1df942711d9aULL, 242}, {0x924d692ca61be758ULL, 269},
    {0xda01ee641a708deaULL, 295}, {0xa26da3999aef774aULL, 322}, {0xf209787bb47d6b85ULL, 348},
    {0xb454e4a179dd1877ULL, 375}, {0x865b86925b9bc5c2ULL, 402}, {0xc83553c5c8965d3dULL, 428},
    {0x952ab45cfa97a0b3ULL, 455}, {0xde469fbd99a05fe3ULL, 481}, {0xa59bc234db398c25ULL, 508},
    {0xf6c69a72a3989f5cULL, 534}, {0xb7dcbf5354e9beceULL, 561}, {0x88fcf317f22241e2ULL, 588},
    {0xcc20ce9bd35c78a5ULL, 614}, {0x98165af37b2153dfULL, 641}, {0xe2a0b5dc971f303aULL, 667},
    {0xa8d9d1535ce3b396ULL, 694}, {0xfb9b7cd9a4a7443cULL, 720}, {0xbb764c4ca7a44410ULL, 747},
    {0x8bab8eefb6409c1aULL, 774}, {0xd01fef10a657842cULL, 800}, {0x9b10a4e5e9913129ULL, 827},
    {0xe7109bfba19c0c9dULL, 853}, {0xac2820d9623bf429ULL, 880}, {0x80444b5e7aa7cf85ULL, 907},
    {0xbf21e44003acdd2dULL, 933}, {0x8e679c2f5e44ff8fULL, 960}, {0xd433179d9c8cb841ULL, 986},
    {0x9e19db92b4e31ba9ULL, 1013}, {0xeb96bf6ebadf77d9ULL, 1039}, {0xaf87023b9bf0ee6bULL, 1066},
};

// Appends a > 0 (finite), laid out by append_scaled.
void append_grisu(double a, Writer& out) {
  constexpr std::uint64_t hidden_bit = std::uint64_t{1} << 52;
  std::uint64_t bits_of_a;
  std::memcpy(&bits_of_a, &a, sizeof bits_of_a);
  const int biased = static_cast<int>(bits_of_a >> 52) & 0x7FF;
  const std::uint64_t fraction = bits_of_a & (hidden_bit - 1);
  const DiyFp v = biased ? DiyFp{fraction + hidden_bit, biased - 1075} : DiyFp{fraction, -1074};

  // The boundaries halfway to the neighbouring doubles, on the upper boundary's exponent.
  DiyFp plus{(v.f << 1) + 1, v.e - 1};
  while (!(plus.f & (hidden_bit << 1))) {
    plus.f <<= 1;
    --plus.e;
  }
  plus.f <<= 10;
  plus.e -= 10;
  DiyFp minus = v.f == hidden_bit ? DiyFp{(v.f << 2) - 1, v.e - 2} : DiyFp{(v.f << 1) - 1, v.e - 1};
  minus.f <<= minus.e - plus.e;
  minus.e = plus.e;

  // A cached power c = 10^-k that brings plus's exponent into [-60, -32].
  const double dk = (-61 - plus.e) * 0.30102999566398114 + 347;
  int k = static_cast<int>(dk);
  if (dk - k > 0.0) ++k;
  const int index = (k >> 3) + 1;
  const int decimal_exponent_of_c = -(-348 + index * 8);  // c = 10^-decimal_exponent_of_c
  const DiyFp c = cached_powers[index];

  const DiyFp w = normalized(v) * c;
  DiyFp high = plus * c;
  DiyFp low = minus * c;
  ++low.f;
  --high.f;
  std::uint64_t delta = high.f - low.f;

  // Digit generation: the integral part p1 and the fractional part p2 of high, in units `one`.
  static constexpr std::uint32_t pow10_32[] = {1,      10,      100,      1000,      10000,
                                               100000, 1000000, 10000000, 100000000, 1000000000};
  const DiyFp one{std::uint64_t{1} << -high.e, high.e};
  const std::uint64_t high_minus_w = (high - w).f;
  auto p1 = static_cast<std::uint32_t>(high.f >> -one.e);
  std::uint64_t p2 = high.f & (one.f - 1);
  // p1's kappa digits (at least one), the last at p1_digits[9]: taken by division by the constant
  // 10, which compiles to a multiplication, where dividing by each power of ten in turn costs a
  // hardware division per digit.
  char p1_digits[10];
  int kappa = 0;
  for (std::uint32_t n = p1; kappa == 0 || n != 0; n /= 10) p1_digits[9 - kappa++] = static_cast<char>(n % 10);
  char digits[20];
  int length = 0;
  int exponent = decimal_exponent_of_c;

  // Moves the last digit down while that brings it closer to w and stays inside the boundaries.
  auto round_last = [&](std::uint64_t rest, std::uint64_t ten_kappa, std::uint64_t wp_w) {
    while (rest < wp_w && delta - rest >= ten_kappa &&
           (rest + ten_kappa < wp_w || wp_w - rest > rest + ten_kappa - wp_w)) {
      --digits[length - 1];
      rest += ten_kappa;
    }
  };
  bool done = false;
  for (const char* next = p1_digits + 10 - kappa; kappa > 0; ++next) {
    const std::uint32_t unit = pow10_32[kappa - 1];
    const char d = *next;
    p1 -= static_cast<std::uint32_t>(d) * unit;
    if (d || length) digits[length++] = static_cast<char>('0' + d);
    --kappa;
    const std::uint64_t rest = (static_cast<std::uint64_t>(p1) << -one.e) + p2;
    if (rest <= delta) {
      exponent += kappa;
      round_last(rest, static_cast<std::uint64_t>(unit) << -one.e, high_minus_w);
      done = true;
      break;
    }
  }
  if (!done) {
    std::uint64_t scale = 1;  // 10^-kappa while that fits (at most 19 fractional digits occur)
    for (;;) {
      p2 *= 10;
      delta *= 10;
      scale = kappa > -19 ? scale * 10 : 0;
      const auto d = static_cast<char>(p2 >> -one.e);
      if (d || length) digits[length++] = static_cast<char>('0' + d);
      p2 &= one.f - 1;
      --kappa;
      if (p2 < delta) {
        exponent += kappa;
        round_last(p2, one.f, high_minus_w * scale);
        break;
      }
    }
  }
  append_scaled(digits, length, -exponent, out);
}

void append_number(double x, Writer& out) {
  if (std::isnan(x)) {
    out.put("NaN");
    return;
  }
  if (std::isinf(x)) {
    out.put(x > 0 ? "Infinity" : "-Infinity");
    return;
  }
  if (std::signbit(x)) out.put('-');
  const double a = std::fabs(x);
  if (a < two_to_53 && a == std::floor(a)) {
    append_digits(static_cast<std::uint64_t>(a), out);  // 0 and -0 included
    return;
  }
  append_grisu(a, out);
}

// A character JSON text must escape.
bool needs_escape(char c) { return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20; }

void append_string(std::string_view s, Writer& out) {
  // Most text (every key) has nothing to escape: copied and checked in one pass, straight into
  // the string. At the first character to escape, the general loop below starts over.
  const char* end = s.data() + s.size();
  {
    char* to = out.room(s.size() + 2);
    *to++ = '"';
    const char* from = s.data();
    while (from != end && !needs_escape(*from)) *to++ = *from++;
    if (from == end) {
      *to++ = '"';
      out.wrote(to);
      return;
    }
  }
  out.put('"');
  const char* p = s.data();
  while (p != end) {
    const char* run = p;
    while (p != end && !needs_escape(*p)) ++p;
    out.put(run, static_cast<std::size_t>(p - run));
    if (p == end) break;
    const char c = *p++;
    switch (c) {
      case '"': out.put("\\\""); break;
      case '\\': out.put("\\\\"); break;
      case '\b': out.put("\\b"); break;
      case '\f': out.put("\\f"); break;
      case '\n': out.put("\\n"); break;
      case '\r': out.put("\\r"); break;
      case '\t': out.put("\\t"); break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        const auto u = static_cast<unsigned char>(c);
        out.put("\\u00");
        out.put(hex[u >> 4]);
        out.put(hex[u & 15]);
      }
    }
  }
  out.put('"');
}

void write_value(const Value& value, Writer& out) {
  switch (value.kind()) {
    case Value::Kind::null: out.put("null"); return;
    case Value::Kind::boolean: out.put(value.boolean() ? "true" : "false"); return;
    case Value::Kind::number: append_number(value.number(), out); return;
    case Value::Kind::string: append_string(value.string(), out); return;
    case Value::Kind::array: {
      out.put('[');
      bool first = true;
      for (const Value& item : value.items()) {
        if (!first) out.put(',');
        first = false;
        write_value(item, out);
      }
      out.put(']');
      return;
    }
    case Value::Kind::object: {
      out.put('{');
      const auto& keys = value.keys();
      const auto& items = value.items();
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i != 0) out.put(',');
        append_string(keys[i], out);
        out.put(':');
        write_value(items[i], out);
      }
      out.put('}');
      return;
    }
  }
}

}  // namespace

Value parse_json(std::string_view text) { return Parser(text).document(); }

Value parse_strict_json(std::string_view text) { return Parser(text, false).document(); }

void write_json(const Value& value, std::string& out) {
  Writer writer(out);
  write_value(value, writer);
  writer.finish();
}

std::string write_json(const Value& value) {
  std::string out;
  write_json(value, out);
  return out;
}

}  // namespace roofline::api
