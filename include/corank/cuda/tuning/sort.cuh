// Tuning of the GPU sorts, apart from the algorithms. Chosen for an H100 (sm_90); the measurements
// behind each constant are in docs/notes/tuning.md, the history in docs/notes/sort.md.
//
// Bitonic sort: a tile of tile_items keys is sorted (and later finished, after each global
// stage's long-distance steps) in shared memory; threads run 2^tile_bits_per_thread keys' worth
// of steps in registers per shared-memory pass. The global passes run global_bits steps per pass
// over memory (2^global_bits keys per thread in registers). For 10M u32 keys: 30 passes over the
// array (tiles of 2^13) instead of the 300 of one step per pass.
#pragma once

#include <cstddef>
#include <type_traits>

#include "corank/cuda/tuning/block_shape.cuh"

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

/// The tuned shape per key and value size: tiles need two or more blocks per multiprocessor, so
/// that one block's barriers and loads overlap another's work; narrow keys alone take 32 keys per
/// thread, 6-step global passes and wide tails.
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
  static constexpr int tiny_segments_per_warp = 16;
  static constexpr int warps_per_block = 8;
  static constexpr int warp_max_bits = 10;  // 32 lanes x 32 keys
  /// Segments of 33 to 32 / register_batch x register_keys keys are sorted in registers (no
  /// shared memory, no barriers), register_batch at once per warp, a group of 32 / register_batch
  /// lanes each: narrow groups keep most of the network's steps inside a lane. Longer small ones:
  /// a warp's network in shared memory, one segment a warp at a time.
  static constexpr int register_keys = 16;
  static constexpr int register_batch = 4;
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
                                            ? (widest_stride / SampleEvery) * SampleEvery
                                            : widest_stride;
  static_assert(stride > 0, "a tile of Parts parts needs Threads x Items >= (Parts + 4) x Items");
};

/// The merge sort's order check (kernels::find_input_order): chunks of Threads x Items pairs, at
/// most MaxBlocks blocks walking the array.
template <int Threads, int Items, unsigned MaxBlocks>
struct order_check_shape {
  static constexpr int threads = Threads, items = Items;
  static constexpr unsigned max_blocks = MaxBlocks;
};

/// Tile sort shapes (block_shape: kernels::merge_sort_tiles sorts tiles of threads x items keys)
/// to choose from, smallest first.
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
  // 512 threads for narrow keys alone, 256 otherwise: the fastest tiles measured at 10M and 100M.
  static constexpr int threads = keys_only_narrow ? 512 : 256;
  // The tile sort at 4 blocks per multiprocessor (registers capped at 32 for 512 threads; it held
  // 2 uncapped): measured a little faster than 2 at 100M.
  static constexpr int tile_min_blocks = 4;
  // The merge passes (the production merge's partitioned kernels) take half as many threads per
  // block: tiles of half the sort's tile, so twice as many blocks resident to hide each lead
  // tile's searches.
  // 128, 0.937 / 10.81 with 64.
  static constexpr int pass_threads = threads / 2;
  // Four-way passes halve the passes over memory, but their cut pass costs a latency chain of two
  // searches and random reads, so below a few million keys the two-way passes win; wider keys and
  // values, whose two-way tiles are small (1792), gain from them from about 900K (two-way 12-15%
  // faster at 512K, four-way 3-6% at 10^6: docs/notes/sort.md).
  static constexpr int merge_ways = 4;
  static constexpr std::size_t four_way_from =
      narrow ? std::size_t(keys_only_narrow ? 6 : 4) << 20 : std::size_t(7) << 17;
  // Grid samples (every 64 keys: two more stores per 64 outputs) let the cut searches read a
  // pass's input only in their last 6 levels.
  static constexpr unsigned sample_every = 64;
  // Up to a few tens of millions of keys the cut pass is bound by its searches' latency, which 8
  // lanes per search cut (block::lane_group_search); larger, its reads bound it, and the lanes'
  // extra reads cost more than they save.
  static constexpr unsigned search_lanes = 8;
  static constexpr std::size_t lane_search_below = std::size_t(32) << 20;
  // Blocks per multiprocessor matter more to the merge passes than spills; 12-byte items gained
  // 7-8% from 512-thread blocks, wider ones 5-15% from 15 items per thread (notes/sort.md).
  static constexpr std::size_t item_bytes = KeyBytes + ValueBytes;
  using four_way = std::conditional_t<
      keys_only_narrow, four_way_shape<256, 33, 6, 5, sample_every, search_lanes>,
      std::conditional_t<
          narrow, four_way_shape<256, 21, 6, 4, sample_every, search_lanes>,
          std::conditional_t<item_bytes <= 12,
                             four_way_shape<512, 11, 6, 2, sample_every, search_lanes>,
                             four_way_shape<256, 15, 6, 2, sample_every, search_lanes>>>>;
  // With four-way passes the tile sort takes, of four_way_tiles, the one that needs the fewest
  // passes (the smaller on a tie): a pass saved is worth more than a slower tile sort. Integer
  // and floating-point keys alone under less / greater sort their registers with a network
  // (block::network_sorts_stably), which makes more keys per thread cheap; the tiles of 4-byte
  // keys need it (four_way_tiles_need_network; other such keys take threads x items).
  // (void: the policy's own tile.)
  using four_way_tiles = std::conditional_t<
      keys_only_narrow,
      sort_tile_choices<block_shape<256, 41, 4>, block_shape<512, 49, 2>, block_shape<1024, 39, 1>>,
      std::conditional_t<
          narrow && KeyBytes <= 4,
          sort_tile_choices<block_shape<256, 25, 4>, block_shape<512, 25, 2>>,
          std::conditional_t<
              narrow, void,
              std::conditional_t<item_bytes <= 12,
                                 sort_tile_choices<block_shape<512, 9, 2>, block_shape<256, 25, 2>,
                                                   block_shape<512, 21, 1>>,
                                 sort_tile_choices<block_shape<512, 9, 2>, block_shape<512, 13, 1>,
                                                   block_shape<512, 21, 1>>>>>>;
  static constexpr bool four_way_tiles_need_network = keys_only_narrow;
  // Chunks of 2048 pairs: an unsorted input shows both facts in each block's first chunk, so its
  // check reads at most 1024 chunks; a sorted input's check keeps 8 loads per thread in flight over
  // about one wave of an H100 (8 such blocks per multiprocessor).
  using order_check = order_check_shape<256, 8, 1024>;
  // The check costs a random input one launch and each later kernel a read of the facts: 6-9 us
  // on the H100 (u32 keys, 1M: +12%, 10M: +1.7%), so it runs from 32 MB of keys and values.
  static constexpr std::size_t order_check_from_bytes = std::size_t(32) << 20;
  static constexpr int items = keys_only_narrow          ? 21
                               : narrow && KeyBytes <= 4 ? 21
                               : narrow                  ? 15
                                                         : 7;
};

}  // namespace corank::cuda::tuning
