// The GPU segmented-scan kernels: the single-pass production kernel and its tile-heads pass (the
// study's two variants, one thread or one warp per segment, are in corank/study/). They read their
// elements through a Source, so the iteration of the sparse-matrix problem (scan of a * xbar) is
// the same kernels, fused.
#pragma once

#include <cuda_pipeline.h>

#include <cstdint>

#include "corank/cuda/block/load_store.cuh"
#include "corank/cuda/block/segmented_scan.cuh"

namespace corank::cuda::kernels {

/// Elements in[i].
template <class T>
struct plain_source {
  const T* in;
  __device__ __forceinline__ T operator[](std::int64_t i) const { return in[i]; }
  template <int V>
  __device__ __forceinline__ void load_vector(std::int64_t first, T (&v)[V]) const {
    struct alignas(16) vec {
      T x[V];
    };
    const vec a = *reinterpret_cast<const vec*>(in + first);
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = a.x[k];
  }
};

/// Elements in[i] * scale[i]: one step of the sparse-matrix iteration (b = scan of a * xbar).
template <class T>
struct scaled_source {
  const T* in;
  const T* scale;
  __device__ __forceinline__ T operator[](std::int64_t i) const { return in[i] * scale[i]; }
  template <int V>
  __device__ __forceinline__ void load_vector(std::int64_t first, T (&v)[V]) const {
    struct alignas(16) vec {
      T x[V];
    };
    const vec a = *reinterpret_cast<const vec*>(in + first);
    const vec s = *reinterpret_cast<const vec*>(scale + first);
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = a.x[k] * s.x[k];
  }
};

/// What a scan writes at position j, given the inclusive value there, the one before it in the
/// segment (`before`, meaningful unless `head`), and whether j is a segment head.
template <bool Exclusive, class T, class Op>
__device__ __forceinline__ T scan_output(const T& inclusive, const T& before, bool head,
                                         const T& init, Op& op) {
  if constexpr (Exclusive)
    return head ? init : op(init, before);
  else
    return inclusive;
}

// ---- production: single pass, decoupled look-back over tiles, heads from the offsets ---------

template <class Source>
inline constexpr bool is_scaled = false;
template <class T>
inline constexpr bool is_scaled<scaled_source<T>> = true;

/// Shared memory of one tile: the staged inputs (values, and the scale for the scaled form), the
/// head bits, the block scan's and the look-back's words.
template <class Shape, class T, int Inputs>
struct tile_smem {
  static constexpr int head_words = (Shape::tile + 31) / 32;
  alignas(16) T staged[Inputs][Shape::tile];
  unsigned head_bits[head_words];
  block::block_scan_storage<T, Shape::warps> scan;
  std::int64_t first_head_index;
  T carry;
};

/// The index of each tile's first segment head (the first offset at or after the tile's base), one
/// warp per tile. A pass of its own so that no tile of the scan has a search on its critical path:
/// the scan is launched while this runs (programmatic dependent launch) and stages its data
/// meanwhile.
template <class Offset>
__global__ void segmented_scan_tile_heads(const Offset* offsets, std::int64_t num_segments,
                                          int tile_items, std::int64_t tiles, std::int64_t* heads) {
  block::allow_dependent_launch();
  const int lane = threadIdx.x % 32;
  const std::int64_t tile = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (tile >= tiles) return;  // whole warps
  const std::int64_t h =
      block::warp_lower_bound(offsets, num_segments + 1, tile * tile_items, lane);
  if (lane == 0) heads[tile] = h;
}

/// What the grid before a tile kernel in its stream writes, when the tile kernel is launched early
/// (programmatic dependent launch): the tile kernel waits for it just before its first read of
/// that data, and does what it can before.
enum class prior_grid_writes : int {
  nothing,     ///< launched the ordinary way
  tile_heads,  ///< the tile-heads pass
  input,       ///< the step before of an iteration, which wrote the values this step scans
};

/// One tile per block, tiles in launch order (block i = tile i, as CUB's single-pass scan relies
/// on: blocks start in index order, so a tile's predecessors are running or done); with several
/// passes in the grid, block i is tile i % tiles of pass i / tiles (block::step_states). A pass is
/// one step, or with `Repeats` steps.steps_per_pass steps of the iteration on the staged tile
/// (temporal blocking: the data moves once for them all; each step has its own block scan and
/// look-back, in its own tile state). Only the iteration's inclusive scaled scan repeats.
/// 1. Start the tile's copy into shared memory (cp.async: no registers held, so a block keeps a
///    whole tile in flight). After a pass, only the scale is copied now: the values are the pass
///    before's output, copied once that tile is stored or that grid is done (after 2.).
/// 2. While it is in flight, take the tile's first head from `tile_heads` (the pass above; without
///    it, when the tiles fit in one wave, warp 0 searches the offsets for it), walk
///    the offsets that fall in the tile, `walk` per thread at a time, and set their head bits (the
///    co-rank between element positions and segment heads; empty segments set the same bit
///    again).
/// Then, per step:
/// 3. Each thread reduces its run of `items` elements in shared memory; the block scans the
///    per-thread (head, value) pairs.
/// 4. Thread 0 publishes the tile's carry (at once if the tile holds a head) and, unless the tile
///    starts at a head, looks back for the carry in, which stops at the nearest head.
/// 5. Each thread rescans its run from its prefix, in shared memory.
/// Last, the block stores the tile.
template <class Shape, bool Exclusive, bool Repeats, class Source, class T, class Offset, class Op>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    segmented_scan_tiles(Source src, T* out, std::int64_t n, const Offset* offsets,
                         std::int64_t num_segments, Op op, T init, block::step_states<T> steps,
                         const std::int64_t* tile_heads, bool vectors_aligned,
                         prior_grid_writes prior) {
  static_assert(!Repeats || (is_scaled<Source> && !Exclusive),
                "only the iteration's inclusive scaled scan repeats on a tile");
  constexpr int NT = Shape::threads, items = Shape::items, tile_items = Shape::tile;
  constexpr int inputs = is_scaled<Source> ? 2 : 1, walk = 4;
  constexpr int V = int(16 / sizeof(T));
  __shared__ tile_smem<Shape, T, inputs> s;
  const int tid = threadIdx.x;
  const std::int64_t pass = blockIdx.x / steps.tiles, tile = blockIdx.x % steps.tiles;
  const std::int64_t base = tile * tile_items;
  const int count = n - base < tile_items ? int(n - base) : tile_items;

  block::allow_dependent_launch();  // the next step's grid may stage its scale meanwhile
  for (int w = tid; w < tile_smem<Shape, T, inputs>::head_words; w += NT) s.head_bits[w] = 0;
  const bool values_now = pass == 0 && prior != prior_grid_writes::input;
  {
    const block::vector_range<T> values(src.in + base, s.staged[0], values_now ? count : 0);
    if constexpr (inputs == 2) {
      const block::vector_range<T> scale(src.scale + base, s.staged[1], count);
      block::copy_ranges_async<NT>(values, scale, tid);
    } else {
      block::copy_range_async<NT>(values, tid);
    }
    __pipeline_commit();
  }
  if (!tile_heads && tid < 32) {
    const std::int64_t h = block::warp_lower_bound(offsets, num_segments + 1, base, tid);
    if (tid == 0) s.first_head_index = h;
  }
  __syncthreads();  // head bits cleared, first head searched
  std::int64_t first_head;
  if (tile_heads) {
    if (prior == prior_grid_writes::tile_heads) block::wait_for_prior_grid();
    first_head = tile_heads[tile];
  } else {
    first_head = s.first_head_index;
  }

  // Heads in [base, base + count): offsets[h..] below the tile's end (offsets[num_segments] = n is
  // no head). Each round issues `walk` loads per thread before using any; it continues while the
  // round's last offset still fell inside the tile.
  const std::int64_t end = base + count;
  for (std::int64_t first = first_head;; first += std::int64_t(walk) * NT) {
    std::int64_t head[walk];
#pragma unroll
    for (int k = 0; k < walk; ++k) {
      const std::int64_t i = first + k * NT + tid;
      head[k] = i < num_segments ? static_cast<std::int64_t>(offsets[i]) : end;
    }
#pragma unroll
    for (int k = 0; k < walk; ++k)
      if (head[k] < end) {
        const int at = int(head[k] - base);
        atomicOr(&s.head_bits[at / 32], 1u << (at % 32));
      }
    if (!__syncthreads_or(tid == NT - 1 && head[walk - 1] < end)) break;
  }
  if (!values_now) {  // the values are the pass before's output
    if (pass == 0) {
      block::wait_for_prior_grid();
    } else {
      if (tid == 0) steps.wait_input(pass, tile);
      __syncthreads();
    }
    const block::vector_range<T> values(src.in + base, s.staged[0], count);
    block::copy_range_async<NT>(values, tid);
    __pipeline_commit();
  }
  __pipeline_wait_prior(0);
  __syncthreads();  // the staged tile

  // This thread's run, and its head bits (bit j: item j is a head or lies past n), taken once from
  // the one or two words the run spans (items < 32).
  static_assert(items < 32, "a run's head bits fit a word");
  T* run = s.staged[0] + tid * items;
  unsigned run_heads;
  {
    const int first = tid * items, word = first / 32, shift = first % 32, inside = count - first;
    run_heads = s.head_bits[word] >> shift;
    if (shift + items > 32) run_heads |= s.head_bits[word + 1] << (32 - shift);
    if (inside < items) run_heads |= inside <= 0 ? ~0u : ~0u << inside;
  }
  const auto is_head = [&](int j) { return (run_heads >> j) & 1u; };
  // Each sweep over the run tests the bits afresh: when sweep 2 reused the head tests of sweep 1
  // (kept live across the block scan and the look-back), ptxas of CUDA 13.0 built integer kernels
  // that saw heads where there were none, from correct PTX (H100; float kernels were right). The
  // empty asm hides that the register is unchanged, at no cost in instructions.
  const auto retest_heads = [&] { asm volatile("" : "+r"(run_heads)); };
  const bool first_is_head = is_head(0);
  const int steps_here = Repeats ? steps.steps_per_pass : 1;
#pragma unroll 1
  for (int k = 0; k < steps_here; ++k) {
    retest_heads();
    // Sweep 1 over this thread's run: its (head, value) pair; the scaled form stores the products.
    // Items past n count as heads. Odd `items` keep the run's accesses free of bank conflicts.
    block::flagged<T> mine{false, T{}};
#pragma unroll
    for (int j = 0; j < items; ++j) {
      T x = run[j];
      if constexpr (inputs == 2) {
        x = x * s.staged[1][tid * items + j];
        run[j] = x;
      }
      const bool h = is_head(j);
      mine.value = (j == 0 || h) ? x : op(mine.value, x);
      mine.head = mine.head || h;
    }

    block::flagged<T> prefix, total;
    const bool has_prefix = block::block_exclusive_scan<NT>(mine, prefix, total, s.scan, op);

    // Each step publishes in a slot of its own: a tile a step ahead of its successor must not
    // overwrite the status word that the successor's look-back still waits for.
    const block::tile_state<T> state = steps.of_step(pass, k);
    if (tid == 0) {
      if (total.head)
        state.publish(tile, block::tile_status::carry, total.value);
      else
        state.publish(tile, block::tile_status::aggregate, total.value);
      if (!first_is_head) {
        const T carry = state.look_back(tile, op);
        if (!total.head) state.publish(tile, block::tile_status::carry, op(carry, total.value));
        s.carry = carry;
      }
    }
    __syncthreads();

    retest_heads();
    // Sweep 2: rescan the run from the value just before it within its segment (read only where it
    // exists: the carry exists when the tile does not start at a head).
    T before = prefix.value;
    if (!first_is_head) {
      if (!has_prefix)
        before = s.carry;
      else if (!prefix.head)
        before = op(s.carry, prefix.value);
    }
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const T x = run[j];
      const bool h = is_head(j);
      const T inclusive = h ? x : op(before, x);
      run[j] = scan_output<Exclusive>(inclusive, before, h, init, op);
      before = inclusive;
    }
    __syncthreads();
  }

  if (count == tile_items && vectors_aligned) {
    struct alignas(16) vec {
      T x[V];
    };
    const vec* from = reinterpret_cast<const vec*>(s.staged[0]);
    vec* to = reinterpret_cast<vec*>(out + base);
#pragma unroll 4
    for (int vi = tid; vi < tile_items / V; vi += NT) to[vi] = from[vi];
  } else {
    for (int i = tid; i < count; i += NT) out[base + i] = s.staged[0][i];
  }
  if (steps.tiles_done) {  // the next pass's tile may read the output; these slots are done with
    __syncthreads();
    if (tid == 0) steps.finish_tile(pass, tile);
  }
}

}  // namespace corank::cuda::kernels
