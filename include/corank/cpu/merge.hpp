// Parallel stable merge on multicore CPUs (OpenMP).
//
// Each thread takes an equal slice of the output, finds the matching input prefixes with
// co_rank, and merges its slice sequentially: no thread waits on another, and the split costs
// two binary searches per thread.
#pragma once

#include <cstddef>
#include <iterator>
#include <utility>

#include "corank/cpu/options.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"

namespace corank::cpu {

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
    serial_merge_by_key<true>(a, a_end, va, b, b_end, vb, out, vout, comp);
    return {out + total, vout + total};
  }
#pragma omp parallel num_threads(threads)
  {
    const size t = detail::thread_id(), parts = detail::thread_count();
    const size k0 = even_split<size>(total, parts, t), k1 = even_split<size>(total, parts, t + 1);
    const size i0 = co_rank(k0, a, m, b, n, comp), i1 = co_rank(k1, a, m, b, n, comp);
    const size j0 = k0 - i0, j1 = k1 - i1;
    serial_merge_by_key<true>(a + i0, a + i1, va + i0, b + j0, b + j1, vb + j0, out + k0,
                              vout + k0, comp);
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
