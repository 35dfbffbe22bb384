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
#include "corank/cuda/detail/sort_entry_points.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {

/// Bytes of temporary storage the caller's-buffer overloads of bitonic_sort (Value = no_value)
/// and bitonic_sort_by_key need for n items: none (the network sorts in place; the query keeps
/// the shape of every algorithm's).
template <class Key, class Value = no_value>
constexpr std::size_t bitonic_sort_temp_bytes(std::size_t /*n*/) {
  return 0;
}

/// bitonic_sort(keys, n, ...) sorts keys[0, n) in place by comp, not stable;
/// bitonic_sort_by_key(keys, vals, n, ...) moves vals[0, n) alongside. Each with temporary storage
/// (none needed) from the library's cache, a memory resource, or the caller's buffer (temp,
/// temp_bytes >= bitonic_sort_temp_bytes<Key, Value>(n), i.e. any).
CORANK_CUDA_SORT_ENTRY_POINTS(bitonic_sort, detail::bitonic_sort_from)

}  // namespace corank::cuda
