// The heart of corank: the co-rank (merge-path) search and the sequential merges.
//
// Written once, `__host__ __device__` under nvcc and plain C++ otherwise, and shared by the
// CPU (OpenMP) and GPU backends. Everything here is stable: when keys compare equal, the element
// of the first input (A) comes first.
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

#include "corank/config.hpp"

namespace corank {

/// Start of part `p` when `total` items are cut into `parts` near-equal contiguous parts
/// (the first `total % parts` parts get one extra item). Never overflows for 64-bit sizes.
template <class Size>
CORANK_HD constexpr Size even_split(Size total, Size parts, Size p) {
  const Size base = total / parts, extra = total % parts;
  return base * p + (p < extra ? p : extra);
}

/// Co-rank (Siebert & Träff; the "merge path" diagonal search of ModernGPU).
///
/// Returns i, the number of elements of A[0,m) among the first k outputs of the stable merge of
/// A[0,m) and B[0,n); the other k - i come from B. Precondition: 0 <= k <= m + n, A and B sorted
/// by comp, a strict weak order. Without the latter, i still lies in [max(0, k - n), min(k, m)],
/// but the co-ranks of different k may disagree: consistent_co_rank makes pieces of them.
/// O(log min(k, m, n)) comparisons, each reading one element of A and one of B.
///
/// `BranchFree` selects a fixed-trip search whose body is two selects, the "control divergence to
/// memory divergence" trade of the study: on a GPU every lane of a warp runs the same number of
/// steps; on a CPU the search never mispredicts.
template <bool BranchFree = false, class Size, class ItA, class ItB, class Compare>
CORANK_HD Size co_rank(Size k, ItA a, Size m, ItB b, Size n, Compare comp) {
  Size lo = k > n ? k - n : Size(0);
  Size hi = k < m ? k : m;
  if constexpr (!BranchFree) {
    while (lo < hi) {
      const Size i = lo + (hi - lo) / 2;
      // lo <= i < hi keeps both reads in range: i < m and 0 <= k - 1 - i < n.
      // A[i] is among the first k outputs iff it does not come after B[k-1-i]; ties go to A.
      if (!comp(b[k - 1 - i], a[i]))
        lo = i + 1;
      else
        hi = i;
    }
    return lo;
  } else {
    // Invariant: the answer lies in [lo, lo + len]. Each step halves len whatever the outcome.
    Size len = hi - lo;
    while (len > 0) {
      const Size half = len / 2;
      const Size i = lo + half;
      const bool a_first = !comp(b[k - 1 - i], a[i]);
      lo = a_first ? i + 1 : lo;
      len = a_first ? len - half - 1 : half;
    }
    return lo;
  }
}

/// The co-rank i of output k made consistent with the cut (k0, i0) of an earlier output k0 <= k,
/// i0 a valid cut: clamped into [max(i0, k - n), min(i0 + (k - k0), m)], never empty. For sorted
/// inputs and a strict weak order, co-ranks grow with k by at most as much as k, so i is already
/// there. Otherwise (NaN keys, `<=`, unsorted inputs) co-ranks are not monotone, and a piece
/// between two raw cuts may have a negative length on one side: clamped, each piece takes
/// k - k0 outputs from within both inputs, so every merge loop ends and reads in bounds, and cuts
/// clamped each against the one before cover both inputs exactly once (the output is then a
/// permutation of the inputs, in an unspecified order). Per cut, not per element: two compares.
template <class Size>
CORANK_HD Size consistent_co_rank(Size i, Size k, Size i0, Size k0, Size m, Size n) {
  const Size lo = k > n && k - n > i0 ? k - n : i0;
  const Size hi = i0 + (k - k0) < m ? i0 + (k - k0) : m;
  return i < lo ? lo : (i > hi ? hi : i);
}

/// The length of the prefix of [0, len) on which `pred` holds (it holds on a prefix, then fails),
/// found by binary lifting over a fixed power-of-two grid: at step s it probes only indices one
/// below a multiple of s, wherever the answer lies. Many searches over one array (a partition
/// pass) then share their upper levels, and those few elements stay in cache, where midpoint
/// searches would each read fresh ones. O(log len) probes.
template <class Size, class Pred>
CORANK_HD Size partition_point_on_grid(Size len, Pred pred) {
  Size step = 1;
  while (step <= len / 2) step *= 2;
  // Invariant: the answer lies in [i, i + 2 * step).
  Size i = 0;
  for (; step > 0; step /= 2)
    if (i + step <= len && pred(i + step - 1)) i += step;
  return i;
}

struct grid_search;

/// The same co-rank as co_rank(), on the grid of partition_point_on_grid: A is read only at
/// multiples of s (minus one), B only at k minus multiples of s. O(log min(k, m)) steps, each
/// reading at most one element of A and one of B. Search: whose partition_point walks the grid
/// (grid_search below: one thread; cuda/block/co_rank.cuh: several lanes, the same result).
template <class Search = grid_search, class Size, class ItA, class ItB, class Compare>
CORANK_HD Size co_rank_on_grid(Size k, ItA a, Size m, ItB b, Size n, Compare comp) {
  const Size lo = k > n ? k - n : Size(0);
  const Size hi = k < m ? k : m;
  // "A[p] is among the first k outputs": known for p < lo, and p >= hi is out of range.
  return Search::partition_point(hi, [&](Size p) { return p < lo || !comp(b[k - 1 - p], a[p]); });
}

/// How many of the sorted x[0, nx) and of the sorted y[0, ny) come before `key` in a stable merge
/// that puts them after the key's sequence (those strictly less: lower bounds), or before it
/// (UpperBound: those not greater: upper bounds). The two searches run in one loop on the grid of
/// partition_point_on_grid (a step past an array's end fails), so their memory latencies overlap.
template <class Size>
struct rank_pair {
  Size x, y;
};
/// Whether e is counted by such a rank search for `key`: strictly less (lower bound), or not
/// greater (UpperBound).
template <bool UpperBound, class T, class Key, class Compare>
CORANK_HD bool ranks_before(const T& e, const Key& key, Compare comp) {
  if constexpr (UpperBound)
    return !comp(key, e);
  else
    return comp(e, key);
}
template <bool UpperBound, class Size, class ItX, class ItY, class Key, class Compare>
CORANK_HD rank_pair<Size> ranks_on_grid(ItX x, Size nx, ItY y, Size ny, const Key& key,
                                        Compare comp) {
  const auto before = [&](const auto& e) { return ranks_before<UpperBound>(e, key, comp); };
  const Size len = nx > ny ? nx : ny;
  Size step = 1;
  while (step <= len / 2) step *= 2;
  rank_pair<Size> r{0, 0};
  for (; step > 0; step /= 2) {
    const bool in_x = r.x + step <= nx && before(x[r.x + step - 1]);
    const bool in_y = r.y + step <= ny && before(y[r.y + step - 1]);
    r.x += in_x ? step : 0;
    r.y += in_y ? step : 0;
  }
  return r;
}

/// The grid searches above, one thread each: the Search of the four-way cut (four_way_split.hpp)
/// on the CPU and by default; the GPU's cut pass may pass searches shared by several lanes
/// (cuda/block/co_rank.cuh), which return the same results.
struct grid_search {
  template <class Size, class Pred>
  CORANK_HD static Size partition_point(Size len, Pred pred) {
    return partition_point_on_grid(len, pred);
  }
  template <class Size, class ItA, class ItB, class Compare>
  CORANK_HD static Size co_rank(Size k, ItA a, Size m, ItB b, Size n, Compare comp) {
    return co_rank_on_grid<grid_search>(k, a, m, b, n, comp);
  }
  template <bool UpperBound, class Size, class ItX, class ItY, class Key, class Compare>
  CORANK_HD static rank_pair<Size> ranks(ItX x, Size nx, ItY y, Size ny, const Key& key,
                                         Compare comp) {
    return ranks_on_grid<UpperBound>(x, nx, y, ny, key, comp);
  }
};

/// Whether the keys behind iterator It may be held in registers (copied) by a merge step: a
/// copy is then as good as a move. Others are compared in place and moved once.
template <class It>
inline constexpr bool registers_hold =
    std::is_trivially_copyable_v<std::decay_t<decltype(*std::declval<It&>())>>;

/// An output iterator that swallows whatever is written: a key-only merge is the key-value merge
/// with its values discarded, so the merge loops are written once.
struct discard_iterator {
  struct sink {
    template <class T>
    CORANK_HD sink& operator=(const T&) {
      return *this;
    }
  };
  CORANK_HD sink operator*() const { return {}; }
  CORANK_HD sink operator[](std::ptrdiff_t) const { return {}; }
  CORANK_HD discard_iterator& operator++() { return *this; }
  CORANK_HD discard_iterator operator++(int) { return *this; }
  CORANK_HD discard_iterator& operator+=(std::ptrdiff_t) { return *this; }
  CORANK_HD discard_iterator operator+(std::ptrdiff_t) const { return *this; }
};

/// Sequential stable merge of keys A[a, a_end) and B[b, b_end), moving values alongside.
/// Value iterators may be `discard_iterator`. Returns the end of the key output.
///
/// The branchy form is std::merge. The branch-free form turns the data-dependent branch into
/// selects and index increments: each round runs min(|A rest|, |B rest|) steps with no bounds
/// checks, since neither input can run out inside such a round. It holds both front keys in
/// registers, so keys that are not trivially copyable (move-only ones: pass move iterators) take
/// the branchy form, which only moves the element it writes. Any comparator ends: every step
/// writes one element.
template <bool BranchFree = false, class KeyA, class ValA, class KeyB, class ValB, class KeyOut,
          class ValOut, class Compare>
CORANK_HD KeyOut serial_merge_by_key(KeyA a, KeyA a_end, ValA va, KeyB b, KeyB b_end, ValB vb,
                                     KeyOut out, ValOut vout, Compare comp) {
  if constexpr (BranchFree && registers_hold<KeyA>) {
    while (a != a_end && b != b_end) {
      auto steps = (a_end - a) < (b_end - b) ? (a_end - a) : (b_end - b);
      for (; steps > 0; --steps) {
        const auto key_a = *a;
        const auto key_b = *b;
        const bool take_b = comp(key_b, key_a);
        *out = take_b ? key_b : key_a;
        *vout = take_b ? *vb : *va;
        ++out, ++vout;
        a += !take_b, va += !take_b;
        b += take_b, vb += take_b;
      }
    }
  } else {
    while (a != a_end && b != b_end) {
      if (comp(*b, *a)) {
        *out = *b, *vout = *vb;
        ++b, ++vb;
      } else {
        *out = *a, *vout = *va;
        ++a, ++va;
      }
      ++out, ++vout;
    }
  }
  for (; a != a_end; ++a, ++va, ++out, ++vout) *out = *a, *vout = *va;
  for (; b != b_end; ++b, ++vb, ++out, ++vout) *out = *b, *vout = *vb;
  return out;
}

/// Sequential stable merge of keys alone (same contract as std::merge).
template <bool BranchFree = false, class ItA, class ItB, class OutIt, class Compare>
CORANK_HD OutIt serial_merge(ItA a, ItA a_end, ItB b, ItB b_end, OutIt out, Compare comp) {
  return serial_merge_by_key<BranchFree>(a, a_end, discard_iterator{}, b, b_end, discard_iterator{},
                                         out, discard_iterator{}, comp);
}

/// Register-resident merge of a fixed number of outputs (the per-thread step of a GPU block
/// merge). Starting from a merge-path point (a, b) of one buffer `keys` holding both inputs,
/// writes the next VT outputs to `out` and where each came from to `index`, stopping at no
/// thread-level end: the inputs' ends a_end and b_end bound it, so one co-rank per thread
/// suffices. Fully unrolled so `out` and `index` stay in registers. keys[a_end] and keys[b_end]
/// must be readable (their values are ignored); outputs past the inputs' ends are unspecified.
template <int VT, class Keys, class Index, class Key, class Compare>
CORANK_HD void serial_merge_registers(Keys keys, Index a, Index a_end, Index b, Index b_end,
                                      Key (&out)[VT], Index (&index)[VT], Compare comp) {
  Key key_a = keys[a];
  Key key_b = keys[b];
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int i = 0; i < VT; ++i) {
    // Stable: B goes first only when strictly before A.
    const bool take_a = b >= b_end || (a < a_end && !comp(key_b, key_a));
    out[i] = take_a ? key_a : key_b;
    index[i] = take_a ? a : b;
    // One read per step: only the side that advanced is refreshed. Past both ends (a partial
    // last tile) reads stay clamped at the ends.
    if (take_a) {
      ++a;
      key_a = keys[a < a_end ? a : a_end];
    } else {
      ++b;
      key_b = keys[b < b_end ? b : b_end];
    }
  }
}

}  // namespace corank
