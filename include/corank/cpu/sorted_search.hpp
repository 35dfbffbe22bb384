// Vectorised lower and upper bounds on multicore CPUs (OpenMP).
//
//   sorted_lower_bound(haystack, haystack_end, needles, needles_end, out, comp, options)
//   sorted_upper_bound(...)
//     out[i] = std::lower_bound / std::upper_bound(haystack, haystack_end, needles[i], comp)
//     - haystack, as an index; needles sorted by comp: one merge-path walk, O(m + n)
//   lower_bound(...), upper_bound(...)
//     the same for needles in any order: sorted first, or one binary search per needle, by size
//
// Sorted needles: the merge path of needles and haystack cut into equal pieces by co_rank (ties
// put the needle first for a lower bound, the haystack first for an upper bound), each piece
// walked once. Needles in any order, chosen by size (detail::sort_needles_first, tuning.hpp), as
// on the GPU (cuda/sorted_search.cuh): many needles against a haystack larger than the cache are
// copied with their places (u32), sorted by key (stable_sort_by_key), searched in one walk and
// each answer stored at its needle's place, O(n log n + m), n keys and n u32 of extra memory;
// otherwise (few needles, a haystack in cache, keys not trivially copyable, 2^32 needles or
// more) a binary search each, in parallel, O(n log m).
// Preconditions: haystack sorted by comp, a strict weak order (and the needles, for the sorted
// forms); violated, every answer still lies in [0, m]. `out` holds an integer type that can hold m.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "corank/cpu/load_balance.hpp"
#include "corank/cpu/options.hpp"
#include "corank/cpu/sort.hpp"
#include "corank/cpu/tuning.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cpu {

/// Which bound a search returns: the first haystack element not before the needle (lower) or
/// after it (upper).
enum class bound { lower, upper };

namespace detail {

/// Where needle k's answer goes: out[k], or out[places[k]] for needles sorted on the way.
struct same_places {
  std::size_t operator[](std::size_t k) const { return k; }
};

template <bound Bound, class ItH, class ItN, class OutIt, class Compare, class Places = same_places>
void sorted_search(ItH haystack, std::size_t m, ItN needles, std::size_t n, OutIt out, Compare comp,
                   const options& opt, const Places& places = {}) {
  using index = std::decay_t<decltype(*out)>;
  const auto answer = [&](std::size_t needle, std::size_t before) {
    out[places[needle]] = index(before);
  };
  const auto skip = [](std::size_t, std::size_t) {};
  if constexpr (Bound == bound::lower)  // needles first on ties: those equal are not before it
    for_each_merge_path_piece(needles, n, haystack, m, comp, opt,
                              [&](std::size_t i0, std::size_t i1, std::size_t j0, std::size_t j1) {
                                walk_merge_path(needles, i0, i1, haystack, j0, j1, comp, answer,
                                                skip);
                              });
  else  // haystack first on ties: those equal are before it
    for_each_merge_path_piece(
        haystack, m, needles, n, comp, opt,
        [&](std::size_t i0, std::size_t i1, std::size_t j0, std::size_t j1) {
          walk_merge_path(haystack, i0, i1, needles, j0, j1, comp, skip,
                          [&](std::size_t before, std::size_t needle) { answer(needle, before); });
        });
}

template <bound Bound, class ItH, class ItN, class OutIt, class Compare>
void binary_searches(ItH haystack, std::size_t m, ItN needles, std::size_t n, OutIt out,
                     Compare comp, const options& opt) {
  using index = std::decay_t<decltype(*out)>;
  const int threads = threads_for(n * 16, opt);  // each search reads about log m lines
  region_errors errors;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::ptrdiff_t i = 0; i < std::ptrdiff_t(n); ++i)
    errors.run([&] {
      const auto& key = needles[i];
      out[i] = index(bound_within<Bound == bound::upper>(haystack, std::size_t(0), m, key, comp));
    });
  errors.rethrow();
}

/// A needle's place in the caller's order, carried through the sort.
using needle_place = std::uint32_t;

/// Whether needles in any order are sorted first: many of them against a haystack larger than the
/// cache (the crossover in tuning.hpp), keys cheap to copy, fewer than 2^32 of them.
template <class Key>
bool sort_needles_first(std::size_t m, std::size_t n) {
  return std::is_trivially_copyable_v<Key> &&
         n <= std::size_t(std::numeric_limits<needle_place>::max()) &&
         n >= tuning::sort_needles_from && n >= m / tuning::sort_needles_from_share &&
         m * sizeof(Key) > tuning::haystack_cached_bytes;
}

/// Needles in any order: numbered, sorted by key with their places, searched in one walk, each
/// answer stored at its place.
template <bound Bound, class ItH, class ItN, class OutIt, class Compare>
void sort_then_search(ItH haystack, std::size_t m, ItN needles, std::size_t n, OutIt out,
                      Compare comp, const options& opt) {
  using key = typename std::iterator_traits<ItN>::value_type;
  std::vector<key> keys(needles, needles + std::ptrdiff_t(n));
  std::vector<needle_place> places(n);
  std::iota(places.begin(), places.end(), needle_place(0));
  stable_sort_by_key(keys.begin(), keys.end(), places.begin(), comp, opt);
  sorted_search<Bound>(haystack, m, keys.begin(), n, out, comp, opt, places);
}

template <bound Bound, class ItH, class ItN, class OutIt, class Compare>
void unsorted_search(ItH haystack, std::size_t m, ItN needles, std::size_t n, OutIt out,
                     Compare comp, const options& opt) {
  using key = typename std::iterator_traits<ItN>::value_type;
  if (sort_needles_first<key>(m, n))
    sort_then_search<Bound>(haystack, m, needles, n, out, comp, opt);
  else
    binary_searches<Bound>(haystack, m, needles, n, out, comp, opt);
}

}  // namespace detail

// The four entry points: which bound, and whether the needles are sorted (one merge-path walk) or
// in any order (sorted first, or a binary search each).
#define CORANK_CPU_SEARCH(name, Bound, strategy)                                           \
  template <class ItH, class ItN, class OutIt, class Compare = corank::less>               \
  OutIt name(ItH haystack, ItH haystack_end, ItN needles, ItN needles_end, OutIt out,      \
             Compare comp = {}, const options& opt = {}) {                                 \
    const std::size_t m = std::size_t(haystack_end - haystack), n = needles_end - needles; \
    detail::strategy<Bound>(haystack, m, needles, n, out, comp, opt);                      \
    return out + n;                                                                        \
  }

/// out[i] = the lower bound of needles[i] in the sorted haystack, for sorted needles.
CORANK_CPU_SEARCH(sorted_lower_bound, bound::lower, sorted_search)
/// out[i] = the upper bound of needles[i] in the sorted haystack, for sorted needles.
CORANK_CPU_SEARCH(sorted_upper_bound, bound::upper, sorted_search)
/// out[i] = the lower bound of needles[i] in the sorted haystack, needles in any order.
CORANK_CPU_SEARCH(lower_bound, bound::lower, unsorted_search)
/// out[i] = the upper bound of needles[i] in the sorted haystack, needles in any order.
CORANK_CPU_SEARCH(upper_bound, bound::upper, unsorted_search)
#undef CORANK_CPU_SEARCH

}  // namespace corank::cpu
