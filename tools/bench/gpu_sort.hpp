// The GPU sort benchmark: corank's merge sort (the plain call and with the caller's buffer) against
// cub::DeviceMergeSort of two CUBs (the newest, the baseline, and the toolkit's) and the newest
// CUB's radix sort, over every key type and input shape (tools/support/data/shapes.hpp); corank's
// segmented sort against CUB's; and the study's chart: the GPU sorts against std::sort on one core
// by size (the bitonic sort's host entry with its transfers apart).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bench/report.hpp"
#include "bench/timing.hpp"
#include "support/data/shapes.hpp"

namespace corank::bench {

struct gpu_sort_config {
  std::vector<std::size_t> sizes = {1000000, 10000000, 100000000};  ///< whole-array sorts
  /// Whole-array sorts: key types (u32, u64, f32, f64, record16) and shapes, every pair of them
  /// at every size, plus u32 with an unaligned pointer (and the bitonic sort on u32 uniform).
  std::vector<std::string> key_types = {"u32", "u64", "f32", "f64", "record16"};
  std::vector<data::key_shape> shapes = data::all_key_shapes();
  std::size_t segmented_keys = std::size_t(1) << 26;  ///< segmented sorts: total keys (0: skip)
  /// Sizes of the comparison with std::sort (empty: skip).
  std::vector<std::size_t> cpu_sizes = {2000, 20000, 200000, 2000000, 10000000, 100000000};
  timing_config timing = device_timing_config();
  bool show_progress = true;
};

/// Reports: one per key type ("gpu sort u32", ...; groups "<shape> keys", "<shape> pairs" and
/// "unaligned ..."; baseline the newest CUB's merge sort, whose output every other is checked
/// against byte for byte), "gpu segmented sort" (groups by segment sizes; baseline CUB's
/// segmented sort), "gpu sort vs std::sort" (baseline std::sort on one core, the reference).
std::vector<report> run_gpu_sort_bench(const gpu_sort_config& config);

}  // namespace corank::bench
