// The k-way co-rank (multisequence selection): where the first `rank` outputs of a stable merge
// of k sorted runs come from, one count per run.
//
// The two-run co_rank (merge_path.hpp) is a binary search on one diagonal. With k runs there is
// one unknown per run and a single equation (the counts sum to rank), so it is found by
// elimination instead: every run keeps a window [lo, hi] known to hold its count; a pivot is
// drawn among the undecided elements (those inside the windows), and its place in every run
// (one binary search per window) tells on which side of the cut it lies: if the elements up to
// it number at most `rank`, it and everything before it are taken (the windows' lower ends rise
// to its places), otherwise it and everything after it are not (the upper ends fall). A pivot
// drawn uniformly from the undecided elements removes a quarter of them on average, as in
// quickselect: O(log n) rounds of k window searches, O(k log^2 n) comparisons, no allocation.
//
// Written once, plain C++17 and `__host__ __device__` under nvcc like merge_path.hpp, so every
// backend can cut a k-way merge into pieces with it. four_way_split.hpp is not a use of it: the
// GPU sort's four-way pass cuts at samples (known elements), which one co-rank and two rank
// searches place exactly, with no selection.
#pragma once

#include <cstdint>

#include "corank/merge_path.hpp"

namespace corank {

/// The splitmix64 generator: the pivots' source. Seeded by the rank, so cuts are reproducible.
CORANK_HD std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Rounds of random pivots before the search falls back to the midpoint of the widest window.
/// Random pivots need about 2 ln n rounds (45 at n = 10^10), so sorted runs never get here; the
/// fallback bounds the time of any input (a comparator that is not a strict weak order): it
/// halves the widest window every round, so at most k x 64 rounds more.
inline constexpr int multiway_co_rank_random_rounds = 256;

/// The k-way co-rank. Run j is keys[starts[j], starts[j + 1]) for j < k (starts: any indexable
/// sequence of k + 1 non-decreasing positions), each sorted by comp. In the stable merge of the
/// runs equal keys come in run order, then in their order within the run. Writes to split[j] how
/// many of the merge's first `rank` outputs come from run j: 0 <= split[j] <= |run j|, and the
/// counts sum to `rank` (clamped to the total). `work`: scratch for 2k sizes.
///
/// Precondition: runs sorted by comp, a strict weak order. Without it the call still ends and the
/// counts still lie within the runs and sum to `rank`, but the counts of different ranks may
/// disagree (a piece between two cuts may then have a negative length in some run; callers
/// check). O(k log^2 n) comparisons on average for n elements in all.
template <class It, class Starts, class Size, class Compare>
CORANK_HD void multiway_co_rank(It keys, const Starts& starts, Size k, Size rank, Size* split,
                                Size* work, Compare comp) {
  if (k == 0) return;
  Size* lo = split;     // every run's count lies in [lo[j], hi[j]]
  Size* hi = work;      //
  Size* at = work + k;  // the pivot's place in each run, clamped to its window
  const Size total = Size(starts[k]) - Size(starts[0]);
  if (rank > total) rank = total;
  // Before the first pivot: a run gives at most min(len, rank), and at least what the other runs
  // cannot hold. The invariant sum(lo) <= rank <= sum(hi) holds from here on, whatever comp does.
  Size taken = 0, room = 0;  // sum(lo), sum(hi)
  for (Size j = 0; j < k; ++j) {
    const Size len = Size(starts[j + 1]) - Size(starts[j]), others = total - len;
    lo[j] = rank > others ? rank - others : Size(0);
    hi[j] = len < rank ? len : rank;
    taken += lo[j], room += hi[j];
  }
  std::uint64_t state = std::uint64_t(rank) * 0x2545F4914F6CDD1Dull + std::uint64_t(k);
  for (int round = 0; taken < rank && rank < room; ++round) {
    // The pivot: run q, position m within its window.
    Size q = 0, m = 0;
    if (round < multiway_co_rank_random_rounds) {
      Size t = Size(splitmix64(state) % std::uint64_t(room - taken));
      for (;; ++q) {
        const Size width = hi[q] - lo[q];
        if (t < width) break;
        t -= width;
      }
      m = lo[q] + t;
    } else {
      for (Size j = 1; j < k; ++j)
        if (hi[j] - lo[j] > hi[q] - lo[q]) q = j;
      m = lo[q] + (hi[q] - lo[q]) / 2;
    }
    const auto& pivot = keys[Size(starts[q]) + m];
    // Elements up to and including the pivot, per run: in runs before q those not greater than
    // it (ties precede the pivot), in runs after q those less. Only the window is searched: the
    // count clamped to it is all the update below needs.
    Size up_to_pivot = 0;
    for (Size j = 0; j < k; ++j) {
      if (j == q) {
        at[j] = m + 1;
      } else {
        const It run = keys + Size(starts[j]) + lo[j];
        const bool ties_before = j < q;
        at[j] = lo[j] + partition_point_on_grid(hi[j] - lo[j], [&](Size i) {
                  return ties_before ? !comp(pivot, run[i]) : bool(comp(run[i], pivot));
                });
      }
      up_to_pivot += at[j];
    }
    // If the pivot is among the first `rank` outputs, so is everything before it, and each run's
    // count is at least its clamped place: the clamped places then sum to at most rank. If it
    // is not, nothing after it is, each count is at most its place (the pivot's run: at most m),
    // and the places sum to more than rank. So the sum decides, and either way q's window shrinks.
    if (up_to_pivot <= rank) {
      for (Size j = 0; j < k; ++j) lo[j] = at[j];
      taken = up_to_pivot;
    } else {
      for (Size j = 0; j < k; ++j) hi[j] = j == q ? m : at[j];
      room = up_to_pivot - 1;
    }
  }
  if (taken < rank)  // rank == room: every count is at its upper end
    for (Size j = 0; j < k; ++j) split[j] = hi[j];
}

}  // namespace corank
