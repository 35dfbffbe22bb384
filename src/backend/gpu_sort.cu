// The CLI's GPU sort: a host array to the device, corank::cuda::stable_sort (merge, automatic)
// or bitonic_sort, and back. The kernel time excludes the transfers.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "backend/device_scope.hpp"
#include "backend/gpu_sort.hpp"
#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "io/element_type.hpp"

namespace corank::backend {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("GPU sort: ") + what + ": " + cudaGetErrorString(status));
}

}  // namespace

template <class T>
double gpu_sort(T* keys, std::size_t n, gpu_sort_algorithm algorithm) {
  if (n == 0) return 0.0;
  device_scope s;
  // automatic = merge: it measured faster than the bitonic sort at every size
  // (docs/PERFORMANCE.md).
  const bool bitonic = algorithm == gpu_sort_algorithm::bitonic;
  const std::size_t temp_bytes = bitonic ? 0 : cuda::stable_sort_temp_bytes<T>(n);
  check(cudaMalloc(&s.memory[0], n * sizeof(T)), "allocating device memory");
  if (temp_bytes) check(cudaMalloc(&s.memory[1], temp_bytes), "allocating device memory");
  T* d = static_cast<T*>(s.memory[0]);
  check(cudaMemcpy(d, keys, n * sizeof(T), cudaMemcpyHostToDevice),
        "copying the keys to the device");
  check(cudaEventCreate(&s.events[0]), "creating an event");
  check(cudaEventCreate(&s.events[1]), "creating an event");
  check(cudaEventRecord(s.events[0]), "recording an event");
  check(bitonic ? cuda::bitonic_sort(d, n) : cuda::stable_sort(d, n, s.memory[1], temp_bytes),
        "launching the sort");
  check(cudaEventRecord(s.events[1]), "recording an event");
  check(cudaEventSynchronize(s.events[1]), "running the sort");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, s.events[0], s.events[1]), "timing the sort");
  check(cudaMemcpy(keys, d, n * sizeof(T), cudaMemcpyDeviceToHost), "copying the result back");
  return ms;
}

#define CORANK_INSTANTIATE(T, tag) template double gpu_sort<T>(T*, std::size_t, gpu_sort_algorithm);
CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE)
#undef CORANK_INSTANTIATE

}  // namespace corank::backend
