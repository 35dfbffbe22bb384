// The GPU merge benchmark: corank's kernels, thrust::merge and cub::DeviceMerge side by side in one
// process, against a device-to-device copy of the same bytes measured in the same run.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace corank::bench {

struct gpu_merge_config {
  std::vector<std::size_t> sizes;         ///< items per input
  bool pairs = true;                      ///< also u32/u32 key-value merges
  bool studied = true;                    ///< also the study's kernels (basic, tiled, circular)
  int repeats = 0;                        ///< timed runs per measurement; 0: by size
  std::string json_path;                  ///< write every measurement there as JSON when set
  std::vector<unsigned> automatic_grids;  ///< also time `automatic` with these grid sizes
};

/// Runs the benchmark, prints a table to `out` (progress to stderr). Returns 0, or 1 when an
/// output did not match CUB's (the table marks it) or a CUDA call failed.
int run_gpu_merge_bench(const gpu_merge_config& config, std::ostream& out);

}  // namespace corank::bench
