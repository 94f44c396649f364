// Matrices: the shape rule, the reference multiply, and what a matmul costs.
//
//   Matrix a{{2, 1, 3}, {1, 0, 2}};                 // purchases: 2 × 3
//   Matrix b{{50, 200}, {120, 100}, {15, 50}};      // price and grams: 3 × 2
//   auto [c, macs] = multiply(a, b);                // c = {{265, 650}, {80, 300}}, 12 MACs
//   matmul_cost(32, 2048, 500, Dtype::fp16).flops;  // 65,536,000 FLOPs
#pragma once

#include <cstddef>
#include <initializer_list>
#include <vector>

#include "roofline/dtype.hpp"
#include "roofline/units.hpp"

namespace roofline {

/// A rows × cols shape.
struct Shape {
  double rows = 0;
  double cols = 0;
  friend bool operator==(const Shape&, const Shape&) = default;
};

/// (n × k)·(k × m) → n × m; throws shape_mismatch when the inner sizes differ.
Shape product_shape(Shape a, Shape b);

/// A dense row-major matrix of doubles. Every row has the same length, at least one element.
class Matrix {
 public:
  Matrix(std::size_t rows, std::size_t cols);  // zeros
  Matrix(std::initializer_list<std::initializer_list<double>> rows);
  /// From rows of possibly different lengths: throws ragged_matrix naming `field` unless all
  /// rows have the same, non-zero length, and not_finite on a NaN or infinite element.
  static Matrix from_rows(const std::vector<std::vector<double>>& rows, std::string_view field);
  /// The rows, as from_rows() takes them.
  [[nodiscard]] std::vector<std::vector<double>> to_rows() const;

  [[nodiscard]] std::size_t rows() const { return rows_; }
  [[nodiscard]] std::size_t cols() const { return cols_; }
  [[nodiscard]] Shape shape() const { return {double(rows_), double(cols_)}; }
  double& operator()(std::size_t r, std::size_t c) { return data_[r * cols_ + c]; }
  double operator()(std::size_t r, std::size_t c) const { return data_[r * cols_ + c]; }
  friend bool operator==(const Matrix&, const Matrix&) = default;

 private:
  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
  std::vector<double> data_;
};

struct MultiplyResult {
  Matrix c;
  Macs macs;  ///< counted one by one in the innermost loop
};

/// The most MACs multiply() performs: it is a teaching loop, not a fast kernel.
inline constexpr double max_reference_macs = 1e8;

/// The lesson's naive triple loop: each C[i][j] accumulates A[i][t]·B[t][j], one MAC at a time.
/// Throws shape_mismatch when the inner sizes differ, too_large beyond max_reference_macs.
MultiplyResult multiply(const Matrix& a, const Matrix& b);

/// What multiplying (n × k)·(k × m) costs in a dtype, reading A and B once and writing C once.
struct MatmulCost {
  Shape result;            ///< n × m
  Macs macs;               ///< n·m·k
  Flops flops;             ///< 2·n·m·k
  Bytes bytes;             ///< (n·k + k·m + n·m) × bytes per element
  FlopsPerByte intensity;  ///< flops ÷ bytes
};

/// Sizes are counts (positive integers); their product n·m·k must stay ≤ 2^53.
MatmulCost matmul_cost(double n, double k, double m, Dtype dtype);

/// A dense layer of `inputs` → `outputs` on a batch: the matmul (batch × inputs)·(inputs × outputs).
struct DenseLayerCost {
  MatmulCost matmul;                    ///< inputs, weights and outputs all counted
  Bytes weight_bytes;                   ///< inputs × outputs × bytes per element
  FlopsPerByte weights_only_intensity;  ///< flops ÷ weight bytes: 2·batch ÷ bytes per element
  FlopsPerByte limit_intensity;         ///< the exact intensity as batch → ∞: 2·in·out ÷ (bpe·(in + out))
};

DenseLayerCost dense_layer(double batch, double inputs, double outputs, Dtype dtype);

}  // namespace roofline
