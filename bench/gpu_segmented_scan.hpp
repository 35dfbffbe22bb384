// The GPU segmented-scan benchmarks, corank's kernels and CUB side by side in one process against a
// device-to-device copy measured in the same run:
//  - segmented: 100M f32 values by mean segment length, ours vs cub::DeviceScan::InclusiveScanByKey
//    on the equivalent key array, and the study's two kernels;
//  - spmv: the study's iteration (a = scan(a * xbar)) on stand-ins of its matrices, the fused pass
//    vs the 12-bytes-per-element floor and a CUB formulation (transform iterator feeding
//    InclusiveScanByKey).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace corank::bench {

struct gpu_scan_bench_config {
  std::size_t n = 100000000;                      ///< segmented: values
  std::vector<double> mean_lengths{4, 32, 1024};  ///< segmented: mean segment lengths
  std::vector<std::string> matrices;              ///< spmv: names (empty: the study's list)
  bool studied = true;                            ///< also the thread- and warp-per-segment kernels
  int repeats = 20;                               ///< timed runs per measurement
  std::string json_path;                          ///< write the measurements there as JSON
};

/// Each returns 0, or 1 when an output did not match (the table marks it).
int run_gpu_segmented_scan_bench(const gpu_scan_bench_config& config, std::ostream& out);
int run_gpu_spmv_scan_bench(const gpu_scan_bench_config& config, std::ostream& out);

}  // namespace corank::bench
