// Dispatch of the GPU sorted search: the partition pass, then one tile per block; or one binary
// search per needle.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "corank/cuda/detail/merge_path_walk.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/kernels/sorted_search.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/tuning/toolbox.cuh"

namespace corank::cuda::detail {

template <class K, class Index>
struct sorted_search_shape {
  static constexpr int threads = tuning::toolbox_threads;
  // One stage holds both pieces (tile keys in all), beside the tile's answers.
  static constexpr int items = tuning::toolbox_items(sizeof(K) + sizeof(Index));
  static constexpr std::size_t tile = std::size_t(threads) * items;
  static constexpr std::size_t stage_bytes =
      kernels::partitioned_smem<false, K, no_value>::key_bytes(tile);
};

template <class K, class Index>
temporary_layout sorted_search_layout(std::size_t m, std::size_t n, temporary_part* cuts) {
  temporary_layout layout;
  const std::size_t tiles = tiles_of(m + n, sorted_search_shape<K, Index>::tile);
  const temporary_part part = layout.add<std::size_t>(tiles + 1);
  if (cuts) *cuts = part;
  return layout;
}

template <class K, class Index>
cudaError_t check_search(const K* haystack, std::size_t m, const K* needles, std::size_t n,
                         const Index* out) {
  check_toolbox_key<K>();
  static_assert(std::is_integral_v<Index>, "corank::cuda: search answers are integers");
  if (m > std::size_t(std::numeric_limits<Index>::max())) return cudaErrorInvalidValue;
  return check_two_inputs(haystack, m, needles, n, sizeof(K), out, n, sizeof(Index));
}

/// Sorted needles: the merge path of needles and haystack (Upper: haystack first), cut, walked.
template <bool Upper, class K, class Index, class Compare>
cudaError_t sorted_search(const temporary_storage& storage, const K* haystack, std::size_t m,
                          const K* needles, std::size_t n, Index* out, Compare comp,
                          cudaStream_t stream) {
  CORANK_CUDA_TRY(check_search(haystack, m, needles, n, out));
  using shape = sorted_search_shape<K, Index>;
  temporary_part cuts_part;
  const std::size_t bytes = sorted_search_layout<K, Index>(m, n, &cuts_part).bytes();
  return with_temporary_storage(storage, bytes, stream, [&](void* temp) {
    if (n == 0) return cudaSuccess;
    const std::size_t tiles = tiles_of(m + n, shape::tile);
    if (tiles > std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
    std::size_t* cuts = cuts_part.in<std::size_t>(temp);
    const K* a = Upper ? haystack : needles;
    const K* b = Upper ? needles : haystack;
    const std::size_t ma = Upper ? m : n, nb = Upper ? n : m;
    CORANK_CUDA_TRY(launch_merge_path_cuts(a, ma, b, nb, shape::tile, tiles, cuts, comp, stream));
    kernels::sorted_search_tiles<shape::threads, shape::items, !Upper>
        <<<unsigned(tiles), shape::threads, shape::stage_bytes, stream>>>(a, ma, b, nb, out, cuts,
                                                                          comp);
    return cudaGetLastError();
  });
}

/// Needles in any order: one binary search each (see cuda/sorted_search.cuh for why).
template <bool Upper, class K, class Index, class Compare>
cudaError_t binary_searches(const K* haystack, std::size_t m, const K* needles, std::size_t n,
                            Index* out, Compare comp, cudaStream_t stream) {
  CORANK_CUDA_TRY(check_search(haystack, m, needles, n, out));
  if (n == 0) return cudaSuccess;
  constexpr unsigned threads = tuning::binary_search_threads;
  if (n / threads >= std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
  kernels::binary_search_each<Upper>
      <<<blocks_of(n, threads), threads, 0, stream>>>(haystack, m, needles, n, out, comp);
  return cudaGetLastError();
}

}  // namespace corank::cuda::detail
