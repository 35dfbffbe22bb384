// Load-balancing search and interval expand on multicore CPUs (OpenMP), and the piece loop every
// merge-path walk of the toolbox shares (sorted search, set operations).
//
//   load_balancing_search(offsets, num_segments, n, segment_of, options)
//     segment_of[j] = the segment s with offsets[s] <= j < offsets[s + 1], for every item j < n
//   interval_expand(offsets, num_segments, values, n, out, options)
//     out[j] = values[segment of j]: each value repeated as often as its segment is long
//
// Segments are CSR offsets (num_segments + 1 entries, offsets[0] = 0, offsets[num_segments] = n,
// non-decreasing; empty segments allowed), as the segmented scans take them. The work is the
// merge path of the segment ends offsets[1..] and the items 0..n-1 (an end not after an item
// comes first), cut into equal pieces by co_rank: each piece costs its length, whatever the
// segment lengths (one segment of a billion items or a billion empty ones). A piece walks its
// ends and fills each segment's items at once (std::fill). O(n + num_segments) work, O(log) per
// piece to cut.
// Violated preconditions (unsorted offsets, offsets[num_segments] < n) give every item a segment
// in [0, num_segments] (num_segments: after the last end), never a read out of range;
// interval_expand then reads values[min(s, num_segments - 1)].
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "corank/cpu/options.hpp"
#include "corank/merge_path.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cpu {
namespace detail {

/// Cuts the merge path of A[0, m) and B[0, n) into pieces of near-equal length and calls
/// piece(i0, i1, j0, j1) for each (A[i0, i1) and B[j0, j1) are its inputs), on `threads` threads;
/// cuts clamped against each other (consistent_co_rank) so pieces tile both inputs even when the
/// precondition of co_rank does not hold.
template <class ItA, class ItB, class Compare, class Piece>
void for_each_merge_path_piece(ItA a, std::size_t m, ItB b, std::size_t n, Compare comp,
                               const options& opt, Piece&& piece) {
  using size = std::ptrdiff_t;
  const size total = size(m + n);
  const int threads = threads_for(std::size_t(total), opt);
  if (threads <= 1) {
    piece(std::size_t(0), m, std::size_t(0), n);
    return;
  }
  const size pieces =
      chunk_count(total, threads, tuning::merge_chunks_per_thread, tuning::merge_min_chunk_items);
  region_errors errors;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (size p = 0; p < pieces; ++p)
    errors.run([&] {
      const size k0 = even_split(total, pieces, p), k1 = even_split(total, pieces, p + 1);
      const size i0 = co_rank(k0, a, size(m), b, size(n), comp);
      const size i1 = consistent_co_rank(co_rank(k1, a, size(m), b, size(n), comp), k1, i0, k0,
                                         size(m), size(n));
      piece(std::size_t(i0), std::size_t(i1), std::size_t(k0 - i0), std::size_t(k1 - i1));
    });
  errors.rethrow();
}

/// The load-balancing walk: fill(j0, j1, s) for every run of items [j0, j1) of segment s (runs in
/// order within a piece; a segment cut by pieces comes in several runs). Each piece walks its
/// segment ends, not its items: a run is one fill (memory-bound), and the merge-path cut keeps
/// pieces balanced when segments are many and empty. Same answer as walk_merge_path over ends and
/// items (an item's segment: the ends not after it), for any offsets.
template <class Offset, class Fill>
void load_balance(const Offset* offsets, std::size_t num_segments, std::size_t n,
                  const options& opt, Fill&& fill) {
  const Offset* ends = offsets + 1;
  for_each_merge_path_piece(
      ends, num_segments, counting_iterator<std::size_t>{0}, n, index_less{}, opt,
      [&](std::size_t s, std::size_t s_end, std::size_t j, std::size_t j_end) {
        for (; s < s_end && j < j_end; ++s) {
          const std::size_t end = static_cast<std::size_t>(ends[s]);
          if (end <= j) continue;  // an end not after item j: segment s is over
          const std::size_t stop = end < j_end ? end : j_end;
          fill(j, stop, s);
          j = stop;
        }
        if (j < j_end) fill(j, j_end, s_end);
      });
}

}  // namespace detail

/// segment_of[j] = the segment of item j, for j < n (see the top of this file).
template <class Offset, class SegmentIt>
void load_balancing_search(const Offset* offsets, std::size_t num_segments, std::size_t n,
                           SegmentIt segment_of, const options& opt = {}) {
  static_assert(std::is_integral_v<Offset>, "load_balancing_search: integer offsets");
  using segment = std::decay_t<decltype(*segment_of)>;
  detail::load_balance(offsets, num_segments, n, opt,
                       [&](std::size_t j0, std::size_t j1, std::size_t s) {
                         std::fill(segment_of + j0, segment_of + j1, segment(s));
                       });
}

/// out[j] = values[segment of j], for j < n: each segment's value repeated over its items.
/// num_segments must be positive when n is.
template <class Offset, class ValueIt, class OutIt>
void interval_expand(const Offset* offsets, std::size_t num_segments, ValueIt values, std::size_t n,
                     OutIt out, const options& opt = {}) {
  static_assert(std::is_integral_v<Offset>, "interval_expand: integer offsets");
  if (num_segments == 0) return;
  const std::size_t last = num_segments - 1;
  detail::load_balance(offsets, num_segments, n, opt,
                       [&](std::size_t j0, std::size_t j1, std::size_t s) {
                         std::fill(out + j0, out + j1, values[s < last ? s : last]);
                       });
}

}  // namespace corank::cpu
