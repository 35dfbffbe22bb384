// The GPU segmented scans' dispatch: the single-pass scan's look-back state and its layout in
// temporary storage, the tile shape, steps per pass and look-back of a call, the tile-heads pass,
// the grids and their launches. The contract and the entry points are in
// corank/cuda/segmented_scan.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "corank/cuda/detail/launch.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/segmented_scan.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/segmented_scan_options.cuh"
#include "corank/cuda/tuning/segmented_scan.cuh"

namespace corank::cuda::detail {

/// The single-pass scan's state for `tiles` tiles and `slots` slots of tile state (one per step
/// of a pass, block::step_states): the slots' status words, the count of tiles done of each pass
/// of block::pass_ring, each tile's first head's index, and the slots' aggregates and carries in
/// 8-byte entries whatever the value type. Slots lie `tiles` entries apart in every array.
struct tile_state_layout {
  static constexpr std::size_t value_slot = 8;
  temporary_part words, counters, heads, aggregates, carries;
  std::size_t bytes;

  tile_state_layout(std::size_t tiles, std::size_t slots) {
    temporary_layout layout;
    const std::size_t entries =
        tiles > 0 && slots > std::size_t(-1) / tiles ? std::size_t(-1) : tiles * slots;
    words = layout.add<unsigned>(entries);
    counters = layout.add<unsigned long long>(block::pass_ring);
    heads = layout.add<std::int64_t>(tiles);
    aggregates = layout.add_bytes(entries, value_slot);
    carries = layout.add_bytes(entries, value_slot);
    bytes = layout.bytes();
  }
};

/// Slots of tile state that `steps` steps in passes of `steps_per_pass` use: the ring holds two
/// passes (block::step_states).
inline std::size_t state_slots(long long steps, int steps_per_pass) {
  const long long ring = (long long)block::pass_ring * steps_per_pass;
  return std::size_t(steps < ring ? steps : ring);
}

inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

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

/// The look-back state of the single-pass scan in `memory` (laid out by tile_state_layout):
/// hands each grid of a call fresh epochs, after clearing the status words of the slots the call
/// uses when none were handed out yet or the 30 bits of a status word would run out.
template <class T>
class tile_state_memory {
  static_assert(sizeof(T) <= tile_state_layout::value_slot, "values fit their entries");

 public:
  tile_state_memory(void* memory, std::size_t tiles, std::size_t slots)
      : memory_(memory), tiles_(tiles), slots_(slots), layout_(tiles, slots) {}

  /// The state of a launch of `steps` steps (fresh epochs) in `passes` passes, and each tile's
  /// first-head slot.
  cudaError_t next(long long steps, long long passes, cudaStream_t stream,
                   block::step_states<T>& states, std::int64_t*& heads) {
    constexpr unsigned max_epoch = 1u << 30;
    auto* words = layout_.words.in<unsigned>(memory_);
    if (next_epoch_ == 0 || next_epoch_ + unsigned(steps) >= max_epoch) {
      CORANK_CUDA_TRY(cudaMemsetAsync(words, 0, tiles_ * slots_ * sizeof(unsigned), stream));
      next_epoch_ = 1;
    }
    const unsigned first_epoch = next_epoch_;
    next_epoch_ += unsigned(steps);
    auto* counters = layout_.counters.in<unsigned long long>(memory_);
    if (passes > 1)
      CORANK_CUDA_TRY(
          cudaMemsetAsync(counters, 0, block::pass_ring * sizeof(unsigned long long), stream));
    heads = layout_.heads.in<std::int64_t>(memory_);
    states.first.words = words;
    states.first.aggregates = layout_.aggregates.in<T>(memory_);
    states.first.carries = layout_.carries.in<T>(memory_);
    states.first.epoch = first_epoch;
    states.tiles = std::int64_t(tiles_);
    // Slots lie `tiles_` entries apart in every array (the value arrays have room for them in
    // 8-byte entries, whatever T).
    states.slot_stride = std::int64_t(tiles_);
    states.tiles_done = passes > 1 ? counters : nullptr;
    return cudaSuccess;
  }

 private:
  void* memory_;
  std::size_t tiles_, slots_;
  tile_state_layout layout_;
  unsigned next_epoch_ = 0;
};

/// Sets the largest shared-memory carveout for `Kernel` (once per device), so that `min_blocks`
/// tiles fit per SM.
template <auto Kernel>
cudaError_t use_max_shared_carveout() {
  return prefer_max_shared_carveout(Kernel);
}

/// The automatic scan's tile shape and steps per pass for a call, chosen once for the launch and
/// the *_temp_bytes queries: returns use(Shape{}, std::bool_constant<Repeats>{}, steps_per_pass).
/// The iteration's steps (inclusive, scaled, in place) go several on each staged tile when asked,
/// in tiles of their own shape (the step loop's registers); everything else one step per pass.
template <bool Exclusive, bool Scaled, class T, class Use>
auto with_automatic_shape(long long steps, int options_steps_per_pass, Use&& use) {
  if constexpr (Scaled && !Exclusive) {
    using iteration = tuning::segmented_scan_iteration;
    const int per_pass =
        options_steps_per_pass ? options_steps_per_pass : iteration::steps_per_pass;
    if (steps > 1 && per_pass > 1)
      return use(typename iteration::template policy<sizeof(T)>::shape{}, std::true_type{},
                 per_pass);
  }
  using policy = tuning::segmented_scan_policy<sizeof(T), Scaled ? 2 : 1>;
  return use(typename policy::shape{}, std::false_type{}, 1);
}

/// Bytes of the automatic scan's state for a call of `steps` steps over n elements.
template <bool Exclusive, bool Scaled, class T>
std::size_t automatic_state_bytes(std::size_t n, long long steps, int options_steps_per_pass) {
  if (n == 0 || steps <= 0) return 0;
  return with_automatic_shape<Exclusive, Scaled, T>(
      steps, options_steps_per_pass, [&](auto shape, auto, int per_pass) {
        using Shape = decltype(shape);
        const std::size_t tiles = n / Shape::tile + (n % Shape::tile != 0);
        return tile_state_layout(tiles, state_slots(steps, per_pass)).bytes;
      });
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
/// offsets while the one before drains. `LookBack`: the tiles' look-back (look_back_of).
template <class Shape, bool Exclusive, bool Repeats, block::look_back_by LookBack, class Source,
          class T, class Offset, class Op>
cudaError_t launch_tiles(const temporary_storage& storage, Source src, bool src_aligned, T* out,
                         std::size_t n, const Offset* offsets, std::size_t num_segments, Op op,
                         T init, cudaStream_t stream, long long steps = 1, int steps_per_pass = 1) {
  if (!Repeats) steps_per_pass = 1;
  constexpr auto kernel =
      kernels::segmented_scan_tiles<Shape, Exclusive, Repeats, LookBack, Source, T, Offset, Op>;
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

  const std::size_t slots = state_slots(steps, steps_per_pass);
  return with_temporary_storage(
      storage, tile_state_layout(tiles, slots).bytes, stream, [&](void* temp) {
        tile_state_memory<T> memory(temp, tiles, slots);
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
          // What this grid waits for, if it is launched early: the step before (from the second
          // grid on), or the heads pass when this grid is the last (a grid after it reads the heads
          // without waiting for their pass, so while grids follow, this one starts once the pass is
          // done).
          prior_grid_writes prior =
              done > 0 ? prior_grid_writes::input : prior_grid_writes::nothing;
          if (head_pass && done == 0) {
            constexpr unsigned warps_per_block = 8;
            kernels::segmented_scan_tile_heads<<<unsigned((tiles + warps_per_block - 1) /
                                                          warps_per_block),
                                                 32 * warps_per_block, 0, stream>>>(
                offsets, p, Shape::tile, std::int64_t(tiles), heads);
            launched = cudaGetLastError();
            if (launched != cudaSuccess) break;
            if (now == steps) prior = prior_grid_writes::tile_heads;
          }
          const dim3 grid(unsigned(std::int64_t(tiles) * passes)), block(Shape::threads);
          const std::int64_t* tile_heads = head_pass ? heads : nullptr;
          if (prior == prior_grid_writes::nothing) {
            kernel<<<grid, block, 0, stream>>>(src, out, count, offsets, p, op, init, states,
                                               tile_heads, aligned, prior);
            launched = cudaGetLastError();
          } else {
            launched = launch_early(kernel, grid, block, 0, stream, src, out, count, offsets, p, op,
                                    init, states, tile_heads, aligned, prior);
          }
        }
        return launched;
      });
}

/// Who looks back in a call's tiles: the options' choice, else by the mean segment length (empty
/// segments count), known on the host: a warp from tuning::segmented_scan_look_back's length up.
/// Every segmented scan (plain, scaled, the iteration) decides here.
inline block::look_back_by look_back_of(segmented_scan_look_back choice, std::size_t n,
                                        std::size_t num_segments) {
  switch (choice) {
    case segmented_scan_look_back::thread:
      return block::look_back_by::thread;
    case segmented_scan_look_back::warp:
      return block::look_back_by::warp;
    default:
      return (num_segments ? n / num_segments : n) >=
                     tuning::segmented_scan_look_back::warp_from_mean_length
                 ? block::look_back_by::warp
                 : block::look_back_by::thread;
  }
}

/// The single-pass scan, `steps` times in a row (the iteration when steps > 1), with arguments
/// the entry point has checked.
template <bool Exclusive, class Source, class T, class Offset, class Op>
cudaError_t segmented_scan(const segmented_scan_options& opt, Source src, bool src_aligned, T* out,
                           std::size_t n, const Offset* offsets, std::size_t num_segments, Op op,
                           T init, cudaStream_t stream, long long steps = 1) {
  if (n == 0 || steps == 0) return cudaSuccess;
  const block::look_back_by look_back = look_back_of(opt.look_back, n, num_segments);
  return with_automatic_shape<Exclusive, kernels::is_scaled<Source>, T>(
      steps, opt.steps_per_pass, [&](auto shape, auto repeats, int per_pass) {
        const auto launch = [&](auto by) {
          return launch_tiles<decltype(shape), Exclusive, decltype(repeats)::value,
                              decltype(by)::value>(opt.temporary, src, src_aligned, out, n, offsets,
                                                   num_segments, op, init, stream, steps, per_pass);
        };
        using block::look_back_by;
        if (look_back == look_back_by::warp)
          return launch(std::integral_constant<look_back_by, look_back_by::warp>{});
        return launch(std::integral_constant<look_back_by, look_back_by::thread>{});
      });
}

}  // namespace corank::cuda::detail
