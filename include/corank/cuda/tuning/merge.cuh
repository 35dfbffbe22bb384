// Tuning of the GPU merge, apart from the algorithms: the production kernel's shape per key size
// and the defaults of the studied kernels when merge_options leaves a parameter at 0.
//
// Defaults, chosen on an H100 (CUDA 13.0) from the runs recorded in docs/PERFORMANCE.md
// ("GPU merge"); no automated sweep (`corank tune merge`) exists yet:
//  - automatic: 256 threads x 15 items per thread for keys of <= 4 bytes (3840 outputs per tile),
//    11 items for 8-byte keys, 7 for 16-byte keys; key-value merges use fewer items per thread
//    (shared memory holds two input stages and an output stage for keys and values). Odd item
//    counts keep the per-thread runs in shared memory free of bank conflicts. The grid is as many
//    blocks as the GPU holds at once (merge_options::blocks overrides it: twice that measured the
//    same or slower; one block per tile took 0.99 ms against 0.73 ms at 100M per input).
//  - studied kernels (basic, tiled, circular): 256 threads per block, a tile of 1024 items per
//    input (8 KiB of shared memory for u32; the study's largest setting was 2.5 KiB on its GPUs),
//    and enough blocks for 8 tiles per block (basic: 32 outputs per thread), capped at 65535.
#pragma once

#include <cstddef>

namespace corank::cuda::tuning {

/// The production kernel's block shape: `threads` per block, `items` outputs per thread, and
/// the blocks per multiprocessor its registers must allow (__launch_bounds__).
template <int Threads, int Items, int MinBlocks>
struct merge_shape {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int min_blocks = MinBlocks;
  static constexpr int tile = Threads * Items;  // outputs per tile
};

/// Shape of `automatic` for a key of sizeof(Key) bytes, with (HasValues) or without values.
template <std::size_t KeyBytes, bool HasValues>
struct merge_policy {
  static constexpr int items = KeyBytes <= 4   ? (HasValues ? 11 : 15)
                               : KeyBytes <= 8 ? (HasValues ? 7 : 11)
                                               : (HasValues ? 5 : 7);
  using shape = merge_shape<256, items, HasValues ? 3 : 4>;
};

/// Defaults of the studied kernels.
struct studied_defaults {
  static constexpr unsigned threads = 256;
  static constexpr unsigned tile_items = 1024;    // per input per iteration
  static constexpr unsigned tiles_per_block = 8;  // tiled / circular: sizes the grid
  static constexpr unsigned basic_items_per_thread = 32;
  static constexpr unsigned max_blocks = 65535;
};

}  // namespace corank::cuda::tuning
