// The first kernel of the stable merge sort (merge_sort.cuh): sort each tile. The merge passes
// that follow are the production merge's partitioned kernels over kernels::pairwise_runs.
#pragma once

#include <cstddef>
#include <type_traits>

#include "corank/cuda/block/bitonic_network.cuh"
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

}  // namespace corank::cuda::kernels
