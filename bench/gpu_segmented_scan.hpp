// The GPU segmented-scan benchmarks, corank's kernels and CUB side by side in one process against a
// device-to-device copy measured in the same run:
//  - segmented: 100M f32 values by mean segment length, ours vs cub::DeviceScan::InclusiveScanByKey
//    on the equivalent key array, and the study's two kernels;
//  - spmv: the study's iteration (a = scan(a * xbar)) on stand-ins of its matrices, the fused
//    passes (two steps per staged tile where a step spans more than about a wave, and one step per
//    pass) vs the 12-bytes-per-element floor of a step that moves the data and a CUB formulation
//    (transform iterator feeding InclusiveScanByKey).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report.hpp"
#include "timing.hpp"

namespace corank::bench {

struct gpu_scan_bench_config {
  std::size_t n = 100000000;                      ///< segmented: values
  std::vector<double> mean_lengths{4, 32, 1024};  ///< segmented: mean segment lengths
  std::vector<std::string> matrices;              ///< spmv: names (empty: the study's list)
  bool studied = true;                            ///< also the thread- and warp-per-segment kernels
  timing_config timing = device_timing_config();
  bool show_progress = true;
};

/// "gpu segmented scan": groups by mean length; baseline CUB's scan-by-key. Bytes: what the
/// problem must move (values read + written, offsets read), the same for every contender.
report run_gpu_segmented_scan_bench(const gpu_scan_bench_config& config);
/// "gpu spmv-scan": groups by matrix, size nnz, iterations the study's; baseline CUB's
/// formulation. Bytes: 12 per element per step (read a and xbar, write a), so "% copy" is the
/// fraction of the bandwidth floor of a step that moves the data (above 100% where two steps share
/// a pass).
report run_gpu_spmv_scan_bench(const gpu_scan_bench_config& config);

}  // namespace corank::bench
