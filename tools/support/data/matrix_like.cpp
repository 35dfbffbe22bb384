#include "support/data/matrix_like.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace corank::data {

const std::vector<matrix_shape>& study_matrices() {
  using L = row_lengths;
  static const std::vector<matrix_shape> shapes = {
      {"cant", 62451, 62451, 4007383, L::narrow, 50, "FEM cantilever"},
      {"consph", 83334, 83334, 6010480, L::narrow, 20, "FEM spheres"},
      {"cop20k_A", 121192, 121192, 2624331, L::narrow, 73, "FEM accelerator"},
      {"dense2", 2000, 2000, 4000000, L::constant, 10, "dense"},
      {"jonheart", 2000, 2000, 40000, L::narrow, 60, "small (assumed shape)"},
      {"mac_econ_fwd500", 206500, 206500, 1273389, L::heavy_tailed, 12, "economics"},
      {"mc2depi", 525825, 525825, 2100225, L::narrow, 70, "epidemiology"},
      {"pdb1HYS", 36417, 36417, 4344765, L::narrow, 30, "protein"},
      {"pwtk", 217918, 217918, 11634424, L::narrow, 25, "wind tunnel"},
      {"qcd5_4", 49152, 49152, 1916928, L::constant, 63, "QCD"},
      {"rail4284", 4284, 1092610, 11279748, L::heavy_tailed, 10, "LP"},
      {"rma10", 46835, 46835, 2374001, L::narrow, 74, "FEM harbor"},
      {"scircuit", 170998, 170998, 958936, L::heavy_tailed, 30, "circuit"},
      {"shipsec1", 140874, 140874, 7813404, L::narrow, 10, "FEM ship"},
      {"webbase-1M", 1000005, 1000005, 3105536, L::heavy_tailed, 77, "web graph"},
  };
  return shapes;
}

const matrix_shape& find_matrix(const std::string& name) {
  for (const auto& s : study_matrices())
    if (name == s.name) return s;
  std::string names;
  for (const auto& s : study_matrices()) names += std::string(names.empty() ? "" : ", ") + s.name;
  throw std::invalid_argument("unknown matrix '" + name + "' (known: " + names + ")");
}

io::csr_matrix generate_matrix_like(const matrix_shape& shape, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  // Draw a weight per row from the distribution, scale to nnz, then hand out what rounding and
  // the cap at `cols` left over, one per row from a random start: the total is exactly nnz.
  std::vector<double> weight(shape.rows, 1.0);
  if (shape.lengths == row_lengths::narrow) {
    std::normal_distribution<double> d(1.0, 0.2);
    for (double& w : weight) w = std::max(0.05, d(rng));
  } else if (shape.lengths == row_lengths::heavy_tailed) {
    std::lognormal_distribution<double> d(0.0, 1.0);
    for (double& w : weight) w = d(rng);
  }
  double sum = 0;
  for (double w : weight) sum += w;
  std::vector<std::size_t> length(shape.rows);
  std::size_t total = 0;
  for (std::size_t r = 0; r < shape.rows; ++r) {
    length[r] = std::min<std::size_t>(shape.cols, std::size_t(weight[r] * double(shape.nnz) / sum));
    total += length[r];
  }
  std::size_t r = std::uniform_int_distribution<std::size_t>(0, shape.rows - 1)(rng);
  while (total < shape.nnz) {
    if (length[r] < shape.cols) ++length[r], ++total;
    r = (r + 1) % shape.rows;
  }
  while (total > shape.nnz) {  // cannot happen with floor, kept for safety
    if (length[r] > 0) --length[r], --total;
    r = (r + 1) % shape.rows;
  }

  io::csr_matrix m;
  m.rows = shape.rows;
  m.cols = shape.cols;
  m.row_offsets.resize(shape.rows + 1);
  m.row_offsets[0] = 0;
  for (std::size_t i = 0; i < shape.rows; ++i)
    m.row_offsets[i + 1] = m.row_offsets[i] + std::int64_t(length[i]);
  m.col_indices.resize(shape.nnz);
  m.values.resize(shape.nnz);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (std::size_t i = 0; i < shape.rows; ++i) {
    // Distinct columns: a random start and stride through the columns (banded around the
    // diagonal for square matrices, as in meshes).
    const std::size_t len = length[i];
    const std::size_t start =
        shape.rows == shape.cols
            ? (i + shape.cols - std::min(i, len / 2)) % shape.cols
            : std::uniform_int_distribution<std::size_t>(0, shape.cols - 1)(rng);
    for (std::size_t k = 0; k < len; ++k) {
      const auto at = std::size_t(m.row_offsets[i]) + k;
      m.col_indices[at] = std::int32_t((start + k) % shape.cols);
      m.values[at] = value(rng);
    }
  }
  return m;
}

}  // namespace corank::data
