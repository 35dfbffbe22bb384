// GPU sort for the CLI: a host array in, sorted in place.
#pragma once

#include <cstddef>

namespace corank::backend {

/// Which GPU sort: the co-rank merge sort, the bitonic sort, or the better one for the input.
enum class gpu_sort_algorithm { merge, bitonic, automatic };

/// Sorts the host array keys[0,n) ascending on the GPU. Returns the kernel time in milliseconds
/// (device events, transfers excluded). Throws std::runtime_error on CUDA errors.
template <class T>
double gpu_sort(T* keys, std::size_t n, gpu_sort_algorithm algorithm);

/// The explicit instantiation for one element type, for CORANK_FOR_EACH_ELEMENT_TYPE: in
/// gpu_sort.cu, or no_gpu.cpp in a build without CUDA.
#define CORANK_INSTANTIATE_GPU_SORT(T, tag) \
  template double gpu_sort<T>(T*, std::size_t, gpu_sort_algorithm);

}  // namespace corank::backend
