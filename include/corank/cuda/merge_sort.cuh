// corank::cuda::stable_sort and stable_sort_by_key: stable merge sort of a device array.
//
//   cudaError_t stable_sort(keys, n, comp = corank::less{}, stream = 0);
//   cudaError_t stable_sort_by_key(keys, vals, n, comp = corank::less{}, stream = 0);
//   cudaError_t stable_sort(resource, keys, n, comp, stream);                  (a resource's)
//   std::size_t stable_sort_temp_bytes<Key, Value = none>(n);
//   cudaError_t stable_sort(keys, n, temp, temp_bytes, comp, stream);          (caller's temp)
//   cudaError_t stable_sort_by_key(keys, vals, n, temp, temp_bytes, comp, stream);
//
// Preconditions: device pointers; comp a strict weak order callable on the device (violated:
// NaN keys, an inconsistent comparator, every kernel still ends, and the keys come back in an
// unspecified order, not necessarily a permutation). Keys, values and the caller's temporary
// storage must not overlap (cudaErrorInvalidValue, like null pointers with n > 0). Stable: keys
// that compare equal keep their input order (values too). Any n (64-bit). Keys and values
// trivially copyable, up to 16 bytes. Asynchronous on `stream`; the temporary storage (a second
// array of keys and values, the four-way passes' cuts and grid samples: stable_sort_temp_bytes)
// comes from the library's cache, a memory resource or the caller's buffer (memory.cuh); a
// caller's buffer smaller than stable_sort_temp_bytes gives cudaErrorInvalidValue.
// Work: O(n log n): a tile sort (odd-even transposition in registers, or for integer and
// floating-point keys under less / greater Batcher's network, then merges in shared memory), then
// merge passes over the whole array: from a few million keys ceil(log4(n / tile))
// four-way passes (the tile chosen for the fewest), each a cut pass at samples
// (four_way_split.hpp) and one tile of parts per block; otherwise ceil(log2(n / tile)) two-way
// passes, each the production merge's partitioned scheme over every pair of runs at once. Four-way
// passes keep grid samples of their output (grid_sampled_ptr), so the next cut pass's searches
// read the array only in their last levels; each search takes a few lanes until the arrays are
// large enough that the cut pass is bound by its reads rather than their latency. Adaptive from
// 32 MB of keys and values (tuning::merge_sort_policy::order_check_from_bytes): a check of the
// input's order comes first (no host synchronisation); input already sorted costs that one read
// (and stays in place), input in strictly descending order one read and a reversal, and every
// later kernel returns at once; other input stops the check within its first chunks.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/detail/merge_sort.cuh"
#include "corank/cuda/detail/sort_entry_points.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {
namespace detail {

template <class Key, class Value, class Compare>
cudaError_t merge_sort_impl(const temporary_storage& storage, Key* keys, Value* vals, std::size_t n,
                            Compare comp, cudaStream_t stream) {
  using layout = merge_sort_layout<Key, Value>;
  if ((n && !keys) || (layout::has_values && n && !vals)) return cudaErrorInvalidValue;
  if (n < 2) return cudaSuccess;
  // Keys and values of up to 16 bytes: n / 16 keeps their byte counts from overflowing.
  if (n > std::numeric_limits<std::size_t>::max() / 16) return cudaErrorInvalidValue;
  const std::size_t key_bytes = n * sizeof(Key);
  const std::size_t value_bytes = layout::has_values ? n * sizeof(Value) : 0;
  if (overlaps(keys, key_bytes, vals, value_bytes)) return cudaErrorInvalidValue;
  if (storage.callers_buffer && (overlaps(storage.buffer, storage.buffer_bytes, keys, key_bytes) ||
                                 overlaps(storage.buffer, storage.buffer_bytes, vals, value_bytes)))
    return cudaErrorInvalidValue;
  return with_temporary_storage(storage, layout::bytes(n), stream, [&](void* temp) {
    return merge_sort_run(keys, vals, n, temp, comp, stream);
  });
}

}  // namespace detail

/// Bytes of temporary storage the caller's-buffer overloads need for n items (the largest
/// size_t if that overflows).
template <class Key, class Value = no_value>
std::size_t stable_sort_temp_bytes(std::size_t n) {
  return n < 2 ? 0 : detail::merge_sort_layout<Key, Value>::bytes(n);
}

/// stable_sort(keys, n, ...) sorts keys[0, n) in place, stably, by comp;
/// stable_sort_by_key(keys, vals, n, ...) moves vals[0, n) alongside. Each with temporary storage
/// from the library's cache, a memory resource, or the caller's buffer (temp, temp_bytes >=
/// stable_sort_temp_bytes<Key, Value>(n)).
CORANK_CUDA_SORT_ENTRY_POINTS(stable_sort, detail::merge_sort_impl)

}  // namespace corank::cuda
