// Shared pieces of the GPU benchmarks: checked CUDA calls, RAII device arrays, event timing.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace corank::bench {

inline void cuda_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

template <class T>
struct device_vector {
  T* data = nullptr;
  std::size_t size = 0;
  explicit device_vector(std::size_t n) : size(n) {
    cuda_check(cudaMalloc(&data, std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc");
  }
  ~device_vector() { cudaFree(data); }
  device_vector(const device_vector&) = delete;
  device_vector& operator=(const device_vector&) = delete;
};

/// Median of `repeats` event-timed runs of `run` after `warmups` untimed ones, in ms. `prepare`
/// runs (untimed) before each run: restoring an in-place sort's input, say.
inline double median_ms(const std::function<cudaError_t()>& run, int repeats,
                        const std::function<void()>& prepare = {}, int warmups = 2) {
  cudaEvent_t start, stop;
  cuda_check(cudaEventCreate(&start), "event");
  cuda_check(cudaEventCreate(&stop), "event");
  std::vector<float> ms;
  for (int i = 0; i < warmups + repeats; ++i) {
    if (prepare) prepare();
    cuda_check(cudaEventRecord(start), "event");
    cuda_check(run(), "timed launch");
    cuda_check(cudaEventRecord(stop), "event");
    cuda_check(cudaEventSynchronize(stop), "timed run");
    float t = 0;
    cuda_check(cudaEventElapsedTime(&t, start, stop), "event");
    if (i >= warmups) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
  return ms[ms.size() / 2];
}

}  // namespace corank::bench
