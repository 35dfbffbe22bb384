// GPU merge for the CLI: host arrays in, host array out.
#pragma once

#include <cstddef>

namespace corank::backend {

/// Merges host arrays a[0,m) and b[0,n) into out[0,m+n) on the GPU. Returns the kernel time in
/// milliseconds (device events, transfers excluded). Throws std::runtime_error on CUDA errors.
template <class T>
double gpu_merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out);

}  // namespace corank::backend
