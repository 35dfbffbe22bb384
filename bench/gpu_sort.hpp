// The GPU sort benchmark: corank's merge sort, bitonic sort and segmented sort against CUB's merge
// sort, radix sort and segmented sort, in one process, plus the study's chart: the GPU sorts
// against std::sort on one core by size (the bitonic sort's host entry with its transfers apart).
#pragma once

#include <cstddef>
#include <vector>

#include "report.hpp"
#include "timing.hpp"

namespace corank::bench {

struct gpu_sort_config {
  std::vector<std::size_t> sizes = {1000000, 10000000, 100000000};  ///< whole-array sorts
  std::size_t segmented_keys = std::size_t(1) << 26;  ///< segmented sorts: total keys (0: skip)
  /// Sizes of the comparison with std::sort (empty: skip).
  std::vector<std::size_t> cpu_sizes = {2000, 20000, 200000, 2000000, 10000000, 100000000};
  timing_config timing = device_timing_config();
  bool show_progress = true;
};

/// Up to three reports: "gpu sort" (groups keys, pairs; baseline CUB merge sort), "gpu segmented
/// sort" (groups by segment sizes; baseline CUB's segmented sort), "gpu sort vs std::sort"
/// (baseline std::sort on one core). Every corank result is checked against CUB radix sort's (or
/// std::sort's).
std::vector<report> run_gpu_sort_bench(const gpu_sort_config& config);

}  // namespace corank::bench
