// The co-rank toolbox's sequential pieces (host + device): walks along the merge path of two
// sorted inputs that answer other questions than "merge them", and the balanced cut that lets the
// set operations split their inputs between workers.
//
// Every parallel algorithm of the toolbox (load-balancing search, sorted search, set operations;
// CPU and GPU) cuts the merge path with co_rank (merge_path.hpp) and walks each piece with the
// functions below:
//   load-balancing search  A = segment ends, B = the work items 0, 1, ...: an item's segment is the
//                          number of ends walked before it;
//   sorted search          A = needles, B = haystack (lower bound: ties put the needle first), or
//                          A = haystack, B = needles (upper bound): a needle's answer is the
//                          number of the other side walked before it;
//   set operations         the std::set_* loop, between balanced cuts (balanced_co_rank).
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>

#include "corank/config.hpp"
#include "corank/merge_path.hpp"

// The walks below are called from host-only code too (the CPU algorithms, with std:: iterators
// and host lambdas): no nvcc warning for calling those from a __host__ __device__ template.
#if defined(__CUDACC__)
#define CORANK_ANY_CALLER _Pragma("nv_exec_check_disable")
#else
#define CORANK_ANY_CALLER
#endif

namespace corank {

/// The integers base, base + 1, ...: the work items of a load-balancing search, read like an
/// array without memory.
template <class T>
struct counting_iterator {
  T base;
  CORANK_HD T operator[](std::ptrdiff_t i) const { return base + T(i); }
  CORANK_HD T operator*() const { return base; }
  CORANK_HD counting_iterator operator+(std::ptrdiff_t i) const { return {base + T(i)}; }
};

/// Compares integers of mixed types (segment offsets of any integer type against item indices)
/// as std::size_t: offsets and items are never negative.
struct index_less {
  template <class T, class U>
  CORANK_HD constexpr bool operator()(const T& a, const U& b) const {
    return static_cast<std::size_t>(a) < static_cast<std::size_t>(b);
  }
};

/// Walks the stable merge of A[i, i_end) and B[j, j_end) (ties: A first) and calls on_a(i, j)
/// when A[i] is output (j of B before it) and on_b(i, j) when B[j] is (i of A before it). Any
/// comparator ends: every step advances one side.
CORANK_ANY_CALLER
template <class ItA, class ItB, class Size, class Compare, class OnA, class OnB>
CORANK_HD void walk_merge_path(ItA a, Size i, Size i_end, ItB b, Size j, Size j_end, Compare comp,
                               OnA&& on_a, OnB&& on_b) {
  while (i < i_end && j < j_end) {
    if (comp(b[j], a[i]))
      on_b(i, j++);
    else
      on_a(i++, j);
  }
  for (; i < i_end; ++i) on_a(i, j);
  for (; j < j_end; ++j) on_b(i, j);
}

/// The first position p in [lo, hi) of sorted x at which ranks_before<UpperBound>(x[p], key)
/// fails: lower_bound (UpperBound = false) or upper_bound of key within [lo, hi).
CORANK_ANY_CALLER
template <bool UpperBound, class It, class Size, class Key, class Compare>
CORANK_HD Size bound_within(It x, Size lo, Size hi, const Key& key, Compare comp) {
  while (lo < hi) {
    const Size mid = lo + (hi - lo) / 2;
    if (ranks_before<UpperBound>(x[mid], key, comp))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// bound_within for a bound expected near one end of [lo, hi) (FromHigh: near hi): probes at
/// distances 1, 2, 4, ... from that end, then searches the last gap. O(log distance): the edges of
/// a run of equal keys cost a few probes when the run is short, whatever the inputs' size.
CORANK_ANY_CALLER
template <bool UpperBound, bool FromHigh, class It, class Size, class Key, class Compare>
CORANK_HD Size gallop_bound_within(It x, Size lo, Size hi, const Key& key, Compare comp) {
  Size step = 1;
  if constexpr (FromHigh) {
    // Invariant: the bound is at most top.
    for (Size top = hi; top > lo; step *= 2) {
      const Size probe = top - lo > step ? top - step : lo;
      if (ranks_before<UpperBound>(x[probe], key, comp))
        return bound_within<UpperBound>(x, probe + 1, top, key, comp);
      top = probe;
    }
    return lo;
  } else {
    // Invariant: the bound is at least bottom.
    for (Size bottom = lo; bottom < hi; step *= 2) {
      const Size probe = hi - bottom > step ? bottom + step - 1 : hi - 1;
      if (!ranks_before<UpperBound>(x[probe], key, comp))
        return bound_within<UpperBound>(x, bottom, probe, key, comp);
      bottom = probe + 1;
    }
    return hi;
  }
}

/// The four multiset operations of <algorithm>, std::set_union, std::set_intersection,
/// std::set_difference and std::set_symmetric_difference: a key found p times in A and q times
/// in B is output max(p, q), min(p, q), max(p - q, 0) and |p - q| times. Equal keys pair up in
/// order (the r-th of A with the r-th of B); a pair outputs A's element, the unpaired ones (the
/// last of the longer run) themselves.
enum class set_op { unite, intersect, difference, symmetric_difference };

/// f(std::integral_constant<set_op, op>{}): an operation chosen at run time handed to a template
/// on it; `invalid` for a value that names no operation. The one switch of both backends
/// (cpu/set_operations.hpp, cuda/detail/set_operations.cuh); the benchmarks' peers switch to
/// their own functions.
template <class F, class Result>
Result with_set_op(set_op op, F&& f, Result invalid) {
  using std::integral_constant;
  switch (op) {
    case set_op::unite:
      return f(integral_constant<set_op, set_op::unite>{});
    case set_op::intersect:
      return f(integral_constant<set_op, set_op::intersect>{});
    case set_op::difference:
      return f(integral_constant<set_op, set_op::difference>{});
    case set_op::symmetric_difference:
      return f(integral_constant<set_op, set_op::symmetric_difference>{});
  }
  return invalid;
}

/// The joins of two sorted key arrays (cpu/join.hpp, cuda/join.cuh): the index pairs of
/// equivalent keys (inner), and each key without a match once, paired with no_match (left outer:
/// A's; full outer: A's and B's).
enum class join_kind { inner, left_outer, full_outer };

/// The index of an outer join's missing side.
inline constexpr std::size_t no_match = ~std::size_t(0);

/// Where a piece of a set operation ends: a[0, a) and b[0, b) are before the cut.
template <class Size>
struct cut_pair {
  Size a, b;
};

/// A cut of the merge path near output k (k or k - 1 items before it) at which the std::set_*
/// loop of the whole inputs passes, so that pieces between such cuts run that loop on their own
/// and together give its output (ModernGPU's "balanced path", rounded down instead of flagged).
/// The merge path's cut (co_rank) puts all of a run of equal keys x of A before B's: inside such
/// a run, the t elements of x before the cut are shared out again as the loop consumes them,
/// paired first (r of A with r of B), then the excess of the longer run; a cut between the two
/// halves of a pair moves back by one. Needs the runs' extents: four galloping searches from the
/// cut, O(log of the runs' lengths) on top of the co-rank. Precondition as co_rank; violated, the
/// cut still lies in [0, m] x [0, n].
CORANK_ANY_CALLER
template <class Size, class ItA, class ItB, class Compare>
CORANK_HD cut_pair<Size> balanced_co_rank(Size k, ItA a, Size m, ItB b, Size n, Compare comp) {
  const Size i = co_rank(k, a, m, b, n, comp);
  const Size j = k - i;
  // With B exhausted, no run of equal keys straddles the cut in both inputs (B's copies of
  // A[i]'s key would come after A[i]).
  if (j >= n) return {i, j};
  const auto x = b[j];  // the key whose run the cut may split: A's copies of it precede B[j]
  const Size a_first = gallop_bound_within<false, true>(a, Size(0), i, x, comp);
  const Size a_last = gallop_bound_within<true, false>(a, i, m, x, comp);
  const Size b_first = gallop_bound_within<false, true>(b, Size(0), j, x, comp);
  const Size b_last = gallop_bound_within<true, false>(b, j, n, x, comp);
  const Size count_a = a_last - a_first, count_b = b_last - b_first;
  const Size t = (i - a_first) + (j - b_first);  // copies of x before the cut
  Size rb = t / 2 < count_b ? t / 2 : count_b;
  Size ra = t - rb;
  if (ra > count_a) ra = count_a, rb = t - count_a;
  if (ra == rb + 1 && rb < count_b) ra = rb;  // A's half of a pair without B's: cut before it
  return {a_first + ra, b_first + rb};
}

/// The std::set_* loop of `Op` on A[i, i_end) and B[j, j_end): calls emit(from_a, index) for each
/// output, in order (index into A or B), and returns the number of outputs. With a no-op emit it
/// counts. Any comparator ends.
CORANK_ANY_CALLER
template <set_op Op, class ItA, class ItB, class Size, class Compare, class Emit>
CORANK_HD Size serial_set_operation(ItA a, Size i, Size i_end, ItB b, Size j, Size j_end,
                                    Compare comp, Emit&& emit) {
  constexpr bool keep_a_only = Op != set_op::intersect;
  constexpr bool keep_b_only = Op == set_op::unite || Op == set_op::symmetric_difference;
  constexpr bool keep_pairs = Op == set_op::unite || Op == set_op::intersect;
  Size count = 0;
  while (i < i_end && j < j_end) {
    if (comp(a[i], b[j])) {
      if (keep_a_only) emit(true, i), ++count;
      ++i;
    } else if (comp(b[j], a[i])) {
      if (keep_b_only) emit(false, j), ++count;
      ++j;
    } else {
      if (keep_pairs) emit(true, i), ++count;
      ++i, ++j;
    }
  }
  if (keep_a_only)
    for (; i < i_end; ++i) emit(true, i), ++count;
  if (keep_b_only)
    for (; j < j_end; ++j) emit(false, j), ++count;
  return count;
}

/// serial_set_operation's loop for a GPU thread: VT steps of the std::set_* loop of `Op` on
/// keys[a, a_end) and keys[b, b_end) (two ranges of one array), fully unrolled and without
/// branches on the keys so that `out` and `index` stay in registers. Step s puts its candidate in
/// out[s] (index[s]: where in `keys` it came from) and sets bit s of the result when the loop
/// outputs it; a step consumes one key, or two for a pair. A piece between balanced cuts of at most
/// VT + 1 keys, VT + 1 only when it starts with a pair, ends within VT steps. keys[a_end] and
/// keys[b_end] must be readable (reads are clamped there; their values are ignored). VT <= 32.
template <set_op Op, int VT, class Keys, class Index, class Key, class Compare>
CORANK_HD unsigned serial_set_operation_registers(Keys keys, Index a, Index a_end, Index b,
                                                  Index b_end, Key (&out)[VT], Index (&index)[VT],
                                                  Compare comp) {
  static_assert(VT >= 1 && VT <= 32, "one bit of the result per step");
  Key key_a = keys[a < a_end ? a : a_end];
  Key key_b = keys[b < b_end ? b : b_end];
  unsigned kept = 0;
  if constexpr (Op == set_op::intersect) {
    // Every output is A's key of a pair, and none comes once either side is spent: the two
    // comparisons alone steer each step (past an end the keys are ignored, as is the step).
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int s = 0; s < VT; ++s) {
      const bool a_less = comp(key_a, key_b), b_less = comp(key_b, key_a);
      out[s] = key_a;
      index[s] = a;
      kept |= unsigned(a < a_end && b < b_end && !a_less && !b_less) << s;
      if (!b_less) {
        ++a;
        key_a = keys[a < a_end ? a : a_end];
      }
      if (!a_less) {
        ++b;
        key_b = keys[b < b_end ? b : b_end];
      }
    }
  } else {
    constexpr bool keep_a_only = Op != set_op::intersect;
    constexpr bool keep_b_only = Op == set_op::unite || Op == set_op::symmetric_difference;
    constexpr bool keep_pairs = Op == set_op::unite;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int s = 0; s < VT; ++s) {
      const bool has_a = a < a_end, has_b = b < b_end;
      const bool a_first = has_a && (!has_b || comp(key_a, key_b));
      const bool b_first = has_b && !a_first && (!has_a || comp(key_b, key_a));
      const bool pair = has_a && has_b && !a_first && !b_first;
      const bool keep =
          (a_first && keep_a_only) || (b_first && keep_b_only) || (pair && keep_pairs);
      out[s] = b_first ? key_b : key_a;
      index[s] = b_first ? b : a;
      kept |= unsigned(keep) << s;
      if (a_first || pair) {
        ++a;
        key_a = keys[a < a_end ? a : a_end];
      }
      if (b_first || pair) {
        ++b;
        key_b = keys[b < b_end ? b : b_end];
      }
    }
  }
  return kept;
}

/// The most outputs `Op` can give for inputs of m and n keys (what the output must hold).
template <class Size>
CORANK_HD constexpr Size set_operation_max_outputs(set_op op, Size m, Size n) {
  return op == set_op::intersect ? (m < n ? m : n) : op == set_op::difference ? m : m + n;
}

}  // namespace corank
