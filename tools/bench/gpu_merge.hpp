// The GPU merge benchmark: corank's merge, cub::DeviceMerge of two CUBs (the newest, the
// baseline, and the toolkit's) and thrust::merge side by side in one process, against a
// device-to-device copy of the same bytes measured in the same run, over every key type and input
// shape (tools/support/data/shapes.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bench/report.hpp"
#include "bench/timing.hpp"
#include "corank/cuda/tuning/merge_table.hpp"
#include "support/data/shapes.hpp"

namespace corank::bench {

struct gpu_merge_config {
  std::vector<std::size_t> sizes;  ///< items per input
  bool pairs = true;               ///< also key-value merges (u32 values)
  /// Key types (u32, u64, f32, f64, record16) and shapes; every pair of them at the sizes from
  /// `every_shape_from` up, u32 uniform alone below, plus u32 with unaligned pointers.
  std::vector<std::string> key_types = {"u32", "u64", "f32", "f64", "record16"};
  std::vector<data::key_shape> shapes = data::all_key_shapes();
  std::size_t every_shape_from = 1000000;
  /// Also the study's kernels (basic, tiled, circular), each with both, one or none of its two
  /// optimisations (one co-rank per thread from the neighbour; branch-free merge and search), on
  /// u32 uniform keys.
  bool studied = true;
  std::vector<unsigned> automatic_grids;       ///< also time `automatic` with these grid sizes
  const cuda::merge_tuning* tuning = nullptr;  ///< `automatic` with this table (corank tune merge)
  timing_config timing = device_timing_config();
  bool show_progress = true;
};

/// One report per key type ("gpu merge u32", ...), groups "<shape> keys" and "<shape> pairs"
/// (shape as data::name, or "unaligned"), size = items per input. Rows: the copy, cub::DeviceMerge
/// of each CUB (the newest the baseline, and the reference every other output is checked against
/// byte for byte), thrust::merge, "corank merge" (the plain call; merge takes no temporary
/// storage). The study's variants are named "corank tiled" (both optimisations), "corank tiled (no
/// neighbour reuse)", "corank tiled (branchy)" and "corank tiled (neither)".
std::vector<report> run_gpu_merge_bench(const gpu_merge_config& config);

}  // namespace corank::bench
