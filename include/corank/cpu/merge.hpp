// Parallel stable merge on multicore CPUs (OpenMP).
//
// The output is cut into equal chunks, more than threads, handed out dynamically. Each chunk
// finds the matching input prefixes with co_rank and is merged sequentially as several
// interleaved streams (merge_streams.hpp): no thread waits on another, and the split costs a few
// binary searches per chunk.
#pragma once

#include <atomic>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>
#include <vector>

#include "corank/cpu/merge_streams.hpp"
#include "corank/cpu/options.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"

namespace corank::cpu {
namespace detail {

/// Whether merging from It changes the elements it reads: move iterators over types that are not
/// trivially copyable (a trivially copyable move is a copy).
template <class It>
inline constexpr bool moves_from =
    std::is_rvalue_reference_v<decltype(*std::declval<It&>())> && !registers_hold<It>;

/// One stable merge: keys A[0,m) and B[0,n), values alongside, into out and vout.
template <class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut>
struct merge_inputs {
  KeyA a;
  ValA va;
  std::ptrdiff_t m;
  KeyB b;
  ValB vb;
  std::ptrdiff_t n;
  KeyOut out;
  ValOut vout;
  std::ptrdiff_t total() const { return m + n; }
  /// Merging moves the inputs away: its pieces must find their co-ranks before any piece merges.
  static constexpr bool changes_inputs =
      moves_from<KeyA> || moves_from<ValA> || moves_from<KeyB> || moves_from<ValB>;
};
template <class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut>
merge_inputs(KeyA, ValA, std::ptrdiff_t, KeyB, ValB, std::ptrdiff_t, KeyOut, ValOut)
    -> merge_inputs<KeyA, ValA, KeyB, ValB, KeyOut, ValOut>;

/// What the threads of merge_in_pieces share: whether a piece's co-ranks needed the clamp, and,
/// for merges that change their inputs, room for the co-ranks of every piece boundary
/// (merges x (parts + 1)).
struct piece_cuts {
  std::atomic<bool> clamped{false};
  std::vector<std::ptrdiff_t> cuts;
};

/// Merges piece p of `parts` of merge `in`: outputs [k0, k1) from A[i0, i1) and the rest of B, as
/// `Streams` interleaved streams.
template <int Streams, class Inputs, class Compare>
void merge_piece(const Inputs& in, std::ptrdiff_t parts, std::ptrdiff_t p, std::ptrdiff_t i0,
                 std::ptrdiff_t i1, Compare comp) {
  const std::ptrdiff_t k0 = even_split(in.total(), parts, p),
                       k1 = even_split(in.total(), parts, p + 1);
  merge_streams_by_key<Streams>(in.a + i0, in.a + i1, in.va + i0, in.b + (k0 - i0),
                                in.b + (k1 - i1), in.vb + (k0 - i0), in.out + k0, in.vout + k0,
                                comp, tuning::merge_min_stream_items);
}

/// Inside a parallel region, called by every thread: the `merges` independent merges
/// inputs(q), q < merges, each cut into `parts` pieces of near-equal output, scheduled
/// dynamically (a thread slowed by other work on its core does not hold up the rest).
///
/// A violated precondition (NaN keys, a comparator that is not a strict weak order, unsorted
/// inputs) can make the co-ranks of neighbouring cuts disagree, and pieces would then overlap or
/// leave gaps in the inputs; each cut is therefore clamped against the one before
/// (consistent_co_rank). Usually each piece finds its own two co-ranks, so no thread waits on
/// another; a piece that needed the clamp sets `clamped`, and after the loop's barrier every
/// merge is merged again whole, by one thread each (merge_streams_by_key makes its streams' cuts
/// consistent one after another), so the output is still a permutation of the inputs. A merge
/// that moves its inputs away (changes_inputs) cannot search them again, nor while other pieces
/// move: its cuts are found first (every thread), made consistent in one sweep, then merged.
/// Exceptions are kept in `errors`. `Streams`: interleaved streams per piece (merge_streams.hpp).
template <int Streams = tuning::merge_streams, class Inputs, class Compare>
void merge_in_pieces(std::ptrdiff_t merges, std::ptrdiff_t parts, Inputs inputs, piece_cuts& shared,
                     region_errors& errors, Compare comp) {
  using size = std::ptrdiff_t;
  const auto cut = [&](const auto& in, size p) {
    return co_rank(even_split(in.total(), parts, p), in.a, in.m, in.b, in.n, comp);
  };
  if constexpr (decltype(inputs(0))::changes_inputs) {
    size* cuts = shared.cuts.data();
#pragma omp for schedule(static)
    for (size c = 0; c < merges * (parts + 1); ++c)
      errors.run([&] { cuts[c] = cut(inputs(c / (parts + 1)), c % (parts + 1)); });
#pragma omp single
    for (size q = 0; q < merges; ++q) {
      const auto in = inputs(q);
      size* at = cuts + q * (parts + 1);
      for (size p = 1; p <= parts; ++p)
        at[p] = consistent_co_rank(at[p], even_split(in.total(), parts, p), at[p - 1],
                                   even_split(in.total(), parts, p - 1), in.m, in.n);
    }
#pragma omp for schedule(dynamic, 1)
    for (size piece = 0; piece < merges * parts; ++piece)
      errors.run([&] {
        const size q = piece / parts, p = piece % parts, at = q * (parts + 1) + p;
        merge_piece<Streams>(inputs(q), parts, p, cuts[at], cuts[at + 1], comp);
      });
  } else {
#pragma omp for schedule(dynamic, 1)
    for (size piece = 0; piece < merges * parts; ++piece)
      errors.run([&] {
        const auto in = inputs(piece / parts);
        const size p = piece % parts;
        const size i0 = cut(in, p), i1_found = cut(in, p + 1);
        const size i1 = consistent_co_rank(i1_found, even_split(in.total(), parts, p + 1), i0,
                                           even_split(in.total(), parts, p), in.m, in.n);
        if (i1 != i1_found) shared.clamped.store(true, std::memory_order_relaxed);
        merge_piece<Streams>(in, parts, p, i0, i1, comp);
      });
    // Every thread reads the same flag: it is set only before the barrier above.
    if (shared.clamped.load(std::memory_order_relaxed)) {
#pragma omp for schedule(dynamic, 1)
      for (size q = 0; q < merges; ++q)
        errors.run([&] { merge_piece<Streams>(inputs(q), 1, 0, 0, inputs(q).m, comp); });
    }
  }
}

}  // namespace detail

/// Stable merge of sorted keys A and B with values alongside. Returns the ends of the key and
/// value outputs. Output ranges must not overlap the inputs. Keys and values are copied from the
/// inputs (pass std::move_iterator to move them; then movable is enough).
///
/// Preconditions: A and B sorted by comp, a strict weak order; no overlap. Violated (NaN keys,
/// `<=`, unsorted inputs, an output over an input), the call still returns, and the output is a
/// permutation of the inputs in an unspecified order (with overlap: unspecified contents). An
/// exception thrown by comp or by a copy propagates (the output is then unspecified).
template <class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut,
          class Compare = corank::less>
std::pair<KeyOut, ValOut> merge_by_key(KeyA a, KeyA a_end, ValA va, KeyB b, KeyB b_end, ValB vb,
                                       KeyOut out, ValOut vout, Compare comp = {},
                                       const options& opt = {}) {
  using size = std::ptrdiff_t;
  const size m = a_end - a, n = b_end - b, total = m + n;
  const int threads = detail::threads_for(static_cast<std::size_t>(total), opt);
  if (threads <= 1) {
    merge_streams_by_key<tuning::merge_streams>(a, a_end, va, b, b_end, vb, out, vout, comp,
                                                tuning::merge_min_stream_items);
    return {out + total, vout + total};
  }
  const size chunks = detail::chunk_count(total, threads, tuning::merge_chunks_per_thread,
                                          tuning::merge_min_chunk_items);
  const detail::merge_inputs whole{a, va, m, b, vb, n, out, vout};
  detail::piece_cuts shared;
  if (whole.changes_inputs) shared.cuts.resize(static_cast<std::size_t>(chunks + 1));
  detail::region_errors errors;
#pragma omp parallel num_threads(threads)
  detail::merge_in_pieces(
      1, chunks, [&](size) { return whole; }, shared, errors, comp);
  errors.rethrow();
  return {out + total, vout + total};
}

/// Stable merge of sorted ranges: the contract of std::merge (and the preconditions and
/// behaviour of merge_by_key), run on all cores.
template <class ItA, class ItB, class OutIt, class Compare = corank::less>
OutIt merge(ItA a, ItA a_end, ItB b, ItB b_end, OutIt out, Compare comp = {},
            const options& opt = {}) {
  return merge_by_key(a, a_end, discard_iterator{}, b, b_end, discard_iterator{}, out,
                      discard_iterator{}, comp, opt)
      .first;
}

}  // namespace corank::cpu
