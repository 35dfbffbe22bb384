// corank::cuda::sort_segments, stable_sort_segments and their _by_key forms: sort many independent
// segments in place.
//
//   cudaError_t sort_segments(keys, n, offsets, num_segments, comp = corank::less{}, stream = 0);
//   cudaError_t sort_segments_by_key(keys, vals, n, offsets, num_segments, comp, stream);
//   cudaError_t stable_sort_segments(keys, n, offsets, num_segments, comp, stream);
//   cudaError_t stable_sort_segments_by_key(keys, vals, n, offsets, num_segments, comp, stream);
//
// Segment s is keys[offsets[s], offsets[s + 1]) (CSR: num_segments + 1 offsets, non-decreasing,
// offsets[num_segments] <= n; empty segments allowed; any integer Offset, 64-bit included).
// Device pointers; comp a strict weak order callable on the device (with one that is not, NaN
// keys for instance, the sorts still end; the order within a segment is then unspecified).
// Bad arguments (null pointers with keys to sort, keys and values that overlap) give
// cudaErrorInvalidValue.
//
// stable_sort_segments: stable (keys that compare equal keep their order, values too), any n and
// number of segments (64-bit). The segments that start in each window of half a tile (keys) and
// are at most that long are sorted by one block as one tile of (segment, key) pairs, with merge
// rounds only as far as its segments need: no padding, no size classes. Longer segments are cut
// into tiles, sorted, then merged by passes of co-rank merges over all of them at once (the
// longest segment sets the passes; the host launches as many as the longest possible one needs,
// and the passes a call does not need return at once). Nothing is read back to the host (a CUDA
// graph can capture the call). Temporary storage: an array of n keys (and values) for the merge
// passes, and small per-window and per-segment lists (stream-ordered, cudaMallocAsync).
//
// sort_segments: not stable (bitonic networks). num_segments < 2^32.
// Segments are binned by size on the device: up to 32 keys a warp sorts one across its lanes by
// shuffles, up to 1024 a warp sorts one in shared memory and registers, up to 8192 a block does,
// larger ones a block runs the whole bitonic network over (tiles in shared memory). Asynchronous
// on `stream`; temporary storage (8 bytes per segment) is stream-ordered (cudaMallocAsync).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/detail/launch.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/segmented_sort.cuh"
#include "corank/cuda/tuning/segmented_sort.cuh"
#include "corank/cuda/tuning/sort.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {
namespace detail {

/// Blocks of `kernel` the whole GPU holds at once (the occupancy learned once per device).
template <class Kernel>
cudaError_t resident_blocks(Kernel kernel, int threads, std::size_t smem, unsigned* blocks) {
  int per_sm = 0, sms = 0;
  CORANK_CUDA_TRY(blocks_per_multiprocessor(kernel, threads, smem, &per_sm));
  CORANK_CUDA_TRY(multiprocessor_count(&sms));
  *blocks = unsigned(per_sm > 0 ? per_sm : 1) * unsigned(sms);
  return cudaSuccess;
}

/// The sort with a given policy (tuning::segmented_policy's members); the entry points pass the
/// tuned one.
template <class Key, class Value, class Offset, class Compare,
          class Policy = tuning::segmented_policy>
cudaError_t sort_segments_impl(Key* keys, Value* vals, std::size_t n, const Offset* offsets,
                               std::size_t num_segments, Compare comp, cudaStream_t stream) {
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  constexpr int W = Policy::warps_per_block, NT = Policy::block_threads;
  constexpr int warp_b = Policy::warp_max_bits - 5;
  constexpr int block_b = Policy::block_max_bits - __builtin_ctz(unsigned(NT));
  constexpr int large_bg = 4;
  if (num_segments == 0) return cudaSuccess;
  if (!offsets || (n && !keys) || (has_values && n && !vals) || num_segments >= 0xffffffffu)
    return cudaErrorInvalidValue;

  const auto small_kernel = kernels::segmented_sort_small<W, warp_b, Key, Value, Offset, Compare>;
  const auto medium_kernel =
      kernels::segmented_sort_medium<NT, block_b, Key, Value, Offset, Compare>;
  const auto large_kernel =
      kernels::segmented_sort_large<NT, block_b, large_bg, Key, Value, Offset, Compare>;
  constexpr std::size_t small_smem = W * kernels::bitonic_smem_bytes<Key, Value>(32u << warp_b);
  constexpr std::size_t block_smem =
      kernels::bitonic_smem_bytes<Key, Value>(unsigned(NT) << block_b);
  const auto tiny_kernel =
      kernels::segmented_sort_tiny<Policy::tiny_segments_per_warp, Key, Value, Offset, Compare>;
  unsigned grids[4] = {};
  const cudaError_t setup = [&] {
    CORANK_CUDA_TRY(resident_blocks(tiny_kernel, 256, 0, &grids[0]));
    CORANK_CUDA_TRY(resident_blocks(small_kernel, W * 32, small_smem, &grids[1]));
    CORANK_CUDA_TRY(resident_blocks(medium_kernel, NT, block_smem, &grids[2]));
    return resident_blocks(large_kernel, NT, block_smem, &grids[3]);
  }();
  CORANK_CUDA_TRY(setup);

  // Temporary: the list heads; tiny and small lists share one array (from its two ends), the
  // medium list has its own, the large list a short one.
  const std::size_t medium_max = std::size_t(NT) << block_b;
  const std::size_t large_slots = std::min(num_segments, n / (medium_max + 1) + 1);
  unsigned* temp = nullptr;
  CORANK_CUDA_TRY(
      cudaMallocAsync(&temp, (4 + 2 * num_segments + large_slots) * sizeof(unsigned), stream));
  unsigned* counters = temp;
  using kernels::segment_list;
  const segment_list tiny{temp + 4, 0}, small{temp + 4, num_segments},
      medium{temp + 4 + num_segments, 0}, large{temp + 4 + 2 * num_segments, 0};
  cudaError_t status = cudaMemsetAsync(counters, 0, 4 * sizeof(unsigned), stream);
  if (status == cudaSuccess) {
    kernels::segmented_classify<<<unsigned((num_segments + 255) / 256), 256, 0, stream>>>(
        offsets, num_segments, std::size_t(32) << warp_b, medium_max, tiny, small, medium, large,
        counters);
    tiny_kernel<<<grids[0], 256, 0, stream>>>(keys, vals, offsets, tiny, counters + 0, comp);
    small_kernel<<<grids[1], W * 32, small_smem, stream>>>(keys, vals, offsets, small, counters + 1,
                                                           comp);
    medium_kernel<<<grids[2], NT, block_smem, stream>>>(keys, vals, offsets, medium, counters + 2,
                                                        comp);
    large_kernel<<<grids[3], NT, block_smem, stream>>>(keys, vals, offsets, large, counters + 3,
                                                       comp);
    status = cudaGetLastError();
  }
  const cudaError_t freed = cudaFreeAsync(temp, stream);
  return status != cudaSuccess ? status : freed;
}

/// The stable sort's temporary storage: the long segments' counts, the windows' first segments,
/// the long segments' list, and an array of keys and values for the merge passes (congruent with
/// the caller's modulo 16 bytes, so the passes' 16-byte copies serve both).
template <class Key, class Value, class Policy>
struct stable_segments_layout {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  static constexpr std::size_t tile = Policy::tile, window = Policy::window;
  std::size_t windows, long_slots, tile_slots;
  static std::size_t round256(std::size_t b) { return (b + 255) / 256 * 256; }
  stable_segments_layout(std::size_t n, std::size_t num_segments)
      : windows((n + window - 1) / window),
        long_slots(std::min(num_segments, n / (window + 1))),
        tile_slots(long_slots ? n / tile + long_slots : 0) {}
  std::size_t counts_bytes() const { return round256(sizeof(kernels::long_segment_counts)); }
  std::size_t starts_bytes() const { return round256((windows + 1) * sizeof(std::size_t)); }
  std::size_t list_bytes() const {
    return round256(2 * long_slots * sizeof(std::size_t)) + round256(tile_slots * sizeof(unsigned));
  }
  std::size_t merge_bytes(std::size_t n) const {
    if (!long_slots) return 0;
    return round256(n * sizeof(Key) + 16) + (has_values ? round256(n * sizeof(Value) + 16) : 0);
  }
  std::size_t bytes(std::size_t n) const {
    return counts_bytes() + starts_bytes() + list_bytes() + merge_bytes(n);
  }
};

/// A pointer into temp congruent with `like` modulo 16 bytes.
template <class T>
T* congruent_in(unsigned char* temp, const T* like) {
  return reinterpret_cast<T*>(temp + reinterpret_cast<std::uintptr_t>(like) % 16);
}

template <class Key, class Value, class Offset, class Compare, class Policy>
cudaError_t stable_sort_segments_run(Key* keys, Value* vals, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, void* temp, Compare comp,
                                     cudaStream_t stream) {
  using layout_t = stable_segments_layout<Key, Value, Policy>;
  constexpr int NT = Policy::threads, VT = Policy::items;
  constexpr bool has_values = layout_t::has_values;
  const layout_t layout(n, num_segments);
  auto* bytes = static_cast<unsigned char*>(temp);
  auto* counts = reinterpret_cast<kernels::long_segment_counts*>(bytes);
  bytes += layout.counts_bytes();
  auto* starts = reinterpret_cast<std::size_t*>(bytes);
  bytes += layout.starts_bytes();
  kernels::long_segment_list longs{reinterpret_cast<std::size_t*>(bytes), nullptr, nullptr};
  longs.first_tile = longs.segment + layout.long_slots;
  longs.tile_owner = reinterpret_cast<unsigned*>(
      bytes + layout_t::round256(2 * layout.long_slots * sizeof(std::size_t)));
  bytes += layout.list_bytes();
  Key* keys_tmp = congruent_in(bytes, keys);
  Value* vals_tmp =
      has_values ? congruent_in(bytes + layout_t::round256(n * sizeof(Key) + 16), vals) : nullptr;

  using window_smem = kernels::window_smem<Key, Value, Policy::tile>;
  const auto window_kernel = kernels::stable_sort_windows<NT, VT, Key, Value, Offset, Compare>;
  const auto tile_kernel = kernels::stable_sort_long_tiles<NT, VT, Key, Value, Offset, Compare>;
  const auto pass_kernel = kernels::stable_merge_long_runs<NT, VT, Key, Value, Offset, Compare>;
  constexpr std::size_t tile_smem = sizeof(kernels::long_tile_smem<Key, Value, Policy::tile>);
  constexpr std::size_t pass_smem =
      kernels::partitioned_smem<has_values, Key, Value>::bytes(Policy::tile);
  unsigned resident[2] = {};
  const cudaError_t setup = [&] {
    CORANK_CUDA_TRY(allow_smem(window_kernel, sizeof(window_smem)));
    CORANK_CUDA_TRY(resident_blocks(tile_kernel, NT, tile_smem, &resident[0]));
    return resident_blocks(pass_kernel, NT, pass_smem, &resident[1]);
  }();
  CORANK_CUDA_TRY(setup);
  if (layout.windows > 0x7fffffffu || layout.tile_slots > 0x7fffffffu) return cudaErrorInvalidValue;

  CORANK_CUDA_TRY(cudaMemsetAsync(counts, 0, sizeof(kernels::long_segment_counts), stream));
  constexpr unsigned st = 256;
  kernels::segment_window_starts<<<unsigned((layout.windows + 1 + st - 1) / st), st, 0, stream>>>(
      offsets, num_segments, Policy::window, layout.windows, starts);
  CORANK_CUDA_TRY(cudaGetLastError());
  window_kernel<<<unsigned(layout.windows), NT, sizeof(window_smem), stream>>>(
      keys, vals, offsets, starts, Policy::window, longs, counts, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  if (!layout.long_slots) return cudaSuccess;
  // Grids of up to a few waves over the most tiles there can be (the blocks loop over the tiles
  // counted on the device): more blocks hide each tile's latency chain, fewer make the passes a
  // call does not need cheap (every block returns at once).
  const auto grid = [&](unsigned waves_of) {
    return unsigned(std::min<std::size_t>(layout.tile_slots, std::size_t(4) * waves_of));
  };
  tile_kernel<<<grid(resident[0]), NT, tile_smem, stream>>>(keys, vals, keys_tmp, vals_tmp, offsets,
                                                            longs, counts, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  const int passes = kernels::merge_passes_for(n, Policy::tile);
  for (int pass = 0; pass < passes; ++pass) {
    pass_kernel<<<grid(resident[1]), NT, pass_smem, stream>>>(keys, vals, keys_tmp, vals_tmp,
                                                              offsets, longs, counts, pass, comp);
    CORANK_CUDA_TRY(cudaGetLastError());
  }
  return cudaSuccess;
}

template <class Key, class Value, class Offset, class Compare>
cudaError_t stable_sort_segments_impl(Key* keys, Value* vals, std::size_t n, const Offset* offsets,
                                      std::size_t num_segments, Compare comp, cudaStream_t stream) {
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  using policy = tuning::stable_segmented_policy<sizeof(Key), has_values ? sizeof(Value) : 0>;
  if (num_segments == 0 || n == 0) return cudaSuccess;
  if (!offsets || !keys || (has_values && !vals)) return cudaErrorInvalidValue;
  if (has_values && overlaps(keys, n * sizeof(Key), vals, n * sizeof(Value)))
    return cudaErrorInvalidValue;
  const stable_segments_layout<Key, Value, policy> layout(n, num_segments);
  void* temp = nullptr;
  CORANK_CUDA_TRY(cudaMallocAsync(&temp, layout.bytes(n), stream));
  const cudaError_t status = stable_sort_segments_run<Key, Value, Offset, Compare, policy>(
      keys, vals, n, offsets, num_segments, temp, comp, stream);
  const cudaError_t freed = cudaFreeAsync(temp, stream);
  return status != cudaSuccess ? status : freed;
}

}  // namespace detail

/// Sorts each segment keys[offsets[s], offsets[s + 1]) in place by comp.
template <class Key, class Offset, class Compare = corank::less>
cudaError_t sort_segments(Key* keys, std::size_t n, const Offset* offsets, std::size_t num_segments,
                          Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::sort_segments_impl(keys, static_cast<block::no_value*>(nullptr), n, offsets,
                                    num_segments, comp, stream);
}

/// Sorts each segment of keys in place by comp, moving vals alongside.
template <class Key, class Value, class Offset, class Compare = corank::less>
cudaError_t sort_segments_by_key(Key* keys, Value* vals, std::size_t n, const Offset* offsets,
                                 std::size_t num_segments, Compare comp = {},
                                 cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Value>();
  return detail::sort_segments_impl(keys, vals, n, offsets, num_segments, comp, stream);
}

/// Sorts each segment keys[offsets[s], offsets[s + 1]) in place by comp, stably.
template <class Key, class Offset, class Compare = corank::less>
cudaError_t stable_sort_segments(Key* keys, std::size_t n, const Offset* offsets,
                                 std::size_t num_segments, Compare comp = {},
                                 cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::stable_sort_segments_impl(keys, static_cast<block::no_value*>(nullptr), n, offsets,
                                           num_segments, comp, stream);
}

/// Sorts each segment of keys in place by comp, stably, moving vals alongside.
template <class Key, class Value, class Offset, class Compare = corank::less>
cudaError_t stable_sort_segments_by_key(Key* keys, Value* vals, std::size_t n,
                                        const Offset* offsets, std::size_t num_segments,
                                        Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Value>();
  return detail::stable_sort_segments_impl(keys, vals, n, offsets, num_segments, comp, stream);
}

}  // namespace corank::cuda
