// Kernels of the batched sorts of many segments (segmented_sort.cuh).
// Unstable (sort_segments): segments are binned by size into four lists, each then served by a
// persistent grid: a warp per tiny segment (shuffles across lanes), a warp per small one, a block
// per medium one (both in shared memory and registers), a block walking the network in global
// memory per large one.
// Stable (stable_sort_segments): groups of 32 consecutive short segments are sorted a lane per
// segment in registers; the segments that start in each window of half a tile and fit in one
// are sorted by one block (by rank, or as one tile of (segment, key) pairs); longer ones are cut
// into tiles (all of them one grid's work), sorted, then merged by passes of co-rank merges that
// the whole GPU shares. Counts live in device memory: no host synchronisation.
#pragma once

#include <cooperative_groups.h>

#include <cstddef>

#include "corank/cuda/block/bitonic_network.cuh"
#include "corank/cuda/block/co_rank.cuh"
#include "corank/cuda/block/load_store.cuh"
#include "corank/cuda/block/scan.cuh"
#include "corank/cuda/block/segmented_merge_sort.cuh"
#include "corank/cuda/block/segmented_scan.cuh"
#include "corank/cuda/kernels/bitonic_sort.cuh"
#include "corank/cuda/kernels/merge.cuh"
#include "corank/merge_path.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda::kernels {

/// Size classes of segments, in the order of their list heads in `counters`.
enum segment_class : int {
  tiny_segment,
  register_segment,
  small_segment,
  medium_segment,
  large_segment,
  classes
};

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
                                   std::size_t register_max, std::size_t small_max,
                                   std::size_t medium_max, segment_list tiny,
                                   segment_list in_registers, segment_list small,
                                   segment_list medium, segment_list large, unsigned* counters) {
  const std::size_t s = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  std::size_t size = 0;
  if (s < num_segments) size = std::size_t(offsets[s + 1] - offsets[s]);
  const int cls = size <= 1              ? -1
                  : size <= 32           ? int(tiny_segment)
                  : size <= register_max ? int(register_segment)
                  : size <= small_max    ? int(small_segment)
                  : size <= medium_max   ? int(medium_segment)
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
      const segment_list& list = c == tiny_segment       ? tiny
                                 : c == register_segment ? in_registers
                                 : c == small_segment    ? small
                                 : c == medium_segment   ? medium
                                                         : large;
      list[pos] = unsigned(s);
    }
  }
}

/// The bounds of list entries [w, w + S x 32 / G) for a warp whose aligned groups of G lanes take
/// S entries each (size 0 past count): lane i loads entry w + i and its segment's offsets (one
/// load each for all), then each lane gets its group's S by shuffles.
template <int G = 32, int S, class Offset>
__device__ __forceinline__ void listed_bounds(const Offset* offsets, segment_list list,
                                              std::size_t w, std::size_t count, unsigned lane,
                                              std::size_t (&begin)[S], unsigned (&size)[S]) {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "groups of a power of two of lanes");
  static_assert(S >= 1 && S * (32 / G) <= 32, "a lane per entry");
  std::size_t my_begin = 0;
  unsigned my_size = 0;
  if (lane < unsigned(S * (32 / G)) && w + lane < count) {
    const unsigned s = list[unsigned(w + lane)];
    my_begin = std::size_t(offsets[s]);
    my_size = unsigned(std::size_t(offsets[s + 1]) - my_begin);
  }
  const unsigned first = lane / G * S;
#pragma unroll
  for (int i = 0; i < S; ++i) {
    begin[i] = __shfl_sync(0xffffffffu, my_begin, int(first + i));
    size[i] = __shfl_sync(0xffffffffu, my_size, int(first + i));
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
    std::size_t begin[S];
    unsigned size[S];
    listed_bounds(offsets, list, w, count, lane, begin, size);
    Key key[S][1];
    Value val[S][1];
#pragma unroll
    for (int i = 0; i < S; ++i) {
      val[i][0] = Value{};
      if (lane < size[i]) {
        key[i][0] = keys[begin[i] + lane];
        if constexpr (has_values) val[i][0] = vals[begin[i] + lane];
      }
    }
    block::warp_sort(key, val, size, lane, comp);
#pragma unroll
    for (int i = 0; i < S; ++i)
      if (lane < size[i]) {
        keys[begin[i] + lane] = key[i][0];
        if constexpr (has_values) vals[begin[i] + lane] = val[i][0];
      }
  }
}

/// Sorts S segments of at most G x R keys each per aligned group of G lanes (segment i of a lane's
/// group: size[i] keys at keys + begin[i]; 0: none) in the warp's registers (block::warp_sort):
/// lane l holds positions (l % G) x R to (l % G) x R + R - 1 of each. Their loads, shuffles and
/// stores overlap: a warp that sorted one segment at a time waited for memory once per segment.
/// All 32 lanes call it.
template <int R, int S, int G, class Key, class Value, class Compare>
__device__ __forceinline__ void warp_sort_segments(Key* keys, Value* vals,
                                                   const std::size_t (&begin)[S],
                                                   const unsigned (&size)[S], unsigned lane,
                                                   Compare comp) {
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  const unsigned place = lane % G;
  Key key[S][R];
  Value val[S][R];
#pragma unroll
  for (int i = 0; i < S; ++i)
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const unsigned at = place * R + unsigned(r);
      val[i][r] = Value{};
      if (at < size[i]) {
        key[i][r] = keys[begin[i] + at];
        if constexpr (has_values) val[i][r] = vals[begin[i] + at];
      }
    }
  block::warp_sort<G>(key, val, size, place, comp);
#pragma unroll
  for (int i = 0; i < S; ++i)
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const unsigned at = place * R + unsigned(r);
      if (at < size[i]) {
        keys[begin[i] + at] = key[i][r];
        if constexpr (has_values) vals[begin[i] + at] = val[i][r];
      }
    }
}

/// warp_sort_segments with the fewest keys per lane (a power of two R to MaxR) that hold the
/// warp's longest segment in G lanes: the network's steps within a lane are the cheap ones.
template <int MaxR, int S, int G = 32, int R = 1, class Key, class Value, class Compare>
__device__ __forceinline__ void warp_sort_segments_of(Key* keys, Value* vals,
                                                      const std::size_t (&begin)[S],
                                                      const unsigned (&size)[S], unsigned lane,
                                                      Compare comp) {
  if constexpr (R < MaxR) {
    unsigned longest = 0;
#pragma unroll
    for (int i = 0; i < S; ++i) longest = size[i] > longest ? size[i] : longest;
    if constexpr (G < 32) longest = block::warp_max(longest);  // the groups' sizes differ
    if (longest > unsigned(G * R))
      return warp_sort_segments_of<MaxR, S, G, 2 * R>(keys, vals, begin, size, lane, comp);
  }
  warp_sort_segments<R, S, G>(keys, vals, begin, size, lane, comp);
}

/// Sorts a whole segment of `count` keys with the NT x 2^B network in shared memory.
template <int NT, int B, class Key, class Value, class Compare, class Sync>
__device__ __forceinline__ void sort_in_shared(Key* keys, Value* vals, Key* s_keys, Value* s_vals,
                                               unsigned count, int rank, Compare comp, Sync sync) {
  int stages = 0;
  while ((1u << stages) < count) ++stages;
  tile_network<NT, B>(keys, vals, s_keys, s_vals, count, 1, stages, rank, comp, sync);
}

/// A warp per Batch segments of a list in turn. RegistersMax > 0: each sorted in registers by a
/// group of 32 / Batch lanes (narrow groups keep most of the network's steps inside a lane); the
/// list holds only segments of up to 32 / Batch x RegistersMax keys (segmented_classify's
/// register class) and the kernel takes no shared memory. RegistersMax = 0: each by the warp's
/// network in shared memory, one after the other. Two blocks per multiprocessor at least
/// (registers capped at 128): a single one left the GPU latency-bound.
template <int Warps, int MaxB, int RegistersMax, int Batch, class Key, class Value, class Offset,
          class Compare>
__global__ void __launch_bounds__(Warps * 32, 2)
    segmented_sort_small(Key* keys, Value* vals, const Offset* offsets, segment_list list,
                         const unsigned* counter, Compare comp) {
  constexpr int G = 32 / Batch;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned count = *counter;
  const unsigned first = (blockIdx.x * Warps + warp) * Batch, step = gridDim.x * Warps * Batch;
  if constexpr (RegistersMax > 0) {
    for (unsigned w = first; w < count; w += step) {
      std::size_t begin[1];
      unsigned size[1];
      listed_bounds<G>(offsets, list, w, count, lane, begin, size);
      warp_sort_segments_of<RegistersMax, 1, G>(keys, vals, begin, size, lane, comp);
    }
  } else {
    constexpr unsigned capacity = 32u << MaxB;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const bitonic_smem<Key, Value> smem(smem_raw + warp * bitonic_smem_bytes<Key, Value>(capacity),
                                        capacity);
    for (unsigned w = first; w < count; w += step) {
      std::size_t begin[Batch];
      unsigned size[Batch];
      listed_bounds(offsets, list, w, count, lane, begin, size);
#pragma unroll
      for (int i = 0; i < Batch; ++i) {
        Key* k = keys + begin[i];
        Value* v = vals + begin[i];
        if (size[i] == 0) continue;  // past the list's end
        if (size[i] <= 256)
          sort_in_shared<32, 3>(k, v, smem.keys, smem.vals, size[i], lane, comp,
                                block::warp_sync{});
        else
          sort_in_shared<32, MaxB>(k, v, smem.keys, smem.vals, size[i], lane, comp,
                                   block::warp_sync{});
      }
    }
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

// ---- stable -----------------------------------------------------------------------------------

/// What the stable sort's kernels leave each other: how many long segments, their tiles, the
/// longest one's length (which sets the merge passes), how many windows the rank sort left to
/// stable_sort_windows (their segments in a list of their own) and how many of those its blocks
/// have taken.
struct long_segment_counts {
  unsigned long long segments, tiles, longest, deferred_windows;
  unsigned long long windows_taken;     // by stable_sort_windows' blocks, one at a time
  unsigned long long staged_groups[4];  // listed by stable_sort_tiny_segments, a list a stage
  unsigned long long warp_segments;     // likewise, for stable_sort_warp_segments
  unsigned long long group_segments;    // by stable_merge_wide_warp_segments, for the warp groups
};

/// The long segments, in no particular order: segment ids, the index of each one's first tile,
/// and each tile's owner (an index into the first two).
struct long_segment_list {
  std::size_t* segment;
  std::size_t* first_tile;
  unsigned* tile_owner;
};

/// Merge passes (runs of tile, 2 tile, ...) that sort a segment of `longest` keys from sorted
/// tiles.
__host__ __device__ inline int merge_passes_for(std::size_t longest, std::size_t tile) {
  int passes = 0;
  for (std::size_t width = tile; width < longest; width *= 2) ++passes;
  return passes;
}

/// The segments that start in one window: [lo, hi).
struct segment_span {
  std::size_t lo, hi;
};

/// The segments that start in window w, [w * window, (w + 1) * window): the first segment that
/// starts at or after each bound, found by one search over the grid of partition_point_on_grid
/// for both bounds at once, so that their loads overlap.
template <class Offset>
__device__ __forceinline__ segment_span segments_of_window(const Offset* offsets,
                                                           std::size_t num_segments, std::size_t w,
                                                           std::size_t window) {
  const std::size_t at = w * window, next = at + window;
  std::size_t step = 1;
  while (step <= num_segments / 2) step *= 2;
  segment_span span{0, 0};
  for (; step > 0; step /= 2) {
    const bool lo_in = span.lo + step <= num_segments, hi_in = span.hi + step <= num_segments;
    const std::size_t lo_probe = lo_in ? std::size_t(offsets[span.lo + step - 1]) : at;
    const std::size_t hi_probe = hi_in ? std::size_t(offsets[span.hi + step - 1]) : next;
    if (lo_probe < at) span.lo += step;
    if (hi_probe < next) span.hi += step;
  }
  return span;
}

/// Sorts the keys (and values) of one segment of at most MaxLen in registers: stable insertion by
/// adjacent swaps of keys strictly out of order.
template <int MaxLen, class Key, class Value, class Compare>
__device__ __forceinline__ void insertion_sort_registers(Key (&k)[MaxLen], Value (&v)[MaxLen],
                                                         int len, Compare comp) {
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
#pragma unroll
  for (int i = 1; i < MaxLen; ++i) {
    if (i >= len) break;
#pragma unroll
    for (int j = i; j > 0; --j)
      if (comp(k[j], k[j - 1])) {
        const Key t = k[j];
        k[j] = k[j - 1], k[j - 1] = t;
        if constexpr (has_values) {
          const Value u = v[j];
          v[j] = v[j - 1], v[j - 1] = u;
        }
      }
  }
}

/// The groups of 32 consecutive segments (g: segments 32 g to 32 g + 31) that
/// stable_sort_tiny_segments leaves to stable_sort_small_groups, a list of `slots` entries per
/// stage width.
struct tiny_groups {
  unsigned* lists;
  std::size_t slots;
  __host__ __device__ unsigned* list(int stage) const { return lists + std::size_t(stage) * slots; }
};

/// Position p of an array as itself.
struct unpadded {
  __device__ __forceinline__ std::size_t operator()(std::size_t p) const { return p; }
};

/// A lane's segment of at most MaxLen keys (and values) in registers; sort() loads one from
/// keys[at(begin...)] (global memory or a stage), sorts it and stores it back.
template <int MaxLen, class Key, class Value>
struct lane_segment {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  Key k[MaxLen];
  Value v[MaxLen];
  template <class Compare, class At = unpadded>
  __device__ __forceinline__ void sort(Key* keys, Value* vals, std::size_t begin, int len,
                                       Compare comp, At at = {}) {
#pragma unroll
    for (int i = 0; i < MaxLen; ++i)
      if (i < len) {
        k[i] = keys[at(begin + i)];
        if constexpr (has_values) v[i] = vals[at(begin + i)];
      }
    insertion_sort_registers(k, v, len, comp);
#pragma unroll
    for (int i = 0; i < MaxLen; ++i)
      if (i < len) {
        keys[at(begin + i)] = k[i];
        if constexpr (has_values) vals[at(begin + i)] = v[i];
      }
  }
};

/// The segments stable_sort_tiny_segments lists for the warps' merges: up to Holds keys (at most
/// a window), and past that, up to GroupHolds, those that fill more of the narrowest group of whole
/// warps that holds them (64, 128, ... lanes of Run keys) than of the long path's tiles (ceil(l /
/// Tile) tiles of Tile keys), where the long path's tile sort pads the most: u32 1921-2048 and
/// 3841-4096 keys. Between, the long path's full tiles were faster than the groups' padded lanes.
template <int Holds, int GroupHolds, int Run, int Tile>
struct warp_listing {
  __device__ __forceinline__ static bool takes(std::size_t size) {
    if (size <= std::size_t(Holds)) return true;
    if (size > std::size_t(GroupHolds)) return false;
    std::size_t slots = 64 * std::size_t(Run);
    while (slots < size) slots *= 2;
    return slots < (size + Tile - 1) / Tile * Tile;
  }
};

/// The first kernel of the stable sort: a warp per group of 32 consecutive segments, a lane per
/// segment. A group of nothing longer than Tiny keys is sorted here, each lane in its registers
/// (few registers, no shared memory: the GPU's warps overlap their loads). A group whose longest
/// has SmallAbove + 1 to Stages::max keys (SmallAbove >= Tiny) is listed for
/// stable_sort_small_groups, in the list of the narrowest stage that holds it (past the first
/// stage and FillAbove keys, only when it holds more than WideFill % of 32 x its longest keys).
/// In a group with a longer one, or one of Tiny + 1 to SmallAbove keys, the segments of up to
/// Tiny keys are sorted here, the longer ones that WarpListing takes (warp_listing; in groups of
/// longest above SmallAbove) are listed in warp_list for stable_sort_warp_segments or
/// stable_merge_warp_segments (when warp_list is not null: where ties are identical, or the
/// merges take them), and the others flag the window their head lies in (not_tiny[w] = 1)
/// for stable_sort_short_windows, which passes over the windows left unflagged. SkipFlagged: the
/// segments of up to Tiny keys in a window their own group flags are left to that window.
/// BlocksPerSM: the blocks per multiprocessor its registers must allow.
template <int Tiny, int SmallAbove, class Stages, class WarpListing, bool SkipFlagged,
          int BlocksPerSM, unsigned WideFill, unsigned FillAbove, class Key, class Value,
          class Offset, class Compare>
__global__ void __launch_bounds__(256, BlocksPerSM)
    stable_sort_tiny_segments(Key* keys, Value* vals, const Offset* offsets,
                              std::size_t num_segments, std::size_t window, unsigned char* not_tiny,
                              tiny_groups groups, unsigned* warp_list, long_segment_counts* counts,
                              Compare comp) {
  constexpr int warps = 256 / 32;
  // Each list gets one atomic per block: a count that every warp bumped drew one atomic per
  // group on a single address, the kernel's bottleneck at 9-32 keys a segment.
  constexpr int stages = Stages::count;
  __shared__ unsigned staged_in_warp[stages][warps], listed_in_warp[warps];
  __shared__ unsigned long long first_staged[stages], first_listed;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  // Block-uniform trip counts: the blocks' barriers need every thread.
  for (std::size_t block_base = std::size_t(blockIdx.x) * blockDim.x; block_base < num_segments;
       block_base += stride) {
    const std::size_t base = block_base + 32 * warp, s = base + lane;
    const std::size_t begin = s < num_segments ? std::size_t(offsets[s]) : 0;
    const std::size_t size = s < num_segments ? std::size_t(offsets[s + 1]) - begin : 0;
    const unsigned longest = block::warp_max(unsigned(size < (1u << 30) ? size : (1u << 30)));
    bool small_group = longest > unsigned(SmallAbove) && longest <= unsigned(Stages::max);
    const int stage = Stages::of(longest);
    if constexpr (WideFill > 0)
      if (small_group && stage > 0 && longest > FillAbove) {
        // A staged group's lanes all sort to its longest: a group past the narrowest stage whose
        // lengths are uneven (WideFill % of 32 x longest keys or fewer) is left to the others.
        small_group =
            __reduce_add_sync(0xffffffffu, unsigned(size)) * 100u >= WideFill * 32u * longest;
      }
    bool to_warp = false;
    if (longest > 1 && !small_group) {
      // Groups of longest Tiny + 1 to SmallAbove keys are left to the rank sort whole: a
      // network of 16 slots a lane is too wide for them (8-byte keys, where SmallAbove > Tiny).
      to_warp = warp_list && longest > unsigned(SmallAbove) && size > std::size_t(Tiny) &&
                WarpListing::takes(size);
      const bool flags = size > std::size_t(Tiny) && !to_warp;
      if (flags) not_tiny[begin / window] = 1;
      bool sort_here = size > 1 && size <= std::size_t(Tiny);
      if constexpr (SkipFlagged) {
        // The window sorts every segment that starts in it: sorting one here too is wasted.
        const unsigned same_window = __match_any_sync(0xffffffffu, begin / window);
        sort_here &= !(same_window & __ballot_sync(0xffffffffu, flags));
      }
      if (sort_here) lane_segment<Tiny, Key, Value>().sort(keys, vals, begin, int(size), comp);
    }
    const unsigned listed = __ballot_sync(0xffffffffu, to_warp);
    if (lane == 0) {
#pragma unroll
      for (int c = 0; c < stages; ++c) staged_in_warp[c][warp] = small_group && stage == c;
      listed_in_warp[warp] = __popc(listed);
    }
    if (!__syncthreads_or(small_group || to_warp)) continue;  // nothing to list: one barrier
    if (threadIdx.x < stages) {  // a thread per stage's list, and the last for the warp list
      const int c = int(threadIdx.x);
      unsigned total = 0;
      for (int w = 0; w < warps; ++w) total += staged_in_warp[c][w];
      if (total) first_staged[c] = atomicAdd(&counts->staged_groups[c], (unsigned long long)total);
    }
    if (threadIdx.x == 32) {
      unsigned total = 0;
      for (int w = 0; w < warps; ++w) total += listed_in_warp[w];
      if (total) first_listed = atomicAdd(&counts->warp_segments, (unsigned long long)total);
    }
    __syncthreads();
    // The lanes' places in the warp list follow their order.
    unsigned staged_before = 0, listed_before = 0;
    for (unsigned w = 0; w < warp; ++w) listed_before += listed_in_warp[w];
    if (small_group && lane == 0) {
      for (unsigned w = 0; w < warp; ++w) staged_before += staged_in_warp[stage][w];
      groups.list(stage)[first_staged[stage] + staged_before] = unsigned(base / 32);
    }
    if (to_warp)
      warp_list[first_listed + listed_before + __popc(listed & ((1u << lane) - 1))] = unsigned(s);
    __syncthreads();  // the counts above are read before the next round writes them
  }
}

/// Position p of a group's runs of R slots in shared memory, with a slot skipped after each run:
/// lanes that touch their runs' i-th slots at a stride of R (and groups at a stride of G x R) met
/// in one bank.
template <class T, int R>
struct run_padded {
  T* base;
  unsigned from;
  __device__ __forceinline__ T& operator[](unsigned p) const {
    p += from;
    return base[p + p / unsigned(R)];
  }
  __device__ __forceinline__ run_padded operator+(unsigned d) const { return {base, from + d}; }
};

/// Sorts one segment of at most G x R keys per aligned group of G lanes (size keys at keys +
/// begin; 0: none), stably, for keys whose ties are not identical: lane l sorts positions l R to
/// l R + R - 1 in its registers (stable insertion), then log2(G) rounds merge pairs of runs in the
/// group's G x (R + 1) slots of s_keys / s_vals (run_padded; one co-rank and R steps of the
/// sequential merge of merge_path.hpp per lane; the warp's slot 32 (R + 1) must be readable), and
/// the lanes store the result from there, coalesced. All 32 lanes call it. Groups of more than 32
/// lanes (whole warps, lane: the place in the group, s_keys / s_vals: the group's G (R + 1) + 1
/// slots) wait on `sync`, their named barrier, where a warp waits on __syncwarp.
template <int R, int G, class Key, class Value, class Compare, class Sync = block::warp_sync>
__device__ __forceinline__ void warp_merge_segment(Key* keys, Value* vals, std::size_t begin,
                                                   unsigned size, unsigned lane, Key* s_keys,
                                                   Value* s_vals, Compare comp, Sync sync = {}) {
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  const unsigned place = lane % G, group = lane / G * unsigned(G * (R + 1)), first = place * R;
  const run_padded<Key, R> g_keys{s_keys + group, 0};
  const run_padded<Value, R> g_vals{s_vals + group, 0};
  const unsigned mine = first < size ? min(size - first, unsigned(R)) : 0u;
  Key k[R];
  Value v[R];
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (unsigned(r) < mine) {
      k[r] = keys[begin + first + unsigned(r)];
      if constexpr (has_values) v[r] = vals[begin + first + unsigned(r)];
    }
  insertion_sort_registers(k, v, int(mine), comp);
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (unsigned(r) < mine) {
      g_keys[first + unsigned(r)] = k[r];
      if constexpr (has_values) g_vals[first + unsigned(r)] = v[r];
    }
  sync();
  // The rounds stay a loop: unrolled, the kernels' bodies for each run length (R) and group width
  // outgrew the instruction cache, and mixed lengths, whose warps take different bodies in turn,
  // ran up to 2x slower (docs/notes/segmented_sort.md, "Merge rounds rolled").
#pragma unroll 1
  for (unsigned width = R; width < unsigned(G * R); width *= 2) {
    // This lane's outputs [first, first + mine) of its pair of runs [pair, mid) and [mid, end).
    const unsigned pair = first / (2 * width) * (2 * width);
    const unsigned mid = min(pair + width, size), end = min(pair + 2 * width, size);
    const bool merges = mine > 0 && mid < end;
    if (merges) {
      const unsigned diag = first - pair;
      const unsigned a =
          corank::co_rank<true>(diag, g_keys + pair, mid - pair, g_keys + mid, end - mid, comp);
      unsigned index[R];
      corank::serial_merge_registers<R>(g_keys, pair + a, mid, mid + (diag - a), end, k, index,
                                        comp);
      if constexpr (has_values)
#pragma unroll
        for (int r = 0; r < R; ++r)
          if (unsigned(r) < mine) v[r] = g_vals[index[r]];
    }
    sync();
    if (merges)
#pragma unroll
      for (int r = 0; r < R; ++r)
        if (unsigned(r) < mine) {
          g_keys[first + unsigned(r)] = k[r];
          if constexpr (has_values) g_vals[first + unsigned(r)] = v[r];
        }
    sync();
  }
  for (unsigned at = place; at < size; at += G) {
    keys[begin + at] = g_keys[at];
    if constexpr (has_values) vals[begin + at] = g_vals[at];
  }
  sync();  // the slots are free for the warp's next segments
}

/// The next run length a lane may take in the warp merges: powers of two, or with Fine also one
/// and a half of each (1, 2, 3, 4, 6, 8, 12, 16, ...), so that no segment pays for more than 1.5
/// times its keys in the lockstep merge steps (every extra length is more code in the kernel).
template <bool Fine>
__host__ __device__ constexpr int next_merge_run(int r) {
  return !Fine || r < 2 ? 2 * r : (r & (r - 1)) == 0 ? r + r / 2 : r + r / 3;
}
template <bool Fine>
__host__ __device__ constexpr bool is_merge_run(int r) {
  int at = 1;
  while (at < r) at = next_merge_run<Fine>(at);
  return at == r;
}

/// warp_merge_segment with the fewest keys per lane (R of next_merge_run's lengths, to MaxR) that
/// hold the warp's longest segment in G lanes.
template <int MaxR, int G, bool Fine, int R = 1, class Key, class Value, class Compare,
          class Sync = block::warp_sync>
__device__ __forceinline__ void warp_merge_segment_of(Key* keys, Value* vals, std::size_t begin,
                                                      unsigned size, unsigned longest,
                                                      unsigned lane, Key* s_keys, Value* s_vals,
                                                      Compare comp, Sync sync = {}) {
  if constexpr (R < MaxR)
    if (longest > unsigned(G * R))
      return warp_merge_segment_of<MaxR, G, Fine, next_merge_run<Fine>(R)>(
          keys, vals, begin, size, longest, lane, s_keys, s_vals, comp, sync);
  warp_merge_segment<R, G>(keys, vals, begin, size, lane, s_keys, s_vals, comp, sync);
}

/// The segments of a warp's lanes (begin and size: each lane's own; 0: none) that are longer than
/// G x R keys, up to Widest x R, merged by groups of W lanes (W = 2 G, 4 G, ..., Widest: the
/// narrowest that holds each), 32 / W at a time. A whole warp for each padded too much at 129-256
/// keys.
template <int R, int G, int Widest, bool Fine, int W = 2 * G, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_in_wider_groups(Key* keys, Value* vals, std::size_t begin,
                                                      unsigned size, unsigned lane, Key* s_keys,
                                                      Value* s_vals, Compare comp) {
  static_assert(G < W && W <= Widest && Widest <= 32 && (W & (W - 1)) == 0,
                "wider groups of a power of two of lanes");
  constexpr int above = W / 2 * R;  // the longest a narrower group takes
  constexpr int first_run = above / W;
  static_assert(is_merge_run<Fine>(first_run), "wider groups start where the narrower end");
  const bool takes = size > unsigned(above) && size <= unsigned(W * R);
  for (unsigned leaders = __ballot_sync(0xffffffffu, takes); leaders;) {
    // Group lane / W takes the (lane / W)-th leader left, if there is one.
    unsigned pick = leaders;
    for (unsigned skip = lane / W; skip > 0 && pick; --skip) pick &= pick - 1;
    const int leader = pick ? __ffs(int(pick)) - 1 : 0;
    const std::size_t at = __shfl_sync(0xffffffffu, begin, leader);
    const unsigned taken = __shfl_sync(0xffffffffu, size, leader);
    const unsigned keys_in = pick ? taken : 0u;
    warp_merge_segment_of<R, W, Fine, first_run>(keys, vals, at, keys_in, block::warp_max(keys_in),
                                                 lane, s_keys, s_vals, comp);
    for (int taken_groups = 0; taken_groups < 32 / W && leaders; ++taken_groups)
      leaders &= leaders - 1;
  }
  if constexpr (W < Widest)
    merge_in_wider_groups<R, G, Widest, Fine, 2 * W>(keys, vals, begin, size, lane, s_keys, s_vals,
                                                     comp);
}

/// The segments merge_in_warp_groups takes at one group width, in a block's shared memory.
struct warp_group_list {
  unsigned count;
  unsigned size[256];
  std::size_t begin[256];
};

/// The segments of a block's threads (begin and size: each thread's own; 0: none) longer than
/// Above keys (what a warp's merges hold, or a narrower group), up to Widest x R, merged by groups
/// of W = 64, 128, ... lanes of up to R keys each (whole warps, each group on a named barrier of
/// its own; the narrowest that holds each), 256 / W at a time, through the block's slots (a group
/// of warps takes its warps' rows). Every thread of the block calls it; where it merged, it ends
/// on a barrier, so that the slots are free again. Before it, one warp's lanes idled through
/// rounds of the window's whole tile for these.
template <int R, int Widest, bool Fine, int Above, int W = 64, class Key, class Value,
          class Compare, class Slots>
__device__ __forceinline__ void merge_in_warp_groups(Key* keys, Value* vals, std::size_t begin,
                                                     unsigned size, Slots& slots,
                                                     warp_group_list& list, Compare comp) {
  static_assert(64 <= W && W <= Widest && Widest <= 256 && (W & (W - 1)) == 0,
                "groups of a power of two of whole warps, up to the block");
  static_assert(is_merge_run<Fine>(Above / W), "wider groups start where the narrower end");
  constexpr int first_run = next_merge_run<Fine>(Above / W);  // Above / W lanes' runs hold none
  const bool takes = size > unsigned(Above) && size <= unsigned(W * R);
  if (__syncthreads_or(takes)) {
    if (threadIdx.x == 0) list.count = 0;
    __syncthreads();
    if (takes) {  // the order within a block is free: each segment is merged alone
      const unsigned at = atomicAdd(&list.count, 1u);
      list.begin[at] = begin;
      list.size[at] = size;
    }
    __syncthreads();
    const unsigned group = threadIdx.x / W, warps = W / 32;
    const block::warps_sync sync{1 + group, unsigned(W)};
    for (unsigned i = group; i < list.count; i += 256 / W)
      warp_merge_segment_of<R, W, Fine, first_run>(
          keys, vals, list.begin[i], list.size[i], list.size[i], threadIdx.x % W,
          slots.keys[group * warps], slots.values_of(group * warps), comp, sync);
    __syncthreads();
  }
  if constexpr (W < Widest)
    merge_in_warp_groups<R, Widest, Fine, W * R, 2 * W>(keys, vals, begin, size, slots, list, comp);
}

/// The segments stable_sort_tiny_segments listed for the registers (counts->warp_segments of
/// them), Batch of them at a time per aligned group of G lanes (warp_sort_segments_of: up to G x R
/// keys each; narrow groups keep the network's steps in registers), but those whose window
/// another segment flagged: the window's sort takes them. Merge: one at a time per group through
/// the warp's slots s_keys / s_vals (warp_merge_segment_of, FineRuns its Fine), but those of more
/// than G x R keys (stable_merge_wide_warp_segments takes them). A grid of resident blocks loops
/// over the count on the device.
template <int R, int Batch, int G, bool Merge, bool FineRuns, class Key, class Value, class Offset,
          class Compare>
__device__ __forceinline__ void sort_listed_warp_segments(
    Key* keys, Value* vals, const Offset* offsets, const unsigned* warp_list,
    const unsigned char* not_tiny, std::size_t window, const long_segment_counts* counts,
    Key* s_keys, Value* s_vals, Compare comp) {
  static_assert(!Merge || Batch == 1, "the merges take a segment at a time per group");
  constexpr int per_warp = Batch * (32 / G);
  const unsigned lane = threadIdx.x % 32;
  const std::size_t count = counts->warp_segments;
  const std::size_t step = std::size_t(gridDim.x) * (blockDim.x / 32) * per_warp;
  for (std::size_t w = std::size_t((blockIdx.x * blockDim.x + threadIdx.x) / 32) * per_warp;
       w < count; w += step) {
    std::size_t begin[Batch];
    unsigned size[Batch];
    listed_bounds<G>(offsets, segment_list{const_cast<unsigned*>(warp_list), 0}, w, count, lane,
                     begin, size);
#pragma unroll
    for (int i = 0; i < Batch; ++i)
      if (size[i] && not_tiny[begin[i] / window]) size[i] = 0;
    if constexpr (Merge) {
      const unsigned in_group = size[0] > unsigned(G * R) ? 0u : size[0];
      const unsigned longest = block::warp_max(in_group);
      if (longest)
        warp_merge_segment_of<R, G, FineRuns>(keys, vals, begin[0], in_group, longest, lane, s_keys,
                                              s_vals, comp);
    } else
      warp_sort_segments_of<R, Batch, G>(keys, vals, begin, size, lane, comp);
  }
}

/// sort_listed_warp_segments by networks, where ties are identical (not stable). A kernel of its
/// own, so that the first one keeps few registers.
template <int R, int Batch, int G, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(256)
    stable_sort_warp_segments(Key* keys, Value* vals, const Offset* offsets, unsigned* warp_list,
                              const unsigned char* not_tiny, std::size_t window,
                              const long_segment_counts* counts, Compare comp) {
  sort_listed_warp_segments<R, Batch, G, false, false>(keys, vals, offsets, warp_list, not_tiny,
                                                       window, counts, static_cast<Key*>(nullptr),
                                                       static_cast<Value*>(nullptr), comp);
}

/// The shared slots of the warp merges' eight warps a block: each lane's run of up to R keys (and
/// values), a skipped slot, and one readable past the end.
template <int R, class Key, class Value>
struct warp_merge_slots {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  static constexpr int per_warp = 32 * (R + 1) + 1;
  Key keys[8][per_warp];
  std::conditional_t<has_values, Value, char> values[8][has_values ? per_warp : 1];
  __device__ __forceinline__ Value* values_of(unsigned warp) {
    return reinterpret_cast<Value*>(values[warp]);
  }
};

/// sort_listed_warp_segments by stable merges through shared memory (warp_merge_segment), for
/// keys whose ties are not identical (or all keys, as the policy says); BlocksPerSM blocks a
/// multiprocessor at least (one held 173 registers for pairs: a block a multiprocessor).
/// FineRuns: runs of 1.5 times a power of two too (next_merge_run).
template <int R, int G, bool FineRuns, int BlocksPerSM, class Key, class Value, class Offset,
          class Compare>
__global__ void __launch_bounds__(256, BlocksPerSM)
    stable_merge_warp_segments(Key* keys, Value* vals, const Offset* offsets, unsigned* warp_list,
                               const unsigned char* not_tiny, std::size_t window,
                               const long_segment_counts* counts, Compare comp) {
  static_assert(is_merge_run<FineRuns>(R), "the longest run a lane merges: next_merge_run's");
  __shared__ warp_merge_slots<R, Key, Value> slots;
  const unsigned warp = threadIdx.x / 32;
  sort_listed_warp_segments<R, 1, G, true, FineRuns>(keys, vals, offsets, warp_list, not_tiny,
                                                     window, counts, slots.keys[warp],
                                                     slots.values_of(warp), comp);
}

/// The listed segments that a group of G lanes cannot hold (more than G x R keys, up to Widest x
/// R), merged by wider groups (merge_in_wider_groups): a warp takes 32 list entries at a time, a
/// lane each. Those longer than a warp holds (to the groups' longest, past a window) are listed in
/// group_list (when not null) for stable_merge_warp_group_segments. BlocksPerSM: the blocks a
/// multiprocessor its registers must allow. A kernel apart from
/// stable_merge_warp_segments: both in one held more registers than the launch bounds allow, and
/// mixed lengths ran 2-3x slower for the spills. At G lanes they would flag their windows, whose
/// sort costs every segment there the rounds of a whole tile.
template <int R, int G, int Widest, bool FineRuns, int BlocksPerSM, class Key, class Value,
          class Offset, class Compare>
__global__ void __launch_bounds__(256, BlocksPerSM)
    stable_merge_wide_warp_segments(Key* keys, Value* vals, const Offset* offsets,
                                    const unsigned* warp_list, const unsigned char* not_tiny,
                                    std::size_t window, unsigned* group_list,
                                    long_segment_counts* counts, Compare comp) {
  __shared__ warp_merge_slots<R, Key, Value> slots;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t count = counts->warp_segments;
  const std::size_t step = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t w = std::size_t(blockIdx.x) * blockDim.x + 32 * warp; w < count; w += step) {
    std::size_t begin = 0;
    unsigned size = 0, s = 0;
    if (w + lane < count) {
      s = warp_list[w + lane];
      begin = std::size_t(offsets[s]);
      size = unsigned(std::size_t(offsets[s + 1]) - begin);
      if (size <= unsigned(G * R) || not_tiny[begin / window]) size = 0;
    }
    if (group_list) {
      const bool longer = size > unsigned(Widest * R);
      const unsigned listed = __ballot_sync(0xffffffffu, longer);
      unsigned long long first = 0;
      if (listed && lane == 0)
        first = atomicAdd(&counts->group_segments, (unsigned long long)__popc(listed));
      first = __shfl_sync(0xffffffffu, first, 0);
      if (longer) group_list[first + __popc(listed & ((1u << lane) - 1))] = s;
    }
    merge_in_wider_groups<R, G, Widest, FineRuns>(keys, vals, begin, size, lane, slots.keys[warp],
                                                  slots.values_of(warp), comp);
  }
}

/// The segments stable_merge_wide_warp_segments listed (longer than a warp holds) that groups of
/// FirstWidth to GroupWidest lanes of up to R keys take, from Above keys (merge_in_warp_groups;
/// others are left to the kernel's other launches): a block takes an even share of the list, an
/// entry a thread at a time. A kernel of its own: in that one it spilled.
template <int R, int Above, int FirstWidth, int GroupWidest, bool FineRuns, class Key, class Value,
          class Offset, class Compare>
__global__ void __launch_bounds__(256, 2)
    stable_merge_warp_group_segments(Key* keys, Value* vals, const Offset* offsets,
                                     const unsigned* group_list, const long_segment_counts* counts,
                                     Compare comp) {
  __shared__ warp_merge_slots<R, Key, Value> slots;
  __shared__ warp_group_list groups;
  // An even share of the list a block, 256 entries at a time: with 256 entries a block in turn,
  // a list shorter than the grid's threads (or the last turn of a longer one) left most blocks
  // idle, and each group merged its many segments one after another.
  const std::size_t count = counts->group_segments;
  const std::size_t share = (count + gridDim.x - 1) / gridDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * share;
  const std::size_t last = first + share < count ? first + share : count;
  // Block-uniform trip counts: the groups' barriers and the block's.
  for (std::size_t base = first; base < last; base += blockDim.x) {
    std::size_t begin = 0;
    unsigned size = 0;
    if (base + threadIdx.x < last) {
      const unsigned s = group_list[base + threadIdx.x];
      begin = std::size_t(offsets[s]);
      size = unsigned(std::size_t(offsets[s + 1]) - begin);
    }
    merge_in_warp_groups<R, GroupWidest, FineRuns, Above, FirstWidth>(keys, vals, begin, size,
                                                                      slots, groups, comp);
  }
}

/// Stage position p, with a slot skipped after every 32 when `skip` is 1: lanes that read their
/// segments' i-th keys at an even stride meet in a few banks (16 of them at a stride of 16); odd
/// strides are free of conflicts as they are.
struct bank_padded {
  unsigned skip;
  __device__ __forceinline__ std::size_t operator()(std::size_t p) const {
    return p + p / 32 * skip;
  }
};

/// A warp's stage in stable_sort_small_groups: the keys (and values) of 32 segments, bank_padded.
template <class Key, class Value, int MaxLen>
struct small_stage {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  static constexpr int slots = 33 * MaxLen;
  Key keys[slots];
  std::conditional_t<has_values, Value, char> vals[has_values ? slots : 1];
};

/// The warps of a stable_sort_small_groups block: as many of 8, 4, 2 or 1 as 48 KB of static
/// shared memory stages (wider stages, fewer warps a block).
template <class Key, class Value, int MaxLen,
          std::size_t Stage = sizeof(small_stage<Key, Value, MaxLen>)>
inline constexpr int small_stage_warps = 8 * Stage <= 48 * 1024   ? 8
                                         : 4 * Stage <= 48 * 1024 ? 4
                                         : 2 * Stage <= 48 * 1024 ? 2
                                                                  : 1;

/// The groups stable_sort_tiny_segments listed (32 consecutive segments, none longer than
/// MaxLen), a warp per group in turn: the group's keys are contiguous, so the warp stages them
/// through shared memory with coalesced copies (a lane's own keys, read straight from memory,
/// would each cost a sector), then each lane sorts its segment in registers. A grid of resident
/// blocks loops over the count on the device. SkipFlagged: a group whose segments all start in
/// flagged windows (not_tiny, final by now) is left to them. The groups: list[0, *listed), those
/// of one stage width. Blocks of small_stage_warps warps.
template <int MaxLen, bool SkipFlagged, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(32 * small_stage_warps<Key, Value, MaxLen>)
    stable_sort_small_groups(Key* keys, Value* vals, const Offset* offsets,
                             std::size_t num_segments, const unsigned* list,
                             const unsigned long long* listed_groups, const unsigned char* not_tiny,
                             std::size_t window, Compare comp) {
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  constexpr int block_warps = small_stage_warps<Key, Value, MaxLen>;
  __shared__ small_stage<Key, Value, MaxLen> stages[block_warps];
  auto& stage = stages[threadIdx.x / 32];
  Value* s_vals = reinterpret_cast<Value*>(stage.vals);
  const int lane = int(threadIdx.x % 32);
  const std::size_t listed = *listed_groups;
  const std::size_t warps = std::size_t(gridDim.x) * block_warps;
  for (std::size_t i = std::size_t(blockIdx.x) * block_warps + threadIdx.x / 32; i < listed;
       i += warps) {
    const std::size_t base = std::size_t(list[i]) * 32;
    const std::size_t s = base + lane;
    const std::size_t begin = s < num_segments ? std::size_t(offsets[s]) : 0;
    const int len = s < num_segments ? int(std::size_t(offsets[s + 1]) - begin) : 0;
    const int last_lane = num_segments - 1 - base < 31 ? int(num_segments - 1 - base) : 31;
    const std::size_t first = __shfl_sync(0xffffffffu, begin, 0);
    const std::size_t end = __shfl_sync(0xffffffffu, begin + std::size_t(len), last_lane);
    const int count = int(end - first);  // at most 32 * MaxLen
    if constexpr (SkipFlagged) {
      // The group's heads lie in windows first / window to last_head / window (a few at most).
      const std::size_t last_head = __shfl_sync(0xffffffffu, begin, last_lane);
      const std::size_t w = first / window + unsigned(lane);
      if (__all_sync(0xffffffffu, w > last_head / window || not_tiny[w])) continue;
    }
    const bank_padded at{(__shfl_sync(0xffffffffu, len, 0) + 1u) % 2};  // segments of even length
    for (int j = lane; j < count; j += 32) {
      stage.keys[at(j)] = keys[first + j];
      if constexpr (has_values) s_vals[at(j)] = vals[first + j];
    }
    __syncwarp();
    if (len > 1)
      lane_segment<MaxLen, Key, Value>().sort(stage.keys, s_vals, begin - first, len, comp, at);
    __syncwarp();
    for (int j = lane; j < count; j += 32) {
      keys[first + j] = stage.keys[at(j)];
      if constexpr (has_values) vals[first + j] = s_vals[at(j)];
    }
    __syncwarp();  // the stage is free for the warp's next group
  }
}

/// Shared memory of stable_sort_windows: a tile of keys and of values, each with one readable
/// slot past the end, each key's tile-local segment, each segment's start (and one past the last
/// segment), and a segment-head flag per key.
template <class Key, class Value, std::size_t Tile>
struct window_smem {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  static_assert(Tile < 65536, "tile-local positions and segments in 16 bits");
  Key keys[Tile + 1];
  std::conditional_t<has_values, Value, char> vals[has_values ? Tile + 1 : 1];
  unsigned short segment_of[Tile];
  unsigned short segment_start[Tile + 1];
  unsigned char heads[Tile];
};

/// A window's short segments: [lo, end_segment), keys [begin, begin + count).
struct window_segments {
  std::size_t lo, end_segment, begin;
  unsigned count;
};

/// Window [lo, hi)'s short segments: all of them, or all but the last when that one is longer
/// than `window` (it then takes a slot in the long segments' list and its tiles from atomic
/// counts). The three offsets it needs are loaded at once. Called by the whole block, once per
/// window.
template <int NT, class Offset>
__device__ __forceinline__ window_segments claim_long_segment(const Offset* offsets, std::size_t lo,
                                                              std::size_t hi, std::size_t window,
                                                              std::size_t tile,
                                                              long_segment_list longs,
                                                              long_segment_counts* counts) {
  __shared__ unsigned long long claimed[2];  // the slot, the first tile
  const std::size_t begin = std::size_t(offsets[lo]);
  const std::size_t last_begin = std::size_t(offsets[hi - 1]), end = std::size_t(offsets[hi]);
  const std::size_t last_size = end - last_begin;
  if (last_size <= window) return {lo, hi, begin, unsigned(end - begin)};
  const std::size_t tiles = (last_size + tile - 1) / tile;
  if (threadIdx.x == 0) {
    claimed[0] = atomicAdd(&counts->segments, 1ull);
    claimed[1] = atomicAdd(&counts->tiles, (unsigned long long)tiles);
    atomicMax(&counts->longest, (unsigned long long)last_size);
    longs.segment[claimed[0]] = hi - 1;
    longs.first_tile[claimed[0]] = claimed[1];
  }
  __syncthreads();
  for (std::size_t t = threadIdx.x; t < tiles; t += NT)
    longs.tile_owner[claimed[1] + t] = unsigned(claimed[0]);
  return {lo, hi - 1, begin, unsigned(last_begin - begin)};
}

/// The few-segments mode (num_segments <= Threads, a thread per segment): every segment, of any
/// length, empty ones too, is listed as long, in slot s for segment s, its first tile the sum of
/// the tiles before it, and the counts are written whole (no memset before). Every block sums the
/// tiles and writes the owners of its share of them (grid-stride); block 0 the list and the
/// counts.
template <int Threads, class Offset>
__global__ void __launch_bounds__(Threads)
    list_every_segment_as_long(const Offset* offsets, std::size_t num_segments, std::size_t tile,
                               long_segment_list longs, long_segment_counts* counts) {
  __shared__ block::sum_storage<Threads, unsigned long long> sum;
  __shared__ unsigned long long first_tiles[Threads];
  __shared__ unsigned long long longest;
  const unsigned s = threadIdx.x;
  if (s == 0) longest = 0;
  const bool listed = s < num_segments;
  const std::size_t size = listed ? std::size_t(offsets[s + 1]) - std::size_t(offsets[s]) : 0;
  const unsigned long long tiles = (size + tile - 1) / tile;
  unsigned long long total = 0;
  const unsigned long long first = block::exclusive_sum<Threads>(tiles, sum, &total);
  first_tiles[s] = first;
  if (size) atomicMax(&longest, (unsigned long long)size);  // after the sum's barriers
  __syncthreads();
  if (blockIdx.x == 0) {
    if (listed) longs.segment[s] = s, longs.first_tile[s] = first;
    if (s == 0) *counts = long_segment_counts{num_segments, total, longest, 0, 0, {}, 0};
  }
  // Tile t's owner: the last segment whose first tile is at most t (empty ones share the next
  // one's first tile and come before it), one before the upper bound of t.
  for (std::size_t t = std::size_t(blockIdx.x) * Threads + s; t < total;
       t += std::size_t(gridDim.x) * Threads) {
    const unsigned past = corank::bound_within<true>(first_tiles, 0u, unsigned(num_segments),
                                                     (unsigned long long)t, corank::less{});
    longs.tile_owner[t] = past - 1;
  }
}

/// Shared memory of stable_sort_short_windows: a tile of keys (congruent with the caller's for
/// 16-byte copies), and per position its segment's bounds (then the position that took that
/// place, to check that the ranks are a permutation).
template <class Key, std::size_t Tile>
struct short_window_smem {
  static_assert(Tile < 65536, "tile-local positions in 16 bits");
  alignas(16) Key keys[Tile + block::vector_items<Key>];
  unsigned bounds[Tile];
};

/// The segments that start in one window (span): the last one goes to the long segments' list if
/// it is longer than `window`; the others end within a tile of 2 x window (NT x VT). When none of
/// them is longer than rank_max, each key is placed by its stable rank in its segment
/// (block::stable_rank_in_segment: a comparison per key of its segment, so every thread works
/// whatever the lengths, and nothing is padded), straight into the caller's arrays. Windows with a
/// longer segment, and windows whose ranks are not a permutation (a comparator that is not a
/// strict weak order), are left untouched and listed in `deferred` for stable_sort_windows. Every
/// global load of a step is issued at once (the window's bounds, then its keys with its
/// segments' offsets), so a block waits for memory about three times. Called by the whole block;
/// not inlined into its kernel's loop, whose hoisted addresses doubled the registers.
template <int NT, int VT, class Key, class Value, class Offset, class Compare>
__device__ __noinline__ void sort_short_window(Key* keys, Value* vals, const Offset* offsets,
                                               segment_span span, std::size_t window,
                                               unsigned rank_max, long_segment_list longs,
                                               long_segment_counts* counts, segment_span* deferred,
                                               Compare comp) {
  constexpr std::size_t tile = std::size_t(NT) * VT;
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  // Segments per thread whose offsets are loaded at once (a full window of u32 keys in two
  // rounds; more held the registers of fewer blocks).
  constexpr int batch = 4;
  extern __shared__ __align__(16) unsigned char short_smem_raw[];
  auto& smem = *reinterpret_cast<short_window_smem<Key, tile>*>(short_smem_raw);
  __shared__ unsigned longest;
  __shared__ block::block_scan_storage<unsigned, NT / 32> scan_storage;
  const int tid = int(threadIdx.x);
  const std::size_t lo = span.lo;
  const window_segments ws =
      claim_long_segment<NT>(offsets, lo, span.hi, window, tile, longs, counts);
  const std::size_t begin = ws.begin, end_segment = ws.end_segment;
  const unsigned count = ws.count;
  if (count < 2) return;
  const auto defer = [&] {
    if (tid == 0) deferred[atomicAdd(&counts->deferred_windows, 1ull)] = span;
  };
  // More keys a segment on average than rank_max: some segment is longer (nothing to load).
  if (count > std::size_t(rank_max) * (end_segment - lo)) return defer();
  // The keys are loaded while the segments are read, unless there are no more keys than
  // segments (most likely segments of one key, which need no load at all).
  Key* s_keys = smem.keys + block::congruent_shift(keys + begin);
  const bool load_early = count > end_segment - lo;
  if (load_early)
    block::copy_range_async<NT>(block::vector_range<Key>(keys + begin, s_keys, int(count)), tid);
  __pipeline_commit();
  for (unsigned p = unsigned(tid); p < count; p += NT) smem.bounds[p] = 0;  // 0: no segment head
  if (tid == 0) longest = 0;
  __syncthreads();
  // Each non-empty segment marks its head with its bounds (first | last << 16).
  unsigned my_longest = 0;
  for (std::size_t base = lo; base < end_segment; base += std::size_t(batch) * NT) {
    Offset first[batch], last[batch];
#pragma unroll
    for (int k = 0; k < batch; ++k) {
      const std::size_t s = base + unsigned(tid) + unsigned(k) * NT;
      if (s < end_segment) first[k] = offsets[s], last[k] = offsets[s + 1];
    }
#pragma unroll
    for (int k = 0; k < batch; ++k) {
      const std::size_t s = base + unsigned(tid) + unsigned(k) * NT;
      if (s < end_segment) {
        const unsigned f = unsigned(std::size_t(first[k]) - begin);
        const unsigned l = unsigned(std::size_t(last[k]) - begin);
        my_longest = max(my_longest, l - f);
        if (l > f) smem.bounds[f] = f | l << 16;
      }
    }
  }
  for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2)  // the warp's longest, then one atomic
    my_longest = max(my_longest, __shfl_xor_sync(0xffffffffu, my_longest, lane_mask));
  if (tid % 32 == 0) atomicMax(&longest, my_longest);
  __syncthreads();
  if (longest > rank_max) return defer();
  if (longest <= 1) return;  // no key moves
  if (!load_early)
    block::copy_range_async<NT>(block::vector_range<Key>(keys + begin, s_keys, int(count)), tid);
  __pipeline_commit();

  // Every position takes its segment's bounds from the last head at or before it: a scan over
  // each thread's run of VT positions in which a head replaces what came before.
  {
    const unsigned run = unsigned(tid) * VT;
    block::flagged<unsigned> mine{false, 0u}, prefix{false, 0u}, total;
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (run + i < count && smem.bounds[run + i]) mine = {true, smem.bounds[run + i]};
    auto keep_left = [](unsigned left, unsigned) { return left; };
    block::block_exclusive_scan<NT>(mine, prefix, total, scan_storage, keep_left);
    unsigned current = prefix.value;  // position 0 is a head: thread 0 needs no prefix
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (run + i < count) {
        if (smem.bounds[run + i]) current = smem.bounds[run + i];
        smem.bounds[run + i] = current;
      }
  }
  __pipeline_wait_prior(0);
  __syncthreads();

  unsigned place[VT];
  Value v[VT];
  bool broken = false;
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const unsigned p = unsigned(tid) + unsigned(i) * NT;
    if (p < count) {
      const unsigned bounds = smem.bounds[p], first = bounds & 0xffffu, last = bounds >> 16;
      const unsigned rank = block::stable_rank_in_segment(s_keys, p, first, last, comp);
      broken |= rank >= last - first;
      place[i] = first + rank;
      if constexpr (has_values) v[i] = vals[begin + p];  // all read before any is written
    }
  }
  __syncthreads();  // every bound read: bounds[q] now records which position took place q
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const unsigned p = unsigned(tid) + unsigned(i) * NT;
    if (p < count && place[i] < count) smem.bounds[place[i]] = p;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const unsigned p = unsigned(tid) + unsigned(i) * NT;
    if (p < count) broken |= place[i] >= count || smem.bounds[place[i]] != p;
  }
  if (__syncthreads_or(broken)) return defer();
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const unsigned p = unsigned(tid) + unsigned(i) * NT;
    if (p < count) {
      keys[begin + place[i]] = s_keys[p];
      if constexpr (has_values) vals[begin + place[i]] = v[i];
    }
  }
}

/// The windows, in a grid of resident blocks: block b of G takes windows b, b + G, b + 2 G, ...,
/// NT at a time, a thread each: the windows that stable_sort_tiny_segments flagged
/// (not_tiny[w]) find their segments (segments_of_window), and the block sorts them in turn
/// (sort_short_window). A window left unflagged costs a byte: with a block per window, the
/// blocks that found nothing to do took 40-60 us at 64M keys.
template <int NT, int VT, int BlocksPerSM, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(NT, BlocksPerSM)
    stable_sort_short_windows(Key* keys, Value* vals, const Offset* offsets,
                              std::size_t num_segments, const unsigned char* not_tiny,
                              std::size_t windows, std::size_t window, unsigned rank_max,
                              long_segment_list longs, long_segment_counts* counts,
                              segment_span* deferred, Compare comp) {
  __shared__ segment_span flagged[NT];
  __shared__ unsigned flagged_count;
  const std::size_t grid = gridDim.x;
  for (std::size_t first = blockIdx.x; first < windows; first += grid * NT) {
    if (threadIdx.x == 0) flagged_count = 0;
    __syncthreads();
    const std::size_t w = first + threadIdx.x * grid;
    if (w < windows && not_tiny[w]) {
      const segment_span span = segments_of_window(offsets, num_segments, w, window);
      if (span.lo != span.hi) flagged[atomicAdd(&flagged_count, 1u)] = span;
    }
    __syncthreads();
    const unsigned count = flagged_count;
    for (unsigned i = 0; i < count; ++i) {
      sort_short_window<NT, VT>(keys, vals, offsets, flagged[i], window, rank_max, longs, counts,
                                deferred, comp);
      __syncthreads();  // the window's shared memory is free for the next one
    }
    __syncthreads();  // the count is read before the next batch resets it
  }
}

/// One window that stable_sort_short_windows left (span: the segments that start in it): its short
/// segments' keys are one tile, sorted by block::sort_segments_in_shared with as many merge
/// rounds as the segment that straddles the widest runs needs. Called by the whole block; not
/// inlined into its kernel's loop (see sort_short_window).
template <int NT, int VT, class Key, class Value, class Offset, class Compare>
__device__ __noinline__ void sort_window(Key* keys, Value* vals, const Offset* offsets,
                                         segment_span span, std::size_t window, Compare comp) {
  constexpr std::size_t tile = std::size_t(NT) * VT;
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  using smem_t = window_smem<Key, Value, tile>;
  extern __shared__ __align__(16) unsigned char window_smem_raw[];
  auto& smem = *reinterpret_cast<smem_t*>(window_smem_raw);
  __shared__ int rounds;
  __shared__ block::block_scan_storage<unsigned, NT / 32> scan_storage;
  const int tid = int(threadIdx.x);
  const std::size_t lo = span.lo, hi = span.hi;
  const std::size_t last_size = std::size_t(offsets[hi]) - std::size_t(offsets[hi - 1]);
  const std::size_t end_segment = last_size > window ? hi - 1 : hi;
  if (end_segment == lo) return;
  const std::size_t begin = std::size_t(offsets[lo]);
  const unsigned count = unsigned(std::size_t(offsets[end_segment]) - begin);
  if (count < 2) return;

  // Segment heads, and the merge rounds the segments need (-1: none longer than one key).
  for (unsigned i = unsigned(tid); i < count; i += NT) smem.heads[i] = 0;
  if (tid == 0) rounds = -1;
  __syncthreads();
  for (std::size_t s = lo + unsigned(tid); s < end_segment; s += NT) {
    const unsigned first = unsigned(std::size_t(offsets[s]) - begin);
    const unsigned last = unsigned(std::size_t(offsets[s + 1]) - begin);
    if (last > first) smem.heads[first] = 1;
    if (last > first + 1) atomicMax(&rounds, block::rounds_to_cover<VT>(first, last - 1));
  }
  __syncthreads();
  if (rounds < 0) return;  // every segment of one key or none: nothing moves
  for (unsigned i = unsigned(tid); i < count; i += NT) {
    smem.keys[i] = keys[begin + i];
    if constexpr (has_values) smem.vals[i] = vals[begin + i];
  }

  // Each key's segment: the heads up to it, less one (a block scan of each thread's run's heads);
  // each head records where its segment starts.
  const unsigned first = unsigned(tid) * VT;
  unsigned run_heads = 0;
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (first + i < count) run_heads += smem.heads[first + i];
  block::flagged<unsigned> prefix{false, 0u}, total;
  corank::plus add;
  if (!block::block_exclusive_scan<NT>(block::flagged<unsigned>{false, run_heads}, prefix, total,
                                       scan_storage, add))
    prefix.value = 0;
  unsigned segment = prefix.value;  // heads before this run; position 0 is a head
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (first + i < count) {
      if (smem.heads[first + i]) smem.segment_start[segment++] = (unsigned short)(first + i);
      smem.segment_of[first + i] = (unsigned short)(segment - 1);
    }
  if (tid == 0) smem.segment_start[total.value] = (unsigned short)count;
  __syncthreads();
  // Typed as Value (no_value for keys alone: no value moves), not as the placeholder array.
  block::sort_segments_in_shared<NT, VT>(smem.keys, reinterpret_cast<Value*>(smem.vals),
                                         smem.segment_of, smem.segment_start, count, rounds, tid,
                                         comp);
  for (unsigned i = unsigned(tid); i < count; i += NT) {
    keys[begin + i] = smem.keys[i];
    if constexpr (has_values) vals[begin + i] = smem.vals[i];
  }
}

/// The windows stable_sort_short_windows left (deferred[0, counts->deferred_windows)), in a grid
/// of resident blocks that take them one at a time from a count (their costs differ: a block per
/// window let the hardware balance them, a static share would not).
template <int NT, int VT, int BlocksPerSM, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(NT, BlocksPerSM)
    stable_sort_windows(Key* keys, Value* vals, const Offset* offsets, std::size_t window,
                        const segment_span* deferred, long_segment_counts* counts, Compare comp) {
  __shared__ unsigned long long taken;
  const unsigned long long count = counts->deferred_windows;
  for (;;) {
    if (threadIdx.x == 0) taken = atomicAdd(&counts->windows_taken, 1ull);
    __syncthreads();
    const unsigned long long i = taken;
    if (i >= count) return;
    sort_window<NT, VT>(keys, vals, offsets, deferred[i], window, comp);
    __syncthreads();  // the window's shared memory and `taken` are free for the next one
  }
}

/// Where tile t of the long segments lies: its segment's first key, its own first key within the
/// segment and the segment's size.
struct long_tile {
  std::size_t segment_begin, at, size;
  template <class Offset>
  __device__ static long_tile of(std::size_t t, std::size_t tile, const Offset* offsets,
                                 const long_segment_list& longs) {
    const unsigned owner = longs.tile_owner[t];
    const std::size_t s = longs.segment[owner];
    const std::size_t begin = std::size_t(offsets[s]);
    return {begin, (t - longs.first_tile[owner]) * tile, std::size_t(offsets[s + 1]) - begin};
  }
};

/// Shared memory of stable_sort_long_tiles: a tile of keys and of values at their congruent
/// shifts, with one readable slot past the end.
template <class Key, class Value, std::size_t Tile>
struct long_tile_smem {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  alignas(16) Key keys[Tile + 1 + block::vector_items<Key>];
  alignas(16) std::conditional_t<has_values, Value,
                                 char> vals[has_values ? Tile + 1 + block::vector_items<Value> : 1];
};

/// Sorts each tile of the long segments (the blocks loop over the tiles counted on the device)
/// into `keys` when the merge passes are even, else into keys_tmp (the last pass ends in keys).
/// keys_tmp is congruent with keys modulo 16 bytes, so the 16-byte copies serve both.
template <int NT, int VT, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(NT)
    stable_sort_long_tiles(Key* keys, Value* vals, Key* keys_tmp, Value* vals_tmp,
                           const Offset* offsets, long_segment_list longs,
                           const long_segment_counts* counts, Compare comp) {
  constexpr std::size_t tile = std::size_t(NT) * VT;
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  extern __shared__ __align__(16) unsigned char long_smem_raw[];
  auto& smem = *reinterpret_cast<long_tile_smem<Key, Value, tile>*>(long_smem_raw);
  const int tid = int(threadIdx.x);
  const std::size_t tiles = counts->tiles;
  const bool odd = merge_passes_for(counts->longest, tile) % 2;
  Key* keys_out = odd ? keys_tmp : keys;
  Value* vals_out = odd ? vals_tmp : vals;
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long_tile lt = long_tile::of(t, tile, offsets, longs);
    const std::size_t start = lt.segment_begin + lt.at;
    const unsigned count = unsigned(lt.size - lt.at < tile ? lt.size - lt.at : tile);
    Key* sk = smem.keys + block::congruent_shift(keys + start);
    Value* sv = reinterpret_cast<Value*>(smem.vals);
    if constexpr (has_values) sv += block::congruent_shift(vals + start);
    block::copy_range_async<NT>(block::vector_range<Key>(keys + start, sk, int(count)), tid);
    if constexpr (has_values)
      block::copy_range_async<NT>(block::vector_range<Value>(vals + start, sv, int(count)), tid);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    block::sort_runs_in_shared<NT, VT>(sk, sv, count, block::rounds_to_cover<VT>(0, count - 1), tid,
                                       comp);
    block::copy_range<block::copy_iters<Key, VT>>(sk, keys_out + start, int(count), tid, NT);
    if constexpr (has_values)
      block::copy_range<block::copy_iters<Value, VT>>(sv, vals_out + start, int(count), tid, NT);
    __syncthreads();  // the stage is free for the next tile
  }
}

/// Merge pass `pass` over the long segments, for a whole block: within each segment, the runs of
/// tile << pass are merged pairwise, a tile of outputs per block (its two co-ranks searched by two
/// warps, then kernels::merge_staged_tile, the production merge's tile); the blocks loop over the
/// tiles. Shorter segments are copied by the passes they do not need, so that every segment ends
/// in `keys`.
template <int NT, int VT, class Key, class Value, class Offset, class Compare>
__device__ __forceinline__ void merge_long_runs_pass(Key* keys, Value* vals, Key* keys_tmp,
                                                     Value* vals_tmp, const Offset* offsets,
                                                     long_segment_list longs, std::size_t tiles,
                                                     int passes, int pass, unsigned char* stage,
                                                     Compare comp) {
  static_assert(NT >= 64, "two warps search a tile's co-ranks");
  constexpr std::size_t tile = std::size_t(NT) * VT;
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  __shared__ std::size_t bounds[2];
  const bool into_keys = (passes - 1 - pass) % 2 == 0;
  const Key* src_k = into_keys ? keys_tmp : keys;
  const Value* src_v = into_keys ? vals_tmp : vals;
  Key* dst_k = into_keys ? keys : keys_tmp;
  Value* dst_v = into_keys ? vals : vals_tmp;
  const std::size_t width = tile << pass;
  const unsigned warp = unsigned(threadIdx.x) / 32;
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long_tile lt = long_tile::of(t, tile, offsets, longs);
    const std::size_t pair = lt.at / (2 * width) * (2 * width);
    const std::size_t m = min(width, lt.size - pair), n = min(2 * width, lt.size - pair) - m;
    const std::size_t diag0 = lt.at - pair, diag1 = min(diag0 + tile, m + n);
    const std::size_t base = lt.segment_begin + pair;
    const Key* a = src_k + base;
    const Value* va = has_values ? src_v + base : nullptr;
    if (warp < 2) {
      const std::size_t k = warp == 0 ? diag0 : diag1;
      const std::size_t i = k == 0       ? 0
                            : k == m + n ? m
                                         : block::warp_co_rank(k, a, m, a + m, n, comp);
      if (threadIdx.x % 32 == 0) bounds[warp] = i;
    }
    __syncthreads();
    merge_staged_tile<VT, has_values>(a, va, a + m, has_values ? va + m : nullptr, dst_k + base,
                                      has_values ? dst_v + base : nullptr, diag0, diag1, bounds[0],
                                      bounds[1], stage, comp);
    __syncthreads();  // the stage and the bounds are free for the next tile
  }
}

/// Merge pass `pass` (merge_long_runs_pass). Passes at or past the longest segment's count return
/// at once (the host launches as many as the longest possible segment needs).
template <int NT, int VT, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(NT)
    stable_merge_long_runs(Key* keys, Value* vals, Key* keys_tmp, Value* vals_tmp,
                           const Offset* offsets, long_segment_list longs,
                           const long_segment_counts* counts, int pass, Compare comp) {
  extern __shared__ __align__(16) unsigned char pass_smem_raw[];
  const int passes = merge_passes_for(counts->longest, std::size_t(NT) * VT);
  if (pass >= passes) return;
  merge_long_runs_pass<NT, VT>(keys, vals, keys_tmp, vals_tmp, offsets, longs, counts->tiles,
                               passes, pass, pass_smem_raw, comp);
}

/// Merge passes first_pass onwards in one cooperative launch (a grid of resident blocks, a grid
/// barrier between passes): the passes that only segments of many tiles need, where a barrier
/// costs little against a pass, while an empty launch per pass cost every call a few
/// microseconds each.
template <int NT, int VT, class Key, class Value, class Offset, class Compare>
__global__ void __launch_bounds__(NT)
    stable_merge_long_runs_from(Key* keys, Value* vals, Key* keys_tmp, Value* vals_tmp,
                                const Offset* offsets, long_segment_list longs,
                                const long_segment_counts* counts, int first_pass, Compare comp) {
  extern __shared__ __align__(16) unsigned char pass_smem_raw[];
  const int passes = merge_passes_for(counts->longest, std::size_t(NT) * VT);
  const std::size_t tiles = counts->tiles;
  for (int pass = first_pass; pass < passes; ++pass) {
    if (pass > first_pass) cooperative_groups::this_grid().sync();
    merge_long_runs_pass<NT, VT>(keys, vals, keys_tmp, vals_tmp, offsets, longs, tiles, passes,
                                 pass, pass_smem_raw, comp);
  }
}

}  // namespace corank::cuda::kernels
