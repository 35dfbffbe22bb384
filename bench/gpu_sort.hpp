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
  std::vector<std::size_t> sizes = {1000000, 10000000, 100000000};  ///< whole-array sorts
  std::size_t segmented_keys = std::size_t(1) << 26;  ///< segmented sorts: total keys (0: skip)
  /// std::sort speed-up table (empty: skip)
  std::vector<std::size_t> cpu_sizes = {2000, 20000, 200000, 2000000, 10000000, 100000000};
  int repeats = 0;        ///< timed runs per measurement; 0: by size
  std::string json_path;  ///< write every measurement there as JSON when set
};

/// Prints a table to `out`; returns 0, or 1 when a result was wrong (the table marks it).
int run_gpu_sort_bench(const gpu_sort_config& config, std::ostream& out);

}  // namespace corank::bench
