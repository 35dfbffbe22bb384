// What selects a GPU segmented scan's algorithm and parameters, and where its temporary storage
// comes from: segmented_scan_options (corank/cuda/segmented_scan.cuh has the entry points).
#pragma once

#include "corank/cuda/memory.cuh"

namespace corank::cuda {

enum class segmented_scan_algorithm {
  automatic,           ///< single pass, decoupled look-back stopping at segment heads
  thread_per_segment,  ///< study: each thread scans whole segments (naive)
  warp_per_segment,    ///< study: each warp scans whole segments (intra-warp scan)
};

/// Deprecated, and no longer needed for full speed: every call takes its look-back state from
/// the library's cache (memory.cuh), or from the resource or buffer of its options'
/// `temporary`. Kept so that code naming it still compiles; it holds nothing.
class segmented_scan_workspace {
 public:
  segmented_scan_workspace() = default;
  segmented_scan_workspace(const segmented_scan_workspace&) = delete;
  segmented_scan_workspace& operator=(const segmented_scan_workspace&) = delete;
};

struct segmented_scan_options {
  segmented_scan_algorithm algorithm = segmented_scan_algorithm::automatic;
  /// Where the temporary storage comes from (memory.cuh): the library's cache by default, a
  /// memory resource, or the caller's buffer (of the *_temp_bytes queries' size).
  temporary_storage temporary{};
  /// Deprecated, ignored (see segmented_scan_workspace).
  segmented_scan_workspace* workspace = nullptr;
  /// scaled_segmented_scan_iterations with `automatic`: iteration steps done on each tile while it
  /// is staged in shared memory. 1: every step reads and writes the data (12 bytes per f32 element
  /// per step); k > 1: each staged tile is scanned k times, with a look-back per step, so the data
  /// moves once for k steps (12 / k bytes per element per step). 0: the tuned number
  /// (tuning::segmented_scan_iteration). Above tuning::segmented_scan_iteration::
  /// most_steps_per_pass or below 0: cudaErrorInvalidValue.
  int steps_per_pass = 0;
};

}  // namespace corank::cuda
