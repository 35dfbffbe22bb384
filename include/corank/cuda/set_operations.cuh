// corank::cuda set operations on sorted device arrays, with std::set_*'s multiset semantics.
//
//   cudaError_t set_union(a, m, b, n, out, count, comp = corank::less{}, stream = 0);
//   cudaError_t set_intersection / set_difference / set_symmetric_difference(...)   likewise
//   cudaError_t set_union_by_key(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, count,
//                                comp, stream);   and the three others _by_key
//   cudaError_t set_operation(op, a, m, b, n, out, count, comp, stream);      op: corank::set_op
//   cudaError_t set_operation_by_key(op, keys_a, vals_a, m, ...);
//   ... set_operation(resource, op, ...), set_operation(op, ..., count, temp, temp_bytes, comp,
//   stream) and the same _by_key: memory.cuh's forms
//   std::size_t set_operation_temp_bytes<Key, Value = no_value>(m, n);
//
// count: where the number of outputs goes, output_count::on_device(d_ptr) (written in stream
// order, no host synchronisation: the caller chooses when to read it) or output_count::to_host(
// h_ptr) (the call synchronises `stream` and returns with it set).
// The output holds set_operation_max_outputs(op, m, n) items (m + n for union and symmetric
// difference, min(m, n) for intersection, m for difference). The same elements in the same order
// as std::set_*: a key found p times in A and q in B is output max(p, q), min(p, q),
// max(p - q, 0), |p - q| times, pairs of equal keys giving A's element (and its value).
// A partition pass finds a balanced cut at every tile boundary (merge_path_walk.hpp: a cut the
// std:: loop passes, so tiles run it on their own); then one pass over the tiles: each block stages
// a tile, every thread takes a balanced cut in shared memory and runs the loop into the tile's
// output stage (placed by a block scan), the tile learns where its outputs start by decoupled
// look-back on the tiles before it, and stores them. Inputs read once, outputs written once (the
// two-pass count-scan-write shape reads the inputs twice). Temporary storage: three words per tile.
// Preconditions: device pointers; inputs sorted by comp, a strict weak order; outputs overlap no
// input. Violated, every kernel ends and at most the bound above is written (count may then say
// more). Keys and values trivially copyable; 64-bit sizes. Returns cudaErrorInvalidValue for bad
// arguments (null pointers with non-zero sizes, a null count, overlaps, overflowing sizes), else
// the launches' error.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "corank/cuda/detail/set_operations.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/functional.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda {

/// Bytes of temporary storage of the caller's-buffer forms for inputs of m and n keys.
template <class Key, class Value = no_value>
std::size_t set_operation_temp_bytes(std::size_t m, std::size_t n) {
  return detail::set_operation_layout<Key, Value>(m, n, nullptr).bytes();
}

/// The set operation `op` on sorted keys a[0, m) and b[0, n) into out; the output count to
/// `count`.
template <class K, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t set_operation(set_op op, const K* a, std::size_t m, const K* b, std::size_t n, K* out,
                          output_count count, Compare comp = {}, cudaStream_t stream = 0) {
  const no_value* none = nullptr;
  return detail::set_operation({}, op, a, none, m, b, none, n, out, const_cast<no_value*>(none),
                               count, comp, stream);
}
template <class K, class Compare = corank::less>
cudaError_t set_operation(memory_resource_ref resource, set_op op, const K* a, std::size_t m,
                          const K* b, std::size_t n, K* out, output_count count, Compare comp = {},
                          cudaStream_t stream = 0) {
  const no_value* none = nullptr;
  return detail::set_operation(resource, op, a, none, m, b, none, n, out,
                               const_cast<no_value*>(none), count, comp, stream);
}
template <class K, class Compare = corank::less>
cudaError_t set_operation(set_op op, const K* a, std::size_t m, const K* b, std::size_t n, K* out,
                          output_count count, void* temp, std::size_t temp_bytes, Compare comp = {},
                          cudaStream_t stream = 0) {
  const no_value* none = nullptr;
  return detail::set_operation({temp, temp_bytes}, op, a, none, m, b, none, n, out,
                               const_cast<no_value*>(none), count, comp, stream);
}

/// As set_operation, values following their keys (a pair of equal keys gives A's value).
template <class K, class V, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t set_operation_by_key(set_op op, const K* keys_a, const V* vals_a, std::size_t m,
                                 const K* keys_b, const V* vals_b, std::size_t n, K* keys_out,
                                 V* vals_out, output_count count, Compare comp = {},
                                 cudaStream_t stream = 0) {
  return detail::set_operation({}, op, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out,
                               count, comp, stream);
}
template <class K, class V, class Compare = corank::less>
cudaError_t set_operation_by_key(memory_resource_ref resource, set_op op, const K* keys_a,
                                 const V* vals_a, std::size_t m, const K* keys_b, const V* vals_b,
                                 std::size_t n, K* keys_out, V* vals_out, output_count count,
                                 Compare comp = {}, cudaStream_t stream = 0) {
  return detail::set_operation(resource, op, keys_a, vals_a, m, keys_b, vals_b, n, keys_out,
                               vals_out, count, comp, stream);
}
template <class K, class V, class Compare = corank::less>
cudaError_t set_operation_by_key(set_op op, const K* keys_a, const V* vals_a, std::size_t m,
                                 const K* keys_b, const V* vals_b, std::size_t n, K* keys_out,
                                 V* vals_out, output_count count, void* temp,
                                 std::size_t temp_bytes, Compare comp = {},
                                 cudaStream_t stream = 0) {
  return detail::set_operation({temp, temp_bytes}, op, keys_a, vals_a, m, keys_b, vals_b, n,
                               keys_out, vals_out, count, comp, stream);
}

// The four operations by name: set_union(...) = set_operation(set_op::unite, ...) and
// set_union_by_key(...) = set_operation_by_key(set_op::unite, ...), and so on (the library's
// cache; the other forms through set_operation).
#define CORANK_CUDA_SET_OPERATION(name, op)                                                    \
  template <class K, class Compare = corank::less>                                             \
  cudaError_t name(const K* a, std::size_t m, const K* b, std::size_t n, K* out,               \
                   output_count count, Compare comp = {}, cudaStream_t stream = 0) {           \
    return set_operation(op, a, m, b, n, out, count, comp, stream);                            \
  }                                                                                            \
  template <class K, class V, class Compare = corank::less>                                    \
  cudaError_t name##_by_key(const K* ka, const V* va, std::size_t m, const K* kb, const V* vb, \
                            std::size_t n, K* keys_out, V* vals_out, output_count count,       \
                            Compare comp = {}, cudaStream_t stream = 0) {                      \
    return set_operation_by_key(op, ka, va, m, kb, vb, n, keys_out, vals_out, count, comp,     \
                                stream);                                                       \
  }
CORANK_CUDA_SET_OPERATION(set_union, set_op::unite)
CORANK_CUDA_SET_OPERATION(set_intersection, set_op::intersect)
CORANK_CUDA_SET_OPERATION(set_difference, set_op::difference)
CORANK_CUDA_SET_OPERATION(set_symmetric_difference, set_op::symmetric_difference)
#undef CORANK_CUDA_SET_OPERATION

}  // namespace corank::cuda
