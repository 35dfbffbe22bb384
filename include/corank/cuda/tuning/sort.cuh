// Tuning of the GPU sorts, apart from the algorithms. Chosen for an H100 (sm_90); the measured
// figures are in docs/PERFORMANCE.md ("GPU sort").
//
// Bitonic sort: a tile of tile_items keys is sorted (and later finished, after each global
// stage's long-distance steps) in shared memory; threads run 2^tile_bits_per_thread keys' worth
// of steps in registers per shared-memory pass. The global passes run global_bits steps per pass
// over memory (2^global_bits keys per thread in registers). For 10M u32 keys: 30 passes over the
// array (tiles of 2^13) instead of the 300 of one step per pass.
#pragma once

#include <cstddef>

namespace corank::cuda::tuning {

template <std::size_t KeyBytes, std::size_t ValueBytes>
struct bitonic_policy {
  static constexpr bool narrow = KeyBytes + ValueBytes <= 8;
  static constexpr int tile_threads = narrow ? 512 : 256;
  static constexpr int tile_bits_per_thread = 4;  // 16 keys per thread per pass
  /// Tiles of 2^15 keys (threads taking 4 chunks per pass in turn, one block per multiprocessor)
  /// measured slower than one chunk per thread: 1.68 against 1.51 ms at 10M. The tile kernels,
  /// not the pass count, set the time; they need two blocks per multiprocessor to overlap one
  /// block's barriers and loads with the other's work.
  static constexpr unsigned tile_items = unsigned(tile_threads) << tile_bits_per_thread;
  static constexpr int tile_min_blocks = 2;
  static constexpr int global_bits = narrow ? 5 : 4;
  static constexpr int global_threads = 256;
};

/// Segmented sort: segments of up to 2^warp_max_bits keys are sorted by one warp each, up to
/// 2^block_max_bits by one block of block_threads; larger ones by a block walking the network in
/// global memory.
struct segmented_policy {
  static constexpr int warps_per_block = 8;
  static constexpr int warp_max_bits = 10;  // 32 lanes x 32 keys
  static constexpr int block_threads = 256;
  static constexpr int block_max_bits = 13;  // 256 threads x 32 keys
};

}  // namespace corank::cuda::tuning

namespace corank::cuda::tuning {

/// Stable merge sort: tiles of threads x items sorted in one kernel, then one pass per doubling
/// of the run width. Odd item counts keep each thread's run in shared memory free of bank
/// conflicts.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct merge_sort_policy {
  // Larger tiles mean fewer merge passes (10M u32: 11 with 7680-key tiles, 12 with 3840); static
  // shared memory (48 KiB) bounds a tile of keys and values.
  static constexpr bool narrow = KeyBytes + ValueBytes <= 8;
  // Measured (H100): 512 x 15 keys: 0.616 ms at 10M (256 x 15: 0.716); u32 pairs 512 x 11:
  // 14.4 ms at 100M against 11.3 with 256 x 15, so pairs keep the smaller block.
  static constexpr bool keys_only_narrow = ValueBytes == 0 && KeyBytes <= 4;
  static constexpr int threads = keys_only_narrow ? 512 : 256;
  static constexpr int items = narrow ? 15 : 7;
};

}  // namespace corank::cuda::tuning
