// corank::cuda::stable_sort and stable_sort_by_key: stable merge sort of a device array.
//
//   cudaError_t stable_sort(keys, n, comp = corank::less{}, stream = 0);
//   cudaError_t stable_sort_by_key(keys, vals, n, comp = corank::less{}, stream = 0);
//   std::size_t stable_sort_temp_bytes<Key, Value = none>(n);
//   cudaError_t stable_sort(keys, n, temp, temp_bytes, comp, stream);          (caller's temp)
//   cudaError_t stable_sort_by_key(keys, vals, n, temp, temp_bytes, comp, stream);
//
// Preconditions: device pointers; comp a strict weak order callable on the device. Stable: keys
// that compare equal keep their input order (values too). Any n (64-bit). Keys and values
// trivially copyable, up to 16 bytes. Asynchronous on `stream`; the temporary storage (a second
// array of keys and values, stable_sort_temp_bytes) is stream-ordered
// (cudaMallocAsync) or the caller's.
// Work: O(n log n): a tile sort (odd-even transposition in registers, then merges in shared
// memory), then ceil(log2(n / tile)) merge passes, each the production merge's partitioned scheme
// (a partition pass by co-rank, one tile per block) over every pair of runs at once.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/merge_sort.cuh"
#include "corank/cuda/merge.cuh"
#include "corank/cuda/tuning/sort.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {
namespace detail {

template <class Key, class Value>
struct merge_sort_layout {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  using policy = tuning::merge_sort_policy<sizeof(Key), has_values ? sizeof(Value) : 0>;
  static std::size_t round16(std::size_t b) { return (b + 15) / 16 * 16; }
  static std::size_t key_bytes(std::size_t n) { return round16(n * sizeof(Key)); }
  static std::size_t value_bytes(std::size_t n) {
    return has_values ? round16(n * sizeof(Value)) : 0;
  }
  static std::size_t bytes(std::size_t n) { return key_bytes(n) + value_bytes(n); }
};

/// The sort with a given block shape (threads, items); the entry points pass the tuned one.
template <class Key, class Value, class Compare,
          class Policy = typename merge_sort_layout<Key, Value>::policy>
cudaError_t merge_sort_run(Key* keys, Value* vals, std::size_t n, void* temp, Compare comp,
                           cudaStream_t stream) {
  using layout = merge_sort_layout<Key, Value>;
  constexpr int NT = Policy::threads, VT = Policy::items;
  constexpr std::size_t tile = std::size_t(NT) * VT;
  auto* bytes = static_cast<unsigned char*>(temp);
  Key* keys_tmp = reinterpret_cast<Key*>(bytes);
  Value* vals_tmp = reinterpret_cast<Value*>(bytes + layout::key_bytes(n));
  const std::size_t tiles = (n + tile - 1) / tile;
  if (tiles > 0x7fffffffu) return cudaErrorInvalidValue;
  int passes = 0;
  for (std::size_t width = tile; width < n; width *= 2) ++passes;
  // Ping-pong so that the last pass writes into `keys`.
  Key* src_k = passes % 2 ? keys_tmp : keys;
  Value* src_v = passes % 2 ? vals_tmp : vals;
  Key* dst_k = passes % 2 ? keys : keys_tmp;
  Value* dst_v = passes % 2 ? vals : vals_tmp;
  kernels::merge_sort_tiles<NT, VT>
      <<<unsigned(tiles), NT, 0, stream>>>(keys, vals, src_k, src_v, n, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  // Each pass: a partition pass and one tile per block, as the production merge's partitioned
  // scheme, every pair of runs a merge of its own.
  using pass_shape = tuning::partitioned_shape<NT, VT, 1>;
  for (std::size_t width = tile; width < n; width *= 2) {
    const kernels::pairwise_runs<Key, Value> pass{{}, src_k, src_v, n, width, dst_k, dst_v};
    CORANK_CUDA_TRY(launch_partitioned_tiles<pass_shape>(pass, Policy::pass_threads, std::nullopt,
                                                         comp, stream));
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  return cudaSuccess;
}

template <class Key, class Value, class Compare>
cudaError_t merge_sort_impl(Key* keys, Value* vals, std::size_t n, void* temp,
                            std::size_t temp_bytes, Compare comp, cudaStream_t stream) {
  using layout = merge_sort_layout<Key, Value>;
  if ((n && !keys) || (layout::has_values && n && !vals)) return cudaErrorInvalidValue;
  if (n < 2) return cudaSuccess;
  if (temp) {
    if (temp_bytes < layout::bytes(n)) return cudaErrorInvalidValue;
    return merge_sort_run(keys, vals, n, temp, comp, stream);
  }
  CORANK_CUDA_TRY(cudaMallocAsync(&temp, layout::bytes(n), stream));
  const cudaError_t status = merge_sort_run(keys, vals, n, temp, comp, stream);
  const cudaError_t freed = cudaFreeAsync(temp, stream);
  return status != cudaSuccess ? status : freed;
}

}  // namespace detail

/// Bytes of temporary storage the caller-supplied overloads need for n items.
template <class Key, class Value = block::no_value>
std::size_t stable_sort_temp_bytes(std::size_t n) {
  return detail::merge_sort_layout<Key, Value>::bytes(n);
}

/// Sorts keys[0, n) in place, stably, by comp (temporary storage from cudaMallocAsync).
template <class Key, class Compare = corank::less>
cudaError_t stable_sort(Key* keys, std::size_t n, Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  return detail::merge_sort_impl(keys, static_cast<block::no_value*>(nullptr), n, nullptr, 0, comp,
                                 stream);
}

/// As above with the caller's temporary storage (temp_bytes >= stable_sort_temp_bytes<Key>(n)).
template <class Key, class Compare = corank::less>
cudaError_t stable_sort(Key* keys, std::size_t n, void* temp, std::size_t temp_bytes,
                        Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Key>();
  if (!temp) return cudaErrorInvalidValue;
  return detail::merge_sort_impl(keys, static_cast<block::no_value*>(nullptr), n, temp, temp_bytes,
                                 comp, stream);
}

/// Sorts keys[0, n) in place, stably, by comp, moving vals[0, n) alongside.
template <class Key, class Value, class Compare = corank::less>
cudaError_t stable_sort_by_key(Key* keys, Value* vals, std::size_t n, Compare comp = {},
                               cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Value>();
  return detail::merge_sort_impl(keys, vals, n, nullptr, 0, comp, stream);
}

/// As above with the caller's temporary storage (>= stable_sort_temp_bytes<Key, Value>(n)).
template <class Key, class Value, class Compare = corank::less>
cudaError_t stable_sort_by_key(Key* keys, Value* vals, std::size_t n, void* temp,
                               std::size_t temp_bytes, Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_sort_types<Key, Value>();
  if (!temp) return cudaErrorInvalidValue;
  return detail::merge_sort_impl(keys, vals, n, temp, temp_bytes, comp, stream);
}

}  // namespace corank::cuda
