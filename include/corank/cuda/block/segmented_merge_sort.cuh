// Block-level pieces of the stable segmented sort: a tile that holds several whole segments is
// sorted as one tile of (segment, key) pairs, whose order is the segments' and within a segment
// the keys' (stable), with the merge sort's own pieces (odd_even_sort, merge_runs_in_shared; the
// co-rank and the sequential merge of merge_path.hpp). Merge rounds stop as soon as every segment
// lies within one sorted run, so short segments cost no more rounds than they need and nothing is
// padded to a power of two.
#pragma once

#include <type_traits>

#include "corank/cuda/block/merge_sort.cuh"

namespace corank::cuda::block {

/// A key with the tile-local index of its segment.
template <class Key>
struct segment_key {
  Key key;
  unsigned segment;
};

/// Orders segment_keys by segment, then by comp: a strict weak order whenever comp is one, and
/// keys never cross segments even when comp is not (NaN keys).
template <class Compare>
struct by_segment {
  Compare comp;
  template <class Key>
  __device__ __forceinline__ bool operator()(const segment_key<Key>& x,
                                             const segment_key<Key>& y) const {
    return x.segment != y.segment ? x.segment < y.segment : comp(x.key, y.key);
  }
};

/// Merge rounds (runs of VT, 2 VT, 4 VT ...) after which positions [first, last] of a tile lie in
/// one sorted run.
template <int VT>
__device__ __forceinline__ int rounds_to_cover(unsigned first, unsigned last) {
  int rounds = 0;
  for (unsigned width = VT; first / width != last / width; width *= 2) ++rounds;
  return rounds;
}

/// Sorts s_keys[0, count) stably (values alongside) in runs: each thread's VT items in registers,
/// then `rounds` merge rounds in shared memory (runs of VT << rounds). s_keys holds count + 1
/// readable slots. Called by the whole block with the tile staged and the block synchronised;
/// leaves it synchronised with the result in s_keys / s_vals.
template <int NT, int VT, class Key, class Value, class Compare>
__device__ __forceinline__ void sort_runs_in_shared(Key* s_keys, Value* s_vals, unsigned count,
                                                    int rounds, int tid, Compare comp) {
  constexpr bool has_values = !std::is_same_v<Value, no_value>;
  const unsigned first = unsigned(tid) * VT;
  const int valid = first < count ? int(count - first < VT ? count - first : VT) : 0;
  Key k[VT];
  Value v[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (i < valid) {
      k[i] = s_keys[first + i];
      if constexpr (has_values) v[i] = s_vals[first + i];
    }
  if constexpr (ties_are_identical<Key, Value, Compare>)
    odd_even_merge_sort<VT>(k, valid, comp);
  else
    odd_even_sort<VT>(k, v, valid, comp);
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (i < valid) {
      s_keys[first + i] = k[i];
      if constexpr (has_values) s_vals[first + i] = v[i];
    }
  __syncthreads();
  for (int r = 0; r < rounds; ++r)
    merge_runs_in_shared<NT, VT>(s_keys, s_vals, count, unsigned(VT) << r, tid, comp);
}

}  // namespace corank::cuda::block
