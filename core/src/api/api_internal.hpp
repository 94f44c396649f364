// Inside the API (core/src/api/): how one call is read, checked, run and answered. Private to
// the core: api.hpp is the public surface.
//
//   dispatch.cpp     call(): arguments checked against the table, the function run, its result checked
//   marshal.cpp      Args (reading arguments) and the values results are written as
//   table_*.cpp      the table, one file per domain, in documentation order
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/api.hpp"
#include "roofline/architecture.hpp"
#include "roofline/batching.hpp"
#include "roofline/catalog.hpp"
#include "roofline/error.hpp"
#include "roofline/exercises.hpp"
#include "roofline/inside.hpp"
#include "roofline/json.hpp"
#include "roofline/llm.hpp"
#include "roofline/matrix.hpp"
#include "roofline/parallel.hpp"
#include "roofline/precision.hpp"
#include "roofline/roofline.hpp"
#include "roofline/serving.hpp"
#include "roofline/speculative.hpp"
#include "roofline/step.hpp"
#include "roofline/training.hpp"

namespace roofline::api::detail {

using json::parse_strict_json;

class Args {
 public:
  explicit Args(const Value& v) : v_(v) {
    if (!v.is(Value::Kind::object)) {
      throw Error(ErrorCode::missing_field, "", "expected one object of named arguments, got " + describe(v));
    }
  }

  [[nodiscard]] bool has(std::string_view key) const { return v_.find(key) != nullptr; }

  [[nodiscard]] const Value& raw(std::string_view key) const {
    const Value* f = v_.find(key);
    if (!f) throw Error(ErrorCode::missing_field, std::string(key), std::string(key) + " is required");
    return *f;
  }

  [[nodiscard]] double number(std::string_view key) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::number)) {
      throw Error(ErrorCode::not_a_number, std::string(key),
                  std::string(key) + " must be a number, got " + describe(f));
    }
    return require_finite(key, f.number());
  }

  [[nodiscard]] double number_or(std::string_view key, double fallback) const {
    return has(key) ? number(key) : fallback;
  }

  [[nodiscard]] std::string text(std::string_view key, ErrorCode wrong_kind, std::string_view rule) const {
    const Value& f = raw(key);
    if (!f.is(Value::Kind::string)) {
      throw Error(wrong_kind, std::string(key),
                  std::string(key) + " must be " + std::string(rule) + ", got " + describe(f));
    }
    return f.string();
  }

  [[nodiscard]] Dtype dtype(std::string_view key) const {
    return parse_dtype(text(key, ErrorCode::unknown_dtype, "one of fp32, tf32, fp16, bf16, fp8, int8, int4"), key);
  }

  [[nodiscard]] Dtype dtype_or(std::string_view key, Dtype fallback) const { return has(key) ? dtype(key) : fallback; }

  [[nodiscard]] Matrix matrix(std::string_view key) const {
    const Value& f = raw(key);
    const std::string name(key);
    if (!f.is(Value::Kind::array)) {
      throw Error(ErrorCode::ragged_matrix, name, name + " must be a list of rows, got " + describe(f));
    }
    std::vector<std::vector<double>> rows;
    for (const Value& row : f.items()) {
      if (!row.is(Value::Kind::array)) {
        throw Error(ErrorCode::ragged_matrix, name, name + " must be a list of rows, each a list of numbers");
      }
      std::vector<double>& out = rows.emplace_back();
      for (const Value& x : row.items()) {
        if (!x.is(Value::Kind::number)) {
          throw Error(ErrorCode::not_a_number, name, name + " must hold numbers, got " + describe(x));
        }
        out.push_back(x.number());
      }
    }
    return Matrix::from_rows(rows, key);
  }

 private:
  const Value& v_;
};

struct ModelRef {
  const Model* catalog = nullptr;
  std::optional<Architecture> architecture;
  [[nodiscard]] bool lesson_figures() const { return catalog && (catalog->lesson_figures || !architecture); }
  /// The format named by argument `key`, else the catalog model's own, else BF16.
  [[nodiscard]] const WeightFormat& format(const Args& a, std::string_view key = "format") const {
    if (a.has(key)) return find_format(a.text(key, ErrorCode::unknown_format, "a format id"), key);
    return find_format(catalog ? std::string_view(catalog->format) : std::string_view("bf16"), key);
  }
  [[nodiscard]] ModelWeights weights(const WeightFormat& f) const {
    return lesson_figures() ? model_weights(*catalog, f) : architecture_weights(*architecture, f);
  }
  /// Weight bytes one step of `batch` reads: the lesson's rule (all of them) for its own figures.
  [[nodiscard]] Bytes read_per_step(const WeightFormat& f, double batch) const {
    return lesson_figures() ? weights(f).bytes : weights_read_per_step(*architecture, f, batch);
  }
  [[nodiscard]] Dtype kv_dtype(const Args& a) const {
    if (a.has("kvDtype")) return a.dtype("kvDtype");
    return catalog && catalog->dtype ? *catalog->dtype : Dtype::bf16;
  }
  [[nodiscard]] double flops_params() const {
    return lesson_figures() ? catalog->params : param_counts(*architecture).active;
  }
};

Value matrix_rows_value(const std::vector<std::vector<double>>& rows);
Value gpu_value(const Gpu& g);
Value model_value(const Model& m);
Device device_arg(const Args& a);
Value clocks_value(const Clocks& c);
Value matmul_value(const MatmulCost& c);
Value format_value(const WeightFormat& f);
Value case_value(const LessonCase& c);
const Gpu& gpu_arg(const Args& a, std::string_view key);
const Model& model_arg(const Args& a, std::string_view key);
ModelRef model_ref(const Args& a, std::string_view key);
Bytes model_kv_bytes(const ModelRef& r, double tokens, Dtype kv_dtype);
Phase phase_arg(const Args& a, std::string_view key);
bool flag_arg(const Args& a, std::string_view key);
Value step_value(Step st);
Value config_model_value(const Architecture& arch, const WeightFormat& f, Dtype kv_dtype, double batch, double tokens);
void override_case_values(LessonCase& c, const Value& values);
Value case_args(const LessonCase& c, const std::vector<std::string_view>& takes);
Value instance_value(const ExerciseInstance& e);
std::uint64_t seed_arg(const Args& a);
int item_id(const Args& a, int count, const char* what);
Value check_value(const ExerciseInstance& e, const Value& answers);

/// Under tensor parallelism: the link a call names (`link`), else its GPU's own
/// (core/catalog/devices/), with `linkBytesPerSecond` and `linkLatencySeconds` replacing its
/// figures (both of them where there is no link); none where nothing is given.
std::optional<LinkFigures> link_arg(const Args& a, const Gpu* gpu);
/// A step's all-reduces on `gpus` GPUs: none on one GPU (0 s), not counted (nullopt) with more
/// and no link or no shape (layers or hidden 0: a model without an architecture, or none).
std::optional<TensorParallel> communication(double gpus, const std::optional<LinkFigures>& link, double layers,
                                            double hidden, double tokens, Dtype activation_dtype);
Value link_value(const Link& l);
/// A prompt's causal attention from a model's architecture (out_range, field "model", without one).
CausalAttention model_attention(const ModelRef& r);

using Handler = Value (*)(const Args&);

/// What an argument must be. Numbers are checked by the core function that takes them; the kind
/// documents the rule (and tests/ check that each rule is enforced).
enum class Kind {
  count,
  count_or_zero,
  positive,
  non_negative,
  fraction,
  number,
  dtype,
  gpu,
  model,
  model_ref,
  config,
  format,
  stage,
  lesson_case,
  function,
  case_values,
  answers,
  matrix,
  phase,
  flag,
  link,
  draft_ref  ///< a model_ref, or 'mtp': the target's own multi-token-prediction modules
};

struct Arg {
  std::string_view name;
  Kind kind;
  std::string_view unit;  ///< "FLOPs", "FLOPS", "bytes", "bytes/s", "s", "FLOPs/byte", "" for counts and ids
  bool optional = false;
  /// What an optional argument left out stands for, as JavaScript ("1", "'bf16'"), where the function
  /// documents it (rl.functions() and the signatures of docs/api.md show it; the function applies it).
  std::string_view fallback = {};
};

/// One API function: what it does (a doc comment, or ""), its arguments, the TypeScript name of its
/// result (of each item, for lists) and that result's fields, and the code that runs it. The fields
/// are written as the members of a TypeScript interface: "name: type" ("name?: type" where the
/// field may be absent, a type ending in "| null" where it is present but may be null, "*: type"
/// for an object whose keys vary), separated by "; ", each after its doc comment where it has one
/// ("/** What it is. */ name: type"). wasm/dts.mjs writes wasm/roofline.d.ts from this table: a
/// result type whose name ends in "Result" is declared there from these fields, any other (Gpu,
/// Model, ...) by hand in wasm/roofline.d.ts.in, and tests/ check that both agree with the fields
/// and with what the functions return.
/// A fixed-size array of arguments, unused entries empty, and the fields in one text, so that the
/// whole table is constant data (built by the compiler, not by code at run time).
struct Function {
  std::string_view name;
  std::string_view doc;
  Arg arg_slots[18];
  std::string_view type;
  std::string_view fields;
  bool list;
  Handler run;

  [[nodiscard]] std::span<const Arg> args() const {
    std::size_t n = 0;
    while (n < std::size(arg_slots) && !arg_slots[n].name.empty()) ++n;
    return {arg_slots, n};
  }
};

/// The fields of one catalog entry, shared by its list and its lookup (gpus and gpu, models and model).
constexpr std::string_view gpu_fields =
    "id: string; name: string; year: number; kind: DeviceKind; lesson: boolean; memoryBytes: number; "
    "bytesPerSecond: number; gpuMemoryShare?: number; usableMemoryBytes: number; "
    "peakFlopsPerSecond: PeakFlopsPerSecond; pricePerHourUsd?: number; link?: string; source: string";
constexpr std::string_view model_fields =
    "id: string; name: string; kind: 'llm' | 'cnn'; params: number; format: string; keptParams: number; "
    "bitsPerWeight: number; weightBytes: number; dtype?: Dtype; layers?: number; kvHeads?: number; "
    "headDim?: number; macsPerExample?: number; flopsPerExample?: number; workingMacsPerExample?: number; "
    "workingFlopsPerExample?: number; stages?: Stage[]; lesson: boolean; activeParams?: number; "
    "embeddingParams?: number; kvBytesPerToken?: number; architecture?: Architecture; publishedParams?: number; "
    "publishedActiveParams?: number; activeConvention?: 'with-input-embedding' | 'without-input-embedding'; "
    "source: string";

constexpr bool object = false, list = true;
constexpr bool opt = true;

/// The table, by domain; dispatch.cpp joins them in this order.
std::span<const Function> catalog_functions();
std::span<const Function> step_functions();
std::span<const Function> lesson_functions();
std::span<const Function> basics_functions();
std::span<const Function> llm_functions();
std::span<const Function> serving_functions();
std::span<const Function> kernels_functions();

/// The whole table, in documentation order (call() and function_names() number it from 0).
const std::vector<Function>& table();

/// The table as rl.functions() returns it (the "functions" entry).
Value functions_value();

}  // namespace roofline::api::detail
