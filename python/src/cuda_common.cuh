// What the operations of ops.hpp share on the GPU: streams, errors, staging copies, the
// comparator. Each family's header (cuda_merge.cuh, ...) calls the corank::cuda entry points on
// the caller's stream with the library's cached temporary storage; nothing here synchronises.
#pragma once

#include <corank/cuda.cuh>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "choices.hpp"
#include "ops.hpp"

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

/// The segmented scans take 4- and 8-byte arithmetic values (the binding refuses the others).
template <class K>
constexpr bool scannable = sizeof(K) >= 4;

}  // namespace cuda_detail

}  // namespace corank_py
