// Kernel pieces every merge-path walk of the toolbox shares (load-balancing search, sorted search,
// set operations): the partition pass that cuts the path at every tile boundary, a tile's piece of
// both inputs, staging a piece in shared memory, and one thread's share of a staged walk.
#pragma once

#include <cstddef>

#include "corank/merge_path.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda::kernels {

/// The partition pass: cuts[t] = the co-rank in A of output t * tile of the merge of A[0, m) and
/// B[0, n), for t <= tiles (one thread each; the searches share the grid's upper levels in L2:
/// co_rank_on_grid).
template <class ItA, class ItB, class Compare>
__global__ void merge_path_cuts(ItA a, std::size_t m, ItB b, std::size_t n, std::size_t tile,
                                std::size_t tiles, std::size_t* cuts, Compare comp) {
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const std::size_t k = min(t * tile, m + n);
  cuts[t] = co_rank_on_grid(k, a, m, b, n, comp);
}

/// Tile t's piece: A[a0, a0 + count_a) and B[b0, b0 + count_b), from the partition's cuts (the end
/// clamped against the start: a piece within both inputs even where co-ranks disagree).
struct tile_piece {
  std::size_t a0, b0;
  int count_a, count_b;

  __device__ tile_piece(const std::size_t* cuts, std::size_t t, std::size_t tile, std::size_t m,
                        std::size_t n) {
    const std::size_t k0 = min(t * tile, m + n), k1 = min(k0 + tile, m + n);
    a0 = cuts[t];
    const std::size_t a1 = consistent_co_rank(cuts[t + 1], k1, a0, k0, m, n);
    b0 = k0 - a0;
    count_a = int(a1 - a0);
    count_b = int(k1 - a1 - b0);
  }
  __device__ int count() const { return count_a + count_b; }
};

/// dst[0, count) = src[0, count), by the whole block.
template <class It, class T>
__device__ __forceinline__ void stage(It src, int count, T* dst) {
  for (int q = threadIdx.x; q < count; q += blockDim.x) dst[q] = src[q];
}

/// Thread `tid`'s share of a staged piece of `count` steps, Items each: steps [d0, d1) of the
/// path (the last thread takes what is left).
template <int Threads, int Items>
struct thread_steps {
  int d0, d1;
  __device__ thread_steps(int tid, int count) {
    d0 = min(tid * Items, count);
    d1 = tid == Threads - 1 ? count : min(d0 + Items, count);
  }
};

/// Walks this thread's steps of the staged piece sa[0, count_a), sb[0, count_b) from its own
/// co-ranks in shared memory (the end clamped against the start).
template <int Threads, int Items, class ItA, class ItB, class Compare, class OnA, class OnB>
__device__ __forceinline__ void walk_thread_steps(ItA sa, int count_a, ItB sb, int count_b,
                                                  Compare comp, OnA&& on_a, OnB&& on_b) {
  const thread_steps<Threads, Items> s(int(threadIdx.x), count_a + count_b);
  const int i0 = co_rank(s.d0, sa, count_a, sb, count_b, comp);
  const int i1 = consistent_co_rank(co_rank(s.d1, sa, count_a, sb, count_b, comp), s.d1, i0, s.d0,
                                    count_a, count_b);
  walk_merge_path(sa, i0, i1, sb, s.d0 - i0, s.d1 - i1, comp, on_a, on_b);
}

}  // namespace corank::cuda::kernels
