#include <catch2/catch.hpp>
#include <concepts>

#include "roofline/units.hpp"

using namespace roofline;

namespace {
template <class A, class B>
concept Addable = requires(A a, B b) {
  a + b;
};
template <class A, class B>
concept Divisible = requires(A a, B b) {
  a / b;
};
template <class A, class B>
concept Multipliable = requires(A a, B b) {
  a* b;
};
template <class From, class To>
concept ConvertsTo = std::convertible_to<From, To>;
}  // namespace

// Mixing kinds does not compile: each line below would be a compile error if written out.
static_assert(!Addable<Flops, Macs>, "FLOPs + MACs must not compile: convert with to_flops()");
static_assert(!Addable<Flops, Bytes>, "FLOPs + bytes must not compile");
static_assert(!Addable<Flops, FlopsPerSecond>, "a count plus a rate must not compile");
static_assert(!Addable<Bytes, BytesPerSecond>, "bytes + bytes/s must not compile");
static_assert(!Addable<Flops, double>, "a plain number is not a count of FLOPs");
static_assert(!ConvertsTo<Macs, Flops>, "MACs never become FLOPs implicitly");
static_assert(!ConvertsTo<double, Flops>, "a double becomes FLOPs only explicitly");
static_assert(!ConvertsTo<Flops, double>, "FLOPs leave their type only through value()");
static_assert(!Divisible<Macs, FlopsPerSecond>, "MACs ÷ FLOP/s must not compile (the factor-2 mistake)");
static_assert(!Divisible<Flops, BytesPerSecond>, "FLOPs ÷ bytes/s must not compile");
static_assert(!Divisible<Bytes, FlopsPerSecond>, "bytes ÷ FLOP/s must not compile");
static_assert(!Multipliable<Flops, Bytes>, "FLOPs × bytes means nothing");
static_assert(!Multipliable<FlopsPerByte, FlopsPerSecond>, "intensity × FLOP/s means nothing");

// The meaningful operations have the right kind.
static_assert(std::same_as<decltype(Flops{} / FlopsPerSecond{}), Seconds>);
static_assert(std::same_as<decltype(Bytes{} / BytesPerSecond{}), Seconds>);
static_assert(std::same_as<decltype(Flops{} / Bytes{}), FlopsPerByte>);
static_assert(std::same_as<decltype(FlopsPerSecond{} / BytesPerSecond{}), FlopsPerByte>);
static_assert(std::same_as<decltype(FlopsPerByte{} * BytesPerSecond{}), FlopsPerSecond>);
static_assert(std::same_as<decltype(Flops{} / Seconds{}), FlopsPerSecond>);
static_assert(std::same_as<decltype(Bytes{} / Seconds{}), BytesPerSecond>);
static_assert(std::same_as<decltype(Flops{} / Flops{}), double>);

TEST_CASE("1 MAC = 2 FLOPs, only through to_flops") {
  static_assert(to_flops(Macs{12}).value() == 24);
  CHECK(to_flops(Macs{32'768'000}).value() == 65'536'000);
}

TEST_CASE("FLOPs ÷ FLOP/s gives seconds: the T4 floor for one ResNet-50 photo is ≈ 0.126 ms") {
  const Seconds t = Flops{8.2e9} / teraflops_per_second(65);
  CHECK(t.value() == Approx(0.126e-3).epsilon(0.002));
}

TEST_CASE("decimal prefixes: 1 GB = 1e9 bytes, 1 GiB = 2^30 bytes") {
  CHECK(gigabytes(16.06).value() == Approx(16.06e9).epsilon(1e-15));
  CHECK(gibibytes(1).value() == 1073741824.0);
  CHECK(gibibytes(1) > gigabytes(1));
  CHECK(gigabytes_per_second(320).value() == 320e9);
  CHECK(teraflops_per_second(65).value() == 65e12);
}

TEST_CASE("same-kind arithmetic and comparison") {
  CHECK((Bytes{3} + Bytes{4}).value() == 7);
  CHECK((Bytes{3} - Bytes{4}).value() == -1);
  CHECK((Bytes{3} * 2.0).value() == 6);
  CHECK((2.0 * Bytes{3}).value() == 6);
  CHECK((Bytes{3} / 2.0).value() == 1.5);
  CHECK(Bytes{3} / Bytes{6} == 0.5);
  CHECK(Flops{1} < Flops{2});
  CHECK(Seconds{2} == Seconds{2});
}

TEST_CASE("intensity × bandwidth is the memory-fed rate: 1 FLOP/B × 320 GB/s = 0.32 TFLOP/s") {
  const FlopsPerSecond fed = FlopsPerByte{1} * gigabytes_per_second(320);
  CHECK(fed.value() == 0.32e12);
  CHECK((gigabytes_per_second(320) * FlopsPerByte{1}).value() == 0.32e12);
  CHECK((FlopsPerSecond{2} * Seconds{3}).value() == 6);
  CHECK((BytesPerSecond{2} * Seconds{3}).value() == 6);
  CHECK((FlopsPerByte{2} * Bytes{3}).value() == 6);
}
