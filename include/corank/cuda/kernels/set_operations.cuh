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

/// Shared memory of a set operation's tile beside its staged pieces (dynamic, see
/// set_operation_tiles): each thread's balanced cut, and for the write pass the outputs' keys and
/// values.
template <int Threads, int Tile, bool Write, class K, class V>
struct set_tile_storage {
  K out_keys[Write ? Tile + 1 : 1];
  V out_values[Write && !std::is_same_v<V, no_value> ? Tile + 1 : 1];
  cut_pair<int> cuts[Threads + 1];
  block::sum_storage<Threads, unsigned> sums;
};

/// One tile of set operation Op per block, its pieces staged in dynamic shared memory of
/// partitioned_smem<false, K, no_value>::key_bytes(tile + 1) (stage_pieces). Each thread takes a
/// balanced cut of the staged piece at the start of its steps (its end: the next thread's) and
/// runs the std::set_* loop between them. Count pass (Write = false): the tile's output count to
/// counts[t]. Write pass: each thread's outputs placed by a block scan of the threads' counts,
/// staged, and stored from offsets[t] on, never past `capacity` (only a violated precondition
/// could reach it).
template <int Threads, int Items, set_op Op, bool Write, class K, class V, class Compare>
__global__ void __launch_bounds__(Threads)
    set_operation_tiles(const K* a, const V* va, std::size_t m, const K* b, const V* vb,
                        std::size_t n, const std::size_t* cut_a, const std::size_t* cut_b,
                        std::size_t* counts, const std::size_t* offsets, K* keys_out, V* vals_out,
                        std::size_t capacity, Compare comp) {
  constexpr int tile = Threads * Items;
  constexpr bool has_values = !std::is_same_v<V, no_value>;
  extern __shared__ __align__(16) unsigned char stage_bytes[];
  __shared__ set_tile_storage<Threads, tile, Write, K, V> s;
  const balanced_piece p(cut_a, cut_b, blockIdx.x, tile + 1);
  const tile_layout<K, no_value> l = stage_pieces(
      a, p.a0, p.a0 + p.count_a, b, p.b0, p.b0 + p.count_b, reinterpret_cast<K*>(stage_bytes));
  const K* sa = reinterpret_cast<const K*>(stage_bytes) + l.ka;
  const K* sb = reinterpret_cast<const K*>(stage_bytes) + l.kb;
  const int tid = int(threadIdx.x);
  const thread_steps<Threads, Items> steps(tid, p.count_a + p.count_b);
  const cut_pair<int> c0 = balanced_co_rank(steps.d0, sa, p.count_a, sb, p.count_b, comp);
  s.cuts[tid] = c0;
  if (tid == Threads - 1) s.cuts[Threads] = {p.count_a, p.count_b};
  __syncthreads();
  // Clamped: cuts disagree only under a violated precondition.
  const cut_pair<int> c1{max(s.cuts[tid + 1].a, c0.a), max(s.cuts[tid + 1].b, c0.b)};
  const auto nothing = [](bool, int) {};
  const unsigned mine =
      unsigned(serial_set_operation<Op>(sa, c0.a, c1.a, sb, c0.b, c1.b, comp, nothing));
  unsigned total = 0;
  const unsigned at = block::exclusive_sum<Threads>(mine, s.sums, &total);
  if constexpr (!Write) {
    if (tid == 0) counts[blockIdx.x] = total;
  } else {
    // Threads' outputs overlap and add up past the stage only under a violated precondition;
    // the stage's end bounds them.
    constexpr unsigned stage_items = tile + 1;
    unsigned o = at;
    serial_set_operation<Op>(sa, c0.a, c1.a, sb, c0.b, c1.b, comp, [&](bool from_a, int x) {
      if (o < stage_items) {
        s.out_keys[o] = from_a ? sa[x] : sb[x];
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
