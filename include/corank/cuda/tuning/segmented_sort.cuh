// Tuning of the stable segmented sort (segmented_sort.cuh), apart from the algorithm. Chosen for
// an H100 (sm_90); the measured figures are in docs/notes/segmented_sort.md.
#pragma once

#include <cstddef>
#include <type_traits>

#include "corank/cuda/tuning/block_shape.cuh"

namespace corank::cuda::tuning {

/// The widths of the stable segmented sort's staged groups (kernels::stable_sort_small_groups),
/// ascending: a group takes the narrowest that holds its longest segment (wider stages hold more
/// registers and shared memory, so fewer warps run at once). A width of 0 alone: no stages.
template <int... Widths>
struct stage_widths {
  static constexpr int count = sizeof...(Widths);
  static constexpr int width[count] = {Widths...};
  static constexpr int max = width[count - 1];
  static_assert(count >= 1 && count <= 4, "a count of listed groups per stage");
  /// The stage for a group whose longest segment has `longest` keys (<= max).
  __host__ __device__ static constexpr int of(unsigned longest) {
    int below = 0;  // the widths shorter than longest: the first that is not is its stage
    ((below += longest > unsigned(Widths) ? 1 : 0), ...);
    return below < count ? below : count - 1;
  }
};

/// One tile of the stable segmented sort: Threads x Items keys. Segments of up to half a tile
/// are sorted in windows (every segment that starts in a window of half a tile is sorted by one
/// block, in one tile), longer ones in tiles of their own and then merge passes of tiles. Odd
/// Items keep each thread's run in shared memory free of bank conflicts.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct stable_segmented_policy {
  static constexpr int threads = 256;
  // Keys per thread: a window's latency chain is the same for any tile, so the longest runs that
  // fit registers and shared memory (docs/notes/segmented_sort.md, "Tuning").
  static constexpr int items = KeyBytes + ValueBytes <= 4    ? 15
                               : KeyBytes + ValueBytes <= 8  ? 11
                               : KeyBytes + ValueBytes <= 16 ? 7
                                                             : 5;
  static constexpr std::size_t tile = std::size_t(threads) * items;
  static constexpr std::size_t window = tile / 2;  // also the longest segment a window sorts
  // Windows whose segments are all this short place each key by its rank in its segment (a
  // comparison per key of the segment) instead of merge rounds: where the rank sort stopped
  // being faster on an H100 (docs/notes/segmented_sort.md, "Tuning").
  static constexpr unsigned rank_sort_max = 44;
  // Groups of 32 consecutive segments of at most tiny_sort_max keys are sorted first, a lane per
  // segment in registers (stable_sort_tiny_segments); groups whose longest has small_sort_above + 1
  // to small_sort_max keys the same way after a coalesced copy through shared memory
  // (stable_sort_small_groups); windows of nothing longer skip the rank sort. Measured faster for
  // 4-byte keys alone (to 46 keys: the stage's 48 KB; a lane's insertion sort still beat the
  // 8-lane networks there) and for 8-byte items (lanes at 2-4 keys, staged groups at 9-23; at 5-8
  // the rank sort was faster); larger items keep the windows (0: off). The figures:
  // docs/notes/segmented_sort.md. CORANK_TINY_SORT_MAX: builds for measurement.
  static constexpr bool eight_byte_items = KeyBytes + ValueBytes > 4 && KeyBytes + ValueBytes <= 8;
  // The staged groups' stage widths (ascending; the last is the longest
  // segment staged): a group takes the narrowest that holds its longest. Narrow stages hold fewer
  // registers a lane (a lane's segment is sorted in registers), so more warps run at once.
  // CORANK_STAGE_WIDTHS (e.g. 16,32,46): builds for measurement.
#ifdef CORANK_STAGE_WIDTHS
  using stages = stage_widths<CORANK_STAGE_WIDTHS>;
#else
  using stages = std::conditional_t<
      KeyBytes + ValueBytes <= 4, stage_widths<16, 32, 46, 56>,
      std::conditional_t<eight_byte_items, stage_widths<23, 46>, stage_widths<0> > >;
#endif
  static constexpr int small_sort_max = stages::max;
#ifdef CORANK_TINY_SORT_MAX
  static constexpr int tiny_sort_max = CORANK_TINY_SORT_MAX;
#else
  static constexpr int tiny_sort_max = !small_sort_max ? 0 : eight_byte_items ? 4 : 8;
#endif
  static constexpr int small_sort_above = eight_byte_items ? 8 : tiny_sort_max;
  // Blocks of stable_sort_tiny_segments per multiprocessor that its registers must allow: it
  // waits on memory (offsets, then keys), so every resident warp counts; with the registers it
  // takes uncapped (5 blocks) one key a segment ran slower (docs/notes/segmented_sort.md).
#ifdef CORANK_TINY_BLOCKS
  static constexpr int tiny_blocks_per_sm = CORANK_TINY_BLOCKS;
#else
  static constexpr int tiny_blocks_per_sm = 8;
#endif
  // Groups of longest above wide_fill_above staged in a stage other than the narrowest only when
  // they hold more than wide_fill % of 32 x their longest keys: a staged lane's insertion sort
  // runs to the group's longest, and pairs, u64 and f64 in U[1,46] were 1.1-2.2x slower staged
  // whole than with the uneven groups left to the warp merges and networks; U[1,24] and U[1,32]
  // 1.3-1.5x faster staged whole (docs/notes/segmented_sort.md). 0: every one (4-byte keys).
  static constexpr unsigned wide_fill = eight_byte_items ? 75 : 0;
  static constexpr unsigned wide_fill_above = 32;
  // The lanes and the staged groups leave the segments of windows that are sorted anyway (a
  // longer segment flagged them) to those windows: mixed lengths of 8-byte items paid for both
  // (docs/notes/segmented_sort.md). Not measured for 4-byte keys.
  static constexpr bool skip_flagged_windows = eight_byte_items;
  // In groups with a longer segment, segments of tiny_sort_max + 1 to warp_group x warp_registers
  // keys are sorted in registers, a group of warp_group lanes each (a bitonic network: where ties
  // are identical alone, since it is not stable), warp_batch of them at a time per group. Eight
  // lanes of up to 16 keys keep most of the network's steps inside a lane; faster than the rank
  // sort, the merge windows and whole warps at 9-128 keys (docs/notes/segmented_sort.md).
  static constexpr int warp_group = 8;
  // 8-byte keys take them in groups of longest above small_sort_above only: groups of 5-8 keys
  // were far slower in them than in the rank sort (docs/notes/segmented_sort.md, "Pairs and
  // 8-byte keys").
  static constexpr int warp_registers = small_sort_max ? 16 : 0;
  static constexpr int warp_batch = 1;
  // Keys whose ties are not identical (pairs, f32, f64) take the same segments in the same groups,
  // merged stably through shared memory instead (kernels::warp_merge_segment): 8-byte items, where
  // the windows took them before, 1.5-2.2x slower (docs/notes/segmented_sort.md).
  static constexpr bool warp_merge = KeyBytes + ValueBytes <= 8;
  // Keys whose ties are identical take the networks; 4-byte keys the merges too, in runs of 1.5
  // times a power of two as well (warp_merge_fine_runs): as fast below 57 keys, 1.2-1.4x faster at
  // 65-128 (the networks pad to 128 there); pairs lost 5-25% at 47-128 keys with the finer runs
  // (docs/notes/segmented_sort.md, "sort_segments through the stable sort; warp merges for
  // 4-byte keys").
  static constexpr bool warp_networks = KeyBytes + ValueBytes > 4;
  // Segments a group of the merges cannot hold (warp_group x warp_registers keys, up to
  // warp_merge_widest x warp_registers) are merged by groups of 2, 4, ... times its lanes, to
  // warp_merge_widest lanes, instead of flagging their window, whose sort costs every segment in
  // it the rounds of a whole tile (warp_group: none wider). Whole warps (to 512 keys) pay once the
  // merge rounds are rolled: 257-512 keys and mixes to U[1,512] faster, 129-256 within 2% of
  // groups of 16 alone (docs/notes/segmented_sort.md, "Wider groups", "Merge rounds rolled").
  static constexpr int warp_merge_widest = 32;
  // Segments longer than a warp holds (warp_merge_widest x warp_registers keys), up to a window,
  // are merged by groups of 2, 4, ... whole warps, to warp_merge_group_widest lanes (named
  // barriers; 256: the whole block), instead of flagging their window, whose block sorts a tile of
  // twice the window: u32 513-1920 keys 1.5-2.2x faster, pairs 1.07-1.6x but 1025 keys 3% slower.
  // Past a window, to warp_merge_group_widest x warp_registers keys, only those whose long tiles
  // would be mostly empty (kernels::warp_listing): u32 1921-2048 and 3841-4096 keys 1.37-1.41x
  // faster, pairs 1409-2048 and 2817-4096 1.15-1.48x; the long path's full tiles beat the groups
  // between (docs/notes/segmented_sort.md, "Groups of whole warps", "Groups of the whole block").
  // 32: none.
  static constexpr int warp_merge_group_widest = 256;
  // Keys a lane of those groups merges, at most: 4-byte keys to 24 (runs of 1.5 x 16), so that
  // 1025-1536 keys take 64 lanes, not 128: 1.25-1.3x faster (a kernel a run length and width).
  static constexpr int warp_group_registers =
      KeyBytes + ValueBytes <= 4 && warp_registers == 16 ? 24 : warp_registers;
  static constexpr bool warp_merge_fine_runs = KeyBytes + ValueBytes <= 4;
  // Blocks a multiprocessor that the registers of the warp merges' kernel (to warp_group x
  // warp_registers keys) and of the wider groups' kernel (to a warp) must allow. Four for 4-byte
  // keys: u32 57-127 keys 1.05-1.13x faster than two; pairs 3-5% slower (their spills). Three or
  // four for the wider groups: 0.9-1.1x by length, no gain.
  static constexpr int warp_merge_blocks_per_sm = KeyBytes + ValueBytes <= 4 ? 4 : 2;
  static constexpr int wide_merge_blocks_per_sm = 2;
  // Blocks a multiprocessor that the windows' kernels (grids of resident blocks looping over the
  // windows) must allow: as many as their registers allowed with a block per window, since the
  // loops alone took 1.7-2x the registers.
  static constexpr int short_window_blocks_per_sm = KeyBytes + ValueBytes <= 4 ? 6 : 5;
  static constexpr int window_blocks_per_sm = 4;
  // sort_segments (not stable) takes this sort: its bitonic networks were slower at most lengths
  // (up to 10x at 33-64 keys) and give a segment longer than 8192 keys to one block (one of 10M
  // u32 keys: 172 ms against 0.63; of 10M 16-byte keys 9.4 s against 2.4 ms;
  // docs/notes/segmented_sort.md). The networks stay (detail::sort_segments_by_networks), tested.
  static constexpr bool serves_unstable = true;
  // Waves of resident blocks in the long segments' tile and merge-pass grids: more hide each
  // tile's latency chain, fewer make the passes a call does not need cheaper (they return at
  // once); 1 and 2 lost up to 1.3x at 4096 keys a segment for 10-30 us gained at short ones.
  static constexpr int merge_waves = 4;
  // Merge passes launched one by one (the grids above); the later ones, which only segments of
  // more than tile << pass_launches keys need, run in one cooperative launch: passes a call does
  // not need cost an empty launch each (docs/notes/segmented_sort.md).
#ifdef CORANK_PASS_LAUNCHES
  static constexpr int pass_launches = CORANK_PASS_LAUNCHES;
#else
  static constexpr int pass_launches = 3;
#endif
  // Calls of at most few_segments_max segments skip the short segments' kernels (a dozen
  // launches that find nothing to do in a call of a few long segments) and give every segment, of
  // any length, to the long path (tiles, then merge passes); the host knows num_segments, so the
  // choice costs no synchronisation. 64: the listing is one block of a thread per segment, and a
  // call of 64 short segments is one small tile sort (docs/notes/segmented_sort.md, "Few
  // segments"). 0: off.
  static constexpr std::size_t few_segments_max = 64;
  // The long path's tile in that mode: the windows' tile, as the other mode's. The merge sort's
  // larger tile saves passes, but its tile sort holds a block a multiprocessor, and it was
  // slower at 10^7 keys and for pairs (docs/notes/segmented_sort.md, "Few segments").
  using few_long_shape = block_shape<threads, items, 1>;
  // A warp's stage (33 x stages::max slots) must fit 48 KB of static shared memory.
  static_assert(33 * small_sort_max * (KeyBytes + ValueBytes) <= 48 * 1024,
                "stages::max too large");
  static_assert(small_sort_above >= tiny_sort_max, "the lanes' groups are not staged");
};

}  // namespace corank::cuda::tuning
