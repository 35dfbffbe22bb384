// segment_ops<K> on the GPU: corank::cuda::(stable_)sort_segments(_by_key).
#pragma once

#include "cuda_common.cuh"

namespace corank_py {

template <class K>
void segment_ops<K>::sort_segments(const K* src_keys, K* keys, const void* src_vals, void* vals,
                                   std::size_t value_bytes, std::size_t n,
                                   const std::int64_t* offsets, std::size_t num_segments,
                                   bool stable, bool descending, stream_handle handle) {
  const cudaStream_t stream = cuda_detail::as_stream(handle);
  cuda_detail::stage(keys, src_keys, n * sizeof(K), 0, stream, "sort_segments");
  if (value_bytes) cuda_detail::stage(vals, src_vals, n * value_bytes, 0, stream, "sort_segments");
  if (n == 0 || num_segments == 0) return;
  with_order(descending, [&](auto comp) {
    if (value_bytes == 0) {
      cuda_detail::check(
          stable ? corank::cuda::stable_sort_segments(keys, n, offsets, num_segments, comp, stream)
                 : corank::cuda::sort_segments(keys, n, offsets, num_segments, comp, stream),
          "sort_segments");
      return;
    }
    with_value_type<false>(value_bytes, [&](auto value) {
      using V = decltype(value);
      V* v = static_cast<V*>(vals);
      cuda_detail::check(stable ? corank::cuda::stable_sort_segments_by_key(
                                      keys, v, n, offsets, num_segments, comp, stream)
                                : corank::cuda::sort_segments_by_key(keys, v, n, offsets,
                                                                     num_segments, comp, stream),
                         "sort_segments");
    });
  });
}

}  // namespace corank_py
