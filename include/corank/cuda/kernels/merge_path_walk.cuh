// Kernel pieces every merge-path walk of the toolbox shares (load-balancing search, sorted search,
// set operations): the partition pass that cuts the path at every tile boundary, a tile's piece of
// both inputs, staging a piece in shared memory, and one thread's share of a staged walk.
#pragma once

#include <cstddef>

#include "corank/cuda/block/load_store.cuh"
#include "corank/cuda/kernels/merge.cuh"
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

/// Walks this thread's steps of the staged piece sa[0, count_a), sb[0, count_b): one co-rank per
/// thread in shared memory, its end the next thread's start (through `starts`, Threads + 1 ints of
/// shared memory; clamped against the start). Called by the whole block: one barrier.
template <int Threads, int Items, class ItA, class ItB, class Compare, class OnA, class OnB>
__device__ __forceinline__ void walk_thread_steps(ItA sa, int count_a, ItB sb, int count_b,
                                                  int* starts, Compare comp, OnA&& on_a,
                                                  OnB&& on_b) {
  const int tid = int(threadIdx.x);
  const thread_steps<Threads, Items> s(tid, count_a + count_b);
  const int i0 = co_rank(s.d0, sa, count_a, sb, count_b, comp);
  starts[tid] = i0;
  if (tid == Threads - 1) starts[Threads] = count_a;  // the last thread ends the piece
  __syncthreads();
  const int i1 = consistent_co_rank(starts[tid + 1], s.d1, i0, s.d0, count_a, count_b);
  walk_merge_path(sa, i0, i1, sb, s.d0 - i0, s.d1 - i1, comp, on_a, on_b);
}

/// Stages a tile's pieces A[a0, a1) and B[b0, b1) in `stage` as the production merge does
/// (kernels::tile_layout: 16-byte cp.async vectors, each range at its congruent shift) and returns
/// where they landed; the block waits for them. `stage` holds partitioned_smem<false, K,
/// no_value>::key_bytes(a1 - a0 + b1 - b0) bytes, 16-byte aligned.
template <class K>
__device__ __forceinline__ tile_layout<K, no_value> stage_pieces(const K* a, std::size_t a0,
                                                                 std::size_t a1, const K* b,
                                                                 std::size_t b0, std::size_t b1,
                                                                 K* stage) {
  const tile_layout<K, no_value> l(a0 + b0, a1 + b1, a0, a1, a, b, nullptr, nullptr);
  block::copy_ranges_async(block::vector_range<K>(a + l.a0, stage + l.ka, l.count_a),
                           block::vector_range<K>(b + l.b0, stage + l.kb, l.count_b),
                           int(threadIdx.x), int(blockDim.x));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  return l;
}

}  // namespace corank::cuda::kernels
