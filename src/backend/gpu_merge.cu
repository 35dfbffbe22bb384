// The CLI's GPU merge: host arrays to the device, corank::cuda::merge (automatic), and back.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "backend/device_scope.hpp"
#include "backend/gpu_merge.hpp"
#include "corank/cuda/merge.cuh"
#include "io/element_type.hpp"

namespace corank::backend {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("GPU merge: ") + what + ": " + cudaGetErrorString(status));
}

}  // namespace

template <class T>
double gpu_merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out) {
  if (m + n == 0) return 0.0;
  device_scope s;
  const std::size_t sizes[3] = {m, n, m + n};
  for (int i = 0; i < 3; ++i)
    if (sizes[i]) check(cudaMalloc(&s.memory[i], sizes[i] * sizeof(T)), "allocating device memory");
  T* da = static_cast<T*>(s.memory[0]);
  T* db = static_cast<T*>(s.memory[1]);
  T* dout = static_cast<T*>(s.memory[2]);
  if (m) check(cudaMemcpy(da, a, m * sizeof(T), cudaMemcpyHostToDevice), "copying A to the device");
  if (n) check(cudaMemcpy(db, b, n * sizeof(T), cudaMemcpyHostToDevice), "copying B to the device");
  check(cudaEventCreate(&s.events[0]), "creating an event");
  check(cudaEventCreate(&s.events[1]), "creating an event");
  check(cudaEventRecord(s.events[0]), "recording an event");
  check(cuda::merge(da, m, db, n, dout), "launching the merge");
  check(cudaEventRecord(s.events[1]), "recording an event");
  check(cudaEventSynchronize(s.events[1]), "running the merge");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, s.events[0], s.events[1]), "timing the merge");
  check(cudaMemcpy(out, dout, (m + n) * sizeof(T), cudaMemcpyDeviceToHost),
        "copying the result back");
  return ms;
}

#define CORANK_INSTANTIATE(T, tag) \
  template double gpu_merge<T>(const T*, std::size_t, const T*, std::size_t, T*);
CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE)
#undef CORANK_INSTANTIATE

}  // namespace corank::backend
