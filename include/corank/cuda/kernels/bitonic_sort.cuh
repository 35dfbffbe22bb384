// Kernels of the bitonic sort (see block/bitonic_network.cuh for the network's formulation).
#pragma once

#include <cstddef>

#include "corank/cuda/block/bitonic_network.cuh"

namespace corank::cuda::kernels {

/// Bytes of dynamic shared memory for `capacity` keys and values in the padded layout.
template <class Key, class Value>
CORANK_HD constexpr std::size_t bitonic_smem_bytes(unsigned capacity) {
  const std::size_t key_bytes = (block::padded_size(capacity) * sizeof(Key) + 15) / 16 * 16;
  return key_bytes +
         (std::is_same_v<Value, block::no_value> ? 0
                                                 : block::padded_size(capacity) * sizeof(Value));
}

/// Shared-memory views of a kernel's dynamic shared memory.
template <class Key, class Value>
struct bitonic_smem {
  Key* keys;
  Value* vals;
  __device__ __forceinline__ bitonic_smem(unsigned char* raw, unsigned capacity)
      : keys(reinterpret_cast<Key*>(raw)),
        vals(reinterpret_cast<Value*>(raw + (block::padded_size(capacity) * sizeof(Key) + 15) / 16 *
                                                16)) {}
};

/// Copies `count` items between global `g` and padded shared `s`, coalesced.
template <bool ToShared, class T>
__device__ __forceinline__ void copy_tile(T* g, T* s, unsigned count, int tid, int threads) {
#pragma unroll 4
  for (unsigned i = tid; i < count; i += threads) {
    if constexpr (ToShared)
      s[block::padded(i)] = g[i];
    else
      g[i] = s[block::padded(i)];
  }
}

/// Stages first..last of the network on one tile of `count` keys at keys/vals, by the NT threads
/// of a group (`rank` in it, `sync` its barrier) through the padded shared arrays s_keys/s_vals:
/// load, run, store. Leaves the group synchronised. The in-tile tail of a global stage (first >
/// tile bits) runs its first chunk pass straight from global memory (the chunk's slots are
/// 2^(tile bits - B) apart, so each slot's loads are coalesced), saving a pass through shared
/// memory.
template <int NT, int B, int Capacity = (NT << B), class Key, class Value, class Compare,
          class Sync>
__device__ __forceinline__ void tile_network(Key* keys, Value* vals, Key* s_keys, Value* s_vals,
                                             unsigned count, int first, int last, int rank,
                                             Compare comp, Sync sync) {
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  constexpr int capacity_bits = __builtin_ctz(unsigned(Capacity));
  int skip_bits = 0;
  if (first > capacity_bits) {
    constexpr int lo = capacity_bits - B;
#pragma unroll
    for (int round = 0; round < Capacity / (NT << B); ++round) {
      const block::chunk_place<unsigned> place(unsigned(rank) + unsigned(round) * NT, lo, B, false);
      block::chunk_pass_between<B>(keys, vals, block::identity_index{}, s_keys, s_vals,
                                   block::padded_index{}, count, place, B - 1, 0, false, comp);
    }
    skip_bits = B;
  } else {
    copy_tile<true>(keys, s_keys, count, rank, NT);
    if constexpr (has_values) copy_tile<true>(vals, s_vals, count, rank, NT);
  }
  sync();
  block::shared_network<NT, B, Capacity>(s_keys, s_vals, count, first, last, rank, comp, sync,
                                         skip_bits);
  sync();
  copy_tile<false>(keys, s_keys, count, rank, NT);
  if constexpr (has_values) copy_tile<false>(vals, s_vals, count, rank, NT);
  sync();
}

/// Stages first..last of the network on this block's tile of Capacity keys: the whole sort of
/// the tile (first = 1), or the in-tile steps of a global stage (first = last > tile bits).
template <int NT, int B, int Capacity, int MinBlocks, class Key, class Value, class Compare>
__global__ void __launch_bounds__(NT, MinBlocks)
    bitonic_tile(Key* keys, Value* vals, std::size_t n, int first, int last, Compare comp) {
  constexpr unsigned capacity = Capacity;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const bitonic_smem<Key, Value> smem(smem_raw, capacity);
  const std::size_t start = std::size_t(blockIdx.x) * capacity;
  const unsigned count = unsigned(n - start < capacity ? n - start : capacity);
  tile_network<NT, B, Capacity>(keys + start, vals + start, smem.keys, smem.vals, count, first,
                                last, int(threadIdx.x), comp, block::block_sync{});
}

/// One pass of steps whose distance lies in bits [lo, lo + B) of one global stage: one chunk of
/// 2^B keys per thread, straight from global memory (each slot's loads are coalesced across the
/// warp since lo >= 5 here).
template <int B, class Key, class Value, class Compare>
__global__ void bitonic_global_pass(Key* keys, Value* vals, std::size_t n, std::size_t chunks,
                                    int lo, int t_hi, int t_lo, bool flip, Compare comp) {
  const std::size_t g = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (g >= chunks) return;
  const block::chunk_place<std::size_t> place(g, lo, B, flip);
  block::chunk_pass<B>(keys, vals, n, place, t_hi, t_lo, flip, block::identity_index{}, comp);
}

/// The order of passes of the whole network on 2^log_n positions with tiles of 2^tile_bits:
/// tile_pass(1, tile stages, false) sorts the tiles; then each stage s above the tile runs its
/// long-distance steps as global passes of up to global_bits steps each, global_pass(lo, t_hi,
/// t_lo, flip) (chunk bits [lo, lo + global_bits), steps of chunk bits t_hi down to t_lo), and
/// finishes with tile_pass(s, s, wide), the steps inside the tile. With `wide_tails`, a stage
/// whose long-distance steps would leave one step for a last global pass (s - tile_bits = 1 mod
/// global_bits) finishes in a tile twice as large instead (wide = true): one pass fewer.
// Host callers pass host lambdas, device callers device ones: no execution-space check (as CUB's
// _CCCL_EXEC_CHECK_DISABLE), so plain nvcc builds it without --expt-relaxed-constexpr.
#pragma nv_exec_check_disable
template <class GlobalPass, class TilePass>
__host__ __device__ void bitonic_plan(int log_n, int tile_bits, int global_bits,
                                      GlobalPass&& global_pass, TilePass&& tile_pass,
                                      bool wide_tails = false) {
  tile_pass(1, log_n < tile_bits ? log_n : tile_bits, false);
  for (int s = tile_bits + 1; s <= log_n; ++s) {
    const bool wide = wide_tails && (s - tile_bits) % global_bits == 1;
    const int tail_bits = tile_bits + (wide ? 1 : 0);
    int j = s - 1;
    bool flip = true;
    while (j >= tail_bits) {
      // A flip chunk has its top bit at the flip; it may reach below the tile (t_lo skips those).
      const int lo = flip ? s - global_bits
                          : (j - global_bits + 1 > tail_bits ? j - global_bits + 1 : tail_bits);
      global_pass(lo, j - lo, tail_bits > lo ? tail_bits - lo : 0, flip);
      j = lo - 1;
      flip = false;
    }
    tile_pass(s, s, wide);
  }
}

/// Chunks of a pass over bits [lo, lo + B) that hold an index below n.
__host__ __device__ inline std::size_t bitonic_chunks(std::size_t n, int lo, int B) {
  const std::size_t span = std::size_t(1) << (lo + B);
  return (std::size_t(1) << lo) * ((n + span - 1) / span);
}

}  // namespace corank::cuda::kernels
