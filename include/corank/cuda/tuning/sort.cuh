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

/// One shape of the whole-array bitonic sort: tiles of TileChunks x TileThreads chunks of
/// 2^TileBits keys (TileBits steps per shared-memory pass, each thread taking TileChunks chunks
/// in turn, at least TileMinBlocks blocks per multiprocessor), global passes of GlobalBits steps
/// by GlobalThreads-thread blocks.
template <int TileThreads, int TileBits, int TileMinBlocks, int GlobalBits, int GlobalThreads = 256,
          int TileChunks = 1, bool WideTails = false>
struct bitonic_shape {
  /// A stage whose global steps would leave one step for a pass of its own finishes in a tile of
  /// twice the size instead (kernels::bitonic_plan), TileChunks * 2 chunks per thread, when the
  /// array fills the GPU with such tiles (at least wide_tails_min_tiles_per_sm per SM).
  static constexpr bool wide_tails = WideTails;
  static constexpr unsigned wide_tails_min_tiles_per_sm = 2;
  static constexpr int tile_threads = TileThreads;
  static constexpr int tile_bits_per_thread = TileBits;
  static constexpr unsigned tile_items = unsigned(TileChunks * TileThreads) << TileBits;
  static constexpr int tile_min_blocks = TileMinBlocks;
  static constexpr int global_bits = GlobalBits;
  static constexpr int global_threads = GlobalThreads;
};

/// The tuned shape per key and value size. Tiles of 2^15 keys (threads taking 4 chunks per pass
/// in turn, one block per multiprocessor) measured slower than one chunk per thread: 1.68
/// against 1.51 ms at 10M. The tile kernels, not the pass count, set the time; they need two
/// blocks per multiprocessor to overlap one block's barriers and loads with the other's work.
/// Keys of <= 4 bytes alone (H100, u32, 10M / 100M): 256 threads x 32 keys, 3 blocks per
/// multiprocessor (80 registers), 6-step global passes: 1.28 / 14.8 ms. The 8192-key tile's
/// in-tile tail takes 3 passes instead of 4 and a global pass 6 steps (64 keys per thread; 28
/// passes over memory at 10M instead of 30). Measured against it: 512 x 16 with 5-step passes
/// (before) 1.40 / 16.8 ms, with 6-step 1.39 / 16.1; 512 x 32 (2^14 tiles, spilling at 64
/// registers) 1.35 / 14.7; 1024 x 16 (one block per multiprocessor) 1.48 / 16.8; 256 x 32 at 2
/// blocks 1.31 / 15.1; 2^14 tiles as 2 chunks per thread (TileChunks = 2): 512 x 16 1.33 / 15.2,
/// 256 x 32 1.30 / 14.5. At 1M the 256-thread tiles are slower (0.143 against 0.137 ms: 123 tiles
/// for 132 multiprocessors). Pairs measured slower with 6-step passes (2.40 against 2.34 ms at
/// 10M). Wide tails (u32 keys, 10M / 100M / 2^24 keys): 1.269 / 14.76 / 2.093 ms without, 1.260 /
/// 14.30 / 2.061 with (wide tiles at 2 blocks per SM), 1.250 / 14.16 with 3 blocks per SM (some
/// spilling); at 1M (61 wide tiles) 0.141 -> 0.149 ms, hence the minimum tile count. Global
/// passes of 128 threads: 1.261 against 1.264 ms with 256 (wide tails, 2 blocks), 1.341 with 512;
/// pairs with wide tails (8192-key tiles at 1 block per SM): 2.34 -> 2.29-2.32 ms at 10M, 0.190 ->
/// 0.195 at 1M (not taken).
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct bitonic_policy
    : std::conditional_t<ValueBytes == 0 && KeyBytes <= 4,
                         bitonic_shape<256, 5, 3, 6, 128, 1, true>,
                         std::conditional_t<KeyBytes + ValueBytes <= 8, bitonic_shape<512, 4, 2, 5>,
                                            bitonic_shape<256, 4, 2, 4>>> {};

/// Segmented sort: segments of up to 2^warp_max_bits keys are sorted by one warp each, up to
/// 2^block_max_bits by one block of block_threads; larger ones by a block walking the network in
/// global memory.
struct segmented_policy {
  /// Segments of up to 32 keys: a warp sorts this many at once (one key of each per lane), so
  /// their loads and shuffles overlap instead of one segment's latency chain per warp.
  /// 2^26 keys in segments of 32 (H100): 1 per warp 1.42 ms, 2: 1.07, 4: 0.86, 8: 0.77, 16: 0.73.
  static constexpr int tiny_segments_per_warp = 16;
  static constexpr int warps_per_block = 8;
  static constexpr int warp_max_bits = 10;  // 32 lanes x 32 keys
  static constexpr int block_threads = 256;
  static constexpr int block_max_bits = 13;  // 256 threads x 32 keys
};

}  // namespace corank::cuda::tuning

namespace corank::cuda::tuning {

/// A four-way merge pass's block (kernels::four_way_merge_tiles): tiles of Parts consecutive parts,
/// cut every `stride` elements of AB and of CD, fewer than (Parts + 2) x stride outputs; stride is
/// the largest that keeps a tile within Threads x Items outputs and each of its two first-stage
/// merges within whole threads (2 x Items to spare), rounded down to a multiple of SampleEvery.
/// SampleEvery > 0: each pass keeps the grid samples of its output every SampleEvery elements
/// (grid_sampled_ptr, four_way_split.hpp) for the next pass's cut searches; 0: they read the keys.
/// The cut pass gives each sample's searches SearchLanes lanes (block::lane_group_search).
template <int Threads, int Items, int Parts, int MinBlocks = 1, unsigned SampleEvery = 0,
          unsigned SearchLanes = 1>
struct four_way_shape {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int min_blocks = MinBlocks;
  static constexpr std::size_t parts = Parts;
  static constexpr unsigned sample_every = SampleEvery;
  static constexpr unsigned search_lanes = SearchLanes;
  static constexpr std::size_t widest_stride =
      (std::size_t(Threads) * Items - 2 * Items) / (Parts + 2);
  // On a multiple of SampleEvery, a co-rank's probes into B land on samples too (four_way_split).
  static constexpr std::size_t stride = SampleEvery > 0 && widest_stride >= SampleEvery
                                            ? widest_stride / SampleEvery * SampleEvery
                                            : widest_stride;
  static_assert(stride > 0, "a tile of Parts parts needs Threads x Items >= (Parts + 4) x Items");
};

/// A tile sort's block (kernels::merge_sort_tiles): Threads x Items keys, at least MinBlocks
/// blocks per multiprocessor.
template <int Threads, int Items, int MinBlocks>
struct sort_tile_shape {
  static constexpr int threads = Threads, items = Items, min_blocks = MinBlocks;
  static constexpr std::size_t keys = std::size_t(Threads) * Items;
};

/// Tile sort shapes to choose from, smallest first.
template <class... Tiles>
struct sort_tile_choices {};

/// Stable merge sort: tiles of threads x items sorted in one kernel, then merge passes: four-way
/// (one pass per quadrupling of the run width, the last one of two runs when the doublings are
/// odd) from four_way_from keys on when merge_ways = 4, else two-way (one pass per doubling).
/// Odd item counts keep each thread's run in shared memory free of bank conflicts.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct merge_sort_policy {
  // Larger tiles mean fewer merge passes (10M u32: 11 with 7680-key tiles, 12 with 3840); static
  // shared memory (48 KiB) bounds a tile of keys and values.
  static constexpr bool narrow = KeyBytes + ValueBytes <= 8;
  static constexpr bool keys_only_narrow = ValueBytes == 0 && KeyBytes <= 4;
  // Measured (H100, u32, 10M / 100M; docs/PERFORMANCE.md "GPU sort"): keys 512 x 23 (47 KiB):
  // 0.60 / 6.22 ms, 512 x 15: 0.62 / 6.24 (256 x 15: 0.716 at 10M), 512 x 21: 0.62 / 6.36 (a pass
  // fewer than 512 x 15 at 10M, yet no faster); at 1M 512 x 23 is slower (0.090 against 0.081 ms:
  // 85 tiles for 132 multiprocessors). Pairs 256 x 21: 0.98 / 11.2 ms against 1.07 /
  // 12.0 with 256 x 15 (512 x 11: 14.4 ms at 100M).
  static constexpr int threads = keys_only_narrow ? 512 : 256;
  // The tile sort at 4 blocks per multiprocessor (registers capped at 32 for 512 threads; it held
  // 2 uncapped). H100, the tile sort alone, 10M / 100M u32 keys: 512 x 23 at 2 blocks 0.142 /
  // 1.183 ms, at 4 0.144 / 1.150; 512 x 21 at 4 0.141 / 1.084 (10752-key tiles: no more passes
  // at 10M or 100M); 512 x 19 0.126 / 1.052 (a pass more at 10M); 1024 x 11 0.157 / 1.401; 384 x
  // 31 0.153 / 1.243; 256 x 45 0.160 / 1.333. Pairs 256 x 21 at 3 blocks 0.179 / 1.514, at 4
  // 0.176 / 1.481; 512 x 11 0.205 / 1.858.
  static constexpr int tile_min_blocks = 4;
  // The merge passes (the production merge's partitioned kernels) take half as many threads per
  // block: tiles of half the sort's tile, so twice as many blocks resident to hide each lead
  // tile's searches. H100, 10M / 100M: u32 keys 0.551 / 5.26 ms with 512-thread pass blocks, 0.517
  // / 5.28 with 256, 0.508 / 5.42 with 128; u32 pairs 0.948 / 10.29 with 256, 0.925 / 10.31 with
  // 128, 0.937 / 10.81 with 64.
  static constexpr int pass_threads = threads / 2;
  // Four-way passes halve the passes over memory; their cut pass costs a latency chain of two
  // searches (30 us at 10M) and random reads (0.10-0.14 ms at 100M), so below a few million keys
  // the two-way passes win. H100, u32 keys 1M / 10M / 100M: two-way 0.079 / 0.520 / 5.28 ms;
  // four-way 256 x 31, 6 parts per tile, 4 blocks per multiprocessor: 0.486 at 10M, 4.57 at 100M
  // (3 blocks: 0.514 / 4.96; 256 x 23, 4 parts: 0.117 at 1M, 0.57 / 5.7; 256 x 39, 8 parts: 0.501 /
  // 4.64; 256 x 35, 6 parts: 0.502 / 4.44; 5 parts: 0.510 / 4.57; 4 parts: 0.505 / 4.62; 512 x
  // 23, 8 parts: 0.66 / 6.7). u32 pairs: two-way 0.936 / 10.30; 256 x 23, 6 parts, 3 blocks (12
  // bytes spilled): 0.845 / 8.65; 256 x 21: 0.856 / 8.94 (5 parts: 0.864 / 8.87; 4 parts: 0.895 /
  // 9.17; 256 x 15, 8 parts: 1.03 / 11.7). Keys and values wider than 8 bytes were not measured
  // with four-way passes: they keep two-way ones.
  // Crossover, with the cut searches of 8 lanes (below): u32 keys 4.2M 0.211 ms four-way without
  // samples, 0.219 with, 0.213 two-way; 7M 0.321 against 0.368; pairs 4.2M 0.339 against 0.426
  // (before the lanes: keys 6M 0.351 four-way against 0.323, pairs 3M 0.321 against 0.316).
  static constexpr int merge_ways = narrow ? 4 : 2;
  static constexpr std::size_t four_way_from = std::size_t(keys_only_narrow ? 6 : 4) << 20;
  // Grid samples (every 64 keys: two more stores per 64 outputs) let the cut searches read a
  // pass's input only in their last 6 levels: the cut pass at 100M u32 keys 0.10-0.14 -> 0.06-0.09
  // ms. Same shape with samples against without, one thread per search: u32 keys 10M 0.509
  // against 0.491 ms, 16M 0.767 / 0.765, 24M 1.038 / 1.067, 40M 1.614 / 1.684, 100M 4.204 /
  // 4.512; pairs 10M 0.825 / 0.843, 100M 8.02 / 8.49; with 8 lanes per search: keys 4.2M 0.219 /
  // 0.211, 7M 0.321 / 0.321, 10M 0.426 / 0.429, 12M 0.483 / 0.501, 16M 0.681 / 0.733. Shapes
  // with samples (strides on their grid): keys 256 x 33, 6 parts, 4 blocks: 0.491 / 4.204 ms at
  // 10M / 100M (256 x 31: 0.486 without samples / 4.316 with; 256 x 33, 7 parts: 0.533 / 4.283;
  // 256 x 37, 3 blocks: 0.549 / 4.470); pairs 256 x 25 (36 bytes spilled): 0.825 / 8.02 ms (256 x
  // 23: 0.874 / 8.37). (With one thread per search and the 512 x 23 tile sort; now below.)
  static constexpr unsigned sample_every = 64;
  // Up to a few tens of millions of keys the cut pass is bound by its searches' latency: 8 lanes
  // per search (block::lane_group_search, 8 rounds for 2^24 keys instead of 24) took it from 26-39
  // to 16-18 us at 10M (u32 keys 0.509 -> 0.424 ms, pairs 0.828 -> 0.753; 4 lanes 0.472, 16
  // lanes 0.443). Larger, its reads bound it, and the lanes' extra reads cost more than they save:
  // keys 24M 1.008 ms with 8 lanes, 1.041 with one; 40M 1.621 / 1.619; 64M 2.788 / 2.734; 100M
  // 4.36 / 4.21; pairs 24M 1.878 / 1.893, 40M 3.046 / 3.010, 100M 8.27 / 8.02.
  static constexpr unsigned search_lanes = 8;
  static constexpr std::size_t lane_search_below = std::size_t(32) << 20;
  // Blocks per multiprocessor matter more to the merge passes than spills: with the 512 x 21 tile
  // sort at 4 blocks, u32 keys 10M / 100M: 256 x 33 at 4 blocks 0.432 / 4.184 ms, **at 5 (48
  // registers, 56 bytes spilled) 0.415 / 3.907**, at 6 0.415 / 3.929; 256 x 29 at 6 0.409 /
  // 3.942; 256 x 35 at 5 0.416 / 3.930; 256 x 37 0.427 / 3.937; 256 x 31 0.430 / 4.052; 256 x 33
  // with 7 parts 0.413 / 3.925; 256 x 27 0.431 / 4.181. Pairs: 256 x 25 at 3 blocks 0.753 /
  // 8.018, **256 x 21 at 4 0.736 / 7.851**, 256 x 23 at 4 0.763 / 8.222, 256 x 17 at 5 0.836 /
  // 8.978, 256 x 21 at 5 0.955 / 10.62 (spilling in the merge loops).
  using four_way = std::conditional_t<
      keys_only_narrow, four_way_shape<256, 33, 6, 5, sample_every, search_lanes>,
      four_way_shape<256, narrow ? 21 : 7, narrow ? 6 : 2, narrow ? 4 : 3, sample_every,
                     search_lanes>>;
  // With four-way passes the tile sort takes, of four_way_tiles, the one that needs the fewest
  // passes (the smaller on a tie): a pass saved is worth more than a slower tile sort. Integer
  // keys alone under less / greater sort their registers with a network
  // (block::ties_are_identical), which makes more keys per thread cheap; the tiles of u32 keys
  // need it (four_way_tiles_need_network; other keys take threads x items). H100, u32 keys 10M /
  // 100M, whole sorts: 512 x 21 at 4 blocks 0.410 / 3.877 ms; 256 x 41 at 4 0.404 / 3.781;
  // 512 x 49 at 2 0.419 / **3.506** (6 passes at 100M); 1024 x 39 at 1 **0.371** / 3.767 (4
  // passes at 10M); 1024 x 25 at 2 0.405 / 3.646. u32 pairs: 256 x 21 at 4 0.738 / 7.850 (8
  // passes at 100M), 256 x 25 at 4 0.721 / **7.104**, 512 x 21 at 2 (86 KiB) 0.703 (5 passes
  // at 10M) / 7.433, 512 x 23 at 2 **0.689**, 1024 x 11 at 2 0.720, 256 x 39 at 2 0.708 / 7.536;
  // 256 x 27 at 4 - / 7.223; 256 x 25 at 3 0.731 / 7.180; 512 x 13 at 3 0.750 / 7.297; 384 x 17
  // at 3 0.748 / 7.247; 1024 x 7 - / 7.815. Later (another day, 10M pairs, two repetitions):
  // 512 x 23 0.6884 / 0.6889 ms, **512 x 25 0.6684 / 0.6696**, 512 x 27 0.695, 512 x 29 0.793
  // (spilling), 384 x 33 0.682. The pairs' merge passes, same run: 256 x 21 with 6
  // parts 0.702 / 7.054, 7 parts 0.700 / 7.216, 5 parts 0.720 / 7.447, 256 x 19 0.704 / 7.261.
  // (void: the policy's own tile.)
  using four_way_tiles = std::conditional_t<
      keys_only_narrow,
      sort_tile_choices<sort_tile_shape<256, 41, 4>, sort_tile_shape<512, 49, 2>,
                        sort_tile_shape<1024, 39, 1>>,
      std::conditional_t<narrow && KeyBytes <= 4,
                         sort_tile_choices<sort_tile_shape<256, 25, 4>, sort_tile_shape<512, 25, 2>>,
                         void>>;
  static constexpr bool four_way_tiles_need_network = keys_only_narrow;
  static constexpr int items = keys_only_narrow          ? 21
                               : narrow && KeyBytes <= 4 ? 21
                               : narrow                  ? 15
                                                         : 7;
};

}  // namespace corank::cuda::tuning
