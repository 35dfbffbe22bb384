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

}  // namespace corank::backend
