// The runtime choices every backend turns into template arguments, written once.
#pragma once

#include <corank/functional.hpp>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "ops.hpp"

namespace corank_py {

/// Values are only moved, never compared: one unsigned type per width serves every dtype. The GPU
/// module takes 4- and 8-byte values only (AllWidths = false): each width costs every sort and
/// merge kernel once more per key type and comparator, in build time.
template <bool AllWidths = true, class F>
void with_value_type(std::size_t value_bytes, F&& f) {
  switch (value_bytes) {
    case 1:
      if constexpr (AllWidths) return f(std::uint8_t{});
      break;
    case 2:
      if constexpr (AllWidths) return f(std::uint16_t{});
      break;
    case 4:
      return f(std::uint32_t{});
    case 8:
      return f(std::uint64_t{});
  }
  throw std::invalid_argument(AllWidths ? "values must have 1, 2, 4 or 8 bytes per item"
                                        : "values must have 4 or 8 bytes per item on the GPU");
}

/// f(corank::less{}) for ascending order, f(corank::greater{}) for descending.
template <class F>
void with_order(bool descending, F&& f) {
  if (descending)
    f(corank::greater{});
  else
    f(corank::less{});
}

template <class F>
void with_scan_op(scan_op op, F&& f) {
  switch (op) {
    case scan_op::add:
      return f(corank::plus{});
    case scan_op::max:
      return f(corank::maximum{});
    case scan_op::min:
      return f(corank::minimum{});
  }
}

}  // namespace corank_py
