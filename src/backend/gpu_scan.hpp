// GPU segmented scan for the CLI: the study's iteration on host arrays.
#pragma once

#include <cstddef>
#include <cstdint>

namespace corank::backend {

/// Runs `iterations` fused passes a = segmented scan of a * xbar (rows given by CSR offsets) on the
/// GPU, in place; a is copied in and back. Returns the kernel time in ms (device events around the
/// iterations, transfers excluded). Throws std::runtime_error on CUDA errors.
double gpu_spmv_scan(float* a, const float* xbar, const std::int64_t* offsets, std::size_t n,
                     std::size_t rows, int iterations);

}  // namespace corank::backend
