// corank::cuda segmented scans over CSR offsets.
//
//   cudaError_t segmented_inclusive_scan(in, out, n, offsets, num_segments, op = plus{}, stream =
//   0); cudaError_t segmented_exclusive_scan(in, out, n, offsets, num_segments, init, op, stream);
//   cudaError_t scaled_segmented_inclusive_scan(in, scale, out, n, offsets, num_segments, op,
//   stream);
//   ... and each with a leading segmented_scan_options (algorithm, reusable workspace, steps per
//   pass);
//   cudaError_t scaled_segmented_scan_iterations(opt, a, scale, n, offsets, num_segments,
//   iterations, op, stream): the scaled scan in place, `iterations` times, several on each
//   staged tile.
//
// Segments: offsets[0] = 0, offsets[num_segments] = n, non-decreasing (num_segments + 1 entries,
// Offset = 32- or 64-bit integer); equal neighbours are empty segments. T is arithmetic; `op` is
// associative (not necessarily commutative), callable on the device, applied as op(prefix, x).
// In place is allowed (out == in). Sizes are 64-bit. Device pointers; asynchronous on `stream`;
// no device-wide synchronisation. scaled_: the element at i is in[i] * scale[i] (one step of the
// sparse-matrix iteration, b = scan(a * xbar): reads 8 and writes 4 bytes per f32 element).
//
// `automatic` is one pass over the data: each element is read and written once and the offsets
// are read once (no per-element key array, the difference from cub::DeviceScan::InclusiveScanByKey);
// a short pass before it finds each tile's first segment head (one warp search per tile). It needs
// a small state (648 bytes per tile of 7424 f32 elements): from the workspace in the options when
// given (reused without clearing), else allocated stream-ordered for the call. Returns
// cudaErrorInvalidValue for null pointers with a non-zero size, else the launch's error.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/segmented_scan.cuh"
#include "corank/cuda/tuning/segmented_scan.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {

enum class segmented_scan_algorithm {
  automatic,           ///< single pass, decoupled look-back stopping at segment heads
  thread_per_segment,  ///< study: each thread scans whole segments (naive)
  warp_per_segment,    ///< study: each warp scans whole segments (intra-warp scan)
};

namespace detail {

/// Where the single-pass scan's state lies for `capacity` tiles: the status words of the `ring`
/// slots (two passes of the most steps per pass; all that a new start of epochs clears), the count
/// of tiles done of each pass of block::pass_ring, each tile's first head's index, and the slots'
/// aggregates and carries in 8-byte entries whatever the value type. It depends on the capacity
/// alone, so a call never reads another call's heads or values as status words.
struct tile_state_layout {
  static constexpr std::size_t ring =
      block::pass_ring * tuning::segmented_scan_iteration::most_steps_per_pass;
  static constexpr std::size_t value_slot = 8;
  std::size_t capacity;

  std::size_t status_bytes() const { return (ring * capacity * 4 + 15) / 16 * 16; }
  std::size_t counters_at() const { return status_bytes(); }
  std::size_t heads_at() const {
    return counters_at() + block::pass_ring * sizeof(unsigned long long);
  }
  std::size_t values_at() const { return heads_at() + capacity * sizeof(std::int64_t); }
  std::size_t bytes() const { return values_at() + 2 * ring * capacity * value_slot; }
};

/// Hands out `epochs` consecutive epochs from `next` (the first in `first`), after clearing the
/// status words when none were handed out yet or the 30 bits of a status word would run out.
inline cudaError_t take_epochs(void* memory, std::size_t capacity, unsigned epochs,
                               cudaStream_t stream, unsigned& next, unsigned& first) {
  constexpr unsigned max_epoch = 1u << 30;
  if (next == 0 || next + epochs >= max_epoch) {
    CORANK_CUDA_TRY(
        cudaMemsetAsync(memory, 0, tile_state_layout{capacity}.status_bytes(), stream));
    next = 1;
  }
  first = next;
  next += epochs;
  return cudaSuccess;
}

}  // namespace detail

/// Look-back state kept between calls (for iterations): allocated on first use, grown as needed,
/// never cleared again (status words carry the call's epoch). Not for concurrent calls.
class segmented_scan_workspace {
 public:
  segmented_scan_workspace() = default;
  segmented_scan_workspace(const segmented_scan_workspace&) = delete;
  segmented_scan_workspace& operator=(const segmented_scan_workspace&) = delete;
  ~segmented_scan_workspace() { cudaFree(memory_); }

  /// Room for `tiles` tiles: returns the state memory, laid out for `capacity` >= tiles tiles,
  /// and the first of `epochs` consecutive unused epochs (never 0; one per step of the call).
  cudaError_t prepare(std::size_t tiles, unsigned epochs, cudaStream_t stream, void*& memory,
                      std::size_t& capacity, unsigned& epoch) {
    if (tiles > capacity_) {
      cudaFree(memory_);
      memory_ = nullptr;
      capacity_ = 0;
      CORANK_CUDA_TRY(cudaMalloc(&memory_, detail::tile_state_layout{tiles}.bytes()));
      capacity_ = tiles;
      next_epoch_ = 0;
    }
    memory = memory_;
    capacity = capacity_;
    return detail::take_epochs(memory_, capacity_, epochs, stream, next_epoch_, epoch);
  }

 private:
  void* memory_ = nullptr;
  std::size_t capacity_ = 0;
  unsigned next_epoch_ = 0;
};

struct segmented_scan_options {
  segmented_scan_algorithm algorithm = segmented_scan_algorithm::automatic;
  segmented_scan_workspace* workspace = nullptr;
  /// scaled_segmented_scan_iterations with `automatic`: iteration steps done on each tile while it
  /// is staged in shared memory. 1: every step reads and writes the data (12 bytes per f32 element
  /// per step); k > 1: each staged tile is scanned k times, with a look-back per step, so the data
  /// moves once for k steps (12 / k bytes per element per step). 0: the tuned number
  /// (tuning::segmented_scan_iteration). Above tuning::segmented_scan_iteration::
  /// most_steps_per_pass or below 0: cudaErrorInvalidValue.
  int steps_per_pass = 0;
};

namespace detail {

inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

template <class T, class Offset>
constexpr void check_scan_types() {
  static_assert(std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "corank::cuda segmented scans take 4- or 8-byte arithmetic values");
  static_assert(std::is_integral_v<Offset>, "offsets are integers");
}

inline int studied_grid(std::size_t work_items) {
  int sms = 0;
  if (multiprocessor_count(&sms) != cudaSuccess) sms = 132;
  const std::size_t want = (work_items + tuning::segmented_scan_studied::threads - 1) /
                           tuning::segmented_scan_studied::threads;
  const std::size_t cap = std::size_t(sms) * tuning::segmented_scan_studied::blocks_per_sm;
  return int(std::max<std::size_t>(1, std::min(want, cap)));
}

/// How many times `tiles` tiles of shape `Shape` fill the device (a large count if unknown).
template <class Shape>
double waves_of(std::size_t tiles) {
  int sms = 0;
  if (multiprocessor_count(&sms) != cudaSuccess) return 1e9;
  return double(tiles) / (double(sms) * Shape::min_blocks);
}

/// Whether the tiles' first heads come from a pass of their own: when there are more tiles than
/// fit the device at once (by a margin, tuning::segmented_scan_head_pass), since a tile's own
/// search then sits on the critical path of every later wave; in a single wave it costs less than
/// the extra launch.
template <class Shape>
bool use_tile_head_pass(std::size_t tiles) {
  return waves_of<Shape>(tiles) > tuning::segmented_scan_head_pass::from_waves;
}

/// The look-back state of the single-pass scan for one launch: from the workspace when given,
/// else allocated and cleared stream-ordered (no device-wide synchronisation) and freed by
/// release().
template <class T>
class tile_state_memory {
  static_assert(sizeof(T) <= tile_state_layout::value_slot, "values fit their entries");

 public:
  tile_state_memory(segmented_scan_workspace* workspace, std::size_t tiles)
      : workspace_(workspace), tiles_(tiles) {}

  /// The state of a launch of `steps` steps (fresh epochs) in `passes` passes, and each tile's
  /// first-head slot.
  cudaError_t next(long long steps, long long passes, cudaStream_t stream,
                   block::step_states<T>& states, std::int64_t*& heads) {
    unsigned first_epoch = 0;
    if (workspace_) {
      CORANK_CUDA_TRY(workspace_->prepare(tiles_, unsigned(steps), stream, memory_, capacity_,
                                          first_epoch));
    } else {
      if (!memory_) {
        CORANK_CUDA_TRY(cudaMallocAsync(&memory_, tile_state_layout{tiles_}.bytes(), stream));
        capacity_ = tiles_;
      }
      CORANK_CUDA_TRY(
          take_epochs(memory_, capacity_, unsigned(steps), stream, next_epoch_, first_epoch));
    }
    const tile_state_layout layout{capacity_};
    char* at = static_cast<char*>(memory_);
    auto* counters = reinterpret_cast<unsigned long long*>(at + layout.counters_at());
    if (passes > 1)
      CORANK_CUDA_TRY(
          cudaMemsetAsync(counters, 0, block::pass_ring * sizeof(unsigned long long), stream));
    heads = reinterpret_cast<std::int64_t*>(at + layout.heads_at());
    char* values = at + layout.values_at();
    const std::size_t values_bytes = layout.ring * capacity_ * layout.value_slot;
    states.first.words = reinterpret_cast<unsigned*>(at);
    states.first.aggregates = reinterpret_cast<T*>(values);
    states.first.carries = reinterpret_cast<T*>(values + values_bytes);
    states.first.epoch = first_epoch;
    states.tiles = std::int64_t(tiles_);
    // Slots lie `capacity_` entries apart in every array (the value arrays have room for the ring
    // of them in 8-byte entries, whatever T).
    states.slot_stride = std::int64_t(capacity_);
    states.tiles_done = passes > 1 ? counters : nullptr;
    return cudaSuccess;
  }
  cudaError_t release(cudaStream_t stream) {
    if (workspace_ || !memory_) return cudaSuccess;
    return cudaFreeAsync(std::exchange(memory_, nullptr), stream);
  }

 private:
  segmented_scan_workspace* workspace_;
  std::size_t tiles_;
  void* memory_ = nullptr;
  std::size_t capacity_ = 0;
  unsigned next_epoch_ = 0;
};

/// Sets the largest shared-memory carveout for `Kernel`, once, so that `min_blocks` tiles fit per
/// SM.
template <auto Kernel>
cudaError_t use_max_shared_carveout() {
  static const cudaError_t configured = cudaFuncSetAttribute(
      Kernel, cudaFuncAttributePreferredSharedMemoryCarveout, int(cudaSharedmemCarveoutMaxShared));
  return configured;
}

/// The single-pass scan with tile shape `Shape`, `steps` times in a row: out = scan(src), where a
/// scaled source reading `out` makes each step scan the previous one's result (the sparse-matrix
/// iteration; steps > 1 requires it). Each tile's first segment head comes from a pass of its own
/// (kernels::segmented_scan_tile_heads) when the tiles span more than one wave, the tiles launched
/// while that pass runs so that they stage their data meanwhile (programmatic dependent launch);
/// else each tile searches its own. The offsets do not change between steps, so the pass runs
/// once. With `Repeats`, the steps go in passes of `steps_per_pass` steps (each tile scanned that
/// many times while staged), else one step per pass. Passes whose tiles fit about one wave run in
/// one grid (block::step_states: a pass's tile waits only for the same tile of the pass before);
/// larger ones run a grid per pass, each launched early so that it stages its scale and walks its
/// offsets while the one before drains.
template <class Shape, bool Exclusive, bool Repeats, class Source, class T, class Offset, class Op>
cudaError_t launch_tiles(segmented_scan_workspace* workspace, Source src, bool src_aligned, T* out,
                         std::size_t n, const Offset* offsets, std::size_t num_segments, Op op,
                         T init, cudaStream_t stream, long long steps = 1,
                         int steps_per_pass = 1) {
  // A pass takes a slot of tile state per step; the ring holds two passes.
  if (steps_per_pass < 1 || steps_per_pass > tuning::segmented_scan_iteration::most_steps_per_pass)
    return cudaErrorInvalidValue;
  if (!Repeats) steps_per_pass = 1;
  constexpr auto kernel =
      kernels::segmented_scan_tiles<Shape, Exclusive, Repeats, Source, T, Offset, Op>;
  CORANK_CUDA_TRY(use_max_shared_carveout<kernel>());
  const std::size_t tiles = (n + Shape::tile - 1) / Shape::tile;
  if (tiles > 0x7fffffffu) return cudaErrorInvalidValue;
  const auto p = static_cast<std::int64_t>(num_segments), count = static_cast<std::int64_t>(n);
  const bool aligned = src_aligned && aligned16(out);
  // One tile-heads pass serves every step; a single step of a single wave searches in its tiles.
  const bool head_pass = steps > 1 || use_tile_head_pass<Shape>(tiles);
  // Passes per grid: all when they fit about a wave (blocks fit grid.x, and a grid's epochs the
  // status words), else one.
  const long long passes_per_grid =
      waves_of<Shape>(tiles) <= tuning::segmented_scan_iteration::one_grid_up_to_waves
          ? std::min<long long>(0x7fffffff / std::int64_t(tiles), (1 << 28) / steps_per_pass)
          : 1;

  tile_state_memory<T> memory(workspace, tiles);
  cudaError_t launched = cudaSuccess;
  for (long long done = 0, now = 0; done < steps && launched == cudaSuccess; done += now) {
    // This grid: `passes` passes of `per_pass` steps each, `now` steps in all (the steps left
    // after the whole passes take a grid of their own).
    const int per_pass = int(std::min<long long>(steps_per_pass, steps - done));
    const long long passes = std::min(passes_per_grid, (steps - done) / per_pass);
    now = passes * per_pass;
    block::step_states<T> states{};
    std::int64_t* heads = nullptr;
    launched = memory.next(now, passes, stream, states, heads);
    if (launched != cudaSuccess) break;
    states.steps_per_pass = per_pass;
    using kernels::prior_grid_writes;
    // What this grid waits for, if it is launched early: the step before (from the second grid
    // on), or the heads pass when this grid is the last (a grid after it reads the heads without
    // waiting for their pass, so while grids follow, this one starts once the pass is done).
    prior_grid_writes prior = done > 0 ? prior_grid_writes::input : prior_grid_writes::nothing;
    if (head_pass && done == 0) {
      constexpr unsigned warps_per_block = 8;
      kernels::segmented_scan_tile_heads<<<
          unsigned((tiles + warps_per_block - 1) / warps_per_block), 32 * warps_per_block, 0,
          stream>>>(offsets, p, Shape::tile, std::int64_t(tiles), heads);
      launched = cudaGetLastError();
      if (launched != cudaSuccess) break;
      if (now == steps) prior = prior_grid_writes::tile_heads;
    }
    const dim3 grid(unsigned(std::int64_t(tiles) * passes)), block(Shape::threads);
    const std::int64_t* tile_heads = head_pass ? heads : nullptr;
    if (prior == prior_grid_writes::nothing) {
      kernel<<<grid, block, 0, stream>>>(src, out, count, offsets, p, op, init, states, tile_heads,
                                         aligned, prior);
      launched = cudaGetLastError();
    } else {
      launched = launch_early(kernel, grid, block, 0, stream, src, out, count, offsets, p, op,
                              init, states, tile_heads, aligned, prior);
    }
  }
  const cudaError_t released = memory.release(stream);
  return launched != cudaSuccess ? launched : released;
}

template <bool Exclusive, class Source, class T, class Offset, class Op>
cudaError_t segmented_scan(const segmented_scan_options& opt, Source src, bool src_aligned, T* out,
                           std::size_t n, const Offset* offsets, std::size_t num_segments, Op op,
                           T init, cudaStream_t stream, long long steps = 1) {
  check_scan_types<T, Offset>();
  if (opt.steps_per_pass < 0 ||
      opt.steps_per_pass > tuning::segmented_scan_iteration::most_steps_per_pass)
    return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  if (!out || !offsets || num_segments == 0) return cudaErrorInvalidValue;
  const auto p = static_cast<std::int64_t>(num_segments);
  using studied = tuning::segmented_scan_studied;
  for (long long step = 0; step < steps; ++step) {
    switch (opt.algorithm) {
      case segmented_scan_algorithm::thread_per_segment:
        kernels::segmented_scan_thread_per_segment<Exclusive>
            <<<studied_grid(num_segments), studied::threads, 0, stream>>>(src, out, offsets, p,
                                                                          op, init);
        break;
      case segmented_scan_algorithm::warp_per_segment:
        kernels::segmented_scan_warp_per_segment<Exclusive>
            <<<studied_grid(num_segments * 32), studied::threads, 0, stream>>>(src, out, offsets,
                                                                               p, op, init);
        break;
      case segmented_scan_algorithm::automatic: {
        // The iteration's steps (inclusive, scaled, in place), several on each staged tile when
        // asked, in tiles of their own shape (the step loop's registers).
        if constexpr (kernels::is_scaled<Source> && !Exclusive) {
          using iteration = tuning::segmented_scan_iteration;
          const int per_pass = opt.steps_per_pass ? opt.steps_per_pass : iteration::steps_per_pass;
          if (steps > 1 && per_pass > 1)
            return launch_tiles<typename iteration::policy<sizeof(T)>::shape, false, true>(
                opt.workspace, src, src_aligned, out, n, offsets, num_segments, op, init, stream,
                steps, per_pass);
        }
        using policy =
            tuning::segmented_scan_policy<sizeof(T), kernels::is_scaled<Source> ? 2 : 1>;
        return launch_tiles<typename policy::shape, Exclusive, false>(
            opt.workspace, src, src_aligned, out, n, offsets, num_segments, op, init, stream,
            steps);
      }
    }
    CORANK_CUDA_TRY(cudaGetLastError());
  }
  return cudaSuccess;
}

}  // namespace detail

template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_inclusive_scan(const segmented_scan_options& opt, const T* in, T* out,
                                     std::size_t n, const Offset* offsets, std::size_t num_segments,
                                     Op op = {}, cudaStream_t stream = 0) {
  if (n && !in) return cudaErrorInvalidValue;
  return detail::segmented_scan<false>(opt, kernels::plain_source<T>{in}, detail::aligned16(in),
                                       out, n, offsets, num_segments, op, T{}, stream);
}

template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_inclusive_scan(const T* in, T* out, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, Op op = {},
                                     cudaStream_t stream = 0) {
  return segmented_inclusive_scan({}, in, out, n, offsets, num_segments, op, stream);
}

template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_exclusive_scan(const segmented_scan_options& opt, const T* in, T* out,
                                     std::size_t n, const Offset* offsets, std::size_t num_segments,
                                     T init, Op op = {}, cudaStream_t stream = 0) {
  if (n && !in) return cudaErrorInvalidValue;
  return detail::segmented_scan<true>(opt, kernels::plain_source<T>{in}, detail::aligned16(in), out,
                                      n, offsets, num_segments, op, init, stream);
}

template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_exclusive_scan(const T* in, T* out, std::size_t n, const Offset* offsets,
                                     std::size_t num_segments, T init, Op op = {},
                                     cudaStream_t stream = 0) {
  return segmented_exclusive_scan({}, in, out, n, offsets, num_segments, init, op, stream);
}

/// out = segmented inclusive scan of in[i] * scale[i]; in place allowed (out == in).
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_inclusive_scan(const segmented_scan_options& opt, const T* in,
                                            const T* scale, T* out, std::size_t n,
                                            const Offset* offsets, std::size_t num_segments,
                                            Op op = {}, cudaStream_t stream = 0) {
  if (n && (!in || !scale)) return cudaErrorInvalidValue;
  return detail::segmented_scan<false>(opt, kernels::scaled_source<T>{in, scale},
                                       detail::aligned16(in) && detail::aligned16(scale), out, n,
                                       offsets, num_segments, op, T{}, stream);
}

/// `iterations` steps of the sparse-matrix iteration in place: a = segmented inclusive scan of
/// a[i] * scale[i], then again on the result. The same result as as many calls of
/// scaled_segmented_inclusive_scan(opt, a, scale, a, ...) (bit for bit for integers; floating-point
/// sums may round differently, grouped by other tiles, and by look-backs that add whatever partial
/// results they find), but `automatic` finds the tiles' first heads once and runs the steps in
/// passes of opt.steps_per_pass (each staged tile scanned that many times, so the data moves once
/// for them all). Passes of about one wave of tiles run in one grid, where a pass's tile waits
/// only for the same tile of the pass before (it stages the scale and reads the offsets
/// meanwhile), never for a whole pass.
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_scan_iterations(const segmented_scan_options& opt, T* a,
                                             const T* scale, std::size_t n, const Offset* offsets,
                                             std::size_t num_segments, long long iterations,
                                             Op op = {}, cudaStream_t stream = 0) {
  if (n && (!a || !scale)) return cudaErrorInvalidValue;
  if (iterations <= 0) return iterations == 0 ? cudaSuccess : cudaErrorInvalidValue;
  return detail::segmented_scan<false>(opt, kernels::scaled_source<T>{a, scale},
                                       detail::aligned16(a) && detail::aligned16(scale), a, n,
                                       offsets, num_segments, op, T{}, stream, iterations);
}

template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_inclusive_scan(const T* in, const T* scale, T* out, std::size_t n,
                                            const Offset* offsets, std::size_t num_segments,
                                            Op op = {}, cudaStream_t stream = 0) {
  return scaled_segmented_inclusive_scan({}, in, scale, out, n, offsets, num_segments, op, stream);
}

}  // namespace corank::cuda
