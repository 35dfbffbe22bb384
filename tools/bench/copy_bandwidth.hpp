// The copy that bandwidth fractions are measured against: the same bytes a primitive reads and
// writes, moved by memcpy on the same threads, in the same run.
#pragma once

#include <cstddef>

#include "bench/timing.hpp"

namespace corank::bench {

/// Times a parallel memcpy of `bytes` from `src` to `dst` on `threads` threads (each copies an
/// equal contiguous share).
stats measure_host_copy(void* dst, const void* src, std::size_t bytes, int threads,
                        const timing_config& cfg);

}  // namespace corank::bench
