#include <catch2/catch.hpp>

#include "roofline/dtype.hpp"
#include "roofline/error.hpp"

using namespace roofline;

TEST_CASE("bytes per element: FP32 4, TF32 4, FP16 2, BF16 2, FP8 1, INT8 1, INT4 0.5") {
  static_assert(bytes_per_element(Dtype::fp32) == 4);
  static_assert(bytes_per_element(Dtype::tf32) == 4);
  static_assert(bytes_per_element(Dtype::fp16) == 2);
  static_assert(bytes_per_element(Dtype::bf16) == 2);
  static_assert(bytes_per_element(Dtype::fp8) == 1);
  static_assert(bytes_per_element(Dtype::int8) == 1);
  static_assert(bytes_per_element(Dtype::int4) == 0.5);
}

TEST_CASE("integer formats are rated in OPS, floating ones in FLOPS: INT8 and INT4 are integers") {
  for (Dtype d : all_dtypes) CHECK(is_integer(d) == (d == Dtype::int8 || d == Dtype::int4));
  static_assert(is_integer(Dtype::int8) && !is_integer(Dtype::fp8) && !is_integer(Dtype::bf16));
}

TEST_CASE("the C01 last layer's weights take 2,048,000 bytes in FP16") {
  CHECK(bytes_of(2048.0 * 500, Dtype::fp16).value() == 2'048'000);
}

TEST_CASE("every dtype id parses back to itself") {
  for (Dtype d : all_dtypes) CHECK(parse_dtype(dtype_id(d)) == d);
  CHECK(dtype_name(Dtype::bf16) == "BF16");
}

TEST_CASE("unknown dtype names are refused with the list of known ones") {
  for (const char* bad : {"", "FP16", "float16", "int2", "fp16 "}) {
    try {
      parse_dtype(bad, "keptDtype");
      FAIL("accepted " << bad);
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::unknown_dtype);
      CHECK(e.field() == "keptDtype");
      CHECK_THAT(e.what(), Catch::Contains("fp32, tf32, fp16, bf16, fp8, int8, int4"));
    }
  }
}
