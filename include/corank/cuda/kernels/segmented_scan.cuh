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
/// 1. Start the tile's copy into shared memory (cp.async). After a pass, only the scale is copied
///    now: the values are the pass before's output, copied once that tile is stored or that grid
///    is done (after 2.).
/// 2. While it is in flight, take the tile's first head from `tile_heads` (the pass above; without
///    it, when the tiles fit in one wave, warp 0 searches the offsets for it) and set the head bits
///    of the offsets that fall in the tile (block::mark_tile_heads).
/// Then, per step:
/// 3. Each thread reduces its run of `items` elements in shared memory (block::reduce_run); the
///    block scans the per-thread (head, value) pairs.
/// 4. Thread 0 publishes the tile's carry and, unless the tile starts at a head, the look-back
///    finds the carry in (block::tile_carry_in): by thread 0, one predecessor a load, or with
///    `LookBack` warp by warp 0, the nearest predecessor alone first, then 32 a round (long
///    segments, whose carries lie many tiles back).
/// 5. Each thread rescans its run from its prefix, in shared memory (block::rescan_run).
/// Last, the block stores the tile (block::store_tile).
template <class Shape, bool Exclusive, bool Repeats, block::look_back_by LookBack, class Source,
          class T, class Offset, class Op>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    segmented_scan_tiles(Source src, T* out, std::int64_t n, const Offset* offsets,
                         std::int64_t num_segments, Op op, T init, block::step_states<T> steps,
                         const std::int64_t* tile_heads, bool vectors_aligned,
                         prior_grid_writes prior) {
  static_assert(!Repeats || (is_scaled<Source> && !Exclusive),
                "only the iteration's inclusive scaled scan repeats on a tile");
  constexpr int NT = Shape::threads, items = Shape::items, tile_items = Shape::tile;
  constexpr int inputs = is_scaled<Source> ? 2 : 1, walk = 4;
  __shared__ tile_smem<Shape, T, inputs> s;
  const int tid = threadIdx.x;
  const std::int64_t pass = blockIdx.x / steps.tiles, tile = blockIdx.x % steps.tiles;
  const std::int64_t base = tile * tile_items;
  const int count = n - base < tile_items ? int(n - base) : tile_items;

  // 1. Stage.
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
  // 2. Heads, while the tile is in flight.
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
  block::mark_tile_heads<NT, walk>(offsets, num_segments, first_head, base, count, s.head_bits,
                                   tid);
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

  T* run = s.staged[0] + tid * items;
  const T* run_scale = s.staged[inputs - 1] + tid * items;
  unsigned run_heads = block::run_head_bits<items>(s.head_bits, tid, count);
  // Each sweep over the run tests the bits afresh: when sweep 2 reused the head tests of sweep 1
  // (kept live across the block scan and the look-back), ptxas of CUDA 13.0 built integer kernels
  // that saw heads where there were none, from correct PTX (H100; float kernels were right). The
  // empty asm hides that the register is unchanged, at no cost in instructions.
  const auto retest_heads = [&] { asm volatile("" : "+r"(run_heads)); };
  const bool first_is_head = run_heads & 1u;
  const int steps_here = Repeats ? steps.steps_per_pass : 1;
#pragma unroll 1
  for (int k = 0; k < steps_here; ++k) {
    // 3. Reduce each run (the scaled form stores the products), scan the runs' pairs.
    retest_heads();
    const block::flagged<T> mine =
        block::reduce_run<items, inputs == 2>(run, run_scale, run_heads, op);
    block::flagged<T> prefix, total;
    const bool has_prefix = block::block_exclusive_scan<NT>(mine, prefix, total, s.scan, op);
    // 4. The carry in. Each step publishes in a slot of its own: a tile a step ahead of its
    // successor must not overwrite the status word that the successor's look-back still waits for.
    constexpr bool by_warp = LookBack == block::look_back_by::warp;
    if (by_warp ? tid < 32 : tid == 0) {
      const T carry = block::tile_carry_in<LookBack>(steps.of_step(pass, k), tile, total,
                                                     first_is_head, op, tid);
      if ((!by_warp || tid == 0) && !first_is_head) s.carry = carry;
    }
    __syncthreads();
    // 5. Rescan each run from the value just before it.
    retest_heads();
    const T before = block::run_seed(prefix, has_prefix, &s.carry, first_is_head, op);
    block::rescan_run<items, Exclusive>(run, before, run_heads, init, op);
    __syncthreads();
  }

  block::store_tile<NT, tile_items>(s.staged[0], out + base, count, vectors_aligned, tid);
  if (steps.tiles_done) {  // the next pass's tile may read the output; these slots are done with
    __syncthreads();
    if (tid == 0) steps.finish_tile(pass, tile);
  }
}

}  // namespace corank::cuda::kernels
