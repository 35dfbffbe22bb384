// The GNU parallel mode peers (libstdc++'s __gnu_parallel), kept in their own translation unit:
// <parallel/algorithm> must not leak into code that uses the plain std:: algorithms.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bench/cpu_peers.hpp"

namespace corank::bench {

/// __gnu_parallel::merge on `threads` threads (T: std::uint32_t or key_value32).
template <class T>
void gnu_parallel_merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out, int threads);

/// __gnu_parallel::sort with the multiway mergesort on `threads` threads (T: std::uint32_t or
/// std::uint64_t).
template <class T>
void gnu_parallel_sort(T* first, T* last, int threads);

/// __gnu_parallel::stable_sort (the stable multiway mergesort) on `threads` threads.
void gnu_parallel_stable_sort(key_value32* first, key_value32* last, int threads);

/// __gnu_parallel::stable_multiway_merge of the `runs` sorted runs keys[offsets[r],
/// offsets[r + 1]) into out, on `threads` threads.
void gnu_parallel_multiway_merge(const std::uint32_t* keys, const std::uint64_t* offsets,
                                 std::size_t runs, std::uint32_t* out, int threads);

}  // namespace corank::bench
