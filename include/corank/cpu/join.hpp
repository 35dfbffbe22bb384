// Joins of two sorted key arrays on multicore CPUs (OpenMP): the index pairs of equal keys.
//
//   join_result join(kind, a, a_end, b, b_end, comp = corank::less{}, options)
//     kind inner: every (i, j) with a[i] equivalent to b[j], by i, then j;
//     left_outer: as inner, and each i without a match once as (i, no_match), in its place;
//     full_outer: as left_outer, then each j of B without a match as (no_match, j), by j.
//
// Built from the toolbox's pieces: two sorted searches give each key of A the range [lower,
// upper) of its matches in B; their lengths (at least 1 for the outer joins) are CSR counts, and
// the load-balancing search expands them into pairs, so a key repeated a million times in both
// inputs (10^12 pairs) is spread over the threads by pairs, not by keys. Full outer: the sorted
// searches of B in A find B's unmatched keys. O(m + n + pairs) work.
// Preconditions: both inputs sorted by comp, a strict weak order; violated, every index still lies
// in range.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include "corank/cpu/load_balance.hpp"
#include "corank/cpu/options.hpp"
#include "corank/cpu/sorted_search.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cpu {

using corank::join_kind;
using corank::no_match;

/// A join's pairs: (a[k], b[k]) for k < size.
struct join_result {
  std::vector<std::size_t> a, b;
  std::size_t size() const { return a.size(); }
};

template <class ItA, class ItB, class Compare = corank::less>
join_result join(join_kind kind, ItA a, ItA a_end, ItB b, ItB b_end, Compare comp = {},
                 const options& opt = {}) {
  const std::size_t m = std::size_t(a_end - a), n = std::size_t(b_end - b);
  std::vector<std::size_t> first(m), last(m), offsets(m + 1, 0);
  sorted_lower_bound(b, b_end, a, a_end, first.begin(), comp, opt);
  sorted_upper_bound(b, b_end, a, a_end, last.begin(), comp, opt);
  const bool outer = kind != join_kind::inner;
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t matches = last[i] > first[i] ? last[i] - first[i] : 0;
    offsets[i + 1] = offsets[i] + (outer && matches == 0 ? 1 : matches);
  }
  std::vector<std::size_t> b_alone;  // full outer: B's keys without a match in A
  if (kind == join_kind::full_outer) {
    std::vector<std::size_t> b_first(n), b_last(n);
    sorted_lower_bound(a, a_end, b, b_end, b_first.begin(), comp, opt);
    sorted_upper_bound(a, a_end, b, b_end, b_last.begin(), comp, opt);
    for (std::size_t j = 0; j < n; ++j)
      if (b_last[j] <= b_first[j]) b_alone.push_back(j);
  }
  const std::size_t pairs = offsets[m];
  join_result r;
  r.a.resize(pairs + b_alone.size());
  r.b.resize(pairs + b_alone.size());
  detail::load_balance(
      offsets.data(), m, pairs, opt, [&](std::size_t k0, std::size_t k1, std::size_t i) {
        std::fill(r.a.begin() + k0, r.a.begin() + k1, i);
        if (last[i] > first[i])  // B's matches first[i], first[i] + 1, ...
          std::iota(r.b.begin() + k0, r.b.begin() + k1, first[i] + (k0 - offsets[i]));
        else
          std::fill(r.b.begin() + k0, r.b.begin() + k1, no_match);
      });
  for (std::size_t q = 0; q < b_alone.size(); ++q)
    r.a[pairs + q] = no_match, r.b[pairs + q] = b_alone[q];
  return r;
}

}  // namespace corank::cpu
