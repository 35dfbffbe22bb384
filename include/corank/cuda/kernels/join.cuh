// The GPU joins' kernels: running offsets of per-item counts (decoupled look-back, as the set
// operations place their tiles), the pairs of A's keys (an emit of the load-balancing search), and
// B's keys without a match (full outer).
#pragma once

#include <cstddef>

#include "corank/cuda/block/scan.cuh"
#include "corank/cuda/kernels/set_operations.cuh"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda::kernels {

/// offsets[i] = count_of(0) + ... + count_of(i - 1) for i <= size (offsets[size]: the total), by
/// tiles of Threads x Items items placed by look-back (`words`: a word per tile and the tile
/// counter after them, zeroed before the launch).
template <int Threads, int Items, class CountOf>
__global__ void __launch_bounds__(Threads)
    running_offsets(CountOf count_of, std::size_t size, std::size_t* offsets, unsigned tiles,
                    unsigned* next_tile, output_counts counts) {
  __shared__ block::sum_storage<Threads, unsigned long long> sums;
  __shared__ unsigned tile_of_block;
  __shared__ unsigned long long first_of_tile;
  if (threadIdx.x == 0) tile_of_block = atomicAdd(next_tile, 1u);
  __syncthreads();
  const unsigned t = tile_of_block;
  const std::size_t begin = (std::size_t(t) * Threads + threadIdx.x) * Items;
  unsigned long long mine = 0;
  for (int q = 0; q < Items; ++q)
    if (begin + q < size) mine += count_of(begin + q);
  unsigned long long tile_total = 0;
  const unsigned long long at = block::exclusive_sum<Threads>(mine, sums, &tile_total);
  if (threadIdx.x < 32) {  // the look-back is a warp's
    const std::size_t first = counts.place(t, tile_total);
    if (threadIdx.x == 0) {
      if (t == tiles - 1) offsets[size] = first + tile_total;
      first_of_tile = first;
    }
  }
  __syncthreads();
  std::size_t running = first_of_tile + at;
  for (int q = 0; q < Items; ++q)
    if (begin + q < size) {
      offsets[begin + q] = running;
      running += count_of(begin + q);
    }
}

/// A's pairs in a join: the length of [first[i], last[i]), at least 1 for an outer join.
struct matches_of_a {
  const std::size_t *first, *last;
  bool outer;
  __device__ std::size_t operator()(std::size_t i) const {
    const std::size_t matches = last[i] > first[i] ? last[i] - first[i] : 0;
    return outer && matches == 0 ? 1 : matches;
  }
};

/// 1 for a key of B without a match in A (its range in A is empty).
struct unmatched_of_b {
  const std::size_t *first, *last;
  __device__ std::size_t operator()(std::size_t j) const { return last[j] <= first[j] ? 1 : 0; }
};

/// The load-balancing search's emit for pair k of A's key i: (i, first[i] + rank), or (i,
/// no_match) without matches.
struct emit_join_pairs {
  const std::size_t *first, *last, *offsets;
  std::size_t keys_of_a;  ///< items past A's pairs find segment keys_of_a: not A's, skipped
  std::size_t *out_a, *out_b;
  __device__ void operator()(std::size_t k, std::size_t i) const {
    if (i >= keys_of_a) return;
    out_a[k] = i;
    out_b[k] = last[i] > first[i] ? first[i] + (k - offsets[i]) : no_match;
  }
};

/// Full outer: (no_match, j) for each key j of B without a match, after A's pairs (a_pairs[0]
/// of them, on the device), at its place among B's unmatched (positions[j]).
template <class Size>
__global__ void join_unmatched_b(const Size* first, const Size* last, const Size* positions, Size n,
                                 const Size* a_pairs, Size* out_a, Size* out_b) {
  const Size j = Size(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= n || last[j] > first[j]) return;
  const Size k = *a_pairs + positions[j];
  out_a[k] = no_match;
  out_b[k] = j;
}

}  // namespace corank::cuda::kernels
