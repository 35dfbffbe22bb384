// Vectorised lower and upper bounds on multicore CPUs (OpenMP).
//
//   sorted_lower_bound(haystack, haystack_end, needles, needles_end, out, comp, options)
//   sorted_upper_bound(...)
//     out[i] = std::lower_bound / std::upper_bound(haystack, haystack_end, needles[i], comp)
//     - haystack, as an index; needles sorted by comp: one merge-path walk, O(m + n)
//   lower_bound(...), upper_bound(...)
//     the same for needles in any order: one binary search per needle, O(n log m)
//
// Sorted needles: the merge path of needles and haystack cut into equal pieces by co_rank (ties
// put the needle first for a lower bound, the haystack first for an upper bound), each piece
// walked once. Needles in any order: a binary search each, in parallel. (Sorting them first, to
// search in one walk, pays a sort of n needles and a scatter: n log n moves against the n log m
// reads of the binary searches, which hit cache when the haystack is small. Not offered on the
// CPU; the GPU chooses by size, see cuda/sorted_search.cuh.)
// Preconditions: haystack sorted by comp, a strict weak order (and the needles, for the sorted
// forms); violated, every answer still lies in [0, m]. `out` holds an integer type that can hold m.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <type_traits>

#include "corank/cpu/load_balance.hpp"
#include "corank/cpu/options.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cpu {

/// Which bound a search returns: the first haystack element not before the needle (lower) or
/// after it (upper).
enum class bound { lower, upper };

namespace detail {

template <bound Bound, class ItH, class ItN, class OutIt, class Compare>
void sorted_search(ItH haystack, std::size_t m, ItN needles, std::size_t n, OutIt out, Compare comp,
                   const options& opt) {
  using index = std::decay_t<decltype(*out)>;
  const auto answer = [&](std::size_t needle, std::size_t before) { out[needle] = index(before); };
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

}  // namespace detail

// The four entry points: which bound, and whether the needles are sorted (one merge-path walk) or
// in any order (a binary search each).
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
CORANK_CPU_SEARCH(lower_bound, bound::lower, binary_searches)
/// out[i] = the upper bound of needles[i] in the sorted haystack, needles in any order.
CORANK_CPU_SEARCH(upper_bound, bound::upper, binary_searches)
#undef CORANK_CPU_SEARCH

}  // namespace corank::cpu
