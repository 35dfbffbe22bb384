// The GPU merge benchmark: corank's kernels, thrust::merge and cub::DeviceMerge side by side in one
// process, against a device-to-device copy of the same bytes measured in the same run.
#pragma once

#include <cstddef>
#include <vector>

#include "corank/cuda/tuning/merge_table.hpp"
#include "report.hpp"
#include "timing.hpp"

namespace corank::bench {

struct gpu_merge_config {
  std::vector<std::size_t> sizes;  ///< items per input
  bool pairs = true;               ///< also u32/u32 key-value merges
  /// Also the study's kernels (basic, tiled, circular), each with both, one or none of its two
  /// optimisations (one co-rank per thread from the neighbour; branch-free merge and search).
  bool studied = true;
  std::vector<unsigned> automatic_grids;  ///< also time `automatic` with these grid sizes
  const cuda::merge_tuning* tuning = nullptr;  ///< `automatic` with this table (corank tune merge)
  timing_config timing = device_timing_config();
  bool show_progress = true;
};

/// Rows by group ("keys", "pairs") and size (items per input): the copy, cub::DeviceMerge (the
/// baseline, and the reference every other output is checked against), thrust::merge, corank.
/// The study's variants are named "corank tiled" (both optimisations), "corank tiled (no
/// neighbour reuse)", "corank tiled (branchy)" and "corank tiled (neither)".
report run_gpu_merge_bench(const gpu_merge_config& config);

}  // namespace corank::bench
