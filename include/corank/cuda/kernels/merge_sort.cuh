// Kernels of the stable merge sort (merge_sort.cuh): sort tiles, then merge runs pairwise, a
// pass per doubling of the run width; each block of a pass finds its inputs by co-rank.
#pragma once

#include <cstddef>
#include <type_traits>

#include "corank/cuda/block/bitonic_network.cuh"
#include "corank/cuda/block/co_rank.cuh"
#include "corank/cuda/block/merge_sort.cuh"
#include "corank/merge_path.hpp"

namespace corank::cuda::kernels {

/// Shared memory of the merge sort kernels: a tile of keys and values plus one readable slot.
template <int Tile, class Key, class Value>
struct merge_sort_smem {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  Key keys[Tile + 1];
  std::conditional_t<has_values, Value, char> vals[has_values ? Tile + 1 : 1];
};

/// Sorts each tile of NT * VT items stably: registers, then merges in shared memory. Reads
/// keys_in, writes keys_out (may be the same array: a block reads its whole tile first).
template <int NT, int VT, class Key, class Value, class Compare>
__global__ void __launch_bounds__(NT)
    merge_sort_tiles(const Key* keys_in, const Value* vals_in, Key* keys_out, Value* vals_out,
                     std::size_t n, Compare comp) {
  constexpr int tile = NT * VT;
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  __shared__ merge_sort_smem<tile, Key, Value> smem;
  Value* s_vals = reinterpret_cast<Value*>(smem.vals);
  const std::size_t start = std::size_t(blockIdx.x) * tile;
  const unsigned count = unsigned(n - start < std::size_t(tile) ? n - start : tile);
  const int tid = int(threadIdx.x);
  for (unsigned i = tid; i < count; i += NT) {
    smem.keys[i] = keys_in[start + i];
    if constexpr (has_values) s_vals[i] = vals_in[start + i];
  }
  __syncthreads();
  const unsigned first = unsigned(tid) * VT;
  const int valid = first < count ? int(count - first < VT ? count - first : VT) : 0;
  Key k[VT];
  Value v[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (i < valid) {
      k[i] = smem.keys[first + i];
      if constexpr (has_values) v[i] = s_vals[first + i];
    }
  block::odd_even_sort<VT>(k, v, valid, comp);
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (i < valid) {
      smem.keys[first + i] = k[i];
      if constexpr (has_values) s_vals[first + i] = v[i];
    }
  __syncthreads();
  for (unsigned width = VT; width < count; width *= 2)
    block::merge_runs_in_shared<NT, VT>(smem.keys, s_vals, count, width, tid, comp);
  for (unsigned i = tid; i < count; i += NT) {
    keys_out[start + i] = smem.keys[i];
    if constexpr (has_values) vals_out[start + i] = s_vals[i];
  }
}

/// The pair of runs of `width` that output position k falls in: [pair, a_end) and [a_end, b_end).
struct run_pair {
  std::size_t pair, a_end, b_end;
  __device__ __forceinline__ run_pair(std::size_t k, std::size_t n, std::size_t width) {
    pair = k / (2 * width) * (2 * width);
    a_end = pair + width < n ? pair + width : n;
    b_end = pair + 2 * width < n ? pair + 2 * width : n;
  }
};

/// One merge pass: block b writes outputs [b * tile, (b + 1) * tile) of the pairwise merge of
/// runs of `width` (a multiple of the tile, so a block's outputs lie in one pair). The block
/// finds its own partition: warps 0 and 1 search the co-ranks of its first and end outputs
/// (block::warp_co_rank, 33-ary), so a pass is one launch.
template <int NT, int VT, class Key, class Value, class Compare>
__global__ void __launch_bounds__(NT)
    merge_sort_pass(const Key* keys_in, const Value* vals_in, Key* keys_out, Value* vals_out,
                    std::size_t n, std::size_t width, Compare comp) {
  static_assert(NT >= 64, "two warps search the partition");
  constexpr int tile = NT * VT;
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  __shared__ merge_sort_smem<tile, Key, Value> smem;
  __shared__ std::size_t bounds[2];
  Value* s_vals = reinterpret_cast<Value*>(smem.vals);
  const std::size_t k0 = std::size_t(blockIdx.x) * tile;
  const std::size_t k1 = k0 + tile < n ? k0 + tile : n;
  const run_pair r(k0, n, width);
  const unsigned warp = threadIdx.x / 32;
  if (warp < 2) {
    // The block's end is its pair's end (all of A) or a co-rank in the same pair.
    const std::size_t k = (warp == 0 ? k0 : k1) - r.pair;
    const std::size_t a = warp == 1 && k1 == r.b_end
                              ? r.a_end - r.pair
                              : block::warp_co_rank(k, keys_in + r.pair, r.a_end - r.pair,
                                                    keys_in + r.a_end, r.b_end - r.a_end, comp);
    if (threadIdx.x % 32 == 0) bounds[warp] = a;
  }
  __syncthreads();
  const std::size_t a0 = bounds[0], a1 = bounds[1];
  const std::size_t b0 = (k0 - r.pair) - a0, b1 = (k1 - r.pair) - a1;
  const unsigned na = unsigned(a1 - a0), nb = unsigned(b1 - b0), count = na + nb;
  const Key* a_keys = keys_in + r.pair + a0;
  const Key* b_keys = keys_in + r.a_end + b0;
  const int tid = int(threadIdx.x);
  for (unsigned i = tid; i < count; i += NT) {
    const bool from_a = i < na;
    smem.keys[i] = from_a ? a_keys[i] : b_keys[i - na];
    if constexpr (has_values)
      s_vals[i] = from_a ? vals_in[r.pair + a0 + i] : vals_in[r.a_end + b0 + (i - na)];
  }
  __syncthreads();
  const unsigned first = unsigned(tid) * VT;
  Key out[VT];
  unsigned index[VT];
  if (first < count) {
    const unsigned a = corank::co_rank<true>(first, smem.keys, na, smem.keys + na, nb, comp);
    corank::serial_merge_registers<VT>(smem.keys, a, na, na + (first - a), count, out, index, comp);
  }
  __syncthreads();
  // Through shared memory so the global stores are coalesced.
  Value vals[VT];
  if constexpr (has_values)
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (first + i < count) vals[i] = s_vals[index[i]];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (first + i < count) {
      smem.keys[first + i] = out[i];
      if constexpr (has_values) s_vals[first + i] = vals[i];
    }
  __syncthreads();
  for (unsigned i = tid; i < count; i += NT) {
    keys_out[k0 + i] = smem.keys[i];
    if constexpr (has_values) vals_out[k0 + i] = s_vals[i];
  }
}

}  // namespace corank::cuda::kernels
