// Block-level pieces of the stable merge sort: a stable sort of each thread's items in registers
// (odd-even transposition) and the merge of sorted runs held in shared memory, each thread
// placing VT outputs found from its own co-rank (corank::co_rank + serial_merge_registers of
// merge_path.hpp: the merge is written once).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "corank/cuda/block/bitonic_network.cuh"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"

namespace corank::cuda::block {

/// Stable sort of VT items in registers: odd-even transposition, VT rounds; only adjacent items
/// swap, and only when strictly out of order, so ties keep their order. Slots r >= valid_count
/// are past the end (+infinity, never moved).
template <int VT, class Key, class Value, class Compare>
__device__ __forceinline__ void odd_even_sort(Key (&k)[VT], Value (&v)[VT], int valid_count,
                                              Compare comp) {
#pragma unroll
  for (int round = 0; round < VT; ++round)
#pragma unroll
    for (int i = round & 1; i + 1 < VT; i += 2)
      if (i + 1 < valid_count && comp(k[i + 1], k[i])) {
        const Key t = k[i];
        k[i] = k[i + 1], k[i + 1] = t;
        if constexpr (!std::is_same_v<Value, no_value>) {
          const Value u = v[i];
          v[i] = v[i + 1], v[i + 1] = u;
        }
      }
}

/// Whether a sort of these keys alone by this comparator cannot show instability: keys that
/// compare equal are then the same bits (integers under corank::less or corank::greater), so an
/// unstable network gives the stable result.
// clang-format 14 reads "no_value> &&" as an rvalue reference and joins the lines.
// clang-format off
template <class Key, class Value, class Compare>
constexpr bool ties_are_identical =
    std::is_same_v<Value, no_value> && std::is_integral_v<Key> &&
    (std::is_same_v<Compare, corank::less> || std::is_same_v<Compare, corank::greater>);

/// Floating-point keys alone under corank::less or greater: keys that compare equal are the same
/// bits except +0 and -0 (NaN breaks the comparator's precondition), so the network's result is
/// the stable one but for the zeros' signs, which network_sort_keeping_zeros puts back.
template <class Key, class Value, class Compare>
constexpr bool ties_are_identical_but_zeros =
    std::is_same_v<Value, no_value> && std::is_floating_point_v<Key> &&
    (std::is_same_v<Compare, corank::less> || std::is_same_v<Compare, corank::greater>);
// clang-format on

/// Whether the register stage sorts these keys with the network.
template <class Key, class Value, class Compare>
constexpr bool network_sorts_stably =
    ties_are_identical<Key, Value, Compare> || ties_are_identical_but_zeros<Key, Value, Compare>;

/// Batcher's odd-even merge network for n items (any n), as a list of compare-exchanges (a, b),
/// a < b, built at compile time.
template <int N>
struct odd_even_merge_network {
  struct pair {
    int a, b;
  };
  template <class Visit>
  CORANK_HD static constexpr void each(Visit visit) {
    for (int p = 1; p < N; p *= 2)
      for (int q = p; q >= 1; q /= 2)
        for (int j = q % p; j + q < N; j += 2 * q)
          for (int i = 0; i < q && i + j + q < N; ++i)
            if ((i + j) / (2 * p) == (i + j + q) / (2 * p)) visit(pair{i + j, i + j + q});
  }
  CORANK_HD static constexpr int count() {
    int c = 0;
    each([&](pair) { ++c; });
    return c;
  }
  struct list {
    pair at[count() > 0 ? count() : 1];
  };
  CORANK_HD static constexpr list pairs() {
    list l{};
    int c = 0;
    each([&](pair x) { l.at[c++] = x; });
    return l;
  }
};

template <int A, int B, int VT, class Key, class Compare>
__device__ __forceinline__ void compare_exchange(Key (&k)[VT], int valid_count, Compare comp) {
  if (B < valid_count && comp(k[B], k[A])) {
    const Key t = k[A];
    k[A] = k[B], k[B] = t;
  }
}

template <int VT, class Key, class Compare, std::size_t... C>
__device__ __forceinline__ void apply_network(Key (&k)[VT], int valid_count, Compare comp,
                                              std::index_sequence<C...>) {
  using net = odd_even_merge_network<VT>;
  constexpr typename net::list pairs = net::pairs();
  (compare_exchange<pairs.at[C].a, pairs.at[C].b>(k, valid_count, comp), ...);
}

/// Sort of VT items in registers by Batcher's odd-even merge network (about VT log^2 VT / 4
/// compare-exchanges: 112 for 21 items, against 210 for odd_even_sort), every index a
/// compile-time constant so the items stay in registers. Not stable: for keys whose
/// ties_are_identical. Slots r >= valid_count are past the end (+infinity: never moved).
template <int VT, class Key, class Compare>
__device__ __forceinline__ void odd_even_merge_sort(Key (&k)[VT], int valid_count, Compare comp) {
  apply_network(k, valid_count, comp,
                std::make_index_sequence<std::size_t(odd_even_merge_network<VT>::count())>{});
}

/// The network sort of floating-point keys, made stable: zeros of both signs compare equal, so they
/// end up side by side in some order; their signs are then rewritten in input order (one bit per
/// zero, taken before the sort), which is the stable result since zeros differ in nothing else.
template <int VT, class Key, class Compare>
__device__ __forceinline__ void network_sort_keeping_zeros(Key (&k)[VT], int valid_count,
                                                           Compare comp) {
  static_assert(VT < 64, "one bit per item");
  unsigned long long negative = 0;  // bit j: the j-th zero in input order is -0
  int zeros = 0;
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (i < valid_count && k[i] == Key(0)) negative |= (signbit(k[i]) ? 1ull : 0ull) << zeros++;
  odd_even_merge_sort<VT>(k, valid_count, comp);
  if (negative != 0 && negative != (1ull << zeros) - 1) {  // both signs: rare
    int j = 0;
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (i < valid_count && k[i] == Key(0)) k[i] = ((negative >> j++) & 1) ? -Key(0) : Key(0);
  }
}

/// Merges, in shared memory, the runs of `width` items of s_keys[0, count) pairwise (stable),
/// NT threads placing VT outputs each. s_keys has count + 1 readable slots (the merge reads one
/// slot past an input's end). Values follow by the merge's source indices. Leaves the block
/// synchronised with the result in s_keys/s_vals.
template <int NT, int VT, class Key, class Value, class Compare>
__device__ __forceinline__ void merge_runs_in_shared(Key* s_keys, Value* s_vals, unsigned count,
                                                     unsigned width, int tid, Compare comp) {
  const unsigned first = unsigned(tid) * VT;
  Key out[VT];
  unsigned index[VT];
  Value vals[VT];
  if (first < count) {
    const unsigned pair = first / (2 * width) * (2 * width);
    const unsigned a_end = pair + width < count ? pair + width : count;
    const unsigned b_end = pair + 2 * width < count ? pair + 2 * width : count;
    const unsigned diag = first - pair;
    const unsigned a = corank::co_rank<true>(diag, s_keys + pair, a_end - pair, s_keys + a_end,
                                             b_end - a_end, comp);
    corank::serial_merge_registers<VT>(s_keys, pair + a, a_end, a_end + (diag - a), b_end, out,
                                       index, comp);
    if constexpr (!std::is_same_v<Value, no_value>)
#pragma unroll
      for (int i = 0; i < VT; ++i)
        if (first + i < count) vals[i] = s_vals[index[i]];
  }
  __syncthreads();
  if (first < count) {
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (first + i < count) {
        s_keys[first + i] = out[i];
        if constexpr (!std::is_same_v<Value, no_value>) s_vals[first + i] = vals[i];
      }
  }
  __syncthreads();
}

/// Merge rounds (runs of VT, 2 VT, 4 VT ...) after which positions [first, last] of a tile lie in
/// one sorted run.
template <int VT>
__device__ __forceinline__ int rounds_to_cover(unsigned first, unsigned last) {
  int rounds = 0;
  for (unsigned width = VT; first / width != last / width; width *= 2) ++rounds;
  return rounds;
}

/// Sorts s_keys[0, count) stably (values alongside) in runs: each thread's VT items in registers,
/// then `rounds` merge rounds in shared memory (runs of VT << rounds). s_keys holds count + 1
/// readable slots. Called by the whole block with the tile staged and the block synchronised;
/// leaves it synchronised with the result in s_keys / s_vals.
template <int NT, int VT, class Key, class Value, class Compare>
__device__ __forceinline__ void sort_runs_in_shared(Key* s_keys, Value* s_vals, unsigned count,
                                                    int rounds, int tid, Compare comp) {
  constexpr bool has_values = !std::is_same_v<Value, no_value>;
  const unsigned first = unsigned(tid) * VT;
  const int valid = first < count ? int(count - first < VT ? count - first : VT) : 0;
  Key k[VT];
  Value v[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (i < valid) {
      k[i] = s_keys[first + i];
      if constexpr (has_values) v[i] = s_vals[first + i];
    }
  if constexpr (ties_are_identical<Key, Value, Compare>) {
    odd_even_merge_sort<VT>(k, valid, comp);
  } else if constexpr (ties_are_identical_but_zeros<Key, Value, Compare>) {
    network_sort_keeping_zeros<VT>(k, valid, comp);
  } else {
    odd_even_sort<VT>(k, v, valid, comp);
  }
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (i < valid) {
      s_keys[first + i] = k[i];
      if constexpr (has_values) s_vals[first + i] = v[i];
    }
  __syncthreads();
  for (int r = 0; r < rounds; ++r)
    merge_runs_in_shared<NT, VT>(s_keys, s_vals, count, unsigned(VT) << r, tid, comp);
}

/// Stores the grid samples (grid_sampled_ptr in four_way_split.hpp) of a block's output: the
/// outputs out_at .. out_at + count - 1, staged in shared memory at staged[0, count), that sit at a
/// multiple of Every or one before the next. Each sample has one writer, the block that writes its
/// position.
template <int NT, unsigned Every, class Key>
__device__ __forceinline__ void store_grid_samples(const Key* staged, std::size_t out_at,
                                                   std::size_t count, Key* samples, int tid) {
  if (count == 0) return;
  const std::size_t end = out_at + count;
  for (std::size_t t = out_at / Every + unsigned(tid); t * Every < end; t += NT) {
    const std::size_t first = t * Every, last = first + Every - 1;
    if (first >= out_at) samples[2 * t] = staged[first - out_at];
    if (last < end) samples[2 * t + 1] = staged[last - out_at];
  }
}

}  // namespace corank::cuda::block
