// Stand-ins for the study's sparse matrices, which cannot be downloaded here: each with the
// published rows, columns and non-zeros of the original and a row-length distribution of the same
// kind (constant, narrow around the mean as in FEM meshes, or heavy-tailed as in web, circuit,
// economics and LP matrices), plus the study's iteration count.
//
// Sources of the figures: the SuiteSparse Matrix Collection pages (sparse.tamu.edu, groups
// Williams, DNVS, Boeing, QCD, Mittelmann, Hamm, Bates...), as tabulated by Williams et al.,
// "Optimization of sparse matrix-vector multiplication on emerging multicore platforms" (SC'07)
// and Bell & Garland, "Implementing sparse matrix-vector multiplication on throughput-oriented
// processors" (SC'09, Table 1). Non-zeros count the full (expanded) matrix. jonheart is not in the
// collection: the study calls it small (60 iterations took 2.7 ms); its shape here is an
// assumption.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "support/io/matrix_market.hpp"

namespace corank::data {

enum class row_lengths {
  constant,      ///< every row the same length (dense2, qcd5_4)
  narrow,        ///< normal around the mean, sd 20% (FEM meshes)
  heavy_tailed,  ///< lognormal, sigma 1 (web, circuit, economics, LP)
};

struct matrix_shape {
  const char* name;
  std::size_t rows, cols, nnz;
  row_lengths lengths;
  int study_iterations;
  const char* kind;
};

/// The study's matrices, in its order.
const std::vector<matrix_shape>& study_matrices();

/// The shape named `name`; throws std::invalid_argument listing the names otherwise.
const matrix_shape& find_matrix(const std::string& name);

/// A CSR matrix of that shape: exactly its rows, cols and nnz; values uniform in [-1, 1).
io::csr_matrix generate_matrix_like(const matrix_shape& shape, std::uint64_t seed);

}  // namespace corank::data
