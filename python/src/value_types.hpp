// The runtime choices every backend turns into template arguments, written once.
#pragma once

#include <corank/functional.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "ops.hpp"

namespace corank_py {

/// Values are only moved, never compared: one unsigned type per width serves every dtype.
template <class F>
void with_value_type(std::size_t value_bytes, F&& f) {
  switch (value_bytes) {
    case 1: return f(std::uint8_t{});
    case 2: return f(std::uint16_t{});
    case 4: return f(std::uint32_t{});
    case 8: return f(std::uint64_t{});
    default: throw std::invalid_argument("values must have 1, 2, 4 or 8 bytes per item");
  }
}

template <class F>
void with_scan_op(scan_op op, F&& f) {
  switch (op) {
    case scan_op::add: return f(corank::plus{});
    case scan_op::max: return f(corank::maximum{});
    case scan_op::min: return f(corank::minimum{});
  }
}

}  // namespace corank_py
