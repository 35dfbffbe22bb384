// Co-rank searched by a whole warp: a 33-ary search instead of a binary one.
//
// A block that finds its own partition (no separate partition pass) pays the search's latency at
// its start: about log2(m + n) dependent global reads for the binary co_rank. The warp probes 32
// points of the remaining range at once and keeps the gap between two neighbours, so each round of
// one (parallel) memory latency divides the range by 33: 6 rounds instead of 28 at 2 x 10^8.
#pragma once

#include <cstddef>

namespace corank::cuda::block {

/// Same result as corank::co_rank(k, a, m, b, n, comp); called by all 32 lanes of a warp, which
/// all return it. [lo, hi] may narrow the search when the caller knows bounds (a neighbouring
/// co-rank): co-rank grows with k by at most as much as k.
template <class ItA, class ItB, class Compare>
__device__ std::size_t warp_co_rank(std::size_t k, ItA a, std::size_t m, ItB b, std::size_t n,
                                    Compare comp, std::size_t lo = 0,
                                    std::size_t hi = ~std::size_t(0)) {
  const unsigned lane = threadIdx.x % 32;
  lo = k > n && k - n > lo ? k - n : lo;
  hi = k < hi ? k : hi;
  hi = m < hi ? m : hi;
  // Invariant: the answer lies in [lo, hi]. "A[i] comes among the first k" holds for a prefix of
  // [lo, hi), so the lanes' ballot is a prefix mask and its population count locates the answer.
  while (lo < hi) {
    const std::size_t len = hi - lo;
    const bool dense = len <= 32;  // probe every point: this round ends the search
    const auto probe = [&](unsigned j) { return dense ? lo + j : lo + len * (j + 1) / 33; };
    const std::size_t i = probe(lane);
    const bool a_first = (!dense || lane < len) && !comp(b[k - 1 - i], a[i]);
    const unsigned below = __popc(__ballot_sync(0xffffffffu, a_first));
    if (dense) return lo + below;
    const std::size_t new_lo = below > 0 ? probe(below - 1) + 1 : lo;
    hi = below < 32 ? probe(below) : hi;
    lo = new_lo;
  }
  return lo;
}

}  // namespace corank::cuda::block
