// Launch setup, written once: what a kernel needs set or learned before its launches (its dynamic
// shared-memory opt-in, its shared-memory carveout, how many of its blocks a multiprocessor
// holds), done once per kernel and device and remembered per device. A value is remembered only
// when it was obtained: an error is returned to that call and the next call tries again. Kernel
// attributes belong to a device, so a process that switches devices sets up each one.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <tuple>

namespace corank::cuda::detail {

/// Dynamic shared memory any kernel may use; above it a kernel must opt in
/// (cudaFuncAttributeMaxDynamicSharedMemorySize), per kernel and per device.
inline constexpr std::size_t smem_without_optin_bytes = 48 * 1024;

/// Values learned once per (device, kernel, question), shared by every thread of the process.
/// The question's fields: what is asked (a launch_fact) and up to two of its parameters.
class launch_cache {
 public:
  enum launch_fact : int { smem_allowed, carveout_set, blocks_per_sm };
  struct key {
    int device;
    const void* kernel;
    launch_fact fact;
    long long a, b;
    bool operator<(const key& o) const {
      return std::tie(device, kernel, fact, a, b) < std::tie(o.device, o.kernel, o.fact, o.a, o.b);
    }
  };

  static launch_cache& instance() {
    static launch_cache* cache = new launch_cache;  // never destroyed: used until exit
    return *cache;
  }

  /// The value remembered for `k` into *value, or false when none is.
  bool find(const key& k, long long* value) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = values_.find(k);
    if (it == values_.end()) return false;
    *value = it->second;
    return true;
  }

  void remember(const key& k, long long value) {
    std::lock_guard<std::mutex> lock(mutex_);
    values_[k] = value;
  }

  /// *value for `k`: the remembered one, else compute(&value), remembered when it returns
  /// cudaSuccess. compute runs outside the lock (it may ask the cache too); two threads may both
  /// compute the same value, which is harmless since the facts are the same.
  template <class Compute>
  cudaError_t get(const key& k, long long* value, Compute&& compute) {
    if (find(k, value)) return cudaSuccess;
    const cudaError_t status = compute(value);
    if (status == cudaSuccess) remember(k, *value);
    return status;
  }

 private:
  mutable std::mutex mutex_;
  std::map<key, long long> values_;
};

/// Lets `kernel` launch with `bytes` of dynamic shared memory on the current device (the opt-in
/// above smem_without_optin_bytes). Once per kernel and device for the largest size asked so far.
template <class Kernel>
cudaError_t allow_smem(Kernel kernel, std::size_t bytes) {
  if (bytes <= smem_without_optin_bytes) return cudaSuccess;
  int device = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess) return status;
  auto& cache = launch_cache::instance();
  const launch_cache::key k{device, (const void*)kernel, launch_cache::smem_allowed, 0, 0};
  long long allowed = 0;
  if (cache.find(k, &allowed) && std::size_t(allowed) >= bytes) return cudaSuccess;
  status = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
  if (status == cudaSuccess) cache.remember(k, (long long)bytes);
  return status;
}

/// The current device's opt-in limit of dynamic shared memory per block, in *bytes.
inline cudaError_t smem_optin_limit(std::size_t* bytes) {
  int device = 0, optin = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status == cudaSuccess)
    status = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  *bytes = std::size_t(optin);
  return status;
}

/// Prefers the largest shared-memory carveout for `kernel` on the current device (once per device).
template <class Kernel>
cudaError_t prefer_max_shared_carveout(Kernel kernel) {
  int device = 0;
  const cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess) return status;
  long long unused = 0;
  return launch_cache::instance().get(
      {device, (const void*)kernel, launch_cache::carveout_set, 0, 0}, &unused, [&](long long*) {
        return cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    int(cudaSharedmemCarveoutMaxShared));
      });
}

/// How many blocks of `kernel` (`threads` threads, `smem` bytes of dynamic shared memory, allowed
/// first) one multiprocessor of the current device holds, in *blocks; once per device and shape.
template <class Kernel>
cudaError_t blocks_per_multiprocessor(Kernel kernel, int threads, std::size_t smem, int* blocks) {
  int device = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status != cudaSuccess) return status;
  long long count = 0;
  status = launch_cache::instance().get(
      {device, (const void*)kernel, launch_cache::blocks_per_sm, threads, (long long)smem}, &count,
      [&](long long* value) {
        cudaError_t e = allow_smem(kernel, smem);
        int n = 0;
        if (e == cudaSuccess)
          e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, smem);
        *value = n;
        return e;
      });
  *blocks = int(count);
  return status;
}

}  // namespace corank::cuda::detail
