// Dispatch of the GPU load-balancing search and interval expand: the partition pass over the merge
// path of segment ends and items, then one tile per block.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "corank/cuda/detail/merge_path_walk.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/kernels/load_balance.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/tuning/toolbox.cuh"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda::detail {

template <class Offset>
struct load_balance_shape {
  static constexpr int threads = tuning::toolbox_threads;
  static constexpr int items = tuning::toolbox_items(sizeof(Offset) + sizeof(std::size_t));
  static constexpr std::size_t tile = std::size_t(threads) * items;
};

template <class Offset>
temporary_layout load_balance_layout(std::size_t num_segments, std::size_t n,
                                     temporary_part* cuts) {
  temporary_layout layout;
  if (num_segments > std::numeric_limits<std::size_t>::max() - n) {
    layout.add_bytes(std::numeric_limits<std::size_t>::max(), 2);  // refused as overflowing
    return layout;
  }
  const std::size_t tiles = tiles_of(num_segments + n, load_balance_shape<Offset>::tile);
  const temporary_part part = layout.add<std::size_t>(tiles + 1);
  if (cuts) *cuts = part;
  return layout;
}

/// emit(j, segment of j) for every item j < n, stored by the tiles in order.
template <class Offset, class Emit>
cudaError_t load_balance(const temporary_storage& storage, const Offset* offsets,
                         std::size_t num_segments, std::size_t n, Emit emit, cudaStream_t stream) {
  static_assert(std::is_integral_v<Offset>, "corank::cuda: integer offsets");
  using shape = load_balance_shape<Offset>;
  if (!offsets && (n || num_segments)) return cudaErrorInvalidValue;
  if (n && num_segments == 0) return cudaErrorInvalidValue;  // items without a segment
  temporary_part cuts_part;
  const std::size_t bytes = load_balance_layout<Offset>(num_segments, n, &cuts_part).bytes();
  return with_temporary_storage(storage, bytes, stream, [&](void* temp) {
    if (n == 0) return cudaSuccess;
    const std::size_t tiles = tiles_of(num_segments + n, shape::tile);
    if (tiles > std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
    std::size_t* cuts = cuts_part.in<std::size_t>(temp);
    CORANK_CUDA_TRY(launch_merge_path_cuts(offsets + 1, num_segments,
                                           counting_iterator<std::size_t>{0}, n, shape::tile, tiles,
                                           cuts, index_less{}, stream));
    kernels::load_balance_tiles<shape::threads, shape::items>
        <<<unsigned(tiles), shape::threads, 0, stream>>>(offsets, num_segments, n, cuts, emit);
    return cudaGetLastError();
  });
}

template <class Offset, class Segment>
cudaError_t load_balancing_search(const temporary_storage& storage, const Offset* offsets,
                                  std::size_t num_segments, std::size_t n, Segment* segment_of,
                                  cudaStream_t stream) {
  static_assert(std::is_integral_v<Segment>, "corank::cuda: segment indices are integers");
  if (num_segments > std::size_t(std::numeric_limits<Segment>::max())) return cudaErrorInvalidValue;
  if ((n && !segment_of) || bytes_overflow(n, sizeof(Segment))) return cudaErrorInvalidValue;
  if (overlaps(segment_of, n * sizeof(Segment), offsets, (num_segments + 1) * sizeof(Offset)))
    return cudaErrorInvalidValue;
  return load_balance(storage, offsets, num_segments, n,
                      kernels::store_segments<Segment>{segment_of}, stream);
}

template <class Offset, class ValueIn, class ValueOut>
cudaError_t interval_expand(const temporary_storage& storage, const Offset* offsets,
                            std::size_t num_segments, const ValueIn* values, std::size_t n,
                            ValueOut* out, cudaStream_t stream) {
  if ((n && (!out || !values)) || bytes_overflow(n, sizeof(ValueOut))) return cudaErrorInvalidValue;
  if (overlaps(out, n * sizeof(ValueOut), offsets, (num_segments + 1) * sizeof(Offset)) ||
      overlaps(out, n * sizeof(ValueOut), values, num_segments * sizeof(ValueIn)))
    return cudaErrorInvalidValue;
  const std::size_t last = num_segments ? num_segments - 1 : 0;
  return load_balance(storage, offsets, num_segments, n,
                      kernels::expand_values<ValueIn, ValueOut>{values, out, last}, stream);
}

}  // namespace corank::cuda::detail
