// The published measurements (core/catalog/measurements/): each names a catalog model, format and
// device, says where it is published and under what conditions, and lands below the lesson's
// ceiling for the same run (a measurement above it would be a wrong figure or a wrong ceiling).
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "roofline/api.hpp"
#include "roofline/catalog.hpp"

using roofline::api::Value;

TEST_CASE("every measurement names what the catalog has, says where it comes from, and lands below its ceiling") {
  const auto all = roofline::measurements();
  REQUIRE(all.size() >= 4);
  std::set<std::string> ids;
  for (const roofline::Measurement& m : all) {
    INFO(m.id);
    CHECK(ids.insert(m.id).second);
    CHECK_NOTHROW(roofline::find_model(m.model));
    CHECK_NOTHROW(roofline::find_format(m.format));
    CHECK_NOTHROW(roofline::find_gpu(m.gpu));
    CHECK(m.url.rfind("https://", 0) == 0);
    CHECK(m.source.size() > 80);  // the table, row and column, and the run's conditions
    CHECK(!m.engine.empty());
    CHECK(m.date.size() == 7);
    CHECK(m.batch >= 1);
    CHECK(m.generated_tokens >= 1);
  }
  const Value list = roofline::api::call("measurements", Value::object());
  REQUIRE(list.items().size() == all.size());
  for (const Value& e : list.items()) {
    INFO(e.get("id").string());
    const double fraction = e.get("fractionOfCeiling").number();
    CHECK(fraction > 0.3);
    CHECK(fraction < 1.0);
    CHECK(e.get("tokensPerSecond").number() == Approx(fraction * e.get("ceilingTokensPerSecond").number()));
  }
}

TEST_CASE(
    "a measurement's ceiling is the lesson's: the devices' bandwidth over the weights in its format, times the batch") {
  const Value list = roofline::api::call("measurements", Value::object());
  bool seen = false;
  for (const Value& e : list.items()) {
    if (e.get("id").string() != "llamacpp-rtx-4090-llama3-8b-f16") continue;
    seen = true;
    // Llama 3 8B in FP16: the lesson's 16.06 GB; an RTX 4090 reads 1,008 GB/s
    const double weights =
        roofline::model_weights(roofline::find_model("llama3-8b"), roofline::find_format("fp16")).bytes.value();
    CHECK(weights == Approx(16.06e9).epsilon(0.001));
    CHECK(e.get("ceilingTokensPerSecond").number() == Approx(1008e9 / weights));
    CHECK(e.get("tokensPerSecond").number() == 54.84);
    CHECK(e.get("fractionOfCeiling").number() == Approx(54.84 / (1008e9 / weights)));
  }
  CHECK(seen);
}
