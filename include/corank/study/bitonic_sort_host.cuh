// corank::study::cuda::bitonic_sort_host: the study's sort of a host array on the GPU, with the
// times of its three parts (copy in, sort, copy out) apart, as the study reported them.
//
//   cudaError_t bitonic_sort_host(host_keys, n, comp = corank::less{}, timings* = nullptr,
//                                 stream = 0);                                    (blocking)
//   Also with a leading memory resource, and with the caller's device buffer (temp, temp_bytes
//   before comp; bitonic_sort_host_temp_bytes<Key>(n): the device copy), memory.cuh.
//
// The keys go through a device copy sorted by corank::cuda::bitonic_sort (its contract: not
// stable, keys trivially copyable, up to 16 bytes). host_keys: a host pointer, ideally pinned
// with cudaMallocHost (pageable memory works, slower). Blocks until done; whatever failed, what
// was queued is done before returning.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/functional.hpp"

namespace corank::study::cuda {

/// Times of bitonic_sort_host, in milliseconds (device events).
struct transfer_timings {
  float h2d_ms = 0, kernel_ms = 0, d2h_ms = 0;
};

namespace detail {

/// The device copy of bitonic_sort_host, its temporary storage.
template <class Key>
std::size_t host_sort_bytes(std::size_t n) {
  corank::cuda::detail::temporary_layout layout;
  layout.add<Key>(n);
  return layout.bytes();
}

/// bitonic_sort_host: the keys through a device copy in `storage`, timed by events on `stream`.
template <class Key, class Compare>
cudaError_t bitonic_sort_host_impl(const corank::cuda::temporary_storage& storage, Key* host_keys,
                                   std::size_t n, Compare comp, transfer_timings* timings,
                                   cudaStream_t stream) {
  if (n && !host_keys) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  cudaEvent_t marks[4] = {};
  cudaError_t status = cudaSuccess;
  for (auto& e : marks)
    if (status == cudaSuccess) status = cudaEventCreate(&e);
  if (status == cudaSuccess)
    status = corank::cuda::detail::with_temporary_storage(
        storage, host_sort_bytes<Key>(n), stream, [&](void* temp) {
          Key* device_keys = static_cast<Key*>(temp);
          const std::size_t bytes = n * sizeof(Key);
          CORANK_CUDA_TRY(cudaEventRecord(marks[0], stream));
          CORANK_CUDA_TRY(
              cudaMemcpyAsync(device_keys, host_keys, bytes, cudaMemcpyHostToDevice, stream));
          CORANK_CUDA_TRY(cudaEventRecord(marks[1], stream));
          CORANK_CUDA_TRY(corank::cuda::detail::bitonic_sort_impl(
              device_keys, static_cast<corank::no_value*>(nullptr), n, comp, stream));
          CORANK_CUDA_TRY(cudaEventRecord(marks[2], stream));
          CORANK_CUDA_TRY(
              cudaMemcpyAsync(host_keys, device_keys, bytes, cudaMemcpyDeviceToHost, stream));
          return cudaEventRecord(marks[3], stream);
        });
  // Whatever failed, what was queued (the storage given back too) is done before returning.
  const cudaError_t synced = cudaStreamSynchronize(stream);
  if (status == cudaSuccess) status = synced;
  if (status == cudaSuccess && timings) {
    cudaEventElapsedTime(&timings->h2d_ms, marks[0], marks[1]);
    cudaEventElapsedTime(&timings->kernel_ms, marks[1], marks[2]);
    cudaEventElapsedTime(&timings->d2h_ms, marks[2], marks[3]);
  }
  for (auto& e : marks)
    if (e) cudaEventDestroy(e);
  return status;
}

}  // namespace detail

/// Bytes of temporary storage bitonic_sort_host needs for n keys: their device copy.
template <class Key>
std::size_t bitonic_sort_host_temp_bytes(std::size_t n) {
  return detail::host_sort_bytes<Key>(n);
}

/// Sorts a host array: copies it to the device (temporary storage from the library's cache),
/// sorts, copies it back, and reports the three times separately (events on `stream`). Blocks
/// until done. Pinned memory (cudaMallocHost) gives full transfer speed; pageable memory works,
/// slower.
template <class Key, class Compare = corank::less, corank::cuda::detail::not_a_buffer<Compare> = 0>
cudaError_t bitonic_sort_host(Key* host_keys, std::size_t n, Compare comp = {},
                              transfer_timings* timings = nullptr, cudaStream_t stream = 0) {
  corank::cuda::detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_host_impl({}, host_keys, n, comp, timings, stream);
}

/// As above, with the device copy from `resource`.
template <class Key, class Compare = corank::less>
cudaError_t bitonic_sort_host(corank::cuda::memory_resource_ref resource, Key* host_keys,
                              std::size_t n, Compare comp = {}, transfer_timings* timings = nullptr,
                              cudaStream_t stream = 0) {
  corank::cuda::detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_host_impl(resource, host_keys, n, comp, timings, stream);
}

/// As above, with the device copy in the caller's device buffer (>=
/// bitonic_sort_host_temp_bytes<Key>(n)).
template <class Key, class Compare = corank::less>
cudaError_t bitonic_sort_host(Key* host_keys, std::size_t n, void* temp, std::size_t temp_bytes,
                              Compare comp = {}, transfer_timings* timings = nullptr,
                              cudaStream_t stream = 0) {
  corank::cuda::detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_host_impl({temp, temp_bytes}, host_keys, n, comp, timings, stream);
}

}  // namespace corank::study::cuda
