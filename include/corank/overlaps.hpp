// The entry points' overlap check, shared by every backend.
#pragma once

#include <cstddef>
#include <cstdint>

namespace corank::detail {

/// Whether the byte ranges [p, p + p_bytes) and [q, q + q_bytes) share a byte.
inline bool overlaps(const void* p, std::size_t p_bytes, const void* q, std::size_t q_bytes) {
  const auto x = reinterpret_cast<std::uintptr_t>(p), y = reinterpret_cast<std::uintptr_t>(q);
  return p_bytes && q_bytes && x < y + q_bytes && y < x + p_bytes;
}

}  // namespace corank::detail
