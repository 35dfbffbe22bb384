// ops<K> on the GPU: the corank::cuda entry points, queued on the caller's stream with the
// library's cached temporary storage (nothing here synchronises).
#pragma once

#include <corank/cuda.cuh>

#include <stdexcept>
#include <string>
#include <type_traits>

#include "ops.hpp"
#include "value_types.hpp"

namespace corank_py {
namespace cuda_detail {

inline cudaStream_t as_stream(stream_handle handle) {
  return reinterpret_cast<cudaStream_t>(handle);
}

/// A failed call as a Python exception: bad arguments as ValueError, the rest as RuntimeError.
inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  const std::string message = std::string("corank.") + what + ": " + cudaGetErrorString(status);
  if (status == cudaErrorInvalidValue) throw std::invalid_argument(message);
  throw std::runtime_error(message);
}

template <int = 0>
__global__ void fill_iota(std::int64_t* v, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    v[i] = std::int64_t(i);
}

/// Copies src into dst in stream order (nothing when they are the same), or, for values with
/// no source, writes 0, 1, ..., n - 1 (an argsort's indices).
inline void stage(void* dst, const void* src, std::size_t bytes, std::size_t n_iota,
                  cudaStream_t stream, const char* what) {
  if (src && src != dst && bytes)
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream), what);
  if (!src && n_iota) {
    const unsigned blocks = unsigned(std::min<std::size_t>((n_iota + 255) / 256, 4096));
    fill_iota<<<blocks, 256, 0, stream>>>(static_cast<std::int64_t*>(dst), n_iota);
    check(cudaGetLastError(), what);
  }
}

template <class F>
void with_order(bool descending, F&& f) {
  if (descending)
    f(corank::greater{});
  else
    f(corank::less{});
}

/// The segmented scans take 4- and 8-byte arithmetic values (the binding refuses the others).
template <class K>
constexpr bool scannable = sizeof(K) >= 4;

}  // namespace cuda_detail

template <class K>
void ops<K>::merge(const K* a, std::size_t m, const K* b, std::size_t n, K* out, const void* va,
                   const void* vb, void* vout, std::size_t value_bytes, bool descending,
                   stream_handle handle) {
  const cudaStream_t stream = cuda_detail::as_stream(handle);
  cuda_detail::with_order(descending, [&](auto comp) {
    if (value_bytes == 0) {
      cuda_detail::check(corank::cuda::merge(a, m, b, n, out, comp, stream), "merge");
      return;
    }
    with_value_type(value_bytes, [&](auto value) {
      using V = decltype(value);
      cuda_detail::check(corank::cuda::merge_by_key(a, static_cast<const V*>(va), m, b,
                                                    static_cast<const V*>(vb), n, out,
                                                    static_cast<V*>(vout), comp, stream),
                         "merge");
    });
  });
}

template <class K>
void ops<K>::sort(const K* src_keys, K* keys, const void* src_vals, void* vals,
                  std::size_t value_bytes, std::size_t n, bool descending, stream_handle handle) {
  const cudaStream_t stream = cuda_detail::as_stream(handle);
  cuda_detail::stage(keys, src_keys, n * sizeof(K), 0, stream, "sort");
  if (value_bytes) cuda_detail::stage(vals, src_vals, n * value_bytes, n, stream, "sort");
  cuda_detail::with_order(descending, [&](auto comp) {
    if (value_bytes == 0) {
      cuda_detail::check(corank::cuda::stable_sort(keys, n, comp, stream), "sort");
      return;
    }
    with_value_type(value_bytes, [&](auto value) {
      using V = decltype(value);
      cuda_detail::check(
          corank::cuda::stable_sort_by_key(keys, static_cast<V*>(vals), n, comp, stream), "sort");
    });
  });
}

template <class K>
void ops<K>::sort_segments(const K* src_keys, K* keys, const void* src_vals, void* vals,
                           std::size_t value_bytes, std::size_t n, const std::int64_t* offsets,
                           std::size_t num_segments, bool stable, bool descending,
                           stream_handle handle) {
  const cudaStream_t stream = cuda_detail::as_stream(handle);
  cuda_detail::stage(keys, src_keys, n * sizeof(K), 0, stream, "sort_segments");
  if (value_bytes)
    cuda_detail::stage(vals, src_vals, n * value_bytes, 0, stream, "sort_segments");
  if (n == 0 || num_segments == 0) return;
  cuda_detail::with_order(descending, [&](auto comp) {
    if (value_bytes == 0) {
      cuda_detail::check(
          stable ? corank::cuda::stable_sort_segments(keys, n, offsets, num_segments, comp, stream)
                 : corank::cuda::sort_segments(keys, n, offsets, num_segments, comp, stream),
          "sort_segments");
      return;
    }
    with_value_type(value_bytes, [&](auto value) {
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

template <class K>
void ops<K>::segmented_scan(const K* in, K* out, std::size_t n, const std::int64_t* offsets,
                            std::size_t num_segments, scan_op op, bool exclusive, K init,
                            stream_handle handle) {
  if constexpr (cuda_detail::scannable<K>) {
    const cudaStream_t stream = cuda_detail::as_stream(handle);
    with_scan_op(op, [&](auto scan) {
      cuda_detail::check(
          exclusive ? corank::cuda::segmented_exclusive_scan(in, out, n, offsets, num_segments,
                                                             init, scan, stream)
                    : corank::cuda::segmented_inclusive_scan(in, out, n, offsets, num_segments,
                                                             scan, stream),
          "segmented_scan");
    });
  } else {
    (void)in, (void)out, (void)n, (void)offsets, (void)num_segments, (void)op, (void)exclusive,
        (void)init, (void)handle;
    throw std::invalid_argument("corank.segmented_scan: the GPU scans take 4- or 8-byte values");
  }
}

template <class K>
void ops<K>::spmv_scan(K* a, const K* scale, std::size_t n, const std::int64_t* offsets,
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
