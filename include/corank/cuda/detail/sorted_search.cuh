// Dispatch of the GPU sorted search: the partition pass, then one tile per block; needles in any
// order sorted first (the library's stable sort by key, with their places) or searched one by one
// (a binary search each), by size.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "corank/cuda/detail/merge_path_walk.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/kernels/sorted_search.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/merge_sort.cuh"
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

/// The sorted needles' pass: the merge path of needles and haystack (Upper: haystack first), cut
/// at every tile into `cuts` (tiles + 1 entries), walked; needle k's answer to out[place_of(places,
/// k)].
template <bool Upper, class K, class Index, class Places, class Compare>
cudaError_t search_sorted_needles(const K* haystack, std::size_t m, const K* needles, std::size_t n,
                                  Index* out, Places places, std::size_t* cuts, Compare comp,
                                  cudaStream_t stream) {
  using shape = sorted_search_shape<K, Index>;
  if (n == 0) return cudaSuccess;
  const std::size_t tiles = tiles_of(m + n, shape::tile);
  if (tiles > std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
  const K* a = Upper ? haystack : needles;
  const K* b = Upper ? needles : haystack;
  const std::size_t ma = Upper ? m : n, nb = Upper ? n : m;
  CORANK_CUDA_TRY(launch_merge_path_cuts(a, ma, b, nb, shape::tile, tiles, cuts, comp, stream));
  kernels::sorted_search_tiles<shape::threads, shape::items, !Upper>
      <<<unsigned(tiles), shape::threads, shape::stage_bytes, stream>>>(a, ma, b, nb, out, places,
                                                                        cuts, comp);
  return cudaGetLastError();
}

/// Sorted needles.
template <bool Upper, class K, class Index, class Compare>
cudaError_t sorted_search(const temporary_storage& storage, const K* haystack, std::size_t m,
                          const K* needles, std::size_t n, Index* out, Compare comp,
                          cudaStream_t stream) {
  CORANK_CUDA_TRY(check_search(haystack, m, needles, n, out));
  temporary_part cuts;
  const std::size_t bytes = sorted_search_layout<K, Index>(m, n, &cuts).bytes();
  return with_temporary_storage(storage, bytes, stream, [&](void* temp) {
    return search_sorted_needles<Upper>(haystack, m, needles, n, out, kernels::same_places{},
                                        cuts.in<std::size_t>(temp), comp, stream);
  });
}

/// How needles in any order are searched.
enum class unsorted_search_way { binary_search_each, sort_then_search };

/// A needle's place in the caller's order, carried through the sort: 32 bits (more needles are
/// searched one by one: see choose_unsorted_search).
using needle_place = std::uint32_t;

/// Sort the needles first when there are many of them against the haystack and the haystack does
/// not fit in cache (tuning/toolbox.cuh has the measured crossover); keys the library's sort
/// cannot take (over 16 bytes) and more than 2^32 - 1 needles (whose numbered copy and sort would
/// not fit beside them on one GPU) are searched one by one.
template <class K>
unsorted_search_way choose_unsorted_search(std::size_t m, std::size_t n) {
  const bool sortable =
      sizeof(K) <= 16 && n <= std::size_t(std::numeric_limits<needle_place>::max());
  const bool many = n >= tuning::sort_needles_from && n >= m / tuning::sort_needles_from_share &&
                    m * sizeof(K) > tuning::haystack_cached_bytes;
  return sortable && many ? unsorted_search_way::sort_then_search
                          : unsorted_search_way::binary_search_each;
}

/// The parts of a sort-then-search's temporary storage: the needles' numbered copy, the sort's
/// storage, the search's cuts.
struct unsorted_search_parts {
  temporary_part keys, places, sort, cuts;
};

template <class K, class Index>
temporary_layout unsorted_search_layout(unsorted_search_way way, std::size_t m, std::size_t n,
                                        unsorted_search_parts* parts) {
  temporary_layout layout;
  if constexpr (sizeof(K) <= 16) {
    if (way == unsorted_search_way::sort_then_search) {
      unsorted_search_parts p;
      p.keys = layout.add<K>(n);
      p.places = layout.add<needle_place>(n);
      p.sort = layout.add_bytes(stable_sort_temp_bytes<K, needle_place>(n), 1);
      p.cuts = layout.add<std::size_t>(tiles_of(m + n, sorted_search_shape<K, Index>::tile) + 1);
      if (parts) *parts = p;
    }
  }
  return layout;
}

/// Needles in any order, the way `way`: one binary search each, or numbered, sorted by key with
/// their places (stable_sort_by_key), searched in one merge-path pass and put back in place.
template <bool Upper, class K, class Index, class Compare>
cudaError_t unsorted_search(const temporary_storage& storage, unsorted_search_way way,
                            const K* haystack, std::size_t m, const K* needles, std::size_t n,
                            Index* out, Compare comp, cudaStream_t stream) {
  CORANK_CUDA_TRY(check_search(haystack, m, needles, n, out));
  unsorted_search_parts parts;
  const std::size_t bytes = unsorted_search_layout<K, Index>(way, m, n, &parts).bytes();
  return with_temporary_storage(storage, bytes, stream, [&](void* temp) -> cudaError_t {
    if (n == 0) return cudaSuccess;
    if constexpr (sizeof(K) <= 16) {
      if (way == unsorted_search_way::sort_then_search) {
        if (n > std::size_t(std::numeric_limits<needle_place>::max())) return cudaErrorInvalidValue;
        K* keys = parts.keys.in<K>(temp);
        needle_place* places = parts.places.in<needle_place>(temp);
        constexpr unsigned threads = tuning::binary_search_threads;
        kernels::number_needles<<<blocks_of(n, threads), threads, 0, stream>>>(needles, n, keys,
                                                                               places, out);
        CORANK_CUDA_TRY(cudaGetLastError());
        CORANK_CUDA_TRY(stable_sort_by_key(keys, places, n, parts.sort.in<unsigned char>(temp),
                                           parts.sort.bytes, comp, stream));
        return search_sorted_needles<Upper>(haystack, m, keys, n, out,
                                            static_cast<const needle_place*>(places),
                                            parts.cuts.in<std::size_t>(temp), comp, stream);
      }
    }
    constexpr unsigned threads = tuning::binary_search_threads;
    if (n / threads >= std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
    kernels::binary_search_each<Upper>
        <<<blocks_of(n, threads), threads, 0, stream>>>(haystack, m, needles, n, out, comp);
    return cudaGetLastError();
  });
}

}  // namespace corank::cuda::detail
