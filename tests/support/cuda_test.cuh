// GPU test support: skip cleanly without a GPU, RAII device buffers, checked CUDA calls.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

namespace corank::test {

inline bool gpu_present() {
  static const bool present = [] {
    int count = 0;
    const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    cudaGetLastError();
    return ok;
  }();
  return present;
}

/// First statement of every GPU test.
#define CORANK_REQUIRE_GPU() \
  if (!::corank::test::gpu_present()) GTEST_SKIP() << "no CUDA device"

#define CORANK_ASSERT_CUDA(expr) ASSERT_EQ((expr), cudaSuccess) << cudaGetErrorString(expr)

/// A device array of T; `poison` fills every byte with 0xA5 so unwritten outputs show.
template <class T>
class device_buffer {
 public:
  explicit device_buffer(std::size_t count = 0) : count_(count) {
    if (count_ && cudaMalloc(&data_, count_ * sizeof(T)) != cudaSuccess) {
      data_ = nullptr;
      ADD_FAILURE() << "cudaMalloc of " << count_ * sizeof(T) << " bytes failed";
    }
  }
  explicit device_buffer(const std::vector<T>& host) : device_buffer(host.size()) {
    if (data_ && count_) cudaMemcpy(data_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~device_buffer() { cudaFree(data_); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  void poison() {
    if (data_) cudaMemset(data_, 0xA5, count_ * sizeof(T));
  }
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    if (data_ && count_) cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace corank::test
