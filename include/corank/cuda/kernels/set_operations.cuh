// The GPU set operations' kernels: balanced cuts at every tile boundary, then two passes over the
// tiles (count, write) around a one-block scan of the tiles' counts.
#pragma once

#include <cstddef>
#include <type_traits>

#include "corank/cuda/block/scan.cuh"
#include "corank/cuda/kernels/merge_path_walk.cuh"
#include "corank/functional.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda::kernels {

/// cut_a[t], cut_b[t] = the balanced cut (merge_path_walk.hpp) near output t * tile, t <= tiles.
template <class K, class Compare>
__global__ void balanced_cuts(const K* a, std::size_t m, const K* b, std::size_t n,
                              std::size_t tile, std::size_t tiles, std::size_t* cut_a,
                              std::size_t* cut_b, Compare comp) {
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const cut_pair<std::size_t> c = balanced_co_rank(min(t * tile, m + n), a, m, b, n, comp);
  cut_a[t] = c.a, cut_b[t] = c.b;
}

/// Tile t's piece between two balanced cuts (at most tile + 1 items: a cut lies at its output or
/// one before), clamped so that any cuts give a piece within both inputs and the stage.
struct balanced_piece {
  std::size_t a0, b0;
  int count_a, count_b;
  __device__ balanced_piece(const std::size_t* cut_a, const std::size_t* cut_b, std::size_t t,
                            int capacity) {
    a0 = cut_a[t], b0 = cut_b[t];
    const std::size_t a1 = max(cut_a[t + 1], a0), b1 = max(cut_b[t + 1], b0);
    count_a = int(min(a1 - a0, std::size_t(capacity)));
    count_b = int(min(b1 - b0, std::size_t(capacity - count_a)));
  }
};

/// Shared memory of a set operation's tile: both pieces, and for the write pass the outputs' keys
/// and values.
template <int Threads, int Tile, bool Write, class K, class V>
struct set_tile_storage {
  K sa[Tile + 1], sb[Tile + 1];
  K out_keys[Write ? Tile + 1 : 1];
  V out_values[Write && !std::is_same_v<V, no_value> ? Tile + 1 : 1];
  block::sum_storage<Threads, unsigned> sums;
};

/// One tile of set operation Op per block. Each thread takes a balanced cut of the staged piece
/// at its steps' ends and runs the std::set_* loop between them. Count pass (Write = false): the
/// tile's output count to counts[t]. Write pass: each thread's outputs placed by a block scan of
/// the threads' counts, staged, and stored from offsets[t] on, never past `capacity` (only a
/// violated precondition could reach it).
template <int Threads, int Items, set_op Op, bool Write, class K, class V, class Compare>
__global__ void __launch_bounds__(Threads)
    set_operation_tiles(const K* a, const V* va, std::size_t m, const K* b, const V* vb,
                        std::size_t n, const std::size_t* cut_a, const std::size_t* cut_b,
                        std::size_t* counts, const std::size_t* offsets, K* keys_out, V* vals_out,
                        std::size_t capacity, Compare comp) {
  constexpr int tile = Threads * Items;
  constexpr bool has_values = !std::is_same_v<V, no_value>;
  __shared__ set_tile_storage<Threads, tile, Write, K, V> s;
  const balanced_piece p(cut_a, cut_b, blockIdx.x, tile + 1);
  stage(a + p.a0, p.count_a, s.sa);
  stage(b + p.b0, p.count_b, s.sb);
  __syncthreads();
  const int tid = int(threadIdx.x), count = p.count_a + p.count_b;
  const thread_steps<Threads, Items> steps(tid, count);
  const cut_pair<int> c0 = balanced_co_rank(steps.d0, s.sa, p.count_a, s.sb, p.count_b, comp);
  cut_pair<int> c1 = balanced_co_rank(steps.d1, s.sa, p.count_a, s.sb, p.count_b, comp);
  c1.a = max(c1.a, c0.a), c1.b = max(c1.b, c0.b);
  const auto nothing = [](bool, int) {};
  const unsigned mine =
      unsigned(serial_set_operation<Op>(s.sa, c0.a, c1.a, s.sb, c0.b, c1.b, comp, nothing));
  unsigned total = 0;
  const unsigned at = block::exclusive_sum<Threads>(mine, s.sums, &total);
  if constexpr (!Write) {
    if (tid == 0) counts[blockIdx.x] = total;
  } else {
    // Threads' cuts disagree only under a violated precondition: then their outputs may overlap
    // and add up past the stage, whose end bounds them.
    constexpr unsigned stage_items = tile + 1;
    unsigned o = at;
    serial_set_operation<Op>(s.sa, c0.a, c1.a, s.sb, c0.b, c1.b, comp, [&](bool from_a, int x) {
      if (o < stage_items) {
        s.out_keys[o] = from_a ? s.sa[x] : s.sb[x];
        if constexpr (has_values) s.out_values[o] = from_a ? va[p.a0 + x] : vb[p.b0 + x];
      }
      ++o;
    });
    __syncthreads();
    const std::size_t first = offsets[blockIdx.x];
    const std::size_t room = first < capacity ? capacity - first : 0;
    const int stored = int(min(std::size_t(min(total, stage_items)), room));
    for (int q = tid; q < stored; q += Threads) {
      keys_out[first + q] = s.out_keys[q];
      if constexpr (has_values) vals_out[first + q] = s.out_values[q];
    }
  }
}

/// offsets[t] = counts[0] + ... + counts[t - 1] for t < tiles, *total = the sum: one block, each
/// thread a run of consecutive counts.
template <int Threads>
__global__ void __launch_bounds__(Threads)
    scan_tile_counts(const std::size_t* counts, std::size_t tiles, std::size_t* offsets,
                     std::size_t* total) {
  __shared__ block::sum_storage<Threads, unsigned long long> sums;
  const std::size_t per_thread = (tiles + Threads - 1) / Threads;
  const std::size_t first = min(threadIdx.x * per_thread, tiles),
                    last = min(first + per_thread, tiles);
  unsigned long long mine = 0;
  for (std::size_t t = first; t < last; ++t) mine += counts[t];
  unsigned long long all = 0;
  unsigned long long at = block::exclusive_sum<Threads>(mine, sums, &all);
  for (std::size_t t = first; t < last; ++t) {
    offsets[t] = at;
    at += counts[t];
  }
  if (threadIdx.x == 0) *total = all;
}

}  // namespace corank::cuda::kernels
