// Tuning of the GPU merge, apart from the algorithms: the production kernel's shape per key size
// and the defaults of the studied kernels when merge_options leaves a parameter at 0.
//
// Defaults, chosen on an H100 (CUDA 13.0) by `corank tune merge` (u32 keys, 1K..100M per input;
// the measurements in docs/notes/tuning.md, the history in docs/notes/merge.md). A tuning file
// from another GPU overrides them at run time (merge_options::tuning); the compile-time shapes
// stay. Odd item counts keep the per-thread runs in shared memory free of bank conflicts.
#pragma once

#include <cstddef>

#include "corank/cuda/tuning/block_shape.cuh"

namespace corank::cuda::tuning {

/// The partitioned kernel's shape: `items` outputs per thread; threads per block are chosen at
/// run time (a multiple of 32 up to max_threads), so the tile is threads x items.
template <int MaxThreads, int Items, int MinBlocks>
struct partitioned_shape {
  static constexpr int max_threads = MaxThreads;
  static constexpr int items = Items;
  static constexpr int min_blocks = MinBlocks;
};

/// Shapes of `automatic` for a key of sizeof(Key) bytes, with (HasValues) or without values.
template <std::size_t KeyBytes, bool HasValues>
struct merge_policy {
  static constexpr int items = KeyBytes <= 4   ? (HasValues ? 11 : 15)
                               : KeyBytes <= 8 ? (HasValues ? 7 : 11)
                                               : (HasValues ? 5 : 7);
  using shape = block_shape<256, items, HasValues ? 3 : 4>;  // the production kernel's
  // Longer runs and larger blocks for the partitioned kernel: fewer tiles, so fewer partition
  // searches (each a few random DRAM reads); the merge itself streams as well either way.
  static constexpr int partitioned_items = KeyBytes <= 4   ? (HasValues ? 23 : 31)
                                           : KeyBytes <= 8 ? (HasValues ? 11 : 15)
                                                           : (HasValues ? 5 : 7);
  static constexpr unsigned partitioned_threads = 256;
  using partitioned = partitioned_shape<512, partitioned_items, 1>;
  /// From this many outputs (m + n) on, the partitioned scheme; below, the single launch (with
  /// lead tiles the partitioned scheme wins earlier for u32 keys).
  static constexpr std::size_t partitioned_from_total =
      KeyBytes <= 4 && !HasValues ? 4000000 : 8000000;
  /// From this many outputs on, u32 keys take 512-thread blocks: half the tiles, so half the
  /// partition searches.
  static constexpr std::size_t wide_blocks_from_total =
      KeyBytes <= 4 && !HasValues ? 64000000 : ~std::size_t(0);
};

/// Defaults of `automatic` when no tuning table is given.
struct automatic_defaults {
  static constexpr unsigned partition_threads = 128;  // the partition pass's blocks
  /// Input bytes per multiprocessor of the lead tiles: the first tiles search their own
  /// co-ranks and merge while the partition pass runs (the pass finds the rest), enough work to
  /// cover the pass. Each lead tile pays two warp searches (~12 KB of scattered reads), so not
  /// more.
  static constexpr std::size_t lead_bytes_per_sm = 256 * 1024;
};

/// Defaults of the studied kernels.
struct studied_defaults {
  static constexpr unsigned threads = 128;
  static constexpr unsigned tile_items = 512;     // per input per iteration
  static constexpr unsigned tiles_per_block = 8;  // tiled / circular: sizes the grid
  static constexpr unsigned basic_items_per_thread = 8;
  static constexpr unsigned min_blocks_per_sm = 4;  // small inputs still spread over the GPU
  static constexpr unsigned max_blocks = 65535;
};

}  // namespace corank::cuda::tuning
