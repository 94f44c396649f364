// The API table, FLOPs, bytes and the two clocks: matrices, rooflines, throughput and costs (docs/api.md).
#include "api_internal.hpp"

namespace roofline::api::detail {

std::span<const Function> basics_functions() {
  static constexpr Function functions[] = {
      {"multiply",
       "",
       {{"a", Kind::matrix, ""}, {"b", Kind::matrix, ""}},
       "MultiplyResult",
       "c: number[][]; rows: number; cols: number; inner: number; macs: number; flops: number",
       object,
       [](const Args& a) {
         const Matrix ma = a.matrix("a");
         const Matrix mb = a.matrix("b");
         const MultiplyResult r = multiply(ma, mb);
         return Value::object()
             .set("c", matrix_rows_value(r.c.to_rows()))
             .set("rows", double(r.c.rows()))
             .set("cols", double(r.c.cols()))
             .set("inner", double(ma.cols()))
             .set("macs", r.macs.value())
             .set("flops", to_flops(r.macs).value());
       }},
      {"matmul",
       "",
       {{"n", Kind::count, ""}, {"k", Kind::count, ""}, {"m", Kind::count, ""}, {"dtype", Kind::dtype, ""}},
       "MatmulResult",
       "rows: number; cols: number; outputElements: number; macs: number; flops: number; bytes: number; "
       "flopsPerByte: number",
       object,
       [](const Args& a) {
         const double n = a.number("n"), k = a.number("k"), m = a.number("m");
         return matmul_value(matmul_cost(n, k, m, a.dtype("dtype")));
       }},
      {"timeAtPeak",
       "",
       {{"flops", Kind::positive, "FLOPs"}, {"peakFlopsPerSecond", Kind::positive, "FLOPS"}},
       "TimeAtPeakResult",
       "seconds: number; perSecond: number",
       object,
       [](const Args& a) {
         const Flops flops{a.number("flops")};
         const AtPeak r = time_at_peak(flops, FlopsPerSecond{a.number("peakFlopsPerSecond")});
         return Value::object().set("seconds", r.seconds.value()).set("perSecond", r.per_second);
       }},
      {"roofline",
       "",
       {{"peakFlopsPerSecond", Kind::positive, "FLOPS"},
        {"bytesPerSecond", Kind::positive, "bytes/s"},
        {"flopsPerByte", Kind::positive, "FLOPs/byte"}},
       "RooflineResult",
       "ridgeFlopsPerByte: number; memoryFlopsPerSecond: number; attainableFlopsPerSecond: number; "
       "fractionOfPeak: number; intensityOverRidge: number; bound: Bound",
       object,
       [](const Args& a) {
         const Device d = device_arg(a);
         const RooflinePoint p = roofline_point(d, FlopsPerByte{a.number("flopsPerByte")});
         return Value::object()
             .set("ridgeFlopsPerByte", p.ridge.value())
             .set("memoryFlopsPerSecond", p.memory_fed.value())
             .set("attainableFlopsPerSecond", p.attainable.value())
             .set("fractionOfPeak", p.fraction_of_peak)
             .set("intensityOverRidge", p.intensity_over_ridge)
             .set("bound", std::string(bound_id(p.bound)));
       }},
      {"clocks",
       "",
       {{"flops", Kind::positive, "FLOPs"},
        {"bytes", Kind::positive, "bytes"},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS"},
        {"bytesPerSecond", Kind::positive, "bytes/s"}},
       "ClocksResult",
       "computeSeconds: number; memorySeconds: number; seconds: number; flopsPerByte: number; "
       "ridgeFlopsPerByte: number; bound: Bound",
       object,
       [](const Args& a) {
         const Flops f{a.number("flops")};
         const Bytes b{a.number("bytes")};
         return clocks_value(clocks(f, b, device_arg(a)));
       }},
      {"utilization",
       "",
       {{"achievedFlopsPerSecond", Kind::non_negative, "FLOPS"}, {"peakFlopsPerSecond", Kind::positive, "FLOPS"}},
       "UtilizationResult",
       "fraction: number; possible: boolean",
       object,
       [](const Args& a) {
         const FlopsPerSecond achieved{a.number("achievedFlopsPerSecond")};
         const Utilization u = utilization(achieved, FlopsPerSecond{a.number("peakFlopsPerSecond")});
         return Value::object().set("fraction", u.fraction).set("possible", u.possible);
       }},
      {"throughput",
       "",
       {{"flopsPerItem", Kind::positive, "FLOPs"},
        {"itemsPerSecond", Kind::non_negative, "1/s"},
        {"peakFlopsPerSecond", Kind::positive, "FLOPS"},
        {"gpus", Kind::count, "", opt}},
       "ThroughputResult",
       "achievedFlopsPerSecond: number; peakFlopsPerSecond: number; fraction: number; possible: boolean; "
       "secondsPerItemAtPeak: number; "
       "ceilingItemsPerSecond: number",
       object,
       [](const Args& a) {
         const Flops per_item{a.number("flopsPerItem")};
         const double items_per_second = a.number("itemsPerSecond");
         // over several GPUs the peak is theirs together (C10's two H100)
         const double gpus = require_count("gpus", a.number_or("gpus", 1));
         const FlopsPerSecond peak{require_result("peakFlopsPerSecond", a.number("peakFlopsPerSecond") * gpus)};
         const Throughput t = throughput(per_item, items_per_second, peak);
         return Value::object()
             .set("achievedFlopsPerSecond", t.achieved.value())
             .set("peakFlopsPerSecond", t.peak.value())
             .set("fraction", t.utilization.fraction)
             .set("possible", t.utilization.possible)
             .set("secondsPerItemAtPeak", t.seconds_per_item_at_peak.value())
             .set("ceilingItemsPerSecond", t.ceiling_items_per_second);
       }},
      {"totalWork",
       "",
       {{"flopsPerItem", Kind::positive, "FLOPs"},
        {"items", Kind::positive, ""},
        {"itemsPerSecond", Kind::non_negative, "1/s", opt}},
       "TotalWorkResult",
       "flops: number; seconds: number",
       object,
       [](const Args& a) {
         const Flops per_item{a.number("flopsPerItem")};
         const double items = a.number("items");
         const TotalWork w = total_work(per_item, items, a.number_or("itemsPerSecond", 0));
         return Value::object().set("flops", w.flops.value()).set("seconds", w.seconds.value());
       }},
      {"rentalCost",
       "",
       {{"pricePerHourUsd", Kind::positive, "USD/h"}, {"gpus", Kind::count, ""}, {"hours", Kind::positive, "h"}},
       "RentalCostResult",
       "usd: number",
       object,
       [](const Args& a) {
         const double price = a.number("pricePerHourUsd");
         const double gpus = a.number("gpus");
         return Value::object().set("usd", rental_cost_usd(price, gpus, a.number("hours")));
       }},
      {"dailyLoad",
       "A day's items spread over GPUs against each GPU's measured rate (C01: ≈ 5 % load).",
       {{"items", Kind::count, ""}, {"gpus", Kind::count, ""}, {"itemsPerSecond", Kind::positive, "1/s"}},
       "DailyLoadResult",
       "arrivalsPerSecond: number; arrivalsPerSecondPerGpu: number; load: number",
       object,
       [](const Args& a) {
         const DailyLoad l = daily_load(a.number("items"), a.number("gpus"), a.number("itemsPerSecond"));
         return Value::object()
             .set("arrivalsPerSecond", l.items_per_second)
             .set("arrivalsPerSecondPerGpu", l.items_per_second_per_gpu)
             .set("load", l.load);
       }},
      {"gpusNeeded",
       "GPUs for a demanded rate at a rate per GPU: the next whole GPU.",
       {{"demandItemsPerSecond", Kind::positive, "1/s"}, {"itemsPerSecond", Kind::positive, "1/s"}},
       "GpusNeededResult",
       "exactGpus: number; gpus: number",
       object,
       [](const Args& a) {
         const GpusNeeded g = gpus_needed(a.number("demandItemsPerSecond"), a.number("itemsPerSecond"));
         return Value::object().set("exactGpus", g.exact).set("gpus", g.gpus);
       }},
      {"perSecond",
       "One item every `seconds`, as a rate (a 50 ms TPOT is 20 tokens/s).",
       {{"seconds", Kind::positive, "s"}},
       "PerSecondResult",
       "perSecond: number",
       object,
       [](const Args& a) { return Value::object().set("perSecond", per_second(Seconds{a.number("seconds")})); }},
      {"framePixels",
       "A screen's pixels, and per second at a frame rate.",
       {{"width", Kind::count, ""}, {"height", Kind::count, ""}, {"framesPerSecond", Kind::positive, "1/s"}},
       "FramePixelsResult",
       "pixels: number; pixelsPerSecond: number",
       object,
       [](const Args& a) {
         const FramePixels f = frame_pixels(a.number("width"), a.number("height"), a.number("framesPerSecond"));
         return Value::object().set("pixels", f.pixels).set("pixelsPerSecond", f.per_second);
       }},
  };
  return functions;
}

}  // namespace roofline::api::detail
