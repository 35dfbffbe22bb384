// corank::cuda::sort_segments and sort_segments_by_key: sorts many independent segments in place.
//
//   cudaError_t sort_segments(keys, n, offsets, num_segments, comp = corank::less{}, stream = 0);
//   cudaError_t sort_segments_by_key(keys, vals, n, offsets, num_segments, comp, stream);
//
// Segment s is keys[offsets[s], offsets[s + 1]) (CSR: num_segments + 1 offsets, non-decreasing,
// offsets[num_segments] <= n; empty segments allowed). Device pointers; comp a strict weak order
// callable on the device. Not stable (bitonic networks). num_segments < 2^32.
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
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/segmented_sort.cuh"
#include "corank/cuda/tuning/sort.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {
namespace detail {

/// Blocks of `kernel` the whole GPU holds at once (computed once per kernel).
template <class Kernel>
cudaError_t resident_blocks(Kernel kernel, int threads, std::size_t smem, unsigned* blocks) {
  CORANK_CUDA_TRY(allow_smem(kernel, smem));
  int per_sm = 0, sms = 0;
  CORANK_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
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
  static unsigned grids[4] = {};
  static const cudaError_t setup = [&] {
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

}  // namespace corank::cuda
