// Matrix Market files (coordinate format) to and from compressed sparse rows.
//
// Read: coordinate; real, integer or pattern (pattern values read as 1); general, symmetric or
// skew-symmetric (the mirrored entries are added, so the CSR holds the full matrix). Files may be
// gzip-compressed (.mtx.gz, read through zlib) and may be pipes. Entries keep their file order
// within a row; duplicate entries (the same row and column twice) are summed into the first, the
// convention of SciPy and the SuiteSparse tools. The sizes on the size line are checked, not
// trusted: memory is reserved by what the file can hold and grows as entries arrive. Every
// malformed or truncated input, wrong header, out-of-range index or value is a
// corank::io::file_error whose message names the file and line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "support/io/file_error.hpp"
#include "support/io/output_file.hpp"

namespace corank::io {

struct csr_matrix {
  std::size_t rows = 0, cols = 0;
  std::vector<std::int64_t> row_offsets{0};  ///< rows + 1 entries: row r is [row_offsets[r], [r+1])
  std::vector<std::int32_t> col_indices;     ///< nnz entries
  std::vector<double> values;                ///< nnz entries
  std::size_t duplicates_summed = 0;         ///< entries added into an earlier one when read
  std::size_t nnz() const { return col_indices.size(); }
};

struct matrix_market_limits {
  /// Largest row or column count accepted (column indices are 32-bit).
  std::size_t max_dimension = 0x7fffffff;
  /// Largest magnitude of a value accepted, e.g. FLT_MAX where the values become floats (smaller
  /// magnitudes read as 0 or subnormal, without error).
  double max_abs_value = 1.7976931348623157e308;
  /// What the limit is for, in its message ("the f32 range of spmv-scan").
  std::string max_abs_value_reason = "the double range";
};

/// Parses a whole Matrix Market text; `name` is used in error messages.
csr_matrix parse_matrix_market(std::string_view text, const std::string& name,
                               const matrix_market_limits& limits = {});

csr_matrix read_matrix_market(const std::filesystem::path& path,
                              const matrix_market_limits& limits = {});

/// Writes `m` as "coordinate real general" (or "pattern" when `pattern`) to `out` (the caller
/// commits it), or to `path` atomically.
void write_matrix_market(output_file& out, const csr_matrix& m, bool pattern = false,
                         const std::string& comment = {});
void write_matrix_market(const std::filesystem::path& path, const csr_matrix& m,
                         bool pattern = false, const std::string& comment = {});

}  // namespace corank::io
