// corank::cuda::join_size and join: the index pairs of equivalent keys of two sorted device
// arrays.
//
//   cudaError_t join_size(kind, a, m, b, n, &pairs, comp = corank::less{}, stream = 0);
//     the number of pairs, on the host (the call synchronises `stream`)
//   cudaError_t join(kind, a, m, b, n, out_a, out_b, pairs, comp = corank::less{}, stream = 0);
//     out_a[k], out_b[k] for k < pairs (device arrays of std::size_t, pairs from join_size)
//
// kind (corank::join_kind) inner: every (i, j) with a[i] equivalent to b[j], by i, then j;
// left_outer: also each i without a match once as (i, no_match), in its place; full_outer: as
// left_outer, then each j of B without a match as (no_match, j), by j. The pairs of
// corank::cpu::join.
// Two sorted searches (one merge-path pass each) give each key of A its range of matches in B;
// running offsets of the ranges' lengths (decoupled look-back) are CSR offsets that the
// load-balancing search expands into pairs, so a key repeated a million times in both inputs (10^12
// pairs) is spread over the GPU by pairs, not by keys; full outer: the searches of B in A find B's
// unmatched keys. Temporary storage: about 4 x 8 bytes per key of A (and of B, full outer),
// plus a word per tile of the expansion (m + pairs items). Preconditions: device pointers; inputs
// sorted by comp, a strict weak order; outputs overlap no input and hold `pairs`. Returns
// cudaErrorInvalidValue for bad arguments, else the launches'.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "corank/cuda/detail/join.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/functional.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cuda {

/// Bytes of temporary storage of the caller's-buffer forms: join of m and n keys giving `pairs`
/// pairs; join_size with pairs = 0.
template <class Key>
std::size_t join_temp_bytes(join_kind kind, std::size_t m, std::size_t n, std::size_t pairs = 0) {
  return detail::join_layout<Key>(kind, m, n, pairs, nullptr).bytes();
}

template <class K, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t join_size(join_kind kind, const K* a, std::size_t m, const K* b, std::size_t n,
                      std::size_t* pairs, Compare comp = {}, cudaStream_t stream = 0) {
  if (!pairs) return cudaErrorInvalidValue;
  return detail::join({}, kind, a, m, b, n, pairs, nullptr, nullptr, 0, comp, stream);
}
template <class K, class Compare = corank::less>
cudaError_t join_size(memory_resource_ref resource, join_kind kind, const K* a, std::size_t m,
                      const K* b, std::size_t n, std::size_t* pairs, Compare comp = {},
                      cudaStream_t stream = 0) {
  if (!pairs) return cudaErrorInvalidValue;
  return detail::join(resource, kind, a, m, b, n, pairs, nullptr, nullptr, 0, comp, stream);
}
template <class K, class Compare = corank::less>
cudaError_t join_size(join_kind kind, const K* a, std::size_t m, const K* b, std::size_t n,
                      std::size_t* pairs, void* temp, std::size_t temp_bytes, Compare comp = {},
                      cudaStream_t stream = 0) {
  if (!pairs) return cudaErrorInvalidValue;
  return detail::join({temp, temp_bytes}, kind, a, m, b, n, pairs, nullptr, nullptr, 0, comp,
                      stream);
}

template <class K, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t join(join_kind kind, const K* a, std::size_t m, const K* b, std::size_t n,
                 std::size_t* out_a, std::size_t* out_b, std::size_t pairs, Compare comp = {},
                 cudaStream_t stream = 0) {
  return detail::join({}, kind, a, m, b, n, nullptr, out_a, out_b, pairs, comp, stream);
}
template <class K, class Compare = corank::less>
cudaError_t join(memory_resource_ref resource, join_kind kind, const K* a, std::size_t m,
                 const K* b, std::size_t n, std::size_t* out_a, std::size_t* out_b,
                 std::size_t pairs, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::join(resource, kind, a, m, b, n, nullptr, out_a, out_b, pairs, comp, stream);
}
template <class K, class Compare = corank::less>
cudaError_t join(join_kind kind, const K* a, std::size_t m, const K* b, std::size_t n,
                 std::size_t* out_a, std::size_t* out_b, std::size_t pairs, void* temp,
                 std::size_t temp_bytes, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::join({temp, temp_bytes}, kind, a, m, b, n, nullptr, out_a, out_b, pairs, comp,
                      stream);
}

}  // namespace corank::cuda
