// The GPU segmented scans' options: where the temporary storage comes from, and the iteration's
// steps per pass (corank/cuda/segmented_scan.cuh has the entry points; the study's kernels,
// corank/study/segmented_scan.cuh).
#pragma once

#include "corank/cuda/memory.cuh"
#include "corank/segmented_scan_contract.hpp"

namespace corank::cuda {

/// Deprecated, and no longer needed for full speed: every call takes its look-back state from
/// the library's cache (memory.cuh), or from the resource or buffer of its options'
/// `temporary`. Kept so that code naming it still compiles; it holds nothing.
class segmented_scan_workspace {
 public:
  segmented_scan_workspace() = default;
  segmented_scan_workspace(const segmented_scan_workspace&) = delete;
  segmented_scan_workspace& operator=(const segmented_scan_workspace&) = delete;
};

/// Who looks back for a tile's carry in (the single-pass scan's decoupled look-back).
enum class segmented_scan_look_back : int {
  automatic,  ///< by the mean segment length, n / num_segments (tuning::segmented_scan_look_back)
  thread,     ///< one thread, one predecessor a load: short segments, whose carries lie close
  warp,       ///< one warp, 32 predecessors a round: long segments, whose carries lie far back
};

struct segmented_scan_options {
  /// Where the temporary storage comes from (memory.cuh): the library's cache by default, a
  /// memory resource, or the caller's buffer (of the *_temp_bytes queries' size).
  temporary_storage temporary{};
  /// Deprecated, ignored (see segmented_scan_workspace).
  segmented_scan_workspace* workspace = nullptr;
  /// scaled_segmented_scan_iterations: iteration steps done on each tile while it is staged in
  /// shared memory. 1: every step reads and writes the data (12 bytes per f32 element per step);
  /// k > 1: each staged tile is scanned k times, with a look-back per step, so the data moves once
  /// for k steps (12 / k bytes per element per step). 0: the tuned number
  /// (tuning::segmented_scan_iteration). Below 0 or above
  /// corank::segmented_scan_most_steps_per_pass (segmented_scan_contract.hpp):
  /// cudaErrorInvalidValue from every segmented scan, as the CPU's std::invalid_argument.
  int steps_per_pass = 0;
  /// Every segmented scan: who looks back for a tile's carry in. The two give the same results
  /// (floating-point sums may group differently); `automatic` picks one by the call's mean
  /// segment length, the others force one (tests, measurements).
  segmented_scan_look_back look_back = segmented_scan_look_back::automatic;
};

}  // namespace corank::cuda
