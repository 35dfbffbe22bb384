// Sequential stable merge as several independent streams interleaved in one loop (CPU only).
//
// A branch-free merge step is a dependent chain: compare the two front keys, select, advance
// one side, read its next key. One stream leaves the core idle for most of that latency. Cutting
// the output into S equal parts with co_rank gives S merges that share nothing, and stepping them
// in lock-step lets the out-of-order core overlap their chains. Each stream also keeps its front
// keys in registers and reads the next key of both sides before it knows which side advances, so
// the load latency leaves the compare-select chain.
#pragma once

#include <cstddef>
#include <iterator>

#include "corank/merge_path.hpp"

namespace corank::cpu {

/// Stable merge of keys A[a, a_end) and B[b, b_end) with values alongside (value iterators may be
/// corank::discard_iterator), run as `Streams` interleaved streams; inputs shorter than
/// `min_stream_items` per stream use fewer streams. Same result as serial_merge_by_key, and the
/// same preconditions: sorted inputs, a strict weak order. Without them it still ends (the
/// streams' cuts are made consistent) and writes a permutation of the inputs.
template <int Streams, class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut,
          class Compare>
void merge_streams_by_key(KeyA a, KeyA a_end, ValA va, KeyB b, KeyB b_end, ValB vb, KeyOut out,
                          ValOut vout, Compare comp, std::ptrdiff_t min_stream_items) {
  using size = std::ptrdiff_t;
  const size m = a_end - a, n = b_end - b, total = m + n;
  if constexpr (Streams > 1) {
    if (total < Streams * min_stream_items)
      return merge_streams_by_key<Streams / 2>(a, a_end, va, b, b_end, vb, out, vout, comp,
                                               min_stream_items);
  }

  // Stream s merges A[ia[s], ia[s+1]) with B[k - ia, ...) into outputs [k[s], k[s+1]).
  KeyA sa[Streams], sa_end[Streams];
  KeyB sb[Streams], sb_end[Streams];
  ValA sva[Streams];
  ValB svb[Streams];
  KeyOut sout[Streams];
  ValOut svout[Streams];
  size i_begin = 0;
  for (int s = 0; s < Streams; ++s) {
    const size k_end = even_split<size>(total, Streams, s + 1);
    const size k_begin = even_split<size>(total, Streams, s);
    const size i_end = s + 1 == Streams ? m
                                        : consistent_co_rank(co_rank<true>(k_end, a, m, b, n, comp),
                                                             k_end, i_begin, k_begin, m, n);
    const size j_begin = k_begin - i_begin;
    sa[s] = a + i_begin, sa_end[s] = a + i_end, sva[s] = va + i_begin;
    sb[s] = b + j_begin, sb_end[s] = b + (k_end - i_end), svb[s] = vb + j_begin;
    sout[s] = out + k_begin, svout[s] = vout + k_begin;
    i_begin = i_end;
  }

  // Lock-step rounds. A round of `steps` steps cannot run a stream out of either input, so the
  // loop body has no bounds checks. Every stream writes one output per step, so one counter
  // indexes all outputs.
  for (;;) {
    size steps = total;
    for (int s = 0; s < Streams; ++s) {
      const size rest_a = sa_end[s] - sa[s], rest_b = sb_end[s] - sb[s];
      const size rest = rest_a < rest_b ? rest_a : rest_b;
      steps = rest < steps ? rest : steps;
    }
    if (steps <= 0) break;
    for (size t = 0; t < steps; ++t) {
#pragma GCC unroll 8
      for (int s = 0; s < Streams; ++s) {
        bool take_b;
        if constexpr (registers_hold<KeyA> && registers_hold<KeyB>) {
          const auto key_a = *sa[s];
          const auto key_b = *sb[s];
          take_b = comp(key_b, key_a);  // ties go to A: stable
          sout[s][t] = take_b ? key_b : key_a;
        } else {  // compared in place, one move (move iterators) or copy
          take_b = comp(*sb[s], *sa[s]);
          sout[s][t] = take_b ? *sb[s] : *sa[s];
        }
        if constexpr (registers_hold<ValA> && registers_hold<ValB>) {
          // Both read before the select: `take_b ? *svb[s] : *sva[s]` compiles to a branch (only
          // one of the reads may be made), mispredicted on every other item; merge_by_key ran at
          // 2.5x the time of a merge of {key, value} structs.
          const auto val_a = *sva[s];
          const auto val_b = *svb[s];
          svout[s][t] = take_b ? val_b : val_a;
        } else {
          svout[s][t] = take_b ? *svb[s] : *sva[s];
        }
        sa[s] += !take_b, sva[s] += !take_b;
        sb[s] += take_b, svb[s] += take_b;
      }
    }
    for (int s = 0; s < Streams; ++s) sout[s] += steps, svout[s] += steps;
  }
  // The last few items of each stream (and inputs that run out early: a copy).
  for (int s = 0; s < Streams; ++s)
    serial_merge_by_key<true>(sa[s], sa_end[s], sva[s], sb[s], sb_end[s], svb[s], sout[s], svout[s],
                              comp);
}

}  // namespace corank::cpu
