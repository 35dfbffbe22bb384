// One CLI bridge call on the GPU: owns its device allocations (freed even when an exception
// leaves), turns CUDA errors into exceptions that say which step failed, and times launches with
// device events so that the reported time excludes the transfers.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace corank::backend {

class device_scope {
 public:
  /// `what` prefixes every error, e.g. "GPU merge".
  explicit device_scope(std::string what) : what_(std::move(what)) {}
  ~device_scope() {
    for (void* p : memory_) cudaFree(p);
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

  void check(cudaError_t status, const char* step) const {
    if (status != cudaSuccess)
      throw std::runtime_error(what_ + ": " + step + ": " + cudaGetErrorString(status));
  }

  /// Device memory for n items (never a null pointer, even for n == 0), plus `slack` bytes.
  template <class T>
  T* allocate(std::size_t n, std::size_t slack = 0) {
    void* p = nullptr;
    check(cudaMalloc(&p, n * sizeof(T) + slack + (n == 0)), "allocating device memory");
    memory_.push_back(p);
    return static_cast<T*>(p);
  }

  /// A device copy of host[0, n).
  template <class T>
  T* upload(const T* host, std::size_t n, const char* step, std::size_t slack = 0) {
    T* device = allocate<T>(n, slack);
    if (n) check(cudaMemcpy(device, host, n * sizeof(T), cudaMemcpyHostToDevice), step);
    return device;
  }

  template <class T>
  void download(T* host, const T* device, std::size_t n) const {
    if (n)
      check(cudaMemcpy(host, device, n * sizeof(T), cudaMemcpyDeviceToHost),
            "copying the result back");
  }

  /// Runs `launch()` (which returns a cudaError_t) between two events on the default stream and
  /// waits for it; returns the elapsed device time in ms.
  template <class Launch>
  double time_ms(Launch&& launch, const char* step) {
    timer t;
    check(cudaEventCreate(&t.start), "creating an event");
    check(cudaEventCreate(&t.stop), "creating an event");
    check(cudaEventRecord(t.start), "recording an event");
    check(launch(), step);
    check(cudaEventRecord(t.stop), "recording an event");
    check(cudaEventSynchronize(t.stop), step);
    float ms = 0;
    check(cudaEventElapsedTime(&ms, t.start, t.stop), "reading the timer");
    return ms;
  }

 private:
  struct timer {
    cudaEvent_t start = nullptr, stop = nullptr;
    ~timer() {
      if (start) cudaEventDestroy(start);
      if (stop) cudaEventDestroy(stop);
    }
  };

  std::string what_;
  std::vector<void*> memory_;
};

}  // namespace corank::backend
