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
//   cudaError_t upper_bound(...);                                (the same three forms)
//   std::size_t unsorted_search_temp_bytes<Key, Index>(m, n);
//
// out[i] = the number of haystack keys before needles[i] (lower: those less than it; upper: those
// not greater), as std::lower_bound / std::upper_bound - haystack. Index: an integer type that
// holds m (else cudaErrorInvalidValue), e.g. std::uint32_t below 2^32 keys.
// Sorted needles: one merge-path pass, O(m + n) reads: a partition pass cuts the merge path of
// needles and haystack at every tile (ties put the needle first for the lower bound, the haystack
// first for the upper), each block stages its tile and every thread walks Items steps of it from
// its own co-rank in shared memory (merge_path_walk.hpp), the answers leaving with coalesced
// stores. Temporary storage: one std::size_t per tile.
// Needles in any order, chosen by size (detail::choose_unsorted_search, tuning/toolbox.cuh):
// - many needles against a haystack larger than the cache: sorted first. The needles are copied
//   with their places (u32), sorted by key with the library's stable_sort_by_key, searched in the
//   sorted needles' pass, and each answer is stored at its needle's place: O(n log n + m).
//   Temporary storage: n keys, n u32, the sort's, the pass's cuts (unsorted_search_temp_bytes).
// - otherwise (few needles, a haystack in cache, keys over 16 bytes, 2^32 needles or more): one
//   binary search per needle, O(n log m), no temporary storage.
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

/// Bytes of temporary storage of the caller's-buffer lower_bound / upper_bound of n needles in
/// any order in m keys (0 when they are searched one by one).
template <class Key, class Index = std::size_t>
std::size_t unsorted_search_temp_bytes(std::size_t m, std::size_t n) {
  return detail::unsorted_search_layout<Key, Index>(detail::choose_unsorted_search<Key>(m, n), m, n,
                                                    nullptr)
      .bytes();
}

// The three forms of a search (temporary storage from the library's cache, a memory resource or
// the caller's buffer), each calling impl<upper>(storage, args..., haystack, m, needles, n, out,
// comp, stream) with args a parenthesised list that ends with a comma, or ().
#define CORANK_DETAIL_UNPAREN_ARGS(...) __VA_ARGS__
#define CORANK_CUDA_SEARCH(name, upper, impl, args)                                                \
  template <class K, class Index, class Compare = corank::less, detail::not_a_buffer<Compare> = 0> \
  cudaError_t name(const K* haystack, std::size_t m, const K* needles, std::size_t n, Index* out,  \
                   Compare comp = {}, cudaStream_t stream = 0) {                                   \
    return impl<upper>({}, CORANK_DETAIL_UNPAREN_ARGS args haystack, m, needles, n, out, comp,     \
                       stream);                                                                    \
  }                                                                                                \
  template <class K, class Index, class Compare = corank::less>                                    \
  cudaError_t name(memory_resource_ref resource, const K* haystack, std::size_t m,                 \
                   const K* needles, std::size_t n, Index* out, Compare comp = {},                 \
                   cudaStream_t stream = 0) {                                                      \
    return impl<upper>(resource, CORANK_DETAIL_UNPAREN_ARGS args haystack, m, needles, n, out,     \
                       comp, stream);                                                              \
  }                                                                                                \
  template <class K, class Index, class Compare = corank::less>                                    \
  cudaError_t name(const K* haystack, std::size_t m, const K* needles, std::size_t n, Index* out,  \
                   void* temp, std::size_t temp_bytes, Compare comp = {},                          \
                   cudaStream_t stream = 0) {                                                      \
    return impl<upper>({temp, temp_bytes}, CORANK_DETAIL_UNPAREN_ARGS args haystack, m, needles,   \
                       n, out, comp, stream);                                                      \
  }

/// out[i] = the lower bound of needles[i] in haystack[0, m); needles[0, n) sorted.
CORANK_CUDA_SEARCH(sorted_lower_bound, false, detail::sorted_search, ())
/// out[i] = the upper bound of needles[i] in haystack[0, m); needles[0, n) sorted.
CORANK_CUDA_SEARCH(sorted_upper_bound, true, detail::sorted_search, ())
/// out[i] = the lower bound of needles[i] in haystack[0, m); needles in any order.
CORANK_CUDA_SEARCH(lower_bound, false, detail::unsorted_search,
                   (detail::choose_unsorted_search<K>(m, n), ))
/// out[i] = the upper bound of needles[i] in haystack[0, m); needles in any order.
CORANK_CUDA_SEARCH(upper_bound, true, detail::unsorted_search,
                   (detail::choose_unsorted_search<K>(m, n), ))
#undef CORANK_CUDA_SEARCH
#undef CORANK_DETAIL_UNPAREN_ARGS

}  // namespace corank::cuda
