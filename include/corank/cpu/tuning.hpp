// Tuning constants of the CPU backend, kept apart from the algorithms. Measured on the 2-core
// development machine; see docs/PERFORMANCE.md.
#pragma once

#include <cstddef>

namespace corank::cpu::tuning {

/// Below this many items an algorithm runs on the calling thread alone.
inline constexpr std::size_t sequential_below_items = std::size_t(1) << 15;

}  // namespace corank::cpu::tuning
