// corank::cuda::sorted_lower_bound, sorted_upper_bound, lower_bound, upper_bound: vectorised
// searches of needles in a sorted haystack, on the GPU.
//
//   cudaError_t sorted_lower_bound(haystack, m, needles, n, out, comp = corank::less{},
//                                  stream = 0);
//   cudaError_t sorted_upper_bound(...);                        as above, the upper bound
//   cudaError_t sorted_lower_bound(resource, haystack, ...);    (memory.cuh's forms)
//   cudaError_t sorted_lower_bound(haystack, m, needles, n, out, temp, temp_bytes, comp, stream);
//   std::size_t sorted_search_temp_bytes<Key, Index>(m, n);
//   cudaError_t lower_bound(haystack, m, needles, n, out, comp, stream);    needles in any order
//   cudaError_t upper_bound(...);
//
// out[i] = the number of haystack keys before needles[i] (lower: those less than it; upper: those
// not greater), as std::lower_bound / std::upper_bound - haystack. Index: an integer type that
// holds m (else cudaErrorInvalidValue), e.g. std::uint32_t below 2^32 keys.
// Sorted needles: one merge-path pass, O(m + n) reads: a partition pass cuts the merge path of
// needles and haystack at every tile (ties put the needle first for the lower bound, the haystack
// first for the upper), each block stages its tile and every thread walks Items steps of it from
// its own co-rank in shared memory (merge_path_walk.hpp), the answers leaving with coalesced
// stores. Temporary storage: one std::size_t per tile.
// Needles in any order: one binary search per needle (O(n log m), no temporary storage). Sorting
// them first (the library's stable sort by key of n needles with their indices, a sorted search, a
// scatter) moves about 2 x 8 passes of n x 12 bytes, more than the binary searches' scattered
// reads cost unless n >> m; not offered yet (docs/notes/toolbox.md).
// Preconditions: device pointers; the haystack (and for the sorted forms the needles) sorted by
// comp, a strict weak order; out does not overlap the inputs. Violated, every answer still lies in
// [0, m]. Asynchronous on `stream`; returns cudaErrorInvalidValue for bad arguments, else the
// launches' error.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "corank/cuda/detail/sorted_search.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/functional.hpp"

namespace corank::cuda {

/// Bytes of temporary storage of the caller's-buffer sorted searches of n needles in m keys.
template <class Key, class Index = std::size_t>
std::size_t sorted_search_temp_bytes(std::size_t m, std::size_t n) {
  return detail::sorted_search_layout<Key, Index>(m, n, nullptr).bytes();
}

// The three forms of a sorted search (temporary storage from the library's cache, a memory
// resource or the caller's buffer), for each bound.
#define CORANK_CUDA_SORTED_SEARCH(name, upper)                                                     \
  template <class K, class Index, class Compare = corank::less, detail::not_a_buffer<Compare> = 0> \
  cudaError_t name(const K* haystack, std::size_t m, const K* needles, std::size_t n, Index* out,  \
                   Compare comp = {}, cudaStream_t stream = 0) {                                   \
    return detail::sorted_search<upper>({}, haystack, m, needles, n, out, comp, stream);           \
  }                                                                                                \
  template <class K, class Index, class Compare = corank::less>                                    \
  cudaError_t name(memory_resource_ref resource, const K* haystack, std::size_t m,                 \
                   const K* needles, std::size_t n, Index* out, Compare comp = {},                 \
                   cudaStream_t stream = 0) {                                                      \
    return detail::sorted_search<upper>(resource, haystack, m, needles, n, out, comp, stream);     \
  }                                                                                                \
  template <class K, class Index, class Compare = corank::less>                                    \
  cudaError_t name(const K* haystack, std::size_t m, const K* needles, std::size_t n, Index* out,  \
                   void* temp, std::size_t temp_bytes, Compare comp = {},                          \
                   cudaStream_t stream = 0) {                                                      \
    return detail::sorted_search<upper>({temp, temp_bytes}, haystack, m, needles, n, out, comp,    \
                                        stream);                                                   \
  }

/// out[i] = the lower bound of needles[i] in haystack[0, m); needles[0, n) sorted.
CORANK_CUDA_SORTED_SEARCH(sorted_lower_bound, false)
/// out[i] = the upper bound of needles[i] in haystack[0, m); needles[0, n) sorted.
CORANK_CUDA_SORTED_SEARCH(sorted_upper_bound, true)
#undef CORANK_CUDA_SORTED_SEARCH

/// out[i] = the lower bound of needles[i] in haystack[0, m); needles in any order.
template <class K, class Index, class Compare = corank::less>
cudaError_t lower_bound(const K* haystack, std::size_t m, const K* needles, std::size_t n,
                        Index* out, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::binary_searches<false>(haystack, m, needles, n, out, comp, stream);
}

/// out[i] = the upper bound of needles[i] in haystack[0, m); needles in any order.
template <class K, class Index, class Compare = corank::less>
cudaError_t upper_bound(const K* haystack, std::size_t m, const K* needles, std::size_t n,
                        Index* out, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::binary_searches<true>(haystack, m, needles, n, out, comp, stream);
}

}  // namespace corank::cuda
