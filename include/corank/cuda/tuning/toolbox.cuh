// Tuning of the GPU co-rank toolbox (load-balancing search, sorted search, set operations, k-way
// merge), apart from the algorithms. First choices, not yet swept on a GPU (docs/notes/toolbox.md
// holds what was measured).
#pragma once

#include <cstddef>

namespace corank::cuda::tuning {

/// Threads per block of the toolbox's tile kernels: eight warps, as the merge's kernels.
inline constexpr int toolbox_threads = 256;

/// Static shared memory a tile may take: under the 48 KB a block gets without opting in, with room
/// for the kernels' few other words.
inline constexpr std::size_t toolbox_tile_bytes = 40 * 1024;

/// Items per thread when each tile item needs `bytes_per_item` bytes of shared memory: as many as
/// fit toolbox_tile_bytes, odd (runs of an odd length keep shared-memory banks apart), at most 15
/// (the merge's best for u32 keys).
constexpr int toolbox_items(std::size_t bytes_per_item) {
  const std::size_t fit = toolbox_tile_bytes / (std::size_t(toolbox_threads) * bytes_per_item);
  const int most = fit > 15 ? 15 : (fit < 1 ? 1 : int(fit));
  return most % 2 == 1 || most == 1 ? most : most - 1;
}

/// The set operations' tiles: threads per block, and the most items per thread (each keeps its
/// candidates in registers, one bit each: at most 32). 256 x 27 at 4 blocks per SM: H100, 10^8
/// u32 per input, the fastest of 256 x 15-31 at 4-8 blocks on all four operations
/// (docs/notes/toolbox.md). The macros let a build try others.
#ifndef CORANK_TUNE_SET_OPERATION_THREADS
#define CORANK_TUNE_SET_OPERATION_THREADS 256
#endif
#ifndef CORANK_TUNE_SET_OPERATION_ITEMS
#define CORANK_TUNE_SET_OPERATION_ITEMS 27
#endif
inline constexpr int set_operation_threads = CORANK_TUNE_SET_OPERATION_THREADS;
/// Blocks per multiprocessor the set operations' tile kernel is compiled for (its launch bounds):
/// 4 holds every operation to 64 registers (left alone, union and intersection took more: 3
/// blocks per SM); 5 and more spill and ran slower.
#ifndef CORANK_TUNE_SET_OPERATION_MIN_BLOCKS
#define CORANK_TUNE_SET_OPERATION_MIN_BLOCKS 4
#endif
inline constexpr int set_operation_min_blocks = CORANK_TUNE_SET_OPERATION_MIN_BLOCKS;

/// Items per thread of the set operations when each needs `bytes_per_item` bytes of shared
/// memory: as many as fit toolbox_tile_bytes, odd, at most CORANK_TUNE_SET_OPERATION_ITEMS.
constexpr int set_operation_items(std::size_t bytes_per_item) {
  const std::size_t fit =
      toolbox_tile_bytes / (std::size_t(set_operation_threads) * bytes_per_item);
  const int cap = CORANK_TUNE_SET_OPERATION_ITEMS;
  const int most = fit > std::size_t(cap) ? cap : (fit < 1 ? 1 : int(fit));
  return most % 2 == 1 || most == 1 ? most : most - 1;
}

/// Threads of the partition passes: one cut per thread, latency-bound, as the merge's.
inline constexpr unsigned toolbox_partition_threads = 128;

/// Unsorted needles: one binary search per needle, 256 threads a block.
inline constexpr unsigned binary_search_threads = 256;

/// Needles in any order are sorted first (then one merge-path pass) when there are at least
/// max(sort_needles_from, m / sort_needles_from_share) of them for m haystack keys and the
/// haystack is larger than haystack_cached_bytes; otherwise a binary search each. Sorting pays a
/// fixed cost and a pass over the haystack, which searches in the L2 never pay: where the H100's
/// measured crossover fell (docs/notes/toolbox.md, "needles in any order").
inline constexpr std::size_t sort_needles_from = std::size_t(1) << 21;
inline constexpr std::size_t sort_needles_from_share = 64;
inline constexpr std::size_t haystack_cached_bytes = std::size_t(64) << 20;

}  // namespace corank::cuda::tuning
