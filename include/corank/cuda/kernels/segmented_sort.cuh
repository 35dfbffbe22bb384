// Kernels of the batched sort of many segments (segmented_sort.cuh). Segments are binned by
// size into four lists, each then served by a persistent grid: a warp per tiny segment (shuffles
// across lanes), a warp per small one, a block per medium one (both in shared memory and
// registers), a block walking the network in global memory per large one.
#pragma once

#include <cstddef>

#include "corank/cuda/block/bitonic_network.cuh"
#include "corank/cuda/kernels/bitonic_sort.cuh"

namespace corank::cuda::kernels {

/// Size classes of segments, in the order of their list heads in `counters`.
enum segment_class : int { tiny_segment, small_segment, medium_segment, large_segment, classes };

/// One class's list of segment ids: filled from the front of `base`, or from the back of
/// base[0, back) when back > 0 (two classes share one array).
struct segment_list {
  unsigned* base;
  std::size_t back;
  __device__ __forceinline__ unsigned& operator[](unsigned i) const {
    return back ? base[back - 1 - i] : base[i];
  }
};

/// Appends each segment of more than one key to its class's list. Warp-aggregated atomics: one
/// per warp and class.
template <class Offset>
__global__ void segmented_classify(const Offset* offsets, std::size_t num_segments,
                                   std::size_t small_max, std::size_t medium_max, segment_list tiny,
                                   segment_list small, segment_list medium, segment_list large,
                                   unsigned* counters) {
  const std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  std::size_t size = 0;
  if (s < num_segments) size = std::size_t(offsets[s + 1] - offsets[s]);
  const int cls = size <= 1            ? -1
                  : size <= 32         ? int(tiny_segment)
                  : size <= small_max  ? int(small_segment)
                  : size <= medium_max ? int(medium_segment)
                                       : int(large_segment);
  for (int c = 0; c < classes; ++c) {
    const unsigned mask = __ballot_sync(0xffffffffu, cls == c);
    if (!mask) continue;
    const unsigned leader = __ffs(mask) - 1;
    unsigned base = 0;
    if (lane == leader) base = atomicAdd(&counters[c], __popc(mask));
    base = __shfl_sync(0xffffffffu, base, leader);
    if (cls == c) {
      const unsigned pos = base + __popc(mask & ((1u << lane) - 1));
      const segment_list& list = c == tiny_segment     ? tiny
                                 : c == small_segment  ? small
                                 : c == medium_segment ? medium
                                                       : large;
      list[pos] = unsigned(s);
    }
  }
}

/// A warp per S segments of at most 32 keys: one key of each per lane, sorted across lanes by
/// shuffles. Few registers and no shared memory, so the whole GPU's warps overlap their loads; S
/// segments per warp overlap their load -> sort -> store chains too. Lane i < S reads list entry
/// i and segment i's bounds (one load each for all S), then shares them.
template <int S, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(256)
    segmented_sort_tiny(Key* keys, Value* vals, const Offset* offsets, segment_list list,
                        const unsigned* counter, Compare comp) {
  static_assert(S >= 1 && S <= 32, "a lane per segment of the group");
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  const unsigned lane = threadIdx.x % 32;
  const unsigned warps = gridDim.x * (blockDim.x / 32);
  const unsigned count = *counter;
  const std::size_t first = std::size_t((blockIdx.x * blockDim.x + threadIdx.x) / 32) * S;
  for (std::size_t w = first; w < count; w += std::size_t(warps) * S) {
    std::size_t my_begin = 0;
    unsigned my_size = 0;
    if (lane < S && w + lane < count) {
      const unsigned s = list[unsigned(w + lane)];
      my_begin = std::size_t(offsets[s]);
      my_size = unsigned(std::size_t(offsets[s + 1]) - my_begin);
    }
    std::size_t begin[S];
    unsigned size[S];
    Key key[S];
    Value val[S];
#pragma unroll
    for (int i = 0; i < S; ++i) {
      begin[i] = __shfl_sync(0xffffffffu, my_begin, i);
      size[i] = __shfl_sync(0xffffffffu, my_size, i);
      val[i] = Value{};
      if (lane < size[i]) {
        key[i] = keys[begin[i] + lane];
        if constexpr (has_values) val[i] = vals[begin[i] + lane];
      }
    }
    block::warp_lane_sort(key, val, size, lane, comp);
#pragma unroll
    for (int i = 0; i < S; ++i)
      if (lane < size[i]) {
        keys[begin[i] + lane] = key[i];
        if constexpr (has_values) vals[begin[i] + lane] = val[i];
      }
  }
}

/// Sorts a whole segment of `count` keys with the NT x 2^B network in shared memory.
template <int NT, int B, class Key, class Value, class Compare, class Sync>
__device__ __forceinline__ void sort_in_shared(Key* keys, Value* vals, Key* s_keys, Value* s_vals,
                                               unsigned count, int rank, Compare comp, Sync sync) {
  int stages = 0;
  while ((1u << stages) < count) ++stages;
  tile_network<NT, B>(keys, vals, s_keys, s_vals, count, 1, stages, rank, comp, sync);
}

/// A warp per segment of the small list; the network's width follows the segment's size.
/// Two blocks per multiprocessor at least (registers capped at 128): a single one left the
/// GPU latency-bound.
template <int Warps, int MaxB, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(Warps * 32, 2)
    segmented_sort_small(Key* keys, Value* vals, const Offset* offsets, segment_list list,
                         const unsigned* counter, Compare comp) {
  constexpr unsigned capacity = 32u << MaxB;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const bitonic_smem<Key, Value> smem(smem_raw + warp * bitonic_smem_bytes<Key, Value>(capacity),
                                      capacity);
  const unsigned count = *counter;
  for (unsigned w = blockIdx.x * Warps + warp; w < count; w += gridDim.x * Warps) {
    const unsigned s = list[w];
    const std::size_t begin = std::size_t(offsets[s]);
    const unsigned size = unsigned(std::size_t(offsets[s + 1]) - begin);
    Key* k = keys + begin;
    Value* v = vals + begin;
    if (size <= 64)
      sort_in_shared<32, 1>(k, v, smem.keys, smem.vals, size, lane, comp, block::warp_sync{});
    else if (size <= 256)
      sort_in_shared<32, 3>(k, v, smem.keys, smem.vals, size, lane, comp, block::warp_sync{});
    else
      sort_in_shared<32, MaxB>(k, v, smem.keys, smem.vals, size, lane, comp, block::warp_sync{});
  }
}

/// A block per segment of the medium list.
template <int NT, int MaxB, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(NT)
    segmented_sort_medium(Key* keys, Value* vals, const Offset* offsets, segment_list list,
                          const unsigned* counter, Compare comp) {
  constexpr unsigned capacity = unsigned(NT) << MaxB;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const bitonic_smem<Key, Value> smem(smem_raw, capacity);
  const unsigned count = *counter;
  for (unsigned w = blockIdx.x; w < count; w += gridDim.x) {
    const unsigned s = list[w];
    const std::size_t begin = std::size_t(offsets[s]);
    const unsigned size = unsigned(std::size_t(offsets[s + 1]) - begin);
    Key* k = keys + begin;
    Value* v = vals + begin;
    const int rank = int(threadIdx.x);
    if (size <= (unsigned(NT) << 3))
      sort_in_shared<NT, 3>(k, v, smem.keys, smem.vals, size, rank, comp, block::block_sync{});
    else
      sort_in_shared<NT, MaxB>(k, v, smem.keys, smem.vals, size, rank, comp, block::block_sync{});
  }
}

/// A block per segment of the large list: the whole bitonic network, tiles in shared memory
/// and the long-distance steps in global memory, passes separated by block barriers.
template <int NT, int B, int BG, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(NT)
    segmented_sort_large(Key* keys, Value* vals, const Offset* offsets, segment_list list,
                         const unsigned* counter, Compare comp) {
  constexpr unsigned capacity = unsigned(NT) << B;
  constexpr int tile_bits = __builtin_ctz(capacity);
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const bitonic_smem<Key, Value> smem(smem_raw, capacity);
  const int tid = int(threadIdx.x);
  const unsigned count = *counter;
  for (unsigned w = blockIdx.x; w < count; w += gridDim.x) {
    const unsigned s = list[w];
    const std::size_t begin = std::size_t(offsets[s]);
    const std::size_t n = std::size_t(offsets[s + 1]) - begin;
    Key* k = keys + begin;
    Value* v = vals + begin;
    int log_n = 0;
    while ((std::size_t(1) << log_n) < n) ++log_n;
    bitonic_plan(
        log_n, tile_bits, BG,
        [&](int lo, int t_hi, int t_lo, bool flip) {
          const std::size_t chunks = bitonic_chunks(n, lo, BG);
          for (std::size_t g = tid; g < chunks; g += NT) {
            const block::chunk_place<std::size_t> place(g, lo, BG, flip);
            block::chunk_pass<BG>(k, v, n, place, t_hi, t_lo, flip, block::identity_index{}, comp);
          }
          __syncthreads();
        },
        [&](int first, int last, bool) {  // no wide tails here
          for (std::size_t start = 0; start < n; start += capacity) {
            const unsigned size = unsigned(n - start < capacity ? n - start : capacity);
            tile_network<NT, B>(k + start, v + start, smem.keys, smem.vals, size, first, last, tid,
                                comp, block::block_sync{});
          }
        });
  }
}

}  // namespace corank::cuda::kernels
