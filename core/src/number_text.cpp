// Numbers as text: the shortest decimal that reads back as the same double, in JavaScript's
// layout. Depends on nothing else of the core, so that the JSON writer and the error messages can
// both use it without depending on each other.
#include "roofline/number_text.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include "text_writer.hpp"

namespace roofline {

namespace text {

namespace {

constexpr double two_to_53 = 9007199254740992.0;

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
    {0x8dd01fad907ffc3cULL, -980},  {0xd3515c2831559a83ULL, -954},  {0x9d71ac8fada6c9b5ULL, -927},
    {0xea9c227723ee8bcbULL, -901},  {0xaecc49914078536dULL, -874},  {0x823c12795db6ce57ULL, -847},
    {0xc21094364dfb5637ULL, -821},  {0x9096ea6f3848984fULL, -794},  {0xd77485cb25823ac7ULL, -768},
    {0xa086cfcd97bf97f4ULL, -741},  {0xef340a98172aace5ULL, -715},  {0xb23867fb2a35b28eULL, -688},
    {0x84c8d4dfd2c63f3bULL, -661},  {0xc5dd44271ad3cdbaULL, -635},  {0x936b9fcebb25c996ULL, -608},
    {0xdbac6c247d62a584ULL, -582},  {0xa3ab66580d5fdaf6ULL, -555},  {0xf3e2f893dec3f126ULL, -529},
    {0xb5b5ada8aaff80b8ULL, -502},  {0x87625f056c7c4a8bULL, -475},  {0xc9bcff6034c13053ULL, -449},
    {0x964e858c91ba2655ULL, -422},  {0xdff9772470297ebdULL, -396},  {0xa6dfbd9fb8e5b88fULL, -369},
    {0xf8a95fcf88747d94ULL, -343},  {0xb94470938fa89bcfULL, -316},  {0x8a08f0f8bf0f156bULL, -289},
    {0xcdb02555653131b6ULL, -263},  {0x993fe2c6d07b7facULL, -236},  {0xe45c10c42a2b3b06ULL, -210},
    {0xaa242499697392d3ULL, -183},  {0xfd87b5f28300ca0eULL, -157},  {0xbce5086492111aebULL, -130},
    {0x8cbccc096f5088ccULL, -103},  {0xd1b71758e219652cULL, -77},   {0x9c40000000000000ULL, -50},
    {0xe8d4a51000000000ULL, -24},   {0xad78ebc5ac620000ULL, 3},     {0x813f3978f8940984ULL, 30},
    {0xc097ce7bc90715b3ULL, 56},    {0x8f7e32ce7bea5c70ULL, 83},    {0xd5d238a4abe98068ULL, 109},
    {0x9f4f2726179a2245ULL, 136},   {0xed63a231d4c4fb27ULL, 162},   {0xb0de65388cc8ada8ULL, 189},
    {0x83c7088e1aab65dbULL, 216},   {0xc45d1df942711d9aULL, 242},   {0x924d692ca61be758ULL, 269},
    {0xda01ee641a708deaULL, 295},   {0xa26da3999aef774aULL, 322},   {0xf209787bb47d6b85ULL, 348},
    {0xb454e4a179dd1877ULL, 375},   {0x865b86925b9bc5c2ULL, 402},   {0xc83553c5c8965d3dULL, 428},
    {0x952ab45cfa97a0b3ULL, 455},   {0xde469fbd99a05fe3ULL, 481},   {0xa59bc234db398c25ULL, 508},
    {0xf6c69a72a3989f5cULL, 534},   {0xb7dcbf5354e9beceULL, 561},   {0x88fcf317f22241e2ULL, 588},
    {0xcc20ce9bd35c78a5ULL, 614},   {0x98165af37b2153dfULL, 641},   {0xe2a0b5dc971f303aULL, 667},
    {0xa8d9d1535ce3b396ULL, 694},   {0xfb9b7cd9a4a7443cULL, 720},   {0xbb764c4ca7a44410ULL, 747},
    {0x8bab8eefb6409c1aULL, 774},   {0xd01fef10a657842cULL, 800},   {0x9b10a4e5e9913129ULL, 827},
    {0xe7109bfba19c0c9dULL, 853},   {0xac2820d9623bf429ULL, 880},   {0x80444b5e7aa7cf85ULL, 907},
    {0xbf21e44003acdd2dULL, 933},   {0x8e679c2f5e44ff8fULL, 960},   {0xd433179d9c8cb841ULL, 986},
    {0x9e19db92b4e31ba9ULL, 1013},  {0xeb96bf6ebadf77d9ULL, 1039},  {0xaf87023b9bf0ee6bULL, 1066},
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

}  // namespace

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

}  // namespace text

std::string format_number(double value) {
  // the shortest text that reads back as the same double, in JavaScript's layout (2.5, 1.5e-7,
  // 1e+300); no printf: smaller in WebAssembly
  std::string out;
  text::Writer writer(out);
  text::append_number(value, writer);
  writer.finish();
  return out;
}

std::string format_rounded(double value) {
  // four significant digits: 401.9, 0.01235, 1.235e+7
  if (!std::isfinite(value) || value == 0) return format_number(value);
  // scale by an exact power of ten, dividing or multiplying by it so the result is the double
  // nearest the rounded decimal
  const int e = int(std::floor(std::log10(std::fabs(value))));
  if (e >= 3) {
    const double p = std::pow(10.0, e - 3);
    return format_number(std::round(value / p) * p);
  }
  const double p = std::pow(10.0, 3 - e);
  return format_number(std::round(value * p) / p);
}

}  // namespace roofline
