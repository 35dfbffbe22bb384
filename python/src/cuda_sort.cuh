// sort_ops<K> on the GPU: corank::cuda::stable_sort and stable_sort_by_key (argsort: the
// indices as values).
#pragma once

#include "cuda_common.cuh"

namespace corank_py {

template <class K>
void sort_ops<K>::sort(const K* src_keys, K* keys, const void* src_vals, void* vals,
                       std::size_t value_bytes, std::size_t n, bool descending,
                       stream_handle handle) {
  const cudaStream_t stream = cuda_detail::as_stream(handle);
  cuda_detail::stage(keys, src_keys, n * sizeof(K), 0, stream, "sort");
  if (value_bytes) cuda_detail::stage(vals, src_vals, n * value_bytes, n, stream, "sort");
  with_order(descending, [&](auto comp) {
    if (value_bytes == 0) {
      cuda_detail::check(corank::cuda::stable_sort(keys, n, comp, stream), "sort");
      return;
    }
    with_value_type<false>(value_bytes, [&](auto value) {
      using V = decltype(value);
      cuda_detail::check(
          corank::cuda::stable_sort_by_key(keys, static_cast<V*>(vals), n, comp, stream), "sort");
    });
  });
}

}  // namespace corank_py
