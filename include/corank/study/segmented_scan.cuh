// corank::study::cuda segmented scans: the study's kernels, one thread per segment (naive) and one
// warp per segment (intra-warp scan), to be measured beside the production single-pass scan.
//
//   cudaError_t segmented_inclusive_scan(algorithm, in, n, offsets, num_segments, out,
//                                        op = plus{}, stream = 0);
//   cudaError_t segmented_exclusive_scan(algorithm, in, n, offsets, num_segments, out, init, op,
//                                        stream);
//   cudaError_t scaled_segmented_inclusive_scan(algorithm, in, scale, n, offsets, num_segments,
//                                               out, op, stream);
//   cudaError_t scaled_segmented_scan_iterations(algorithm, a, scale, n, offsets, num_segments,
//                                                iterations, op, stream): a launch per step.
//
// The contract of corank::cuda's segmented scans (corank/cuda/segmented_scan.cuh, the same
// argument order and checks) but no temporary storage. A thread walks its segments
// sequentially, a warp its segments 32 elements a step: fast only while segments are short.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/segmented_scan.cuh"
#include "corank/cuda/tuning/segmented_scan.cuh"
#include "corank/functional.hpp"
#include "corank/study/kernels/segmented_scan.cuh"

namespace corank::study::cuda {

enum class segmented_scan_algorithm {
  thread_per_segment,  ///< each thread scans whole segments (naive)
  warp_per_segment,    ///< each warp scans whole segments (intra-warp scan)
};

namespace detail {

/// A grid-stride grid over `work_items` threads, at most blocks_per_sm resident blocks per SM.
inline int studied_grid(std::size_t work_items) {
  using studied = corank::cuda::tuning::segmented_scan_studied;
  int sms = 0;
  if (corank::cuda::detail::multiprocessor_count(&sms) != cudaSuccess) sms = 132;
  const std::size_t want = (work_items + studied::threads - 1) / studied::threads;
  const std::size_t cap = std::size_t(sms) * studied::blocks_per_sm;
  return int(std::max<std::size_t>(1, std::min(want, cap)));
}

/// `steps` launches of the kernel of `algorithm` (the iteration when steps > 1), with arguments
/// checked by the caller.
template <bool Exclusive, class Source, class T, class Offset, class Op>
cudaError_t segmented_scan(segmented_scan_algorithm algorithm, Source src, T* out, std::size_t n,
                           const Offset* offsets, std::size_t num_segments, Op op, T init,
                           cudaStream_t stream, long long steps = 1) {
  if (n == 0) return cudaSuccess;
  using studied = corank::cuda::tuning::segmented_scan_studied;
  const auto p = static_cast<std::int64_t>(num_segments);
  for (long long step = 0; step < steps; ++step) {
    switch (algorithm) {
      case segmented_scan_algorithm::thread_per_segment:
        kernels::segmented_scan_thread_per_segment<Exclusive>
            <<<studied_grid(num_segments), studied::threads, 0, stream>>>(src, out, offsets, p, op,
                                                                          init);
        break;
      case segmented_scan_algorithm::warp_per_segment:
        kernels::segmented_scan_warp_per_segment<Exclusive>
            <<<studied_grid(num_segments * 32), studied::threads, 0, stream>>>(src, out, offsets, p,
                                                                               op, init);
        break;
      default:
        return cudaErrorInvalidValue;
    }
    CORANK_CUDA_TRY(cudaGetLastError());
  }
  return cudaSuccess;
}

}  // namespace detail

/// out = segmented inclusive scan of in by op, by the study's kernel `algorithm`; in place
/// allowed (out == in).
template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_inclusive_scan(segmented_scan_algorithm algorithm, const T* in, std::size_t n,
                                     const Offset* offsets, std::size_t num_segments, T* out,
                                     Op op = {}, cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(
      corank::cuda::detail::check_scan(in, nullptr, false, n, offsets, num_segments, out, 1, 0));
  return detail::segmented_scan<false>(algorithm, corank::cuda::kernels::plain_source<T>{in}, out,
                                       n, offsets, num_segments, op, T{}, stream);
}

/// out[j] = init, then op applied through in[j - 1], within each segment; in place allowed.
template <class T, class Offset, class Op = corank::plus>
cudaError_t segmented_exclusive_scan(segmented_scan_algorithm algorithm, const T* in, std::size_t n,
                                     const Offset* offsets, std::size_t num_segments, T* out,
                                     T init, Op op = {}, cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(
      corank::cuda::detail::check_scan(in, nullptr, false, n, offsets, num_segments, out, 1, 0));
  return detail::segmented_scan<true>(algorithm, corank::cuda::kernels::plain_source<T>{in}, out, n,
                                      offsets, num_segments, op, init, stream);
}

/// out = segmented inclusive scan of in[i] * scale[i]; in place allowed (out == in).
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_inclusive_scan(segmented_scan_algorithm algorithm, const T* in,
                                            const T* scale, std::size_t n, const Offset* offsets,
                                            std::size_t num_segments, T* out, Op op = {},
                                            cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(
      corank::cuda::detail::check_scan(in, scale, true, n, offsets, num_segments, out, 1, 0));
  return detail::segmented_scan<false>(algorithm,
                                       corank::cuda::kernels::scaled_source<T>{in, scale}, out, n,
                                       offsets, num_segments, op, T{}, stream);
}

/// `iterations` steps of the sparse-matrix iteration in place (a = scan of a[i] * scale[i]), a
/// launch per step.
template <class T, class Offset, class Op = corank::plus>
cudaError_t scaled_segmented_scan_iterations(segmented_scan_algorithm algorithm, T* a,
                                             const T* scale, std::size_t n, const Offset* offsets,
                                             std::size_t num_segments, long long iterations,
                                             Op op = {}, cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(
      corank::cuda::detail::check_scan(a, scale, true, n, offsets, num_segments, a, iterations, 0));
  return detail::segmented_scan<false>(algorithm, corank::cuda::kernels::scaled_source<T>{a, scale},
                                       a, n, offsets, num_segments, op, T{}, stream, iterations);
}

}  // namespace corank::study::cuda
