// scan_ops<K> on the GPU (segmented_scan, spmv_scan): the segmented scans of corank::cuda.
#pragma once

#include "cuda_common.cuh"

namespace corank_py {

template <class K>
void scan_ops<K>::segmented_scan(const K* in, std::size_t n, const std::int64_t* offsets,
                                 std::size_t num_segments, K* out, scan_op op, bool exclusive,
                                 K init, stream_handle handle) {
  if constexpr (cuda_detail::scannable<K>) {
    const cudaStream_t stream = cuda_detail::as_stream(handle);
    with_scan_op(op, [&](auto scan) {
      cuda_detail::check(exclusive ? corank::cuda::segmented_exclusive_scan(
                                         in, n, offsets, num_segments, out, init, scan, stream)
                                   : corank::cuda::segmented_inclusive_scan(
                                         in, n, offsets, num_segments, out, scan, stream),
                         "segmented_scan");
    });
  } else {
    (void)in, (void)out, (void)n, (void)offsets, (void)num_segments, (void)op, (void)exclusive,
        (void)init, (void)handle;
    throw std::invalid_argument("corank.segmented_scan: the GPU scans take 4- or 8-byte values");
  }
}

template <class K>
void scan_ops<K>::spmv_scan(K* a, const K* scale, std::size_t n, const std::int64_t* offsets,
                            std::size_t num_segments, long long iterations, stream_handle handle) {
  if constexpr (cuda_detail::scannable<K>) {
    cuda_detail::check(corank::cuda::scaled_segmented_scan_iterations(
                           a, scale, n, offsets, num_segments, iterations, corank::plus{},
                           cuda_detail::as_stream(handle)),
                       "spmv_scan");
  } else {
    (void)a, (void)scale, (void)n, (void)offsets, (void)num_segments, (void)iterations,
        (void)handle;
    throw std::invalid_argument("corank.spmv_scan: the GPU scans take 4- or 8-byte values");
  }
}

}  // namespace corank_py
