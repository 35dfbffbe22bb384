// Parallel stable merge on multicore CPUs (OpenMP).
//
// Each thread takes an equal slice of the output, finds the matching input prefixes with
// co_rank, and merges its slice sequentially as several interleaved streams (merge_streams.hpp):
// no thread waits on another, and the split costs a few binary searches per thread.
#pragma once

#include <cstddef>
#include <iterator>
#include <utility>

#include "corank/cpu/merge_streams.hpp"
#include "corank/cpu/options.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"

namespace corank::cpu {
namespace detail {

/// Outputs [k0, k1) of the stable merge of A[0,m) and B[0,n), values alongside: the co-rank
/// finds where they start in each input, then one interleaved sequential merge writes them.
template <class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut, class Compare>
void merge_output_range(KeyA a, std::ptrdiff_t m, ValA va, KeyB b, std::ptrdiff_t n, ValB vb,
                        KeyOut out, ValOut vout, std::ptrdiff_t k0, std::ptrdiff_t k1,
                        Compare comp) {
  const std::ptrdiff_t i0 = co_rank(k0, a, m, b, n, comp), i1 = co_rank(k1, a, m, b, n, comp);
  const std::ptrdiff_t j0 = k0 - i0, j1 = k1 - i1;
  merge_streams_by_key<tuning::merge_streams>(a + i0, a + i1, va + i0, b + j0, b + j1, vb + j0,
                                              out + k0, vout + k0, comp,
                                              tuning::merge_min_stream_items);
}

}  // namespace detail

/// Stable merge of sorted keys A and B with values alongside. Returns the ends of the key and
/// value outputs. Output ranges must not overlap the inputs.
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
  // More chunks than threads, handed out dynamically: a thread slowed by other work on its core
  // (a shared machine) does not hold up the rest.
  const size chunks = detail::chunk_count(total, threads, tuning::merge_chunks_per_thread,
                                          tuning::merge_min_chunk_items);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (size c = 0; c < chunks; ++c) {
    detail::merge_output_range(a, m, va, b, n, vb, out, vout, even_split<size>(total, chunks, c),
                               even_split<size>(total, chunks, c + 1), comp);
  }
  return {out + total, vout + total};
}

/// Stable merge of sorted ranges: the contract of std::merge, run on all cores.
template <class ItA, class ItB, class OutIt, class Compare = corank::less>
OutIt merge(ItA a, ItA a_end, ItB b, ItB b_end, OutIt out, Compare comp = {},
            const options& opt = {}) {
  return merge_by_key(a, a_end, discard_iterator{}, b, b_end, discard_iterator{}, out,
                      discard_iterator{}, comp, opt)
      .first;
}

}  // namespace corank::cpu
