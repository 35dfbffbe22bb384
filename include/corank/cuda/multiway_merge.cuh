// corank::cuda::multiway_merge and multiway_merge_by_key: the stable merge of k sorted runs of one
// device array.
//
//   cudaError_t multiway_merge(keys, offsets, num_runs, n, out, comp = corank::less{}, stream = 0);
//   cudaError_t multiway_merge_by_key(keys, values, offsets, num_runs, n, keys_out, values_out,
//                                     comp, stream);
//   ... (resource, keys, ...) and (..., temp, temp_bytes, comp, stream): memory.cuh's forms
//   std::size_t multiway_merge_temp_bytes<Key, Value = no_value>(n, num_runs);
//
// Run r = keys[offsets[r], offsets[r + 1]) (device CSR offsets, num_runs + 1 entries, offsets[0] =
// 0, offsets[num_runs] = n, n given by the caller: no host synchronisation), each sorted by comp;
// out[0, n) = their merge, stable by run order (equal keys: the earlier run's first, then their
// order within the run).
// A tree of merge passes alternating between the output and a buffer of n keys (and values), the
// last landing in the output (n x (key + value bytes) of temporary storage from two passes on).
// Four-way passes where the merge sort takes them (keys and values of 8 bytes or less, from a few
// million keys): each merges groups of four runs of the pass before with the sort's four-way
// kernels, cut at samples (four_way_split.hpp), while three runs or more are left; so k = 64
// moves the data three times and k <= 4 once. Otherwise pairwise passes: all pairs of adjacent
// runs in one launch over tiles of the whole output (each tile finds the pairs it covers, their
// co-ranks by warp searches, and merges with the production merge's tile step), ceil(log2 k) of
// them. (A one-pass k-way cut for larger k is not written: docs/notes/toolbox.md.)
// Preconditions: device pointers; runs sorted by comp, a strict weak order; outputs overlap no
// input; offsets as above (violated offsets may read out of range: they are the caller's
// layout). Returns cudaErrorInvalidValue for bad arguments, else the launches' error.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "corank/cuda/detail/multiway_merge.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {

/// Bytes of temporary storage of the caller's-buffer forms for n keys in num_runs runs.
template <class Key, class Value = no_value>
std::size_t multiway_merge_temp_bytes(std::size_t n, std::size_t num_runs) {
  return detail::multiway_merge_layout<Key, Value>(n, num_runs, nullptr).bytes();
}

template <class K, class Offset, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t multiway_merge(const K* keys, const Offset* offsets, std::size_t num_runs,
                           std::size_t n, K* out, Compare comp = {}, cudaStream_t stream = 0) {
  const no_value* none = nullptr;
  return detail::multiway_merge({}, keys, none, offsets, num_runs, n, out,
                                const_cast<no_value*>(none), comp, stream);
}
template <class K, class Offset, class Compare = corank::less>
cudaError_t multiway_merge(memory_resource_ref resource, const K* keys, const Offset* offsets,
                           std::size_t num_runs, std::size_t n, K* out, Compare comp = {},
                           cudaStream_t stream = 0) {
  const no_value* none = nullptr;
  return detail::multiway_merge(resource, keys, none, offsets, num_runs, n, out,
                                const_cast<no_value*>(none), comp, stream);
}
template <class K, class Offset, class Compare = corank::less>
cudaError_t multiway_merge(const K* keys, const Offset* offsets, std::size_t num_runs,
                           std::size_t n, K* out, void* temp, std::size_t temp_bytes,
                           Compare comp = {}, cudaStream_t stream = 0) {
  const no_value* none = nullptr;
  return detail::multiway_merge({temp, temp_bytes}, keys, none, offsets, num_runs, n, out,
                                const_cast<no_value*>(none), comp, stream);
}

template <class K, class V, class Offset, class Compare = corank::less,
          detail::not_a_buffer<Compare> = 0>
cudaError_t multiway_merge_by_key(const K* keys, const V* values, const Offset* offsets,
                                  std::size_t num_runs, std::size_t n, K* keys_out, V* values_out,
                                  Compare comp = {}, cudaStream_t stream = 0) {
  return detail::multiway_merge({}, keys, values, offsets, num_runs, n, keys_out, values_out, comp,
                                stream);
}
template <class K, class V, class Offset, class Compare = corank::less>
cudaError_t multiway_merge_by_key(memory_resource_ref resource, const K* keys, const V* values,
                                  const Offset* offsets, std::size_t num_runs, std::size_t n,
                                  K* keys_out, V* values_out, Compare comp = {},
                                  cudaStream_t stream = 0) {
  return detail::multiway_merge(resource, keys, values, offsets, num_runs, n, keys_out, values_out,
                                comp, stream);
}
template <class K, class V, class Offset, class Compare = corank::less>
cudaError_t multiway_merge_by_key(const K* keys, const V* values, const Offset* offsets,
                                  std::size_t num_runs, std::size_t n, K* keys_out, V* values_out,
                                  void* temp, std::size_t temp_bytes, Compare comp = {},
                                  cudaStream_t stream = 0) {
  return detail::multiway_merge({temp, temp_bytes}, keys, values, offsets, num_runs, n, keys_out,
                                values_out, comp, stream);
}

}  // namespace corank::cuda
