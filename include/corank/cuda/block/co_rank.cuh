// Searches shared by several lanes: fewer rounds of memory latency than a binary search.
//
// A block that finds its own partition (no separate partition pass) pays the search's latency at
// its start: about log2(m + n) dependent global reads for the binary co_rank. The warp probes 32
// points of the remaining range at once and keeps the gap between two neighbours, so each round of
// one (parallel) memory latency divides the range by 33: 6 rounds instead of 28 at 2 x 10^8.
// A cut pass (one search per thread, latency-bound) may likewise give each search a few lanes
// (lane_group_search): each round then reads more, so a few lanes, not a warp.
#pragma once

#include <cstddef>

#include "corank/merge_path.hpp"

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

/// The grid searches of corank::grid_search (merge_path.hpp), same results, shared by a group of
/// Lanes consecutive lanes (a power of two, at most 32; every lane of the group calls with the same
/// arguments and gets the result). Each round the lanes probe Lanes points of the remaining range
/// at once, still on the power-of-two grid (each probe one below a multiple of the step), so a
/// search over 2^24 keys takes 8 rounds of one memory latency with 8 lanes instead of 24, and
/// probes of a step of 64 or more land on grid samples (grid_sampled_ptr).
template <unsigned Lanes>
struct lane_group_search {
  static_assert(Lanes >= 1 && Lanes <= 32 && (Lanes & (Lanes - 1)) == 0, "a power of two, <= 32");

  __device__ static unsigned lane() { return threadIdx.x % Lanes; }
  __device__ static unsigned group_mask() {
    return Lanes == 32 ? 0xffffffffu : ((1u << Lanes) - 1) << (threadIdx.x % 32 / Lanes * Lanes);
  }
  /// How many of the group's lanes hold `t` (a prefix of them, by the searches' monotony).
  __device__ static unsigned count(bool t) {
    const unsigned mask = group_mask();
    return unsigned(__popc(__ballot_sync(mask, t) & mask));
  }
  /// The first step: a power of Lanes whose Lanes steps cover len.
  template <class Size>
  __device__ static Size first_step(Size len) {
    Size step = 1;
    while (step * Lanes < len) step *= Lanes;
    return step;
  }

  template <class Size, class Pred>
  __device__ static Size partition_point(Size len, Pred pred) {
    // Invariant: the answer lies in [i, i + Lanes * step], and in [0, len].
    Size i = 0;
    for (Size step = first_step(len);; step /= Lanes) {
      const Size p = i + (lane() + 1) * step - 1;
      i += count(p < len && pred(p)) * step;
      if (step == 1) return i;
    }
  }

  template <class Size, class ItA, class ItB, class Compare>
  __device__ static Size co_rank(Size k, ItA a, Size m, ItB b, Size n, Compare comp) {
    return co_rank_on_grid<lane_group_search>(k, a, m, b, n, comp);
  }

  template <bool UpperBound, class Size, class ItX, class ItY, class Key, class Compare>
  __device__ static rank_pair<Size> ranks(ItX x, Size nx, ItY y, Size ny, const Key& key,
                                          Compare comp) {
    const auto before = [&](const auto& e) { return ranks_before<UpperBound>(e, key, comp); };
    // Both searches in one loop, so their memory latencies overlap.
    rank_pair<Size> r{0, 0};
    for (Size step = first_step(nx > ny ? nx : ny);; step /= Lanes) {
      const Size offset = (lane() + 1) * step - 1;
      const bool in_x = r.x + offset < nx && before(x[r.x + offset]);
      const bool in_y = r.y + offset < ny && before(y[r.y + offset]);
      r.x += count(in_x) * step;
      r.y += count(in_y) * step;
      if (step == 1) return r;
    }
  }
};

}  // namespace corank::cuda::block
