// Sequential stable merge as several independent streams interleaved in one loop (CPU only).
//
// A branch-free merge step is a dependent chain: compare the two front keys, select, advance
// one side, read its next key. One stream leaves the core idle for most of that latency. Cutting
// the output into S equal parts with co_rank gives S merges that share nothing, and stepping them
// in lock-step lets the out-of-order core overlap their chains. A stream's state is one index per
// input, shared by its keys and values, and the output index is their sum: few enough registers
// that the loop's cursors need not be spilled (a spilled cursor puts a store and a reload into
// every step's chain).
#pragma once

#include <cstddef>
#include <iterator>

#include "corank/merge_path.hpp"

// GCC's -O3 path splitting (-fsplit-paths) duplicates the last stream's step into both arms of its
// compare, so that stream's selects become a branch, mispredicted on every other item: with
// values (more live cursors) merge_by_key ran 1.5-1.8x the merge of {key, value} structs.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define CORANK_KEEP_SELECTS __attribute__((optimize("no-split-paths")))
#else
#define CORANK_KEEP_SELECTS
#endif

namespace corank::cpu {

/// Stable merge of keys A[a, a_end) and B[b, b_end) with values alongside (value iterators may be
/// corank::discard_iterator), run as `Streams` interleaved streams; inputs shorter than
/// `min_stream_items` per stream use fewer streams. Same result as serial_merge_by_key, and the
/// same preconditions: sorted inputs, a strict weak order. Without them it still ends (the
/// streams' cuts are made consistent) and writes a permutation of the inputs.
template <int Streams, class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut,
          class Compare>
CORANK_KEEP_SELECTS void merge_streams_by_key(KeyA a, KeyA a_end, ValA va, KeyB b, KeyB b_end,
                                              ValB vb, KeyOut out, ValOut vout, Compare comp,
                                              std::ptrdiff_t min_stream_items) {
  using size = std::ptrdiff_t;
  const size m = a_end - a, n = b_end - b, total = m + n;
  if constexpr (Streams > 1) {
    if (total < Streams * min_stream_items)
      return merge_streams_by_key<Streams / 2>(a, a_end, va, b, b_end, vb, out, vout, comp,
                                               min_stream_items);
  }

  // Stream s merges A[i[s], i_end[s]) with B[j[s], j_end[s]) into outputs from i[s] + j[s].
  size i[Streams] = {}, i_end[Streams] = {}, j[Streams] = {}, j_end[Streams] = {};
  for (int s = 0; s < Streams; ++s) {
    const size k_end = even_split<size>(total, Streams, s + 1);
    const size k_begin = even_split<size>(total, Streams, s);
    const size i_begin = s == 0 ? 0 : i_end[s - 1];
    i[s] = i_begin, j[s] = k_begin - i_begin;
    i_end[s] = s + 1 == Streams ? m
                                : consistent_co_rank(co_rank<true>(k_end, a, m, b, n, comp), k_end,
                                                     i_begin, k_begin, m, n);
    j_end[s] = k_end - i_end[s];
  }

  // Lock-step rounds. A round of `steps` steps cannot run a stream out of either input, so the
  // loop body has no bounds checks.
  for (;;) {
    size steps = total;
    for (int s = 0; s < Streams; ++s) {
      const size rest_a = i_end[s] - i[s], rest_b = j_end[s] - j[s];
      const size rest = rest_a < rest_b ? rest_a : rest_b;
      steps = rest < steps ? rest : steps;
    }
    if (steps <= 0) break;
    // Stream 0's output index counts the steps (one register fewer than a counter of its own).
    const size stop = i[0] + j[0] + steps;
    do {
#pragma GCC unroll 8
      for (int s = 0; s < Streams; ++s) {
        const size ia = i[s], jb = j[s], k = ia + jb;
        bool take_b;
        if constexpr (registers_hold<KeyA> && registers_hold<KeyB>) {
          const auto key_a = a[ia];
          const auto key_b = b[jb];
          take_b = comp(key_b, key_a);  // ties go to A: stable
          out[k] = take_b ? key_b : key_a;
        } else {  // compared in place, one move (move iterators) or copy
          take_b = comp(b[jb], a[ia]);
          out[k] = take_b ? b[jb] : a[ia];
        }
        if constexpr (registers_hold<ValA> && registers_hold<ValB>) {
          // Both read before the select: `take_b ? vb[jb] : va[ia]` compiles to a branch (only
          // one of the reads may be made), mispredicted on every other item; merge_by_key ran at
          // 2.5x the time of a merge of {key, value} structs.
          const auto val_a = va[ia];
          const auto val_b = vb[jb];
          vout[k] = take_b ? val_b : val_a;
        } else {
          vout[k] = take_b ? vb[jb] : va[ia];
        }
        i[s] = ia + !take_b, j[s] = jb + take_b;
      }
    } while (i[0] + j[0] != stop);
  }
  // The last few items of each stream (and inputs that run out early: a copy).
  for (int s = 0; s < Streams; ++s)
    serial_merge_by_key<true>(a + i[s], a + i_end[s], va + i[s], b + j[s], b + j_end[s], vb + j[s],
                              out + (i[s] + j[s]), vout + (i[s] + j[s]), comp);
}

}  // namespace corank::cpu
