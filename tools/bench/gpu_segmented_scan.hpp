// The GPU segmented-scan benchmarks, corank's kernels and CUB side by side in one process against a
// device-to-device copy measured in the same run:
//  - segmented: 2^26 f32 values over every segment shape (fixed lengths 1 to 64 and 2^k - 1, 2^k,
//    2^k + 1 to 2^20, U[1, L], power law, one segment, half empty; 32- and 64-bit offsets): the
//    plain call and the caller's-buffer call against InclusiveScanByKey (the newest CUB's, the
//    baseline, and the toolkit's) on the equivalent key array and the newest CUB's
//    DeviceSegmentedScan; the study's two kernels on the short uniform lengths;
//  - spmv: the study's iteration (a = scan(a * xbar)) on stand-ins of its matrices, the fused
//    passes (two steps per staged tile where a step spans more than about a wave, and one step per
//    pass) vs the 12-bytes-per-element floor of a step that moves the data and a CUB formulation
//    (transform iterator feeding InclusiveScanByKey).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bench/report.hpp"
#include "bench/timing.hpp"
#include "support/data/shapes.hpp"

namespace corank::bench {

/// One segment pattern of the segmented sweep (data::generate_segments).
struct segment_case {
  data::segment_shape shape;
  std::size_t length;         ///< fixed: the length; uniform: L of U[1, L]; half empty: the mean
  bool wide_offsets = false;  ///< int64 offsets (else int32)
};

/// The sweep's cases (quick: a dozen); in suite.cpp with the other defaults.
std::vector<segment_case> default_segment_cases(bool quick);

struct gpu_scan_bench_config {
  std::size_t n = std::size_t(1) << 26;           ///< segmented: values
  std::vector<segment_case> cases;                ///< segmented (default_segment_cases)
  std::vector<std::string> matrices;              ///< spmv: names (empty: the study's list)
  bool studied = true;                            ///< also the thread- and warp-per-segment kernels
  timing_config timing = device_timing_config();  ///< spmv
  timing_config sweep_timing = sweep_timing_config();  ///< segmented
  bool show_progress = true;
};

/// "gpu segmented scan": groups by segment pattern (data::segment_shape_name, ", i64" for 64-bit
/// offsets); baseline the newest CUB's scan-by-key. Bytes: what the problem must move (values
/// read + written, offsets read), the same for every contender.
report run_gpu_segmented_scan_bench(const gpu_scan_bench_config& config);
/// "gpu spmv-scan": groups by matrix, size nnz, iterations the study's; baseline CUB's
/// formulation. Bytes: 12 per element per step (read a and xbar, write a), so "% copy" is the
/// fraction of the bandwidth floor of a step that moves the data (above 100% where two steps share
/// a pass).
report run_gpu_spmv_scan_bench(const gpu_scan_bench_config& config);

}  // namespace corank::bench
