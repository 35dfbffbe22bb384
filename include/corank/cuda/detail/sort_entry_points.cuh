// The public entry points of an in-place sort of a device array, written once for every sort
// (bitonic_sort.cuh, merge_sort.cuh, and with the segments' offsets segmented_sort.cuh): the keys
// alone and keys with values, each with temporary storage from the library's cache, a leading
// memory resource, or the caller's buffer (temp, temp_bytes before comp; memory.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/functional.hpp"

namespace corank::cuda::detail {

template <class Key, class Value>
constexpr void check_sort_types() {
  static_assert(std::is_trivially_copyable_v<Key> && sizeof(Key) <= 16,
                "corank::cuda sorts: keys must be trivially copyable, at most 16 bytes");
  static_assert(std::is_trivially_copyable_v<Value> && sizeof(Value) <= 16,
                "corank::cuda sorts: values must be trivially copyable, at most 16 bytes");
}

}  // namespace corank::cuda::detail

// name(keys, n, ...) and name_by_key(keys, vals, n, ...) in their three forms, in namespace
// corank::cuda, each calling impl(storage, keys, vals, n, comp, stream) (vals: a null no_value*
// for the keys alone).
#define CORANK_CUDA_SORT_ENTRY_POINTS(name, impl) \
  CORANK_CUDA_SORT_ENTRY_POINTS_WITH(name, impl, (), (), ())

// The same with the segments after n: name(keys, n, offsets, num_segments, ...), any integer
// Offset, each calling impl(storage, keys, vals, n, offsets, num_segments, comp, stream).
#define CORANK_CUDA_SEGMENTED_SORT_ENTRY_POINTS(name, impl)                               \
  CORANK_CUDA_SORT_ENTRY_POINTS_WITH(name, impl, (, class Offset),                        \
                                     (, const Offset* offsets, std::size_t num_segments), \
                                     (, offsets, num_segments))

// Both, written once: tparams (after Key, and Value), params (after n) and args (passed on after
// n) are each a parenthesised list that starts with a comma, or ().
#define CORANK_DETAIL_UNPAREN(...) __VA_ARGS__
#define CORANK_CUDA_SORT_ENTRY_POINTS_WITH(name, impl, tparams, params, args)                   \
  template <class Key CORANK_DETAIL_UNPAREN tparams, class Compare = corank::less,              \
            detail::not_a_buffer<Compare> = 0>                                                  \
  cudaError_t name(Key* keys, std::size_t n CORANK_DETAIL_UNPAREN params, Compare comp = {},    \
                   cudaStream_t stream = 0) {                                                   \
    detail::check_sort_types<Key, Key>();                                                       \
    return impl({}, keys, static_cast<no_value*>(nullptr), n CORANK_DETAIL_UNPAREN args, comp,  \
                stream);                                                                        \
  }                                                                                             \
  template <class Key CORANK_DETAIL_UNPAREN tparams, class Compare = corank::less>              \
  cudaError_t name(memory_resource_ref resource, Key* keys,                                     \
                   std::size_t n CORANK_DETAIL_UNPAREN params, Compare comp = {},               \
                   cudaStream_t stream = 0) {                                                   \
    detail::check_sort_types<Key, Key>();                                                       \
    return impl(resource, keys, static_cast<no_value*>(nullptr), n CORANK_DETAIL_UNPAREN args,  \
                comp, stream);                                                                  \
  }                                                                                             \
  template <class Key CORANK_DETAIL_UNPAREN tparams, class Compare = corank::less>              \
  cudaError_t name(Key* keys, std::size_t n CORANK_DETAIL_UNPAREN params, void* temp,           \
                   std::size_t temp_bytes, Compare comp = {}, cudaStream_t stream = 0) {        \
    detail::check_sort_types<Key, Key>();                                                       \
    return impl({temp, temp_bytes}, keys, static_cast<no_value*>(nullptr),                      \
                n CORANK_DETAIL_UNPAREN args, comp, stream);                                    \
  }                                                                                             \
  template <class Key, class Value CORANK_DETAIL_UNPAREN tparams, class Compare = corank::less, \
            detail::not_a_buffer<Compare> = 0>                                                  \
  cudaError_t name##_by_key(Key* keys, Value* vals, std::size_t n CORANK_DETAIL_UNPAREN params, \
                            Compare comp = {}, cudaStream_t stream = 0) {                       \
    detail::check_sort_types<Key, Value>();                                                     \
    return impl({}, keys, vals, n CORANK_DETAIL_UNPAREN args, comp, stream);                    \
  }                                                                                             \
  template <class Key, class Value CORANK_DETAIL_UNPAREN tparams, class Compare = corank::less> \
  cudaError_t name##_by_key(memory_resource_ref resource, Key* keys, Value* vals,               \
                            std::size_t n CORANK_DETAIL_UNPAREN params, Compare comp = {},      \
                            cudaStream_t stream = 0) {                                          \
    detail::check_sort_types<Key, Value>();                                                     \
    return impl(resource, keys, vals, n CORANK_DETAIL_UNPAREN args, comp, stream);              \
  }                                                                                             \
  template <class Key, class Value CORANK_DETAIL_UNPAREN tparams, class Compare = corank::less> \
  cudaError_t name##_by_key(Key* keys, Value* vals, std::size_t n CORANK_DETAIL_UNPAREN params, \
                            void* temp, std::size_t temp_bytes, Compare comp = {},              \
                            cudaStream_t stream = 0) {                                          \
    detail::check_sort_types<Key, Value>();                                                     \
    return impl({temp, temp_bytes}, keys, vals, n CORANK_DETAIL_UNPAREN args, comp, stream);    \
  }
