// corank::cuda::merge and merge_by_key: stable merge of two sorted device arrays.
//
//   cudaError_t merge(a, m, b, n, out, comp = corank::less{}, stream = 0);
//   cudaError_t merge_by_key(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, comp,
//                            stream);
//   cudaError_t merge(resource, a, ...); merge(a, m, b, n, out, temp, temp_bytes, comp, stream);
//   std::size_t merge_temp_bytes<Key, Value = no_value>(m, n);   (0: see memory.cuh for the forms)
//   cudaError_t merge(options, a, ...); merge_by_key(options, keys_a, ...);
//
// Preconditions: device pointers; a[0,m) and b[0,n) sorted by comp (a strict weak order callable
// on the device); the output does not overlap an input. Violated (unsorted inputs, NaN keys, an
// inconsistent comparator), every kernel still ends and every output is one of the inputs'
// elements (each tile's cuts made consistent: consistent_co_rank), in an unspecified order and
// not necessarily a permutation. Stable: on ties A's element comes first.
// Keys: trivially copyable, 1 to 16 bytes. Sizes are 64-bit (m + n > 2^32 works).
// Asynchronous on `stream`, no device-wide synchronisation. No temporary storage (the
// partitioned scheme parks each tile's co-ranks in that tile's own output range until its block
// reads them), yet the three forms of every entry point exist (memory.cuh), with a query of 0.
// Returns cudaErrorInvalidValue for bad arguments (null with a non-zero size, overlapping output,
// sizes whose sum or byte count overflows, launch parameters out of range), else the launch's
// error.
// Work: O(m + n) moves, plus O(log(m + n)) reads per tile for the partition.
//
// The overloads without options run `automatic`, the production kernel: below
// tuning::merge_policy<...>::partitioned_from_total outputs one launch (each block searches its
// own tiles' co-ranks), from there a partition pass then one tile per block (merge_scheme).
// merge_options sets the scheme, its parameters, and a measured tuning table (merge_tuning,
// `corank tune merge`) that fills in whatever the options leave at 0. The study's kernels (basic,
// tiled, circular) have their own entry points: corank::study::cuda::merge (corank/study/).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "corank/cuda/detail/merge.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/merge_options.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"

namespace corank::cuda {

namespace detail {

/// Checks common to every entry point; `value_bytes` is 0 for a key-only merge.
inline cudaError_t check_arguments(const void* a, const void* va, std::size_t m, const void* b,
                                   const void* vb, std::size_t n, const void* out, const void* vout,
                                   std::size_t key_bytes, std::size_t value_bytes) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  if (m > max - n) return cudaErrorInvalidValue;
  const std::size_t total = m + n;
  const std::size_t wide = key_bytes > value_bytes ? key_bytes : value_bytes;
  if (total > max / wide) return cudaErrorInvalidValue;
  if ((m && !a) || (n && !b) || (total && !out)) return cudaErrorInvalidValue;
  if (overlaps(out, total * key_bytes, a, m * key_bytes) ||
      overlaps(out, total * key_bytes, b, n * key_bytes))
    return cudaErrorInvalidValue;
  if (value_bytes) {
    if ((m && !va) || (n && !vb) || (total && !vout)) return cudaErrorInvalidValue;
    const std::size_t out_bytes = total * value_bytes;
    if (overlaps(vout, out_bytes, va, m * value_bytes) ||
        overlaps(vout, out_bytes, vb, n * value_bytes) ||
        overlaps(vout, out_bytes, a, m * key_bytes) ||
        overlaps(vout, out_bytes, b, n * key_bytes) ||
        overlaps(vout, out_bytes, out, total * key_bytes) ||
        overlaps(out, total * key_bytes, va, m * value_bytes) ||
        overlaps(out, total * key_bytes, vb, n * value_bytes))
      return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

template <class K>
constexpr void check_key_type() {
  static_assert(std::is_trivially_copyable_v<K>,
                "corank::cuda::merge: keys must be trivially copyable");
  static_assert(sizeof(K) >= 1 && sizeof(K) <= 16, "corank::cuda::merge: keys of 1 to 16 bytes");
}

template <class K, class V>
cudaError_t check_by_key(const K* keys_a, const V* vals_a, std::size_t m, const K* keys_b,
                         const V* vals_b, std::size_t n, const K* keys_out, const V* vals_out) {
  check_key_type<K>();
  static_assert(std::is_trivially_copyable_v<V>,
                "corank::cuda::merge_by_key: values must be trivially copyable");
  return check_arguments(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, sizeof(K),
                         sizeof(V));
}

template <class T, class Compare>
cudaError_t merge_keys(const temporary_storage& storage, const T* a, std::size_t m, const T* b,
                       std::size_t n, T* out, Compare comp, cudaStream_t stream) {
  check_key_type<T>();
  CORANK_CUDA_TRY(check_arguments(a, nullptr, m, b, nullptr, n, out, nullptr, sizeof(T), 0));
  no_value* none = nullptr;
  return merge_automatic(storage, a, none, m, b, none, n, out, none, comp, stream);
}

template <class K, class V, class Compare>
cudaError_t merge_pairs(const temporary_storage& storage, const K* keys_a, const V* vals_a,
                        std::size_t m, const K* keys_b, const V* vals_b, std::size_t n, K* keys_out,
                        V* vals_out, Compare comp, cudaStream_t stream) {
  CORANK_CUDA_TRY(check_by_key(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out));
  return merge_automatic(storage, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, comp,
                         stream);
}

}  // namespace detail

/// Bytes of temporary storage the caller's-buffer overloads of merge (Value = no_value) and
/// merge_by_key need for m + n elements: none today (the query keeps the shape of every
/// algorithm's, so code written against it stays right if that changes).
template <class Key, class Value = no_value>
constexpr std::size_t merge_temp_bytes(std::size_t /*m*/, std::size_t /*n*/) {
  return 0;
}

/// Merges sorted a[0,m) and b[0,n) into out[0,m+n) with the production kernel.
template <class T, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out, Compare comp = {},
                  cudaStream_t stream = 0) {
  return detail::merge_keys({}, a, m, b, n, out, comp, stream);
}

/// As above, with temporary storage (none today) from `resource`.
template <class T, class Compare = corank::less>
cudaError_t merge(memory_resource_ref resource, const T* a, std::size_t m, const T* b,
                  std::size_t n, T* out, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_keys(resource, a, m, b, n, out, comp, stream);
}

/// As above, with the caller's temporary storage (temp_bytes >= merge_temp_bytes<T>(m, n)).
template <class T, class Compare = corank::less>
cudaError_t merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out, void* temp,
                  std::size_t temp_bytes, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_keys({temp, temp_bytes}, a, m, b, n, out, comp, stream);
}

/// As above, with the scheme and its parameters set by `options`.
template <class T, class Compare = corank::less>
cudaError_t merge(const merge_options& options, const T* a, std::size_t m, const T* b,
                  std::size_t n, T* out, Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_key_type<T>();
  CORANK_CUDA_TRY(
      detail::check_arguments(a, nullptr, m, b, nullptr, n, out, nullptr, sizeof(T), 0));
  if (m + n == 0) return cudaSuccess;
  no_value* none = nullptr;
  return detail::launch_automatic(options, a, none, m, b, none, n, out, none, comp, stream);
}

/// Merges keys and moves values alongside: keys_out/vals_out[0,m+n) from the sorted keys_a[0,m)
/// (values vals_a) and keys_b[0,n) (values vals_b). Stable.
template <class K, class V, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t merge_by_key(const K* keys_a, const V* vals_a, std::size_t m, const K* keys_b,
                         const V* vals_b, std::size_t n, K* keys_out, V* vals_out,
                         Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_pairs({}, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, comp,
                             stream);
}

/// As above, with temporary storage (none today) from `resource`.
template <class K, class V, class Compare = corank::less>
cudaError_t merge_by_key(memory_resource_ref resource, const K* keys_a, const V* vals_a,
                         std::size_t m, const K* keys_b, const V* vals_b, std::size_t n,
                         K* keys_out, V* vals_out, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_pairs(resource, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out,
                             comp, stream);
}

/// As above, with the caller's temporary storage (temp_bytes >= merge_temp_bytes<K, V>(m, n)).
template <class K, class V, class Compare = corank::less>
cudaError_t merge_by_key(const K* keys_a, const V* vals_a, std::size_t m, const K* keys_b,
                         const V* vals_b, std::size_t n, K* keys_out, V* vals_out, void* temp,
                         std::size_t temp_bytes, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_pairs({temp, temp_bytes}, keys_a, vals_a, m, keys_b, vals_b, n, keys_out,
                             vals_out, comp, stream);
}

/// As above, with the scheme and its parameters set by `options`.
template <class K, class V, class Compare = corank::less>
cudaError_t merge_by_key(const merge_options& options, const K* keys_a, const V* vals_a,
                         std::size_t m, const K* keys_b, const V* vals_b, std::size_t n,
                         K* keys_out, V* vals_out, Compare comp = {}, cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(detail::check_by_key(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out));
  if (m + n == 0) return cudaSuccess;
  return detail::launch_automatic(options, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out,
                                  comp, stream);
}

}  // namespace corank::cuda
