// The GPU sorted search's kernels: one tile of the merge path of needles and haystack per block,
// and one binary search per needle for needles in any order.
#pragma once

#include <cstddef>

#include "corank/cuda/kernels/merge_path_walk.cuh"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda::kernels {

/// Where a tile's answers go: needle k's to out[k] (needles searched in the caller's order), or to
/// out[places[k]] (needles sorted on the way, places[k] = where needle k was in the caller's).
struct same_places {};
__device__ __forceinline__ std::size_t place_of(same_places, std::size_t k) { return k; }
template <class Place>
__device__ __forceinline__ std::size_t place_of(const Place* places, std::size_t k) {
  return std::size_t(places[k]);
}

/// Tile t of the merge path of A[0, m) and B[0, n) (cut by merge_path_cuts): the block stages
/// both pieces (stage_pieces: dynamic shared memory of partitioned_smem<false, K, no_value>::
/// key_bytes(tile)), each thread walks its steps, and every needle's answer (the number of the
/// other input's keys before it) goes to a shared stage, then out with coalesced stores.
/// NeedlesInA: the lower bound (needles = A, haystack = B: ties put the needle first); else the
/// upper bound (haystack = A, needles = B). Places: same_places, or where each needle goes.
template <int Threads, int Items, bool NeedlesInA, class K, class Index, class Places,
          class Compare>
__global__ void __launch_bounds__(Threads)
    sorted_search_tiles(const K* a, std::size_t m, const K* b, std::size_t n, Index* out,
                        Places places, const std::size_t* cuts, Compare comp) {
  constexpr int tile = Threads * Items;
  extern __shared__ __align__(16) unsigned char stage_bytes[];
  __shared__ Index answers[tile];
  __shared__ int starts[Threads + 1];
  const tile_piece p(cuts, blockIdx.x, tile, m, n);
  const tile_layout<K, no_value> l = stage_pieces(
      a, p.a0, p.a0 + p.count_a, b, p.b0, p.b0 + p.count_b, reinterpret_cast<K*>(stage_bytes));
  const K* staged = reinterpret_cast<const K*>(stage_bytes);
  walk_thread_steps<Threads, Items>(
      staged + l.ka, p.count_a, staged + l.kb, p.count_b, starts, comp,
      [&](int i, int j) {
        if (NeedlesInA) answers[i] = Index(p.b0 + std::size_t(j));
      },
      [&](int i, int j) {
        if (!NeedlesInA) answers[j] = Index(p.a0 + std::size_t(i));
      });
  __syncthreads();
  const int needles = NeedlesInA ? p.count_a : p.count_b;
  const std::size_t first = NeedlesInA ? p.a0 : p.b0, all_needles = NeedlesInA ? m : n;
  for (int q = threadIdx.x; q < needles; q += Threads) {
    // A comparator that is no strict weak order (NaN keys) may leave the sort's places no
    // permutation: never store outside out.
    const std::size_t place = place_of(places, first + std::size_t(q));
    if (place < all_needles) out[place] = answers[q];
  }
}

/// keys[i] = needles[i], places[i] = i: the needles, numbered, for the sort before a search; out[i]
/// = 0, so that every answer lies in [0, m] even if a broken comparator leaves some unplaced.
template <class K, class Place, class Index>
__global__ void number_needles(const K* needles, std::size_t n, K* keys, Place* places,
                               Index* out) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = needles[i];
  places[i] = Place(i);
  out[i] = Index(0);
}

/// out[i] = the lower (or UpperBound: upper) bound of needles[i] in haystack[0, m), one binary
/// search per thread.
template <bool UpperBound, class K, class Index, class Compare>
__global__ void binary_search_each(const K* haystack, std::size_t m, const K* needles,
                                   std::size_t n, Index* out, Compare comp) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const K key = needles[i];
  out[i] = Index(bound_within<UpperBound>(haystack, std::size_t(0), m, key, comp));
}

}  // namespace corank::cuda::kernels
