// The CLI's GPU sort: a host array to the device, corank::cuda::stable_sort (merge, automatic)
// or bitonic_sort, and back. The kernel time excludes the transfers.
#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "support/backend/device_scope.hpp"
#include "support/backend/gpu_sort.hpp"
#include "support/io/element_type.hpp"

namespace corank::backend {

template <class T>
double gpu_sort(T* keys, std::size_t n, gpu_sort_algorithm algorithm) {
  if (n == 0) return 0.0;
  device_scope s("GPU sort");
  T* d = s.upload(keys, n, "copying the keys to the device");
  double ms = 0;
  // automatic = merge: it measured faster than the bitonic sort at every size
  // (docs/PERFORMANCE.md).
  if (algorithm == gpu_sort_algorithm::bitonic) {
    ms = s.time_ms([&] { return cuda::bitonic_sort(d, n); }, "sorting");
  } else {
    const std::size_t temp_bytes = cuda::stable_sort_temp_bytes<T>(n);
    void* temp = s.allocate<unsigned char>(temp_bytes);
    ms = s.time_ms([&] { return cuda::stable_sort(d, n, temp, temp_bytes); }, "sorting");
  }
  s.download(keys, d, n);
  return ms;
}

CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE_GPU_SORT)

}  // namespace corank::backend
