// The bitonic sorting network, in pieces shared by the whole-array sort (bitonic_sort.cuh) and
// the batched sort of small segments (segmented_sort.cuh).
//
// Formulation: every comparator puts the smaller key at the lower index. Stage s (1-based) sorts
// runs of 2^s; its first step compares i with i ^ (2^s - 1) (the "flip", which merges two
// ascending runs without a descending half), its later steps compare i with i | 2^j. Because no
// comparator ever moves a larger key down, positions past the end n behave as +infinity that never
// move: a comparator whose upper index is >= n is a no-op. So any length sorts with virtual
// padding: nothing past n is read or written.
//
// Work is grouped in chunks of 2^B indices that differ only in B consecutive bits [lo, lo + B):
// one thread loads a chunk into registers, runs every step whose distance lies in those bits and
// stores it back, so one pass over memory performs up to B steps. A flip step at the chunk's top
// bit pairs the lower half of the chunk at `base` with the upper half of the chunk at
// base ^ (2^lo - 1) (the low bits are flipped too), so for a flip pass a thread owns the lower
// half of its own chunk and the upper half of the mirrored one: still a partition of the indices.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

#include "corank/functional.hpp"

namespace corank::cuda::block {

using corank::no_value;

/// Shared-memory index of logical position i: one padding slot per 32 keeps the strided chunk
/// loads (stride 2^lo for small lo) free of bank conflicts.
__device__ __forceinline__ unsigned padded(unsigned i) { return i + (i >> 5); }

/// Shared-memory slots needed for `capacity` logical positions.
__host__ __device__ constexpr unsigned padded_size(unsigned capacity) {
  return capacity + capacity / 32;
}

/// Bit r says slot r of a chunk of VT keys in registers is inside the array: 64 bits for chunks
/// of 64 keys (6-step global passes).
template <int VT>
using slot_mask = std::conditional_t<(VT > 32), unsigned long long, unsigned>;

/// The compare-exchange of slots Lo < Hi: smaller key to Lo. Skipped when Hi is past the end.
template <int Lo, int Hi, int VT, class Key, class Value, class Compare>
__device__ __forceinline__ void compare_exchange(Key (&k)[VT], Value (&v)[VT], slot_mask<VT> valid,
                                                 Compare comp) {
  const bool swap = ((valid >> Hi) & 1u) && comp(k[Hi], k[Lo]);
  const Key lo_key = swap ? k[Hi] : k[Lo];
  const Key hi_key = swap ? k[Lo] : k[Hi];
  k[Lo] = lo_key, k[Hi] = hi_key;
  if constexpr (!std::is_same_v<Value, no_value>) {
    const Value lo_val = swap ? v[Hi] : v[Lo];
    const Value hi_val = swap ? v[Lo] : v[Hi];
    v[Lo] = lo_val, v[Hi] = hi_val;
  }
}

template <int VT, int T, bool Flip, int R = 0, class Key, class Value, class Compare>
__device__ __forceinline__ void step_slots(Key (&k)[VT], Value (&v)[VT], slot_mask<VT> valid,
                                           Compare comp) {
  if constexpr (R < VT) {
    if constexpr (!(R & (1 << T))) {
      // Flip at bit T pairs r with r ^ (2^(T+1) - 1): the mirror within the run of 2^(T+1).
      constexpr int partner = Flip ? (R ^ ((2 << T) - 1)) : (R | (1 << T));
      compare_exchange<R, partner>(k, v, valid, comp);
    }
    step_slots<VT, T, Flip, R + 1>(k, v, valid, comp);
  }
}

/// Runs the steps of chunk-relative bits t_hi down to t_lo on a chunk in registers; the step of
/// bit B - 1 is a flip when `flip`. Bit r of `valid` says slot r is inside the array.
template <int B, int T = B - 1, class Key, class Value, class Compare>
__device__ __forceinline__ void chunk_steps(Key (&k)[1 << B], Value (&v)[1 << B],
                                            slot_mask<(1 << B)> valid, int t_hi, int t_lo,
                                            bool flip, Compare comp) {
  if constexpr (T >= 0) {
    if (T <= t_hi && T >= t_lo) {
      if (T == B - 1 && flip)
        step_slots<(1 << B), T, true>(k, v, valid, comp);
      else
        step_slots<(1 << B), T, false>(k, v, valid, comp);
    }
    chunk_steps<B, T - 1>(k, v, valid, t_hi, t_lo, flip, comp);
  }
}

/// The non-flip steps of bits T down to 0 (helper of sort_chunk).
template <int B, int T, class Key, class Value, class Compare>
__device__ __forceinline__ void sort_steps_below(Key (&k)[1 << B], Value (&v)[1 << B],
                                                 slot_mask<(1 << B)> valid, Compare comp) {
  if constexpr (T >= 0) {
    step_slots<(1 << B), T, false>(k, v, valid, comp);
    sort_steps_below<B, T - 1>(k, v, valid, comp);
  }
}

/// Stages 1..min(stages, B) of the network on a chunk of 2^B consecutive positions: sorts it.
template <int B, int S = 1, class Key, class Value, class Compare>
__device__ __forceinline__ void sort_chunk(Key (&k)[1 << B], Value (&v)[1 << B],
                                           slot_mask<(1 << B)> valid, int stages, Compare comp) {
  if constexpr (S <= B) {
    if (S <= stages) {
      step_slots<(1 << B), S - 1, true>(k, v, valid, comp);
      sort_steps_below<B, S - 2>(k, v, valid, comp);
      sort_chunk<B, S + 1>(k, v, valid, stages, comp);
    }
  }
}

/// Where one chunk of a pass lives: slot r is at lower_base + (r << lo) in the lower half and at
/// upper_base + (r << lo) in the upper half (the mirrored chunk for a flip pass).
template <class Index>
struct chunk_place {
  Index lower_base, upper_base;
  int lo;

  /// Chunk g of the pass over bits [lo, lo + B).
  __device__ __forceinline__ chunk_place(Index g, int lo_bit, int B, bool flip) : lo(lo_bit) {
    const Index low_mask = (Index(1) << lo_bit) - 1;
    lower_base = (g & low_mask) | ((g >> lo_bit) << (lo_bit + B));
    upper_base = flip ? lower_base ^ low_mask : lower_base;
  }
  template <int VT>
  __device__ __forceinline__ Index index(int r) const {
    return (r < VT / 2 ? lower_base : upper_base) + (Index(r) << lo);
  }
};

/// One pass of a chunk: load the slots below `count` from src_keys/src_vals (positions mapped by
/// src_at: global or padded shared memory), run the steps of chunk-relative bits t_hi down to
/// t_lo, store them to dst_keys/dst_vals (mapped by dst_at).
template <int B, class Index, class SrcAt, class DstAt, class Key, class Value, class Compare>
__device__ __forceinline__ void chunk_pass_between(const Key* src_keys, const Value* src_vals,
                                                   SrcAt src_at, Key* dst_keys, Value* dst_vals,
                                                   DstAt dst_at, Index count,
                                                   const chunk_place<Index>& place, int t_hi,
                                                   int t_lo, bool flip, Compare comp) {
  constexpr int VT = 1 << B;
  constexpr bool has_values = !std::is_same_v<Value, no_value>;
  if (place.lower_base >= count) return;  // the whole chunk (mirror included) is past the end
  Key k[VT];
  Value v[VT];
  slot_mask<VT> valid = 0;
#pragma unroll
  for (int r = 0; r < VT; ++r) {
    const Index i = place.template index<VT>(r);
    if (i < count) {
      valid |= slot_mask<VT>(1) << r;
      k[r] = src_keys[src_at(i)];
      if constexpr (has_values) v[r] = src_vals[src_at(i)];
    }
  }
  chunk_steps<B>(k, v, valid, t_hi, t_lo, flip, comp);
#pragma unroll
  for (int r = 0; r < VT; ++r) {
    const Index i = place.template index<VT>(r);
    if ((valid >> r) & 1u) {
      dst_keys[dst_at(i)] = k[r];
      if constexpr (has_values) dst_vals[dst_at(i)] = v[r];
    }
  }
}

/// chunk_pass_between in place.
template <int B, class Index, class At, class Key, class Value, class Compare>
__device__ __forceinline__ void chunk_pass(Key* keys, Value* vals, Index count,
                                           const chunk_place<Index>& place, int t_hi, int t_lo,
                                           bool flip, At at, Compare comp) {
  chunk_pass_between<B>(keys, vals, at, keys, vals, at, count, place, t_hi, t_lo, flip, comp);
}

struct identity_index {
  template <class I>
  __device__ __forceinline__ I operator()(I i) const {
    return i;
  }
};
struct padded_index {
  __device__ __forceinline__ unsigned operator()(unsigned i) const { return padded(i); }
};

/// Network stages first..last on `count` <= Capacity keys in shared memory (padded layout), by
/// NT threads (thread `tid`; each takes Capacity / (NT 2^B) chunks of a pass in turn),
/// synchronised by `sync` between passes. Stages above the capacity (first > log2 Capacity) run
/// only their steps inside it: the tail of a global stage; `skip_bits` skips the steps of the
/// top skip_bits bits of the first such stage. Entered and left with the shared arrays
/// consistent (the caller syncs before and after).
template <int NT, int B, int Capacity = (NT << B), class Key, class Value, class Compare,
          class Sync>
__device__ __forceinline__ void shared_network(Key* keys, Value* vals, unsigned count, int first,
                                               int last, int tid, Compare comp, Sync sync,
                                               int skip_bits = 0) {
  constexpr int VT = 1 << B;
  constexpr bool has_values = !std::is_same_v<Value, no_value>;
  constexpr int capacity_bits = __builtin_ctz(unsigned(Capacity));
  constexpr int rounds = Capacity / (NT << B);
  static_assert(Capacity % (NT << B) == 0, "whole chunks per thread");
  int stage = first;
  if (stage == 1) {
    // Stages 1..B sort each consecutive chunk in registers: one pass for B stages.
#pragma unroll
    for (int round = 0; round < rounds; ++round) {
      const unsigned base = (unsigned(tid) + unsigned(round) * NT) * VT;
      Key k[VT];
      Value v[VT];
      slot_mask<VT> valid = 0;
#pragma unroll
      for (int r = 0; r < VT; ++r)
        if (base + r < count) {
          valid |= slot_mask<VT>(1) << r;
          k[r] = keys[padded(base + r)];
          if constexpr (has_values) v[r] = vals[padded(base + r)];
        }
      sort_chunk<B>(k, v, valid, last, comp);
#pragma unroll
      for (int r = 0; r < VT; ++r)
        if ((valid >> r) & 1u) {
          keys[padded(base + r)] = k[r];
          if constexpr (has_values) vals[padded(base + r)] = v[r];
        }
    }
    sync();
    stage = B + 1;
  }
  for (; stage <= last; ++stage) {
    int j = stage - 1 < capacity_bits - 1 ? stage - 1 : capacity_bits - 1;
    bool flip = j == stage - 1;
    if (stage == first) j -= skip_bits;  // the caller ran the top steps of the first stage
    while (j >= 0) {
      // A flip chunk must have its top bit at the flip (j >= B here since stage > B).
      const int lo = j - B + 1 > 0 ? j - B + 1 : 0;
#pragma unroll
      for (int round = 0; round < rounds; ++round) {
        const chunk_place<unsigned> place(unsigned(tid) + unsigned(round) * NT, lo, B, flip);
        chunk_pass<B>(keys, vals, count, place, j - lo, 0, flip, padded_index{}, comp);
      }
      sync();
      j = lo - 1;
      flip = false;
    }
  }
}

/// __shfl_xor_sync of any trivially copyable T, in 4-byte words.
template <class T>
__device__ __forceinline__ T shuffle_xor(const T& x, unsigned mask) {
  constexpr int words = int((sizeof(T) + 3) / 4);
  unsigned w[words] = {};
  memcpy(w, &x, sizeof(T));
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = __shfl_xor_sync(0xffffffffu, w[i], int(mask));
  T out;
  memcpy(&out, w, sizeof(T));
  return out;
}

/// The step of bit J inside each lane's R registers (positions lane * R + r): the flip pairs r with
/// r ^ (2^(J+1) - 1), a half-cleaner r with r | 2^J.
template <int J, bool Flip, int R, int S, class Key, class Value, class Compare>
__device__ __forceinline__ void lane_step(Key (&key)[S][R], Value (&val)[S][R],
                                          const unsigned (&count)[S], unsigned lane, Compare comp) {
#pragma unroll
  for (int lo = 0; lo < R; ++lo) {
    if (lo & (1 << J)) continue;
    const int hi = Flip ? lo ^ ((2 << J) - 1) : lo | (1 << J);
#pragma unroll
    for (int i = 0; i < S; ++i) {
      // Selects, not branches: the lanes of a warp disagree.
      const bool swap = (lane * R + unsigned(hi) < count[i]) & comp(key[i][hi], key[i][lo]);
      const Key k_lo = key[i][lo], k_hi = key[i][hi];
      key[i][lo] = swap ? k_hi : k_lo, key[i][hi] = swap ? k_lo : k_hi;
      if constexpr (!std::is_same_v<Value, no_value>) {
        const Value v_lo = val[i][lo], v_hi = val[i][hi];
        val[i][lo] = swap ? v_hi : v_lo, val[i][hi] = swap ? v_lo : v_hi;
      }
    }
  }
}

/// lane_step<j> for a j known at run time (register indices must be constants).
template <int... J, int R, int S, class Key, class Value, class Compare>
__device__ __forceinline__ void lane_steps(std::integer_sequence<int, J...>, int j,
                                           Key (&key)[S][R], Value (&val)[S][R],
                                           const unsigned (&count)[S], unsigned lane, bool flip,
                                           Compare comp) {
  ((j == J ? (flip ? lane_step<J, true>(key, val, count, lane, comp)
                   : lane_step<J, false>(key, val, count, lane, comp))
           : void()),
   ...);
}

/// The largest of the warp's values.
__device__ __forceinline__ unsigned warp_max(unsigned value) {
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync(0xffffffffu, value);
#else
  for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2)
    value = max(value, __shfl_xor_sync(0xffffffffu, value, lane_mask));
  return value;
#endif
}

/// The whole network on S independent sequences of up to 32 x R keys each, across the lanes of a
/// warp: lane l holds positions l * R to l * R + R - 1 of sequence i in key[i] (those below
/// count[i] are keys), no shared memory, no barriers. Steps within R positions stay in a lane's
/// registers; the others exchange by shuffles, and the S sequences' shuffles are independent, so
/// they overlap. Sequences shorter than the warp's longest run its extra stages as no-ops (a
/// sorted run stays put). All 32 lanes call it.
///
/// Aligned groups of G < 32 lanes may hold sequences of their own (up to G x R keys): each lane
/// passes its place in its group (lane % G) and its group's counts. A step of distance below
/// G x R exchanges within a group only, so the groups sort independently.
template <int G = 32, int R, int S, class Key, class Value, class Compare>
__device__ __forceinline__ void warp_sort(Key (&key)[S][R], Value (&val)[S][R],
                                          const unsigned (&count)[S], unsigned lane, Compare comp) {
  static_assert(R >= 1 && R <= 32 && (R & (R - 1)) == 0, "a power of two of keys per lane");
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "groups of a power of two of lanes");
  constexpr int lane_bits = __builtin_ctz(unsigned(R));
  unsigned longest = 0;
#pragma unroll
  for (int i = 0; i < S; ++i) longest = count[i] > longest ? count[i] : longest;
  // The groups' counts differ and the shuffles need every lane (a whole warp's are its own: the
  // reduction cost 7% at 16 keys a segment).
  if constexpr (G < 32) longest = warp_max(longest);
  for (int stage = 1; (1u << (stage - 1)) < longest; ++stage)
    for (int j = stage - 1; j >= 0; --j) {
      const bool flip = j == stage - 1;
      if (j < lane_bits) {
        lane_steps(std::make_integer_sequence<int, lane_bits>{}, j, key, val, count, lane, flip,
                   comp);
        continue;
      }
      // Lanes lane and lane ^ mask; a flip also mirrors the registers (r with R - 1 - r).
      const int lane_j = j - lane_bits;
      const unsigned mask = flip ? (2u << lane_j) - 1 : 1u << lane_j;
      const bool upper = (lane >> lane_j) & 1u;
      const unsigned upper_lane = upper ? lane : lane ^ mask;
#pragma unroll
      for (int i = 0; i < S; ++i) {
        Key other[R];
        Value other_val[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
          // Values picked from constant registers (an element chosen at run time, or its address,
          // would go to local memory).
          const Key mine = flip ? Key(key[i][R - 1 - r]) : Key(key[i][r]);
          other[r] = shuffle_xor(mine, mask);
          if constexpr (!std::is_same_v<Value, no_value>) {
            const Value mine_val = flip ? Value(val[i][R - 1 - r]) : Value(val[i][r]);
            other_val[r] = shuffle_xor(mine_val, mask);
          }
        }
#pragma unroll
        for (int r = 0; r < R; ++r) {
          // Both lanes of a pair decide alike: the upper position's key before the lower's swaps.
          const unsigned upper_at = upper_lane * R + unsigned(upper || !flip ? r : R - 1 - r);
          const bool below = comp(other[r], key[i][r]), above = comp(key[i][r], other[r]);
          const bool swap = (upper_at < count[i]) & (upper ? above : below);
          if constexpr (!std::is_same_v<Value, no_value>)
            val[i][r] = swap ? other_val[r] : val[i][r];
          key[i][r] = swap ? other[r] : key[i][r];
        }
      }
    }
}

/// Block-wide barrier and warp-wide barrier, for shared_network's `sync`.
struct block_sync {
  __device__ __forceinline__ void operator()() const { __syncthreads(); }
};
struct warp_sync {
  __device__ __forceinline__ void operator()() const { __syncwarp(); }
};
/// Barrier of a group of whole warps of a block: named barrier `id` (1 to 15; 0 is
/// __syncthreads') of `threads` threads, a multiple of 32.
struct warps_sync {
  unsigned id, threads;
  __device__ __forceinline__ void operator()() const { __barrier_sync_count(id, threads); }
};

}  // namespace corank::cuda::block
