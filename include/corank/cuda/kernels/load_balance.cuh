// The GPU load-balancing search's kernel: one tile of the merge path of the segment ends and the
// work items per block.
#pragma once

#include <cstddef>

#include "corank/cuda/kernels/merge_path_walk.cuh"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda::kernels {

/// Tile t of the merge path of the segment ends offsets[1, num_segments] and the items 0..n-1:
/// the block stages its ends (the items need no memory), each thread walks its steps, writing
/// each item's segment to a shared stage, and the block stores emit(j, segment) for its items in
/// order (coalesced): the segment itself, or a value gathered by it.
template <int Threads, int Items, class Offset, class Emit>
__global__ void __launch_bounds__(Threads)
    load_balance_tiles(const Offset* offsets, std::size_t num_segments, std::size_t n,
                       const std::size_t* cuts, Emit emit) {
  constexpr int tile = Threads * Items;
  __shared__ Offset ends[tile];
  __shared__ std::size_t segment_of[tile];
  __shared__ int starts[Threads + 1];
  const tile_piece p(cuts, blockIdx.x, tile, num_segments, n);
  stage(offsets + 1 + p.a0, p.count_a, ends);
  __syncthreads();
  const counting_iterator<std::size_t> items{p.b0};  // compared as global item indices
  walk_thread_steps<Threads, Items>(
      ends, p.count_a, items, p.count_b, starts, index_less{}, [](int, int) {},
      [&](int i, int j) { segment_of[j] = p.a0 + std::size_t(i); });
  __syncthreads();
  for (int q = threadIdx.x; q < p.count_b; q += Threads) emit(p.b0 + q, segment_of[q]);
}

/// What interval_expand stores: values[segment] (the last value past the last end).
template <class ValueIn, class ValueOut>
struct expand_values {
  const ValueIn* values;
  ValueOut* out;
  std::size_t last;
  __device__ void operator()(std::size_t j, std::size_t s) const {
    out[j] = values[s < last ? s : last];
  }
};

/// What load_balancing_search stores: the segment.
template <class Segment>
struct store_segments {
  Segment* out;
  __device__ void operator()(std::size_t j, std::size_t s) const { out[j] = Segment(s); }
};

}  // namespace corank::cuda::kernels
