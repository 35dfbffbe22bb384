// `corank bench toolbox --backend gpu`: the co-rank toolbox (issue 22) on the GPU against thrust
// and CUB of each CCCL built in (the newest the baseline), on the inputs of the CPU rows
// (toolbox_inputs.hpp), each primitive a group:
//   sorted search          sorted needles: thrust::lower_bound (vectorised), sorted_lower_bound
//   lower_bound, any order thrust::lower_bound, corank lower_bound; with unsorted_search_sweep
//                          also over needle counts 10^3..n in haystacks of n, n/10, n/100 keys,
//                          with corank's two ways (binary search each, sort then search) forced
//   set_union ... (four)   thrust::set_*, corank set_operation (its count left on the device)
//   join (inner)           corank join_size + join (no thrust or CUB equivalent)
//   load-balancing search  thrust::upper_bound of every item in the segment ends (what a user
//                          writes with thrust), corank load_balancing_search
//   multiway merge         64 runs: cub::DeviceMergeSort::SortKeysCopy of the concatenation (what
//                          a user writes), corank multiway_merge
// plus a device copy of the 2n keys, measured in the same run (the bandwidth every row's "% copy"
// is against). Device events; every output is checked against the baseline's on the device
// (the join against corank::cpu::join).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/report.hpp"
#include "bench/timing.hpp"

namespace corank::bench {

struct gpu_toolbox_config {
  std::vector<std::size_t> sizes = {1000000, 10000000, 100000000};  ///< items per input
  std::size_t num_runs = 64;                                        ///< the k-way merge's runs
  timing_config timing = device_timing_config();
  bool show_progress = true;
  bool unsorted_search_sweep = false;  ///< the needle-count sweep of lower_bound (tuning)
  std::uint64_t seed = 1;
};

/// The report "gpu toolbox" (size: items per input).
report run_gpu_toolbox_bench(const gpu_toolbox_config& config);

}  // namespace corank::bench
