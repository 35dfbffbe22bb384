// The GPU set operations' kernels: balanced cuts at every tile boundary, then one pass over the
// tiles that counts, places (decoupled look-back) and writes each tile's outputs.
#pragma once

#include <cstddef>
#include <type_traits>

#include "corank/cuda/block/scan.cuh"
#include "corank/cuda/kernels/merge_path_walk.cuh"
#include "corank/cuda/tuning/toolbox.cuh"
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

/// Tile t's piece between two balanced cuts (at most `capacity` items when the cuts are capacity -
/// 1 outputs apart: a cut lies at its output or one before), clamped so that any cuts give a piece
/// within both inputs and the stage.
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
/// set_operation_tiles): each thread's balanced cut, the outputs' values, the tile's id and where
/// its outputs start (the outputs' keys go back to the pieces' stage).
template <int Threads, int Tile, class V>
struct set_tile_storage {
  V out_values[std::is_same_v<V, no_value> ? 1 : Tile];
  cut_pair<int> cuts[Threads + 1];
  block::sum_storage<Threads, unsigned> sums;
  unsigned tile;
  std::size_t first;
};

/// The running count of outputs across tiles, by decoupled look-back (Merrill & Garland): tile t
/// publishes its own count as soon as it knows it, then the sum through itself once it has the sum
/// before it, so a tile waits only for the tiles just before it to publish something. A word per
/// tile, (flag << 62) | count, zeroed before the launch; tiles are taken in the order blocks
/// start (an atomic counter), so every tile waited for is running or done.
struct output_counts {
  static constexpr unsigned long long count_part = (1ull << 62) - 1;
  static constexpr unsigned long long own = 1ull << 62, through = 2ull << 62;
  unsigned long long* words;

  __device__ void publish(unsigned t, unsigned long long flag, std::size_t count) const {
    atomicExch(words + t, flag | (unsigned long long)count);
  }
  /// Publishes tile t's count and returns the outputs of the tiles before it, by the 32 lanes of
  /// one warp of tile t.
  __device__ std::size_t place(unsigned t, std::size_t count) const {
    const unsigned lane = threadIdx.x % 32;
    if (t == 0) {
      if (lane == 0) publish(t, through, count);
      return 0;
    }
    if (lane == 0) publish(t, own, count);
    const std::size_t first = before(t);
    if (lane == 0) publish(t, through, first + count);
    return first;
  }
  /// The outputs of tiles [0, t), by the 32 lanes of one warp of tile t: each round reads the
  /// words of 32 tiles at once (lane l: tile t - 1 - l, then 32 further back), waits until all
  /// have published, and adds the counts down to the nearest tile that published its running sum.
  __device__ std::size_t before(unsigned t) const {
    const unsigned lane = threadIdx.x % 32;
    std::size_t sum = 0;
    for (long long top = (long long)t - 1;; top -= 32) {
      const long long s = top - lane;
      unsigned long long word = s >= 0 ? 0 : through;  // before tile 0: a running sum of 0
      while (!__all_sync(~0u, word != 0))
        if (word == 0) word = *static_cast<volatile unsigned long long*>(words + s);
      const unsigned ends = __ballot_sync(~0u, (word & ~count_part) == through);
      const unsigned last = ends ? unsigned(__ffs(ends)) - 1 : 31;  // the nearest running sum
      std::size_t part = lane <= last ? std::size_t(word & count_part) : 0;
#pragma unroll
      for (int d = 16; d >= 1; d /= 2) part += __shfl_xor_sync(~0u, part, d);
      sum += part;
      if (ends) return sum;
    }
  }
};

/// Set operation Op in one pass over tiles: each block takes the next tile (`next_tile`, zeroed
/// before the launch) and stages its pieces (between the partition's balanced cuts Tile - 1
/// apart, so at most Threads * Items keys) in dynamic shared memory of
/// partitioned_smem<false, K, no_value>::key_bytes(Threads * Items) (stage_pieces). Each thread
/// takes a balanced cut of the staged piece at the start of its Items steps (its end: the next
/// thread's) and runs the std::set_* loop between them in registers
/// (serial_set_operation_registers), once; a block scan of the threads' output counts places them
/// in the tile, warp 0 learns where the tile's outputs start by look-back while the others put
/// their outputs back into the stage, and the block stores them, never past `capacity` (only a
/// violated precondition could reach it). The last tile writes the total to *total.
template <int Threads, int Items, set_op Op, class K, class V, class Compare>
__global__ void __launch_bounds__(Threads, tuning::set_operation_min_blocks)
    set_operation_tiles(const K* a, const V* va, const K* b, const V* vb, const std::size_t* cut_a,
                        const std::size_t* cut_b, unsigned tiles, unsigned* next_tile,
                        output_counts counts, K* keys_out, V* vals_out, std::size_t capacity,
                        std::size_t* total, Compare comp) {
  constexpr int tile = Threads * Items;
  constexpr bool has_values = !std::is_same_v<V, no_value>;
  extern __shared__ __align__(16) unsigned char stage_bytes[];
  __shared__ set_tile_storage<Threads, tile, V> s;
  K* stage = reinterpret_cast<K*>(stage_bytes);
  const int tid = int(threadIdx.x);
  if (tid == 0) s.tile = atomicAdd(next_tile, 1u);
  __syncthreads();
  const unsigned t = s.tile;
  const balanced_piece p(cut_a, cut_b, t, tile);
  const tile_layout<K, no_value> l =
      stage_pieces(a, p.a0, p.a0 + p.count_a, b, p.b0, p.b0 + p.count_b, stage);
  const thread_steps<Threads, Items> steps(tid, p.count_a + p.count_b);
  const cut_pair<int> c0 =
      balanced_co_rank(steps.d0, stage + l.ka, p.count_a, stage + l.kb, p.count_b, comp);
  s.cuts[tid] = c0;
  if (tid == Threads - 1) s.cuts[Threads] = {p.count_a, p.count_b};
  __syncthreads();
  // Clamped: cuts disagree only under a violated precondition.
  const cut_pair<int> c1{max(s.cuts[tid + 1].a, c0.a), max(s.cuts[tid + 1].b, c0.b)};
  K keys[Items];
  int from[Items];
  const unsigned kept = serial_set_operation_registers<Op>(
      stage, l.ka + c0.a, l.ka + c1.a, l.kb + c0.b, l.kb + c1.b, keys, from, comp);
  unsigned count = 0;
  // Its barriers also end every thread's reads of the stage, which now takes the outputs.
  const unsigned at = block::exclusive_sum<Threads>(unsigned(__popc(kept)), s.sums, &count);
  const auto put_back = [&] {
    unsigned o = at;
#pragma unroll
    for (int q = 0; q < Items; ++q) {
      if (!(kept >> q & 1u)) continue;
      stage[o] = keys[q];
      if constexpr (has_values)
        s.out_values[o] =
            from[q] < l.kb ? va[p.a0 + (from[q] - l.ka)] : vb[p.b0 + (from[q] - l.kb)];
      ++o;
    }
  };
  if (tid < 32) {  // the look-back first: later tiles wait for it
    const std::size_t first = counts.place(t, count);
    if (tid == 0) {
      if (t == tiles - 1) *total = first + count;
      s.first = first;
    }
  }
  put_back();
  __syncthreads();
  const std::size_t first = s.first;
  const std::size_t room = first < capacity ? capacity - first : 0;
  const int stored = int(min(std::size_t(count), room));
  for (int q = tid; q < stored; q += Threads) {
    keys_out[first + q] = stage[q];
    if constexpr (has_values) vals_out[first + q] = s.out_values[q];
  }
}

}  // namespace corank::cuda::kernels
