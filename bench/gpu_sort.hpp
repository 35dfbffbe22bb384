// The GPU sort benchmark: corank's merge sort, bitonic sort and segmented sort against CUB's merge
// sort, radix sort and segmented sort, in one process, plus the bitonic sort's host entry
// (transfers timed apart) and its speed-up over std::sort by size.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace corank::bench {

struct gpu_sort_config {
  std::vector<std::size_t> sizes;      ///< whole-array sorts: keys per run
  std::size_t segmented_keys = 0;      ///< segmented sorts: total keys (0: skip)
  std::vector<std::size_t> cpu_sizes;  ///< std::sort speed-up table (empty: skip)
  int repeats = 0;                     ///< timed runs per measurement; 0: by size
  std::string json_path;               ///< write every measurement there as JSON when set
};

/// Prints a table to `out`; returns 0, or 1 when a result was wrong (the table marks it).
int run_gpu_sort_bench(const gpu_sort_config& config, std::ostream& out);

}  // namespace corank::bench
