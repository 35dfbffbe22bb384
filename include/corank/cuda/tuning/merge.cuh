// Tuning of the GPU merge, apart from the algorithms: the production kernel's shape per key size
// and the defaults of the studied kernels when merge_options leaves a parameter at 0.
//
// Defaults, chosen on an H100 (CUDA 13.0) by `corank tune merge` (u32 keys, 1K..100M per input;
// table and history in docs/PERFORMANCE.md, "GPU merge"). A tuning file from another GPU
// overrides them at run time (merge_options::tuning); the compile-time shapes stay.
//  - automatic, single launch (below partitioned_from_total outputs): 256 threads x 15 items per
//    thread for keys of <= 4 bytes (3840 outputs per tile), 11 items for 8-byte keys, 7 for
//    16-byte keys, fewer with values (two input stages and an output stage in shared memory).
//    Odd item counts keep the per-thread runs in shared memory free of bank conflicts. Grid: as
//    many blocks as the GPU holds at once (the sweep preferred twice that for u32 keys at 1M-10M
//    per input, by 1-4%, but u32 pairs at 1M then took 0.0228 ms against 0.0200).
//  - automatic, partitioned (from 4M outputs for keys of <= 4 bytes, 8M otherwise: at 10M per
//    input 0.0816 ms against 0.0839-0.0852 for the single launch, before lead tiles; at 3M per
//    input, with them, 0.0300 against 0.0315): 256 threads x 31 items for 4-byte keys, 512 x 31
//    from 64M outputs (15872 outputs per tile: 0.580 ms at 100M against 0.589 for 256 x 31 and
//    0.612 for 256 x 15, the fewer tiles the fewer partition searches), 256 x 23 for u32 pairs
//    (1.147 ms against 1.177 for 256 x 11).
//  - studied kernels (basic, tiled, circular): 128 threads per block, a tile of 512 items per
//    input, enough blocks for 8 tiles per block (basic: 8 outputs per thread) but at least 4 per
//    multiprocessor, at most 65535: the sweep's winners were 128 threads x 512 items at 10M and
//    100M, and 4 blocks per multiprocessor beat the old 256 x 1024 defaults by 1.3-2.9x below 1M.
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
  using shape = merge_shape<256, items, HasValues ? 3 : 4>;
  // Longer runs and larger blocks for the partitioned kernel: fewer tiles, so fewer partition
  // searches (each a few random DRAM reads); the merge itself streams as well either way.
  static constexpr int partitioned_items = KeyBytes <= 4   ? (HasValues ? 23 : 31)
                                           : KeyBytes <= 8 ? (HasValues ? 11 : 15)
                                                           : (HasValues ? 5 : 7);
  static constexpr unsigned partitioned_threads = 256;
  using partitioned = partitioned_shape<512, partitioned_items, 1>;
  /// From this many outputs (m + n) on, the partitioned scheme; below, the single launch. With
  /// lead tiles the partitioned scheme wins earlier for u32 keys (H100, 3M per input: 0.0300-0.0306
  /// ms against 0.0314-0.0316; 1M per input: equal, 0.0143-0.0146).
  static constexpr std::size_t partitioned_from_total =
      KeyBytes <= 4 && !HasValues ? 4000000 : 8000000;
  /// From this many outputs on, u32 keys take 512-thread blocks (half the tiles, so half the
  /// partition searches: 0.577 ms against 0.588 at 100M per input; at 10M 256 threads won,
  /// 0.0816 against 0.0839 ms).
  static constexpr std::size_t wide_blocks_from_total =
      KeyBytes <= 4 && !HasValues ? 64000000 : ~std::size_t(0);
};

/// Defaults of `automatic` when no tuning table is given.
struct automatic_defaults {
  static constexpr unsigned partition_threads = 128;  // the partition pass's blocks
  /// Input bytes per multiprocessor of the lead tiles: the first tiles search their own
  /// co-ranks and merge while the partition pass runs (the pass finds the rest), enough work to
  /// cover the pass. Each lead tile pays two warp searches (~12 KB of scattered reads), so not
  /// more. H100, 10M per input: u32 keys 0.0801 ms with one wave of lead tiles (264) -> 0.0745
  /// with 1056 (8 per SM, 256 KB), pairs 0.1392 -> 0.1338 ms with 528-792; at 100M flat (+-0.5%).
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
