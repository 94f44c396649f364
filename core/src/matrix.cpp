#include "roofline/matrix.hpp"

#include <cmath>
#include <string>

#include "roofline/error.hpp"

namespace roofline {

Shape product_shape(Shape a, Shape b) {
  if (a.cols != b.rows) {
    throw Error(ErrorCode::shape_mismatch, "b",
                "inner sizes differ: A is " + format_number(a.rows) + " × " + format_number(a.cols) + " and B is " +
                    format_number(b.rows) + " × " + format_number(b.cols) +
                    "; the columns of A must equal the rows of B");
  }
  return {a.rows, b.cols};
}

Matrix::Matrix(std::size_t rows, std::size_t cols) : rows_(rows), cols_(cols), data_(rows * cols, 0.0) {}

Matrix::Matrix(std::initializer_list<std::initializer_list<double>> rows) {
  std::vector<std::vector<double>> copy;
  for (const auto& r : rows) copy.emplace_back(r);
  *this = from_rows(copy, "matrix");
}

Matrix Matrix::from_rows(const std::vector<std::vector<double>>& rows, std::string_view field) {
  const std::string name(field);
  if (rows.empty() || rows.front().empty()) {
    throw Error(ErrorCode::ragged_matrix, name, name + " must have at least one row and one column");
  }
  const std::size_t cols = rows.front().size();
  Matrix m(rows.size(), cols);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != cols) {
      throw Error(ErrorCode::ragged_matrix, name,
                  name + " must have rows of equal length: row 1 has " + std::to_string(cols) + " numbers, row " +
                      std::to_string(r + 1) + " has " + std::to_string(rows[r].size()));
    }
    for (std::size_t c = 0; c < cols; ++c) {
      if (!std::isfinite(rows[r][c])) {
        throw Error(ErrorCode::not_finite, name,
                    name + " must hold finite numbers, got " + format_number(rows[r][c]) + " in row " +
                        std::to_string(r + 1) + ", column " + std::to_string(c + 1));
      }
      m(r, c) = rows[r][c];
    }
  }
  return m;
}

std::vector<std::vector<double>> Matrix::to_rows() const {
  std::vector<std::vector<double>> out(rows_, std::vector<double>(cols_));
  for (std::size_t r = 0; r < rows_; ++r) {
    for (std::size_t c = 0; c < cols_; ++c) out[r][c] = (*this)(r, c);
  }
  return out;
}

MultiplyResult multiply(const Matrix& a, const Matrix& b) {
  const Shape shape = product_shape(a.shape(), b.shape());
  if (shape.rows * shape.cols * a.shape().cols > max_reference_macs) {
    throw Error(ErrorCode::too_large, "a",
                "the reference multiply is limited to 1e8 MACs; these matrices need " +
                    format_number(shape.rows * shape.cols * a.shape().cols));
  }
  Matrix c(static_cast<std::size_t>(shape.rows), static_cast<std::size_t>(shape.cols));
  double macs = 0;
  for (std::size_t i = 0; i < a.rows(); ++i) {      // each row of A
    for (std::size_t j = 0; j < b.cols(); ++j) {    // each column of B
      for (std::size_t t = 0; t < a.cols(); ++t) {  // the dot product, number by number
        c(i, j) += a(i, t) * b(t, j);               // multiply and accumulate: 1 MAC
        macs += 1;
      }
    }
  }
  for (std::size_t i = 0; i < c.rows(); ++i) {
    for (std::size_t j = 0; j < c.cols(); ++j) require_result("c", c(i, j));
  }
  return {std::move(c), Macs{macs}};
}

MatmulCost matmul_cost(double n, double k, double m, Dtype dtype) {
  require_count("n", n);
  require_count("k", k);
  require_count("m", m);
  // Each pairwise product is ≤ n·m·k, so one check keeps every count exact.
  const double macs = require_exact_product("n", n * m * k, "n × m × k (the MACs)");
  const double elements = n * k + k * m + n * m;
  const Bytes bytes = bytes_of(elements, dtype);
  const Flops flops = to_flops(Macs{macs});
  return {Shape{n, m}, Macs{macs}, flops, bytes, flops / bytes};
}

DenseLayerCost dense_layer(double batch, double inputs, double outputs, Dtype dtype) {
  require_count("batch", batch);
  require_count("inputs", inputs);
  require_count("outputs", outputs);
  require_exact_product("batch", batch * inputs * outputs, "batch × inputs × outputs (the MACs)");
  const MatmulCost mm = matmul_cost(batch, inputs, outputs, dtype);
  const Bytes weights = bytes_of(inputs * outputs, dtype);
  const FlopsPerByte limit{2.0 * inputs * outputs / (bytes_per_element(dtype) * (inputs + outputs))};
  return {mm, weights, mm.flops / weights, limit};
}

}  // namespace roofline
