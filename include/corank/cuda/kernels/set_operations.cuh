// The GPU set operations' kernels: balanced cuts at every tile boundary, then one pass over the
// tiles that counts, places (decoupled look-back) and writes each tile's outputs.
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
/// set_operation_tiles): each thread's balanced cut, the outputs' keys and values, the tile's id
/// and where its outputs start.
template <int Threads, int Tile, class K, class V>
struct set_tile_storage {
  K out_keys[Tile + 1];
  V out_values[std::is_same_v<V, no_value> ? 1 : Tile + 1];
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
  /// Publishes tile t's count and returns the outputs of the tiles before it, by one thread of
  /// tile t.
  __device__ std::size_t place(unsigned t, std::size_t count) const {
    if (t == 0) {
      publish(t, through, count);
      return 0;
    }
    publish(t, own, count);
    const std::size_t first = before(t);
    publish(t, through, first + count);
    return first;
  }
  /// The outputs of tiles [0, t), by one thread of tile t.
  __device__ std::size_t before(unsigned t) const {
    std::size_t sum = 0;
    for (unsigned s = t; s-- > 0;) {
      unsigned long long word;
      do {
        word = *static_cast<volatile unsigned long long*>(words + s);
      } while (word == 0);
      sum += std::size_t(word & count_part);
      if ((word & ~count_part) == through) break;
    }
    return sum;
  }
};

/// Set operation Op in one pass over tiles: each block takes the next tile (`next_tile`, zeroed
/// before the launch), stages its pieces (between the partition's balanced cuts) in dynamic shared
/// memory of partitioned_smem<false, K, no_value>::key_bytes(tile + 1) (stage_pieces), each
/// thread takes a balanced cut of the staged piece at the start of its steps (its end: the next
/// thread's), runs the std::set_* loop between them into the output stage at its place (a block
/// scan of the threads' counts), the tile learns where its outputs start by look-back, and stores
/// them, never past `capacity` (only a violated precondition could reach it). The last tile writes
/// the total to *total.
template <int Threads, int Items, set_op Op, class K, class V, class Compare>
__global__ void __launch_bounds__(Threads)
    set_operation_tiles(const K* a, const V* va, const K* b, const V* vb, const std::size_t* cut_a,
                        const std::size_t* cut_b, unsigned tiles, unsigned* next_tile,
                        output_counts counts, K* keys_out, V* vals_out, std::size_t capacity,
                        std::size_t* total, Compare comp) {
  constexpr int tile = Threads * Items;
  constexpr bool has_values = !std::is_same_v<V, no_value>;
  extern __shared__ __align__(16) unsigned char stage_bytes[];
  __shared__ set_tile_storage<Threads, tile, K, V> s;
  const int tid = int(threadIdx.x);
  if (tid == 0) s.tile = atomicAdd(next_tile, 1u);
  __syncthreads();
  const unsigned t = s.tile;
  const balanced_piece p(cut_a, cut_b, t, tile + 1);
  const tile_layout<K, no_value> l = stage_pieces(
      a, p.a0, p.a0 + p.count_a, b, p.b0, p.b0 + p.count_b, reinterpret_cast<K*>(stage_bytes));
  const K* sa = reinterpret_cast<const K*>(stage_bytes) + l.ka;
  const K* sb = reinterpret_cast<const K*>(stage_bytes) + l.kb;
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
  unsigned count = 0;
  const unsigned at = block::exclusive_sum<Threads>(mine, s.sums, &count);
  if (tid == 0) {
    const std::size_t first = counts.place(t, count);
    if (t == tiles - 1) *total = first + count;
    s.first = first;
  }
  // Threads' outputs overlap and add up past the stage only under a violated precondition; the
  // stage's end bounds them.
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
  const std::size_t first = s.first;
  const std::size_t room = first < capacity ? capacity - first : 0;
  const int stored = int(min(std::size_t(min(count, stage_items)), room));
  for (int q = tid; q < stored; q += Threads) {
    keys_out[first + q] = s.out_keys[q];
    if constexpr (has_values) vals_out[first + q] = s.out_values[q];
  }
}

}  // namespace corank::cuda::kernels
