// merge_ops<K> on the GPU: corank::cuda::merge and merge_by_key.
#pragma once

#include "cuda_common.cuh"

namespace corank_py {

template <class K>
void merge_ops<K>::merge(const K* a, std::size_t m, const K* b, std::size_t n, K* out,
                         const void* va, const void* vb, void* vout, std::size_t value_bytes,
                         bool descending, stream_handle handle) {
  const cudaStream_t stream = cuda_detail::as_stream(handle);
  with_order(descending, [&](auto comp) {
    if (value_bytes == 0) {
      cuda_detail::check(corank::cuda::merge(a, m, b, n, out, comp, stream), "merge");
      return;
    }
    with_value_type<false>(value_bytes, [&](auto value) {
      using V = decltype(value);
      cuda_detail::check(
          corank::cuda::merge_by_key(a, static_cast<const V*>(va), m, b, static_cast<const V*>(vb),
                                     n, out, static_cast<V*>(vout), comp, stream),
          "merge");
    });
  });
}

}  // namespace corank_py
