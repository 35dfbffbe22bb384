// corank::cuda::bitonic_sort and bitonic_sort_by_key: in-place bitonic sort of a device array.
//
//   cudaError_t bitonic_sort(keys, n, comp = corank::less{}, stream = 0);
//   cudaError_t bitonic_sort_by_key(keys, vals, n, comp = corank::less{}, stream = 0);
//   Each also with a leading memory resource, and with the caller's buffer (temp, temp_bytes
//   before comp; bitonic_sort_temp_bytes<Key, Value>(n) = 0), memory.cuh. The study's sort of a
//   host array with its transfer timings is corank::study::cuda::bitonic_sort_host
//   (corank/study/bitonic_sort_host.cuh).
//
// Preconditions: device pointers; comp a strict weak order callable on the device (violated: NaN
// keys, an inconsistent comparator, the network still ends, with a permutation of the keys in an
// unspecified order); keys and values do not overlap (cudaErrorInvalidValue). Any n (64-bit), no
// padding asked of the caller: positions past n are virtual +infinity, never read or written. Not
// stable. Descending order: pass corank::greater{} (or any comparator). Keys and values: trivially
// copyable, up to 16 bytes. Asynchronous on `stream`, no temporary storage.
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

namespace detail {

template <class Key, class Value>
constexpr void check_sort_types() {
  static_assert(std::is_trivially_copyable_v<Key> && sizeof(Key) <= 16,
                "corank::cuda sorts: keys must be trivially copyable, at most 16 bytes");
  static_assert(std::is_trivially_copyable_v<Value> && sizeof(Value) <= 16,
                "corank::cuda sorts: values must be trivially copyable, at most 16 bytes");
}

}  // namespace detail

/// Bytes of temporary storage the caller's-buffer overloads of bitonic_sort (Value = no_value)
/// and bitonic_sort_by_key need for n items: none (the network sorts in place; the query keeps
/// the shape of every algorithm's).
template <class Key, class Value = no_value>
constexpr std::size_t bitonic_sort_temp_bytes(std::size_t /*n*/) {
  return 0;
}

/// Sorts keys[0, n) in place by comp (not stable).
template <class Key, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t bitonic_sort(Key* keys, std::size_t n, Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_from({}, keys, static_cast<no_value*>(nullptr), n, comp, stream);
}

/// As above, with temporary storage (none needed) from `resource`.
template <class Key, class Compare = corank::less>
cudaError_t bitonic_sort(memory_resource_ref resource, Key* keys, std::size_t n, Compare comp = {},
                         cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_from(resource, keys, static_cast<no_value*>(nullptr), n, comp,
                                   stream);
}

/// As above, with the caller's temporary storage (>= bitonic_sort_temp_bytes<Key>(n), i.e. any).
template <class Key, class Compare = corank::less>
cudaError_t bitonic_sort(Key* keys, std::size_t n, void* temp, std::size_t temp_bytes,
                         Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::bitonic_sort_from({temp, temp_bytes}, keys, static_cast<no_value*>(nullptr), n,
                                   comp, stream);
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

}  // namespace corank::cuda
