// GPU segmented scan for the CLI: the study's iteration on host arrays.
#pragma once

#include <cstddef>
#include <cstdint>

namespace corank::backend {

/// Runs `iterations` steps a = segmented scan of a * xbar (rows given by CSR offsets) on the GPU,
/// in place, `steps_per_pass` of them on each staged tile (corank::cuda::segmented_scan_options;
/// 0: the tuned number); a is copied in and back. Returns the kernel time in ms (device events
/// around the iterations, transfers excluded). Throws std::runtime_error on CUDA errors.
double gpu_spmv_scan(float* a, const float* xbar, const std::int64_t* offsets, std::size_t n,
                     std::size_t rows, int iterations, int steps_per_pass = 0);

}  // namespace corank::backend
