// Shared pieces of the GPU benchmarks: checked CUDA calls, RAII device arrays, event timing.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/timing.hpp"

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
  /// A copy of `host` on the device.
  explicit device_vector(const std::vector<T>& host) : device_vector(host.size()) {
    cuda_check(cudaMemcpy(data, host.data(), size * sizeof(T), cudaMemcpyHostToDevice),
               "copy to device");
  }
  ~device_vector() { cudaFree(data); }
  device_vector(const device_vector&) = delete;
  device_vector& operator=(const device_vector&) = delete;

  std::vector<T> to_host() const {
    std::vector<T> h(size);
    cuda_check(cudaMemcpy(h.data(), data, size * sizeof(T), cudaMemcpyDeviceToHost),
               "copy to host");
    return h;
  }
};

/// Times `run` by CUDA events on the default stream, one run per sample (see measure_reported);
/// `prepare` runs untimed before each run: restoring an in-place sort's input, say.
inline stats measure_device(const std::function<cudaError_t()>& run, const timing_config& cfg,
                            const std::function<void()>& prepare = {}) {
  cudaEvent_t start, stop;
  cuda_check(cudaEventCreate(&start), "event");
  cuda_check(cudaEventCreate(&stop), "event");
  const stats s = measure_reported(
      [&] {
        if (prepare) prepare();
        cuda_check(cudaEventRecord(start), "event");
        cuda_check(run(), "timed launch");
        cuda_check(cudaEventRecord(stop), "event");
        cuda_check(cudaEventSynchronize(stop), "timed run");
        float ms = 0;
        cuda_check(cudaEventElapsedTime(&ms, start, stop), "event");
        return double(ms);
      },
      cfg);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return s;
}

}  // namespace corank::bench
