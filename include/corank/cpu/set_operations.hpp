// Set operations on sorted ranges on multicore CPUs (OpenMP), with std::set_*'s multiset
// semantics.
//
//   set_union(a, a_end, b, b_end, out, comp, options)            (std::set_union)
//   set_intersection / set_difference / set_symmetric_difference (their std:: counterparts)
//   set_union_by_key(keys_a, keys_a_end, vals_a, keys_b, keys_b_end, vals_b, keys_out, vals_out,
//                    comp, options) and the three others _by_key: values follow their keys
//   set_operation(op, ...), set_operation_by_key(op, ...): the operation as a parameter
// Each returns the end of the output (a pair of ends for _by_key), as std:: does.
//
// The merge path cut at balanced cuts (merge_path_walk.hpp: cuts where the std:: loop passes, so
// that pieces run it on their own). Union and symmetric difference: two passes, the first counts
// each piece's outputs, a scan places them, the second writes (inputs read twice). Intersection
// and difference into memory: one pass, each piece writes to a stage sized by its most outputs,
// a scan places them, a copy moves them out. Same output as
// std:: (which elements, in which order; a pair of equal keys outputs A's element and value).
// The CPU's piece loop (set_operation_piece) has no branch on the keys: it stores the candidate
// output every step and advances the output index by the comparisons (std::'s loop mispredicts
// about every other key on random inputs); the GPU walks serial_set_operation.
// Preconditions: both inputs sorted by comp, a strict weak order; the output does not overlap
// them and holds set_operation_max_outputs(op, m, n) items (m + n, min(m, n), m, m + n).
// Violated, the call still ends, writes at most that many items, in an unspecified order.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "corank/cpu/item_buffer.hpp"
#include "corank/cpu/options.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"
#include "corank/merge_path_walk.hpp"

namespace corank::cpu {
namespace detail {

/// What out[k] is (a reference to an item of memory, or a proxy).
template <class It>
using output_item_t = std::remove_reference_t<decltype(std::declval<It&>()[0])>;

/// Whether out[k] = x may be stored speculatively (then overwritten) with nothing seen by anyone:
/// memory of a trivially copyable type, or discarded. Other outputs (proxies that check or
/// transform what they are given) get each output once, as std:: gives it.
template <class It>
inline constexpr bool stores_freely =
    std::is_same_v<It, discard_iterator> ||
    (std::is_lvalue_reference_v<decltype(std::declval<It&>()[0])> &&
     std::is_trivially_copyable_v<output_item_t<It>>);

/// The std::set_* loop of `Op` on A[i, i_end) and B[j, j_end) (keys a, b; values va, vb),
/// written to out[0, limit) and vout: returns the number of outputs. Without branches on the keys:
/// each step stores its candidate (B's element when B's key comes first, else A's) at out[k] and
/// keeps it by advancing k, so a step that outputs nothing stores an element that the next output
/// overwrites; the loop ends when k reaches limit, so nothing is stored at or past out[limit]
/// (limit: the piece's count from the counting pass, or the output's capacity). Outputs that do
/// not store freely get only the kept stores (a branch). Counting = true: counts only, stores
/// nothing. Any comparator ends: every step advances i or j.
template <set_op Op, bool Counting, class KeyA, class ValA, class KeyB, class ValB, class KeyOut,
          class ValOut, class Compare>
std::size_t set_operation_piece(KeyA a, ValA va, std::size_t i, std::size_t i_end, KeyB b, ValB vb,
                                std::size_t j, std::size_t j_end, KeyOut out, ValOut vout,
                                std::size_t limit, Compare comp) {
  constexpr bool keep_a_only = Op != set_op::intersect;
  constexpr bool keep_b_only = Op == set_op::unite || Op == set_op::symmetric_difference;
  constexpr bool keep_pairs = Op == set_op::unite || Op == set_op::intersect;
  std::size_t k = 0;
  while (i < i_end && j < j_end && (Counting || k < limit)) {
    const bool a_first = comp(a[i], b[j]);
    const bool b_first = comp(b[j], a[i]) & !a_first;  // & (not &&): both compared, no branch
    const bool keep =
        (keep_a_only & a_first) | (keep_b_only & b_first) | (keep_pairs & !a_first & !b_first);
    if constexpr (!Counting) {
      if ((stores_freely<KeyOut> && stores_freely<ValOut>) || keep) {
        out[k] = b_first ? b[j] : a[i];
        vout[k] = b_first ? vb[j] : va[i];
      }
    }
    k += keep;
    i += !b_first;
    j += !a_first;
  }
  if constexpr (Counting) {
    if (keep_a_only) k += i_end - i;
    if (keep_b_only) k += j_end - j;
  } else {
    if (keep_a_only)
      for (; i < i_end && k < limit; ++i, ++k) out[k] = a[i], vout[k] = va[i];
    if (keep_b_only)
      for (; j < j_end && k < limit; ++j, ++k) out[k] = b[j], vout[k] = vb[j];
  }
  return k;
}

/// Whether the outputs of a piece may wait in a stage before their place is known (the one-pass
/// form): memory that stores freely and whose items need no construction, or a discarded output;
/// otherwise the two-pass form writes in place.
template <class It>
inline constexpr bool stageable = std::is_same_v<It, discard_iterator> ||
                                  (stores_freely<It> &&
                                   std::is_trivially_default_constructible_v<output_item_t<It>>);

/// The items of output It's stage (an item_buffer): none for a discarded output or without one.
template <bool staged, class It>
using stage_item_t = std::conditional_t<staged && !std::is_same_v<It, discard_iterator>,
                                        output_item_t<It>, discard_iterator>;

template <set_op Op, class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut,
          class Compare>
std::size_t set_operation_pieces(KeyA a, std::size_t m, ValA va, KeyB b, std::size_t n, ValB vb,
                                 KeyOut out, ValOut vout, Compare comp, const options& opt) {
  using size = std::size_t;
  const size total = m + n;
  const int threads = threads_for(total, opt);
  if (threads <= 1)
    return set_operation_piece<Op, false>(a, va, 0, m, b, vb, 0, n, out, vout,
                                          set_operation_max_outputs(Op, m, n), comp);
  const std::ptrdiff_t pieces =
      chunk_count(std::ptrdiff_t(total), threads, tuning::merge_chunks_per_thread,
                  tuning::merge_min_chunk_items);
  std::vector<cut_pair<size>> cuts(size(pieces) + 1);
  std::vector<size> at(size(pieces) + 1, 0);
  region_errors errors;
  const discard_iterator none;
  // One pass where the output is at most A (intersection, difference): a stage touched only
  // where written costs less than a second walk. Union and symmetric difference output at least
  // half the inputs: the stage's page faults and copy cost more than the count (10M u32 per input,
  // 2 threads: union 160 ms one pass, 156 two; intersection 83 and 147; docs/notes/toolbox.md).
  constexpr bool one_pass = (Op == set_op::intersect || Op == set_op::difference) &&
                            stageable<KeyOut> && stageable<ValOut>;
  std::vector<size> room(one_pass ? size(pieces) + 1 : 0, 0);  // the stage's offsets
  // The pieces' most outputs add up to at most the whole's: the stage is as large as the output.
  const size stage_size = one_pass ? set_operation_max_outputs(Op, m, n) : 0;
  item_buffer<stage_item_t<one_pass, KeyOut>> staged_keys(stage_size);
  item_buffer<stage_item_t<one_pass, ValOut>> staged_values(stage_size);
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static)
    for (std::ptrdiff_t p = 0; p <= pieces; ++p)
      errors.run([&] {
        cuts[p] = balanced_co_rank(even_split(total, size(pieces), size(p)), a, m, b, n, comp);
      });
#pragma omp single
    for (std::ptrdiff_t p = 1; p <= pieces; ++p) {  // monotone even when the inputs are not
      cuts[p].a = cuts[p].a < cuts[p - 1].a ? cuts[p - 1].a : cuts[p].a;
      cuts[p].b = cuts[p].b < cuts[p - 1].b ? cuts[p - 1].b : cuts[p].b;
    }
    if constexpr (one_pass) {
      // Each piece writes to its room in the stage (its most outputs), then, placed by the scan
      // of the counts, is copied out: a copy of the output instead of a second walk.
#pragma omp for schedule(static)
      for (std::ptrdiff_t p = 0; p < pieces; ++p)
        room[p + 1] =
            set_operation_max_outputs(Op, cuts[p + 1].a - cuts[p].a, cuts[p + 1].b - cuts[p].b);
#pragma omp single
      for (std::ptrdiff_t p = 1; p <= pieces; ++p) room[p] += room[p - 1];
#pragma omp for schedule(dynamic, 1)
      for (std::ptrdiff_t p = 0; p < pieces; ++p)
        errors.run([&] {
          at[p + 1] = set_operation_piece<Op, false>(
              a, va, cuts[p].a, cuts[p + 1].a, b, vb, cuts[p].b, cuts[p + 1].b,
              staged_keys.begin() + room[p], staged_values.begin() + room[p], room[p + 1] - room[p],
              comp);
        });
#pragma omp single
      for (std::ptrdiff_t p = 1; p <= pieces; ++p) at[p] += at[p - 1];
#pragma omp for schedule(dynamic, 1)
      for (std::ptrdiff_t p = 0; p < pieces; ++p) {
        const auto keys = staged_keys.begin() + room[p];
        const auto values = staged_values.begin() + room[p];
        const size from = at[p], count = at[p + 1] - at[p];
        for (size k = 0; k < count; ++k) out[from + k] = keys[k], vout[from + k] = values[k];
      }
    } else {
#pragma omp for schedule(dynamic, 1)
      for (std::ptrdiff_t p = 0; p < pieces; ++p)
        errors.run([&] {
          at[p + 1] = set_operation_piece<Op, true>(a, none, cuts[p].a, cuts[p + 1].a, b, none,
                                                    cuts[p].b, cuts[p + 1].b, none, none, 0, comp);
        });
#pragma omp single
      for (std::ptrdiff_t p = 1; p <= pieces; ++p) at[p] += at[p - 1];
#pragma omp for schedule(dynamic, 1)
      for (std::ptrdiff_t p = 0; p < pieces; ++p)
        errors.run([&] {
          set_operation_piece<Op, false>(a, va, cuts[p].a, cuts[p + 1].a, b, vb, cuts[p].b,
                                         cuts[p + 1].b, out + at[p], vout + at[p],
                                         at[p + 1] - at[p], comp);
        });
    }
  }
  errors.rethrow();
  return at[pieces];
}

template <class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut, class Compare>
std::size_t set_operation_dispatch(set_op op, KeyA a, std::size_t m, ValA va, KeyB b, std::size_t n,
                                   ValB vb, KeyOut out, ValOut vout, Compare comp,
                                   const options& opt) {
  return with_set_op(
      op,
      [&](auto kind) {
        return set_operation_pieces<decltype(kind)::value>(a, m, va, b, n, vb, out, vout, comp,
                                                           opt);
      },
      std::size_t(0));
}

}  // namespace detail

/// The set operation `op` on sorted keys with values alongside. Returns the ends of the outputs.
template <class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut,
          class Compare = corank::less>
std::pair<KeyOut, ValOut> set_operation_by_key(set_op op, KeyA a, KeyA a_end, ValA va, KeyB b,
                                               KeyB b_end, ValB vb, KeyOut out, ValOut vout,
                                               Compare comp = {}, const options& opt = {}) {
  const std::size_t count = detail::set_operation_dispatch(
      op, a, std::size_t(a_end - a), va, b, std::size_t(b_end - b), vb, out, vout, comp, opt);
  return {out + count, vout + count};
}

/// The set operation `op` on sorted ranges. Returns the end of the output.
template <class ItA, class ItB, class OutIt, class Compare = corank::less>
OutIt set_operation(set_op op, ItA a, ItA a_end, ItB b, ItB b_end, OutIt out, Compare comp = {},
                    const options& opt = {}) {
  return set_operation_by_key(op, a, a_end, discard_iterator{}, b, b_end, discard_iterator{}, out,
                              discard_iterator{}, comp, opt)
      .first;
}

// The named entry points: set_union(...) = set_operation(set_op::unite, ...) and
// set_union_by_key(...) = set_operation_by_key(set_op::unite, ...), and so on.
#define CORANK_CPU_SET_OPERATION(name, op)                                                     \
  template <class ItA, class ItB, class OutIt, class Compare = corank::less>                   \
  OutIt name(ItA a, ItA a_end, ItB b, ItB b_end, OutIt out, Compare comp = {},                 \
             const options& opt = {}) {                                                        \
    return set_operation(op, a, a_end, b, b_end, out, comp, opt);                              \
  }                                                                                            \
  template <class KeyA, class ValA, class KeyB, class ValB, class KeyOut, class ValOut,        \
            class Compare = corank::less>                                                      \
  std::pair<KeyOut, ValOut> name##_by_key(KeyA a, KeyA a_end, ValA va, KeyB b, KeyB b_end,     \
                                          ValB vb, KeyOut out, ValOut vout, Compare comp = {}, \
                                          const options& opt = {}) {                           \
    return set_operation_by_key(op, a, a_end, va, b, b_end, vb, out, vout, comp, opt);         \
  }
CORANK_CPU_SET_OPERATION(set_union, set_op::unite)
CORANK_CPU_SET_OPERATION(set_intersection, set_op::intersect)
CORANK_CPU_SET_OPERATION(set_difference, set_op::difference)
CORANK_CPU_SET_OPERATION(set_symmetric_difference, set_op::symmetric_difference)
#undef CORANK_CPU_SET_OPERATION

}  // namespace corank::cpu
