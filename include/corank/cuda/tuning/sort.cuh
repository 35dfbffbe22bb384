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
#include <type_traits>

namespace corank::cuda::tuning {

/// One shape of the whole-array bitonic sort: tiles of TileThreads << TileBits keys (TileBits
/// steps per shared-memory pass, at least TileMinBlocks blocks per multiprocessor), global passes
/// of GlobalBits steps by GlobalThreads-thread blocks.
template <int TileThreads, int TileBits, int TileMinBlocks, int GlobalBits, int GlobalThreads = 256>
struct bitonic_shape {
  static constexpr int tile_threads = TileThreads;
  static constexpr int tile_bits_per_thread = TileBits;
  static constexpr unsigned tile_items = unsigned(TileThreads) << TileBits;
  static constexpr int tile_min_blocks = TileMinBlocks;
  static constexpr int global_bits = GlobalBits;
  static constexpr int global_threads = GlobalThreads;
};

/// The tuned shape per key and value size. Tiles of 2^15 keys (threads taking 4 chunks per pass
/// in turn, one block per multiprocessor) measured slower than one chunk per thread: 1.68
/// against 1.51 ms at 10M. The tile kernels, not the pass count, set the time; they need two
/// blocks per multiprocessor to overlap one block's barriers and loads with the other's work.
/// Keys of <= 4 bytes alone: 6-step global passes (64 keys per thread; 28 passes at 10M instead
/// of 30): 1.39 against 1.40 ms at 10M, 16.1 against 16.8 ms at 100M. Pairs measured slower
/// with them (2.40 against 2.34 ms at 10M) and keep 5 steps.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct bitonic_policy
    : std::conditional_t<ValueBytes == 0 && KeyBytes <= 4, bitonic_shape<512, 4, 2, 6>,
                         std::conditional_t<KeyBytes + ValueBytes <= 8, bitonic_shape<512, 4, 2, 5>,
                                            bitonic_shape<256, 4, 2, 4>>> {};

/// Segmented sort: segments of up to 2^warp_max_bits keys are sorted by one warp each, up to
/// 2^block_max_bits by one block of block_threads; larger ones by a block walking the network in
/// global memory.
struct segmented_policy {
  /// Segments of up to 32 keys: a warp sorts this many at once (one key of each per lane), so
  /// their loads and shuffles overlap instead of one segment's latency chain per warp.
  static constexpr int tiny_segments_per_warp = 4;
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
  static constexpr bool keys_only_narrow = ValueBytes == 0 && KeyBytes <= 4;
  // Measured (H100, u32; docs/PERFORMANCE.md "GPU sort"): keys 512 x 15: 0.62 ms at 10M (256 x
  // 15: 0.716; 512 x 21, a pass fewer, no faster: 0.62 ms, and 6.36 against 6.24 ms at 100M).
  // Pairs 256 x 21: 0.98 / 11.2 ms at 10M / 100M against 1.07 / 12.0 with 256 x 15 (512 x 11:
  // 14.4 ms at 100M).
  static constexpr int threads = keys_only_narrow ? 512 : 256;
  static constexpr int items = keys_only_narrow          ? 15
                               : narrow && KeyBytes <= 4 ? 21
                               : narrow                  ? 15
                                                         : 7;
};

}  // namespace corank::cuda::tuning
