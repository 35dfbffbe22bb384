// GPU merge for the CLI: host arrays in, host array out.
#pragma once

#include <cstddef>

#include "corank/cuda/tuning/merge_table.hpp"

namespace corank::backend {

/// Merges host arrays a[0,m) and b[0,n) into out[0,m+n) on the GPU. Returns the kernel time in
/// milliseconds (device events, transfers excluded). `tuning` (may be null): a measured table for
/// `automatic` (corank tune merge). Throws std::runtime_error on CUDA errors.
template <class T>
double gpu_merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out,
                 const cuda::merge_tuning* tuning = nullptr);

/// The explicit instantiation for one element type, for CORANK_FOR_EACH_ELEMENT_TYPE: in
/// gpu_merge.cu, or no_gpu.cpp in a build without CUDA.
#define CORANK_INSTANTIATE_GPU_MERGE(T, tag)                                     \
  template double gpu_merge<T>(const T*, std::size_t, const T*, std::size_t, T*, \
                               const cuda::merge_tuning*);

}  // namespace corank::backend
