// corank::cuda::bitonic_sort and bitonic_sort_by_key: in-place bitonic sort of a device array.
//
//   cudaError_t bitonic_sort(keys, n, comp = corank::less{}, stream = 0);
//   cudaError_t bitonic_sort_by_key(keys, vals, n, comp = corank::less{}, stream = 0);
//   cudaError_t bitonic_sort_host(host_keys, n, comp, timings*, stream);   (blocking)
//   Each also with a leading memory resource, and with the caller's buffer (temp, temp_bytes
//   before comp; bitonic_sort_temp_bytes<Key, Value>(n) = 0, bitonic_sort_host_temp_bytes<Key>(n):
//   the device copy), memory.cuh.
//
// Preconditions: device pointers (bitonic_sort_host: a host pointer, ideally pinned with
// cudaMallocHost); comp a strict weak order callable on the device (violated: NaN keys, an
// inconsistent comparator, the network still ends, with a permutation of the keys in an
// unspecified order); keys and values do not overlap (cudaErrorInvalidValue). Any n (64-bit), no
// padding asked of the caller: positions past n are virtual +infinity, never read or written. Not
// stable. Descending order: pass corank::greater{} (or any comparator). Keys and values: trivially
// copyable, up to 16 bytes. Asynchronous on `stream`, no temporary storage (bitonic_sort_host:
// the device copy, from the library's cache, a resource or the caller's buffer).
// Work: O(n log^2 n) compare-exchanges; memory passes: 1 + sum over the stages s above the tile
// of (ceil((s - tile bits) / global bits) + 1), see tuning/sort.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "corank/cuda/detail/bitonic_sort.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {

/// Times of bitonic_sort_host, in milliseconds (device events).
struct transfer_timings {
  float h2d_ms = 0, kernel_ms = 0, d2h_ms = 0;
};

namespace detail {

template <class Key, class Value>
constexpr void check_sort_types() {
  static_assert(std::is_trivially_copyable_v<Key> && sizeof(Key) <= 16,
                "corank::cuda sorts: keys must be trivially copyable, at most 16 bytes");
  static_assert(std::is_trivially_copyable_v<Value> && sizeof(Value) <= 16,
                "corank::cuda sorts: values must be trivially copyable, at most 16 bytes");
}

/// The device copy of bitonic_sort_host, its temporary storage.
template <class Key>
std::size_t host_sort_bytes(std::size_t n) {
  temporary_layout layout;
  layout.add<Key>(n);
  return layout.bytes();
}

/// bitonic_sort_host: the keys through a device copy in `storage`, timed by events on `stream`.
template <class Key, class Compare>
cudaError_t bitonic_sort_host_impl(const temporary_storage& storage, Key* host_keys, std::size_t n,
                                   Compare comp, transfer_timings* timings, cudaStream_t stream) {
  if (n && !host_keys) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  cudaEvent_t marks[4] = {};
  cudaError_t status = cudaSuccess;
  for (auto& e : marks)
    if (status == cudaSuccess) status = cudaEventCreate(&e);
  if (status == cudaSuccess)
    status = with_temporary_storage(storage, host_sort_bytes<Key>(n), stream, [&](void* temp) {
      Key* device_keys = static_cast<Key*>(temp);
      const std::size_t bytes = n * sizeof(Key);
      CORANK_CUDA_TRY(cudaEventRecord(marks[0], stream));
      CORANK_CUDA_TRY(
          cudaMemcpyAsync(device_keys, host_keys, bytes, cudaMemcpyHostToDevice, stream));
      CORANK_CUDA_TRY(cudaEventRecord(marks[1], stream));
      CORANK_CUDA_TRY(
          bitonic_sort_impl(device_keys, static_cast<block::no_value*>(nullptr), n, comp, stream));
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

/// Bytes of temporary storage the caller's-buffer overloads of bitonic_sort (Value = no_value)
/// and bitonic_sort_by_key need for n items: none (the network sorts in place; the query keeps
/// the shape of every algorithm's).
template <class Key, class Value = no_value>
constexpr std::size_t bitonic_sort_temp_bytes(std::size_t /*n*/) {
  return 0;
}

/// Bytes of temporary storage bitonic_sort_host needs for n keys: their device copy.
template <class Key>
std::size_t bitonic_sort_host_temp_bytes(std::size_t n) {
  return detail::host_sort_bytes<Key>(n);
}

/// Sorts keys[0, n) in place by comp (not stable).
template <class Key, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t bitonic_sort(Key* keys, std::size_t n, Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_from({}, keys, static_cast<block::no_value*>(nullptr), n, comp,
                                   stream);
}

/// As above, with temporary storage (none needed) from `resource`.
template <class Key, class Compare = corank::less>
cudaError_t bitonic_sort(memory_resource_ref resource, Key* keys, std::size_t n, Compare comp = {},
                         cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_from(resource, keys, static_cast<block::no_value*>(nullptr), n, comp,
                                   stream);
}

/// As above, with the caller's temporary storage (>= bitonic_sort_temp_bytes<Key>(n), i.e. any).
template <class Key, class Compare = corank::less>
cudaError_t bitonic_sort(Key* keys, std::size_t n, void* temp, std::size_t temp_bytes,
                         Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_from({temp, temp_bytes}, keys, static_cast<block::no_value*>(nullptr),
                                   n, comp, stream);
}

/// Sorts keys[0, n) in place by comp and moves vals[0, n) alongside (not stable).
template <class Key, class Value, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t bitonic_sort_by_key(Key* keys, Value* vals, std::size_t n, Compare comp = {},
                                cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Value>();
  return detail::bitonic_sort_from({}, keys, vals, n, comp, stream);
}

/// As above, with temporary storage (none needed) from `resource`.
template <class Key, class Value, class Compare = corank::less>
cudaError_t bitonic_sort_by_key(memory_resource_ref resource, Key* keys, Value* vals, std::size_t n,
                                Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Value>();
  return detail::bitonic_sort_from(resource, keys, vals, n, comp, stream);
}

/// As above, with the caller's temporary storage (>= bitonic_sort_temp_bytes<Key, Value>(n)).
template <class Key, class Value, class Compare = corank::less>
cudaError_t bitonic_sort_by_key(Key* keys, Value* vals, std::size_t n, void* temp,
                                std::size_t temp_bytes, Compare comp = {},
                                cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Value>();
  return detail::bitonic_sort_from({temp, temp_bytes}, keys, vals, n, comp, stream);
}

/// Sorts a host array: copies it to the device (temporary storage from the library's cache),
/// sorts, copies it back, and reports the three times separately (events on `stream`). Blocks
/// until done. Pinned memory (cudaMallocHost) gives full transfer speed; pageable memory works,
/// slower.
template <class Key, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t bitonic_sort_host(Key* host_keys, std::size_t n, Compare comp = {},
                              transfer_timings* timings = nullptr, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_host_impl({}, host_keys, n, comp, timings, stream);
}

/// As above, with the device copy from `resource`.
template <class Key, class Compare = corank::less>
cudaError_t bitonic_sort_host(memory_resource_ref resource, Key* host_keys, std::size_t n,
                              Compare comp = {}, transfer_timings* timings = nullptr,
                              cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_host_impl(resource, host_keys, n, comp, timings, stream);
}

/// As above, with the device copy in the caller's device buffer (>=
/// bitonic_sort_host_temp_bytes<Key>(n)).
template <class Key, class Compare = corank::less>
cudaError_t bitonic_sort_host(Key* host_keys, std::size_t n, void* temp, std::size_t temp_bytes,
                              Compare comp = {}, transfer_timings* timings = nullptr,
                              cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_host_impl({temp, temp_bytes}, host_keys, n, comp, timings, stream);
}

}  // namespace corank::cuda
