// The study's GPU segmented-scan kernels (one thread or one warp per segment), kept to be
// measured beside the production single-pass kernel (corank/cuda/kernels/segmented_scan.cuh),
// whose sources (plain_source, scaled_source) and output rule (scan_output) they share.
#pragma once

#include <cstdint>

#include "corank/cuda/kernels/segmented_scan.cuh"

namespace corank::study::cuda::kernels {

using corank::cuda::block::scan_output;

// ---- study: one thread per segment ------------------------------------------------------------

/// Each thread walks whole segments sequentially (grid-stride over segments): neighbouring threads
/// read addresses a segment apart, so loads coalesce only for very short segments.
template <bool Exclusive, class Source, class T, class Offset, class Op>
__global__ void segmented_scan_thread_per_segment(Source src, T* out, const Offset* offsets,
                                                  std::int64_t num_segments, Op op, T init) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t seg = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; seg < num_segments;
       seg += stride) {
    const std::int64_t first = offsets[seg], last = offsets[seg + 1];
    T acc = init;
    for (std::int64_t j = first; j < last; ++j) {
      const T x = src[j];
      if constexpr (Exclusive) {
        out[j] = acc;
        acc = op(acc, x);
      } else {
        acc = j == first ? x : op(acc, x);
        out[j] = acc;
      }
    }
  }
}

// ---- study: one warp per segment (intra-warp scan) --------------------------------------------

/// Each warp scans whole segments, 32 elements a step with a shuffle scan, the carry passed from
/// lane 31 (the study moved 31 elements a step; shuffles remove that overlap).
template <bool Exclusive, class Source, class T, class Offset, class Op>
__global__ void segmented_scan_warp_per_segment(Source src, T* out, const Offset* offsets,
                                                std::int64_t num_segments, Op op, T init) {
  const int lane = threadIdx.x % 32;
  const std::int64_t warps = std::int64_t(gridDim.x) * blockDim.x / 32;
  for (std::int64_t seg = (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
       seg < num_segments; seg += warps) {
    const std::int64_t first = offsets[seg], last = offsets[seg + 1];
    T carry{};
    for (std::int64_t chunk = first; chunk < last; chunk += 32) {
      const std::int64_t j = chunk + lane;
      T x = j < last ? src[j] : T{};
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
        const T up = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) x = op(up, x);
      }
      if (chunk != first) x = op(carry, x);
      T before = __shfl_up_sync(0xffffffffu, x, 1);
      if (lane == 0) before = carry;
      if (j < last) out[j] = scan_output<Exclusive>(x, before, j == first, init, op);
      carry = __shfl_sync(0xffffffffu, x, 31);
    }
  }
}

}  // namespace corank::study::cuda::kernels
