// Units as types: a count of FLOPs is not a rate of FLOP/s, a MAC is not a FLOP, bytes are not
// bytes per second. Each quantity wraps one double in its base unit; only the operations that
// mean something compile.
//
//   Flops work{65'536'000};
//   FlopsPerSecond t4{65e12};
//   Seconds floor = work / t4;          // 1.008e-6 s
//   auto nonsense = work + Bytes{2};    // does not compile
#pragma once

#include <compare>

namespace roofline {

namespace detail {
struct flops_tag {};
struct macs_tag {};
struct bytes_tag {};
struct seconds_tag {};
struct flops_per_second_tag {};
struct bytes_per_second_tag {};
struct flops_per_byte_tag {};
}  // namespace detail

/// One value of one kind, in the kind's base unit. Same-kind values add, subtract and compare;
/// a same-kind ratio is a plain number; scaling by a plain number keeps the kind.
template <class Tag>
class Quantity {
 public:
  constexpr Quantity() = default;
  constexpr explicit Quantity(double value) : value_(value) {}
  [[nodiscard]] constexpr double value() const { return value_; }

  friend constexpr Quantity operator+(Quantity a, Quantity b) { return Quantity{a.value_ + b.value_}; }
  friend constexpr Quantity operator-(Quantity a, Quantity b) { return Quantity{a.value_ - b.value_}; }
  friend constexpr Quantity operator*(Quantity a, double s) { return Quantity{a.value_ * s}; }
  friend constexpr Quantity operator*(double s, Quantity a) { return Quantity{a.value_ * s}; }
  friend constexpr Quantity operator/(Quantity a, double s) { return Quantity{a.value_ / s}; }
  /// Same-kind ratio: how many times one fits in the other (a plain number).
  friend constexpr double operator/(Quantity a, Quantity b) { return a.value_ / b.value_; }
  friend constexpr auto operator<=>(Quantity a, Quantity b) = default;

 private:
  double value_ = 0.0;
};

/// Floating-point operations: a count (FLOPs, lower-case s).
using Flops = Quantity<detail::flops_tag>;
/// Multiply-accumulates: a count; 1 MAC = 2 FLOPs, converted only by to_flops().
using Macs = Quantity<detail::macs_tag>;
/// Bytes: a count of memory.
using Bytes = Quantity<detail::bytes_tag>;
/// Seconds: a duration.
using Seconds = Quantity<detail::seconds_tag>;
/// FLOP/s: a rate (FLOPS, upper-case S, in datasheets).
using FlopsPerSecond = Quantity<detail::flops_per_second_tag>;
/// Bytes per second: a memory bandwidth.
using BytesPerSecond = Quantity<detail::bytes_per_second_tag>;
/// FLOPs per byte: an arithmetic intensity, or a machine's ridge point.
using FlopsPerByte = Quantity<detail::flops_per_byte_tag>;

/// The one explicit conversion between MACs and FLOPs: a MAC is a multiply and an add.
constexpr Flops to_flops(Macs macs) { return Flops{2.0 * macs.value()}; }

// Rates and durations.
constexpr Seconds operator/(Flops f, FlopsPerSecond r) { return Seconds{f.value() / r.value()}; }
constexpr Seconds operator/(Bytes b, BytesPerSecond r) { return Seconds{b.value() / r.value()}; }
constexpr FlopsPerSecond operator/(Flops f, Seconds s) { return FlopsPerSecond{f.value() / s.value()}; }
constexpr BytesPerSecond operator/(Bytes b, Seconds s) { return BytesPerSecond{b.value() / s.value()}; }
constexpr Flops operator*(FlopsPerSecond r, Seconds s) { return Flops{r.value() * s.value()}; }
constexpr Flops operator*(Seconds s, FlopsPerSecond r) { return r * s; }
constexpr Bytes operator*(BytesPerSecond r, Seconds s) { return Bytes{r.value() * s.value()}; }
constexpr Bytes operator*(Seconds s, BytesPerSecond r) { return r * s; }

// Intensity.
constexpr FlopsPerByte operator/(Flops f, Bytes b) { return FlopsPerByte{f.value() / b.value()}; }
constexpr FlopsPerByte operator/(FlopsPerSecond f, BytesPerSecond b) { return FlopsPerByte{f.value() / b.value()}; }
constexpr FlopsPerSecond operator*(FlopsPerByte i, BytesPerSecond b) { return FlopsPerSecond{i.value() * b.value()}; }
constexpr FlopsPerSecond operator*(BytesPerSecond b, FlopsPerByte i) { return i * b; }
constexpr Flops operator*(FlopsPerByte i, Bytes b) { return Flops{i.value() * b.value()}; }
constexpr Flops operator*(Bytes b, FlopsPerByte i) { return i * b; }

/// Decimal prefixes, as datasheets and the lesson use them: 1 GB = 10⁹ B, 1 TFLOP/s = 10¹² FLOP/s.
namespace si {
inline constexpr double kilo = 1e3;
inline constexpr double mega = 1e6;
inline constexpr double giga = 1e9;
inline constexpr double tera = 1e12;
inline constexpr double peta = 1e15;
}  // namespace si

/// Binary prefix, only where a size is named in GiB: 1 GiB = 2³⁰ B ≈ 1.074 GB.
inline constexpr double gibi = 1073741824.0;

constexpr Bytes gigabytes(double gb) { return Bytes{gb * si::giga}; }
constexpr Bytes gibibytes(double gib) { return Bytes{gib * gibi}; }
constexpr BytesPerSecond gigabytes_per_second(double gb_s) { return BytesPerSecond{gb_s * si::giga}; }
constexpr FlopsPerSecond teraflops_per_second(double tflop_s) { return FlopsPerSecond{tflop_s * si::tera}; }

}  // namespace roofline
