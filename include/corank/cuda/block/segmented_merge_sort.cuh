// Block-level pieces of the stable segmented sort. A tile that holds several whole segments is
// sorted like the merge sort's tile (each thread's run in registers, then merge rounds in shared
// memory; the co-rank and the sequential merge of merge_path.hpp) with two changes: a thread's run
// is sorted as (segment, key) pairs, and a merge round merges, in each pair of runs, only the one
// segment that straddles the two (the others are sorted already and stay where they are). Rounds
// stop once every segment lies within one run, so short segments cost little more than their
// loads and stores, and nothing is padded to a power of two.
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

/// The stable rank of s_keys[p] within its segment s_keys[first, last): the keys that go before
/// it (those before p that it does not precede, those after p that precede it; p itself counts
/// only under a comparator that is not irreflexive). One comparison per key of the segment, no
/// padding and no merge rounds, so it serves short segments; the ranks of a segment are a
/// permutation of [0, last - first) whenever comp is a strict weak order (with one that is not, NaN
/// keys for instance, two keys can share a rank: callers check).
template <class Key, class Compare>
__device__ __forceinline__ unsigned stable_rank_in_segment(const Key* s_keys, unsigned p,
                                                           unsigned first, unsigned last,
                                                           Compare comp) {
  const Key key = s_keys[p];
  unsigned rank = 0;
  // One loop (a select per key) ran faster than two (before p, after p) at 2-18 keys a segment.
#pragma unroll 4
  for (unsigned j = first; j < last; ++j) {
    const Key other = s_keys[j];
    rank += j < p ? !comp(key, other) : comp(other, key);
  }
  return rank;
}

/// One merge round of a tile of segments: in each pair of runs of `width` (A then B), the segment
/// that holds A's last and B's first key, if one does, has its parts in A and in B merged (stably,
/// VT outputs per thread from one co-rank); the rest of the pair stays. segment_of[p] is the
/// tile-local segment of position p; segment_start[s] is where segment s starts (and
/// segment_start[s + 1] where it ends). s_keys holds count + 1 readable slots. Leaves the block
/// synchronised.
template <int NT, int VT, class Key, class Value, class Index, class Compare>
__device__ __forceinline__ void merge_straddling_segments(Key* s_keys, Value* s_vals,
                                                          const Index* segment_of,
                                                          const Index* segment_start,
                                                          unsigned count, unsigned width, int tid,
                                                          Compare comp) {
  const unsigned first = unsigned(tid) * VT;
  Key out[VT];
  unsigned index[VT];
  Value vals[VT];
  unsigned lo = 0, hi = 0;  // this thread's outputs: positions [lo, hi)
  if (first < count) {
    const unsigned pair = first / (2 * width) * (2 * width), mid = pair + width;
    const unsigned end = pair + 2 * width < count ? pair + 2 * width : count;
    if (mid < end && segment_of[mid - 1] == segment_of[mid]) {
      const unsigned s = segment_of[mid];
      const unsigned s0 = max(pair, unsigned(segment_start[s]));
      const unsigned s1 = min(end, unsigned(segment_start[s + 1]));
      lo = max(first, s0), hi = min(first + VT, s1);
      if (lo < hi) {
        const unsigned diag = lo - s0;
        const unsigned a =
            corank::co_rank<true>(diag, s_keys + s0, mid - s0, s_keys + mid, s1 - mid, comp);
        corank::serial_merge_registers<VT>(s_keys, s0 + a, mid, mid + (diag - a), s1, out, index,
                                           comp);
        if constexpr (!std::is_same_v<Value, no_value>)
#pragma unroll
          for (int i = 0; i < VT; ++i)
            if (lo + i < hi) vals[i] = s_vals[index[i]];
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (lo + i < hi) {
      s_keys[lo + i] = out[i];
      if constexpr (!std::is_same_v<Value, no_value>) s_vals[lo + i] = vals[i];
    }
  __syncthreads();
}

/// Sorts a tile of segments s_keys[0, count) stably (values alongside): each thread's VT items
/// in registers as (segment, key) pairs, then `rounds` rounds of merge_straddling_segments. Called
/// by the whole block with the tile and both segment arrays staged and the block synchronised;
/// leaves it synchronised with the result in s_keys / s_vals.
template <int NT, int VT, class Key, class Value, class Index, class Compare>
__device__ __forceinline__ void sort_segments_in_shared(Key* s_keys, Value* s_vals,
                                                        const Index* segment_of,
                                                        const Index* segment_start, unsigned count,
                                                        int rounds, int tid, Compare comp) {
  constexpr bool has_values = !std::is_same_v<Value, no_value>;
  const unsigned first = unsigned(tid) * VT;
  const int valid = first < count ? int(count - first < VT ? count - first : VT) : 0;
  segment_key<Key> k[VT];
  Value v[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (i < valid) {
      k[i] = {s_keys[first + i], unsigned(segment_of[first + i])};
      if constexpr (has_values) v[i] = s_vals[first + i];
    }
  odd_even_sort<VT>(k, v, valid, by_segment<Compare>{comp});
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (i < valid) {
      s_keys[first + i] = k[i].key;
      if constexpr (has_values) s_vals[first + i] = v[i];
    }
  __syncthreads();
  for (int r = 0; r < rounds; ++r)
    merge_straddling_segments<NT, VT>(s_keys, s_vals, segment_of, segment_start, count,
                                      unsigned(VT) << r, tid, comp);
}

}  // namespace corank::cuda::block
