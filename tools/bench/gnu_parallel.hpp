// The GNU parallel mode peers (libstdc++'s __gnu_parallel), kept in their own translation unit:
// <parallel/algorithm> must not leak into code that uses the plain std:: algorithms.
#pragma once

#include <cstddef>
#include <cstdint>

namespace corank::bench {

/// __gnu_parallel::merge on `threads` threads.
void gnu_parallel_merge(const std::uint32_t* a, std::size_t m, const std::uint32_t* b,
                        std::size_t n, std::uint32_t* out, int threads);

/// __gnu_parallel::sort with the multiway mergesort on `threads` threads.
void gnu_parallel_sort(std::uint32_t* first, std::uint32_t* last, int threads);

}  // namespace corank::bench
