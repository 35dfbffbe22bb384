// libFuzzer target: no input may crash, hang or exhaust memory in the Matrix Market reader; every
// rejection must be a corank::io::file_error.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "support/io/matrix_market.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  corank::io::matrix_market_limits limits;
  limits.max_dimension = 1 << 16;  // bounds the row-offset array; nnz is bounded by the input size
  try {
    const auto m = corank::io::parse_matrix_market(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz", limits);
    // The CSR invariants the scan relies on.
    if (m.row_offsets.size() != m.rows + 1 || m.row_offsets.front() != 0 ||
        static_cast<std::size_t>(m.row_offsets.back()) != m.nnz() || m.values.size() != m.nnz())
      __builtin_trap();
    for (std::size_t r = 0; r < m.rows; ++r)
      if (m.row_offsets[r] > m.row_offsets[r + 1]) __builtin_trap();
    for (auto c : m.col_indices)
      if (c < 0 || static_cast<std::size_t>(c) >= m.cols) __builtin_trap();
  } catch (const corank::io::file_error&) {
  }
  return 0;
}
