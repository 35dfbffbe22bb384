// The GPU segmented sorts' dispatch: their temporary storage's layouts, the kernels' shapes from
// the tuned policies and their launches (nothing read back to the host). The contract and the
// entry points are in corank/cuda/segmented_sort.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "corank/cuda/block/merge_sort.cuh"
#include "corank/cuda/detail/launch.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/segmented_sort.cuh"
#include "corank/cuda/tuning/segmented_sort.cuh"
#include "corank/cuda/tuning/sort.cuh"

namespace corank::cuda::detail {

/// Blocks of `kernel` the whole GPU holds at once (the occupancy learned once per device).
template <class Kernel>
cudaError_t resident_blocks(Kernel kernel, int threads, std::size_t smem, unsigned* blocks) {
  int per_sm = 0, sms = 0;
  CORANK_CUDA_TRY(blocks_per_multiprocessor(kernel, threads, smem, &per_sm));
  CORANK_CUDA_TRY(multiprocessor_count(&sms));
  *blocks = unsigned(per_sm > 0 ? per_sm : 1) * unsigned(sms);
  return cudaSuccess;
}

/// The unstable sort's temporary storage: a list head per class, then the lists of segment ids
/// (tiny and small share one array, from its two ends, as do medium and register; large has a
/// short one).
template <class Policy = tuning::segmented_policy>
struct unstable_segments_layout {
  static constexpr std::size_t medium_max =
      std::size_t(Policy::block_threads)
      << (Policy::block_max_bits - __builtin_ctz(unsigned(Policy::block_threads)));
  std::size_t large_slots;
  temporary_layout all;
  temporary_part heads, lists;
  unstable_segments_layout(std::size_t n, std::size_t num_segments)
      : large_slots(std::min(num_segments, n / (medium_max + 1) + 1)) {
    heads = all.add<unsigned>(kernels::classes);
    lists = all.add<unsigned>(2 * num_segments + large_slots);
  }
};

/// The unstable sort with a given policy (tuning::segmented_policy's members) in `temp` (its
/// layout's bytes).
template <class Key, class Value, class Offset, class Compare,
          class Policy = tuning::segmented_policy>
cudaError_t sort_segments_run(Key* keys, Value* vals, std::size_t n, const Offset* offsets,
                              std::size_t num_segments, void* temp, Compare comp,
                              cudaStream_t stream) {
  constexpr int W = Policy::warps_per_block, NT = Policy::block_threads;
  constexpr int warp_b = Policy::warp_max_bits - 5;
  constexpr int block_b = Policy::block_max_bits - __builtin_ctz(unsigned(NT));
  constexpr int large_bg = 4;

  constexpr std::size_t register_max =
      std::size_t(32 / Policy::register_batch) * Policy::register_keys;
  const auto register_kernel =
      kernels::segmented_sort_small<W, warp_b, Policy::register_keys, Policy::register_batch, Key,
                                    Value, Offset, Compare>;
  const auto small_kernel =
      kernels::segmented_sort_small<W, warp_b, 0, 1, Key, Value, Offset, Compare>;
  const auto medium_kernel =
      kernels::segmented_sort_medium<NT, block_b, Key, Value, Offset, Compare>;
  const auto large_kernel =
      kernels::segmented_sort_large<NT, block_b, large_bg, Key, Value, Offset, Compare>;
  constexpr std::size_t small_smem = W * kernels::bitonic_smem_bytes<Key, Value>(32u << warp_b);
  constexpr std::size_t block_smem =
      kernels::bitonic_smem_bytes<Key, Value>(unsigned(NT) << block_b);
  const auto tiny_kernel =
      kernels::segmented_sort_tiny<Policy::tiny_segments_per_warp, Key, Value, Offset, Compare>;
  unsigned grids[5] = {};
  const cudaError_t setup = [&] {
    CORANK_CUDA_TRY(resident_blocks(tiny_kernel, 256, 0, &grids[0]));
    CORANK_CUDA_TRY(resident_blocks(register_kernel, W * 32, 0, &grids[1]));
    CORANK_CUDA_TRY(resident_blocks(small_kernel, W * 32, small_smem, &grids[2]));
    CORANK_CUDA_TRY(resident_blocks(medium_kernel, NT, block_smem, &grids[3]));
    return resident_blocks(large_kernel, NT, block_smem, &grids[4]);
  }();
  CORANK_CUDA_TRY(setup);

  using layout_t = unstable_segments_layout<Policy>;
  const layout_t layout(n, num_segments);
  unsigned* counters = layout.heads.template in<unsigned>(temp);
  unsigned* lists = layout.lists.template in<unsigned>(temp);
  using kernels::segment_list;
  const segment_list tiny{lists, 0}, small{lists, num_segments}, medium{lists + num_segments, 0},
      in_registers{lists + num_segments, num_segments}, large{lists + 2 * num_segments, 0};
  CORANK_CUDA_TRY(cudaMemsetAsync(counters, 0, kernels::classes * sizeof(unsigned), stream));
  kernels::segmented_classify<<<unsigned((num_segments + 255) / 256), 256, 0, stream>>>(
      offsets, num_segments, register_max, std::size_t(32) << warp_b, layout_t::medium_max, tiny,
      in_registers, small, medium, large, counters);
  tiny_kernel<<<grids[0], 256, 0, stream>>>(keys, vals, offsets, tiny,
                                            counters + kernels::tiny_segment, comp);
  register_kernel<<<grids[1], W * 32, 0, stream>>>(keys, vals, offsets, in_registers,
                                                   counters + kernels::register_segment, comp);
  small_kernel<<<grids[2], W * 32, small_smem, stream>>>(keys, vals, offsets, small,
                                                         counters + kernels::small_segment, comp);
  medium_kernel<<<grids[3], NT, block_smem, stream>>>(keys, vals, offsets, medium,
                                                      counters + kernels::medium_segment, comp);
  large_kernel<<<grids[4], NT, block_smem, stream>>>(keys, vals, offsets, large,
                                                     counters + kernels::large_segment, comp);
  return cudaGetLastError();
}

/// The tuned policy of the stable sort for keys and values of these sizes.
template <class Key, class Value>
using stable_segmented_policy_for =
    tuning::stable_segmented_policy<sizeof(Key),
                                    std::is_same_v<Value, block::no_value> ? 0 : sizeof(Value)>;

/// The stable sort's temporary storage: the counts its kernels leave each other, which windows
/// hold a segment the short groups left, the groups listed for the staged kernel, the windows
/// left to the merge kernel (their segments), the long segments' list (segment ids,
/// first tiles, each tile's owner), and when there can be long segments an array of keys and of
/// values for the merge passes (16 elements more, to start congruent with the caller's modulo 16
/// bytes so that the passes' 16-byte copies serve both). In the few-segments mode (at most
/// Policy::few_segments_max segments, every one listed as long) the counts and the long list
/// alone, with a slot per segment: a segment of l keys has ceil(l / tile) <= l / tile + 1 tiles
/// (tile: that mode's long tile, Policy::few_long_shape), so n / tile + num_segments tiles in
/// all at most.
template <class Key, class Value, class Policy = stable_segmented_policy_for<Key, Value>>
struct stable_segments_layout {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  static constexpr std::size_t window = Policy::window;
  bool few;
  std::size_t long_tile, windows, long_slots, tile_slots;
  temporary_layout all;
  temporary_part counts, not_tiny, small_groups, warp_list, group_list, deferred, long_segments,
      long_first_tiles, tile_owners, keys, values;
  stable_segments_layout(std::size_t n, std::size_t num_segments)
      : few(num_segments <= Policy::few_segments_max),
        long_tile(few ? std::size_t(Policy::few_long_shape::tile) : Policy::tile),
        windows(few ? 0 : (n + window - 1) / window),
        long_slots(few ? num_segments : std::min(num_segments, n / (window + 1))),
        tile_slots(long_slots ? n / long_tile + long_slots : 0) {
    counts = all.add<kernels::long_segment_counts>(1);
    if (!few) {
      not_tiny = all.add<unsigned char>(windows);
      small_groups = all.add<unsigned>(Policy::stages::count * (num_segments / 32 + 1));
      if (Policy::warp_registers > 0 && num_segments <= 0xffffffffu) {
        warp_list = all.add<unsigned>(num_segments);
        // Segments longer than a warp's merges hold, for the groups of warps.
        if (Policy::warp_merge_group_widest > 32)
          group_list = all.add<unsigned>(
              std::min(num_segments,
                       n / (std::size_t(Policy::warp_merge_widest) * Policy::warp_registers + 1)));
      }
      deferred = all.add<kernels::segment_span>(windows);
    }
    long_segments = all.add<std::size_t>(long_slots);
    long_first_tiles = all.add<std::size_t>(long_slots);
    tile_owners = all.add<unsigned>(tile_slots);
    if (long_slots) {
      keys = all.add<Key>(n + 16);
      if (has_values) values = all.add<Value>(n + 16);
    }
  }
};

/// A pointer into a part of temp congruent with `like` modulo 16 bytes.
template <class T>
T* congruent_in(const temporary_part& part, void* temp, const T* like) {
  auto* base = part.template in<unsigned char>(temp);
  return base ? reinterpret_cast<T*>(base + reinterpret_cast<std::uintptr_t>(like) % 16) : nullptr;
}

/// The stable sort with a given policy (tuning::stable_segmented_policy's members) in `temp` (its
/// layout's bytes).
/// stable_sort_small_groups for each stage width's list: a wave of resident blocks each, looping
/// over the groups listed on the device (none: they return at once).
template <class Policy, class Key, class Value, class Offset, class Compare, std::size_t... Stage>
cudaError_t sort_staged_groups(std::index_sequence<Stage...>, Key* keys, Value* vals,
                               const Offset* offsets, std::size_t num_segments,
                               kernels::tiny_groups groups, const unsigned char* not_tiny,
                               const kernels::long_segment_counts* counts, Compare comp,
                               cudaStream_t stream) {
  const auto sort_stage = [&](auto stage) {
    constexpr int width = Policy::stages::width[decltype(stage)::value];
    const auto kernel = kernels::stable_sort_small_groups<width, Policy::skip_flagged_windows, Key,
                                                          Value, Offset, Compare>;
    constexpr unsigned threads = 32 * kernels::small_stage_warps<Key, Value, width>;
    unsigned grid = 0;
    CORANK_CUDA_TRY(resident_blocks(kernel, threads, 0, &grid));
    kernel<<<grid, threads, 0, stream>>>(keys, vals, offsets, num_segments, groups.list(stage),
                                         &counts->staged_groups[stage], not_tiny, Policy::window,
                                         comp);
    return cudaGetLastError();
  };
  cudaError_t status = cudaSuccess;
  ((status =
        status == cudaSuccess ? sort_stage(std::integral_constant<int, int(Stage)>{}) : status),
   ...);
  return status;
}

/// What the long segments' kernels take: the caller's arrays and the passes' ones, the long
/// list and its counts (on the device), and the most tiles there can be.
template <class Key, class Value, class Offset>
struct long_path_args {
  Key* keys;
  Value* vals;
  Key* keys_tmp;
  Value* vals_tmp;
  std::size_t n;
  const Offset* offsets;
  kernels::long_segment_list longs;
  kernels::long_segment_counts* counts;
  std::size_t tile_slots;
};

/// The long segments listed on the device, in tiles of Shape (threads x items): the tiles sorted,
/// then the merge passes the longest possible segment (n keys) needs, those past the longest
/// listed one returning at once; from Policy::pass_launches on in one cooperative launch.
template <class Shape, class Policy, class Key, class Value, class Offset, class Compare>
cudaError_t sort_long_segments(const long_path_args<Key, Value, Offset>& a, Compare comp,
                               cudaStream_t stream) {
  constexpr int NT = Shape::threads, VT = Shape::items;
  constexpr std::size_t tile = std::size_t(NT) * VT;
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  const auto tile_kernel = kernels::stable_sort_long_tiles<NT, VT, Key, Value, Offset, Compare>;
  const auto pass_kernel = kernels::stable_merge_long_runs<NT, VT, Key, Value, Offset, Compare>;
  const auto passes_kernel =
      kernels::stable_merge_long_runs_from<NT, VT, Key, Value, Offset, Compare>;
  constexpr std::size_t tile_smem = sizeof(kernels::long_tile_smem<Key, Value, tile>);
  constexpr std::size_t pass_smem = kernels::partitioned_smem<has_values, Key, Value>::bytes(tile);
  unsigned resident[3] = {};
  const cudaError_t setup = [&] {
    CORANK_CUDA_TRY(resident_blocks(tile_kernel, NT, tile_smem, &resident[0]));
    CORANK_CUDA_TRY(resident_blocks(passes_kernel, NT, pass_smem, &resident[2]));
    return resident_blocks(pass_kernel, NT, pass_smem, &resident[1]);
  }();
  CORANK_CUDA_TRY(setup);
  // Grids of up to Policy::merge_waves waves over the most tiles there can be (the blocks loop
  // over the tiles counted on the device).
  const auto grid = [&](unsigned resident_blocks) {
    return unsigned(
        std::min<std::size_t>(a.tile_slots, std::size_t(Policy::merge_waves) * resident_blocks));
  };
  tile_kernel<<<grid(resident[0]), NT, tile_smem, stream>>>(a.keys, a.vals, a.keys_tmp, a.vals_tmp,
                                                            a.offsets, a.longs, a.counts, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  const int passes = kernels::merge_passes_for(a.n, tile);
  const int launched = std::min(passes, Policy::pass_launches);
  for (int pass = 0; pass < launched; ++pass) {
    pass_kernel<<<grid(resident[1]), NT, pass_smem, stream>>>(
        a.keys, a.vals, a.keys_tmp, a.vals_tmp, a.offsets, a.longs, a.counts, pass, comp);
    CORANK_CUDA_TRY(cudaGetLastError());
  }
  if (launched == passes) return cudaSuccess;
  // The later passes, in one wave of resident blocks (a grid barrier needs them all resident).
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  const cudaLaunchConfig_t config{dim3(resident[2]), dim3(NT), pass_smem, stream, &cooperative, 1};
  return cudaLaunchKernelEx(&config, passes_kernel, a.keys, a.vals, a.keys_tmp, a.vals_tmp,
                            a.offsets, a.longs, a.counts, launched, comp);
}

/// One launch of kernels::stable_merge_warp_group_segments: the listed segments that groups of
/// FirstWidth to Widest lanes of up to R keys take, from Above keys.
template <int R, int Above, int FirstWidth, int Widest, bool Fine, class Key, class Value,
          class Offset, class Compare>
cudaError_t launch_warp_groups(Key* keys, Value* vals, const Offset* offsets,
                               const unsigned* group_list,
                               const kernels::long_segment_counts* counts, Compare comp,
                               unsigned threads, cudaStream_t stream) {
  const auto kernel = kernels::stable_merge_warp_group_segments<R, Above, FirstWidth, Widest, Fine,
                                                                Key, Value, Offset, Compare>;
  unsigned grid = 0;
  CORANK_CUDA_TRY(resident_blocks(kernel, threads, 0, &grid));
  kernel<<<grid, threads, 0, stream>>>(keys, vals, offsets, group_list, counts, comp);
  return cudaGetLastError();
}

/// Groups of 64 lanes for each run length after Prev to Longest (next_merge_run's), a launch each:
/// the segments that 64 lanes of the run before cannot hold. One run length a kernel: with all
/// of them in one, the kernel's registers spilled.
template <int Prev, int Longest, bool Fine, class Key, class Value, class Offset, class Compare>
cudaError_t launch_longer_runs(Key* keys, Value* vals, const Offset* offsets,
                               const unsigned* group_list,
                               const kernels::long_segment_counts* counts, Compare comp,
                               unsigned threads, cudaStream_t stream) {
  constexpr int run = kernels::next_merge_run<Fine>(Prev);
  CORANK_CUDA_TRY((launch_warp_groups<run, 64 * Prev, 64, 64, Fine>(
      keys, vals, offsets, group_list, counts, comp, threads, stream)));
  if constexpr (run < Longest)
    return launch_longer_runs<run, Longest, Fine>(keys, vals, offsets, group_list, counts, comp,
                                                  threads, stream);
  return cudaSuccess;
}

/// Groups of W lanes, then of 2 W, ... to Widest, a launch a width, from Above keys: the 256-lane
/// groups in the kernel of the 128-lane ones made the latter's segments (u32 1537-2048 keys)
/// 1.13-1.25x slower.
template <int R, int Above, int W, int Widest, bool Fine, class Key, class Value, class Offset,
          class Compare>
cudaError_t launch_group_widths(Key* keys, Value* vals, const Offset* offsets,
                                const unsigned* group_list,
                                const kernels::long_segment_counts* counts, Compare comp,
                                unsigned threads, cudaStream_t stream) {
  CORANK_CUDA_TRY((launch_warp_groups<R, Above, W, W, Fine>(keys, vals, offsets, group_list, counts,
                                                            comp, threads, stream)));
  if constexpr (W < Widest)
    return launch_group_widths<R, W * R, 2 * W, Widest, Fine>(keys, vals, offsets, group_list,
                                                              counts, comp, threads, stream);
  return cudaSuccess;
}

template <class Key, class Value, class Offset, class Compare,
          class Policy = stable_segmented_policy_for<Key, Value>>
cudaError_t stable_sort_segments_run(Key* keys, Value* vals, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, void* temp, Compare comp,
                                     cudaStream_t stream) {
  using layout_t = stable_segments_layout<Key, Value, Policy>;
  constexpr int NT = Policy::threads, VT = Policy::items;
  constexpr bool has_values = layout_t::has_values;
  const layout_t layout(n, num_segments);
  auto* counts = layout.counts.template in<kernels::long_segment_counts>(temp);
  auto* not_tiny = layout.not_tiny.template in<unsigned char>(temp);
  const kernels::tiny_groups groups{layout.small_groups.template in<unsigned>(temp),
                                    num_segments / 32 + 1};
  // Segments a warp sorts in its registers where ties are identical (the network is not stable)
  // and the policy takes the networks, or else by stable merges through shared memory where the
  // policy says so.
  constexpr bool identical_ties = block::ties_are_identical<Key, Value, Compare>;
  constexpr bool warp_sorts = identical_ties && Policy::warp_networks;
  constexpr bool warp_merges = identical_ties ? !Policy::warp_networks : Policy::warp_merge;
  unsigned* warp_list =
      warp_sorts || warp_merges ? layout.warp_list.template in<unsigned>(temp) : nullptr;
  auto* deferred = layout.deferred.template in<kernels::segment_span>(temp);
  const kernels::long_segment_list longs{layout.long_segments.template in<std::size_t>(temp),
                                         layout.long_first_tiles.template in<std::size_t>(temp),
                                         layout.tile_owners.template in<unsigned>(temp)};
  Key* keys_tmp = congruent_in(layout.keys, temp, keys);
  Value* vals_tmp = has_values ? congruent_in(layout.values, temp, vals) : nullptr;

  using window_smem = kernels::window_smem<Key, Value, Policy::tile>;
  using short_smem = kernels::short_window_smem<Key, Policy::tile>;
  const auto short_kernel =
      kernels::stable_sort_short_windows<NT, VT, Policy::short_window_blocks_per_sm, Key, Value,
                                         Offset, Compare>;
  const auto window_kernel = kernels::stable_sort_windows<NT, VT, Policy::window_blocks_per_sm, Key,
                                                          Value, Offset, Compare>;
  if (layout.windows > 0x7fffffffu || layout.tile_slots > 0x7fffffffu) return cudaErrorInvalidValue;
  const long_path_args<Key, Value, Offset> long_path{keys,    vals,  keys_tmp, vals_tmp,         n,
                                                     offsets, longs, counts,   layout.tile_slots};

  if (layout.few) {
    // Every segment to the long path: one listing kernel (it writes the counts whole), no short
    // segments' kernels.
    constexpr int list_threads = std::max<int>(32, (int(Policy::few_segments_max) + 31) / 32 * 32);
    const unsigned list_blocks = unsigned(
        std::min<std::size_t>((layout.tile_slots + list_threads - 1) / list_threads, 1024));
    kernels::list_every_segment_as_long<list_threads><<<list_blocks, list_threads, 0, stream>>>(
        offsets, num_segments, layout.long_tile, longs, counts);
    CORANK_CUDA_TRY(cudaGetLastError());
    return sort_long_segments<typename Policy::few_long_shape, Policy>(long_path, comp, stream);
  }

  CORANK_CUDA_TRY(allow_smem(short_kernel, sizeof(short_smem)));
  CORANK_CUDA_TRY(allow_smem(window_kernel, sizeof(window_smem)));
  CORANK_CUDA_TRY(cudaMemsetAsync(counts, 0, sizeof(kernels::long_segment_counts), stream));
  constexpr unsigned st = 256;
  if constexpr (Policy::small_sort_max > 0) {
    CORANK_CUDA_TRY(cudaMemsetAsync(not_tiny, 0, layout.windows, stream));
    // A warp per 32 segments, grid-stride past 2^30 blocks' worth.
    const std::size_t tiny_blocks = std::min<std::size_t>((num_segments + st - 1) / st, 1u << 30);
    // The longest segment listed for the warp kernel: the merges take segments a group cannot
    // hold by wider groups where the policy says so.
    constexpr int widest = warp_merges ? Policy::warp_merge_widest : Policy::warp_group;
    // Longer ones by groups of whole warps, where the merges take whole warps.
    constexpr int group_widest =
        warp_merges && widest == 32 ? std::max(32, Policy::warp_merge_group_widest) : 32;
    constexpr int warp_holds = widest * Policy::warp_registers;
    constexpr int group_holds =
        std::max(64 * Policy::warp_group_registers, group_widest * Policy::warp_registers);
    constexpr int warp_max =
        group_widest > 32 ? int(std::min<std::size_t>(Policy::window, group_holds)) : warp_holds;
    // Past a window, the groups take only the segments whose long tiles would be mostly empty.
    using listing = kernels::warp_listing<warp_max, group_widest == 32 ? warp_max : group_holds,
                                          Policy::warp_registers, int(Policy::tile)>;
    kernels::stable_sort_tiny_segments<Policy::tiny_sort_max, Policy::small_sort_above,
                                       typename Policy::stages, listing,
                                       Policy::skip_flagged_windows, Policy::tiny_blocks_per_sm,
                                       Policy::wide_fill, Policy::wide_fill_above>
        <<<unsigned(tiny_blocks), st, 0, stream>>>(keys, vals, offsets, num_segments,
                                                   Policy::window, not_tiny, groups, warp_list,
                                                   counts, comp);
    CORANK_CUDA_TRY(cudaGetLastError());
    if constexpr ((warp_sorts || warp_merges) && Policy::warp_registers > 0) {
      const auto warp_kernel = [] {
        if constexpr (warp_merges)
          return kernels::stable_merge_warp_segments<
              Policy::warp_registers, Policy::warp_group, Policy::warp_merge_fine_runs,
              Policy::warp_merge_blocks_per_sm, Key, Value, Offset, Compare>;
        else
          return kernels::stable_sort_warp_segments<Policy::warp_registers, Policy::warp_batch,
                                                    Policy::warp_group, Key, Value, Offset,
                                                    Compare>;
      }();
      unsigned warp_grid = 0;
      CORANK_CUDA_TRY(resident_blocks(warp_kernel, st, 0, &warp_grid));
      warp_kernel<<<warp_grid, st, 0, stream>>>(keys, vals, offsets, warp_list, not_tiny,
                                                Policy::window, counts, comp);
      CORANK_CUDA_TRY(cudaGetLastError());
      if constexpr (widest > Policy::warp_group) {
        const auto wide_kernel = kernels::stable_merge_wide_warp_segments<
            Policy::warp_registers, Policy::warp_group, widest, Policy::warp_merge_fine_runs,
            Policy::wide_merge_blocks_per_sm, Key, Value, Offset, Compare>;
        unsigned* group_list =
            group_widest > 32 ? layout.group_list.template in<unsigned>(temp) : nullptr;
        unsigned wide_grid = 0;
        CORANK_CUDA_TRY(resident_blocks(wide_kernel, st, 0, &wide_grid));
        wide_kernel<<<wide_grid, st, 0, stream>>>(keys, vals, offsets, warp_list, not_tiny,
                                                  Policy::window, group_list, counts, comp);
        CORANK_CUDA_TRY(cudaGetLastError());
        if constexpr (group_widest > 32) {
          constexpr int r = Policy::warp_registers, longer = Policy::warp_group_registers;
          constexpr bool fine = Policy::warp_merge_fine_runs;
          if constexpr (longer == r) {
            constexpr int narrow_widest = std::min(group_widest, 128);
            CORANK_CUDA_TRY((launch_warp_groups<r, warp_holds, 64, narrow_widest, fine>(
                keys, vals, offsets, group_list, counts, comp, st, stream)));
            if constexpr (group_widest > narrow_widest)
              CORANK_CUDA_TRY(
                  (launch_group_widths<r, narrow_widest * r, 2 * narrow_widest, group_widest, fine>(
                      keys, vals, offsets, group_list, counts, comp, st, stream)));
          } else {
            // Lanes of more keys only where 64 lanes of r keys do not hold a segment and 64 of
            // `longer` do, a launch a run length: every run length in one kernel spilled, and the
            // lengths that need r keys a lane ran 5-8% slower (docs/notes/segmented_sort.md,
            // "Groups of whole warps").
            CORANK_CUDA_TRY((launch_warp_groups<r, warp_holds, 64, 64, fine>(
                keys, vals, offsets, group_list, counts, comp, st, stream)));
            CORANK_CUDA_TRY((launch_longer_runs<r, longer, fine>(keys, vals, offsets, group_list,
                                                                 counts, comp, st, stream)));
            if constexpr (group_widest * r > 64 * longer)
              CORANK_CUDA_TRY((launch_group_widths<r, 64 * longer, 128, group_widest, fine>(
                  keys, vals, offsets, group_list, counts, comp, st, stream)));
          }
        }
      }
    }
    CORANK_CUDA_TRY(sort_staged_groups<Policy>(std::make_index_sequence<Policy::stages::count>{},
                                               keys, vals, offsets, num_segments, groups, not_tiny,
                                               counts, comp, stream));
  } else {
    CORANK_CUDA_TRY(cudaMemsetAsync(not_tiny, 1, layout.windows, stream));  // every window
  }
  // The windows' kernels: grids of resident blocks that loop over the windows flagged, then over
  // those left (a count on the device).
  unsigned short_grid = 0, window_grid = 0;
  CORANK_CUDA_TRY(resident_blocks(short_kernel, NT, sizeof(short_smem), &short_grid));
  CORANK_CUDA_TRY(resident_blocks(window_kernel, NT, sizeof(window_smem), &window_grid));
  const auto at_most_windows = [&](unsigned grid) {
    return unsigned(std::min<std::size_t>(grid, layout.windows));
  };
  short_kernel<<<at_most_windows(short_grid), NT, sizeof(short_smem), stream>>>(
      keys, vals, offsets, num_segments, not_tiny, layout.windows, Policy::window,
      Policy::rank_sort_max, longs, counts, deferred, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  window_kernel<<<at_most_windows(window_grid), NT, sizeof(window_smem), stream>>>(
      keys, vals, offsets, Policy::window, deferred, counts, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  if (!layout.long_slots) return cudaSuccess;
  return sort_long_segments<tuning::block_shape<NT, VT, 1>, Policy>(long_path, comp, stream);
}

}  // namespace corank::cuda::detail
