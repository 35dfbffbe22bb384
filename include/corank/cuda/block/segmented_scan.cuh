// Cooperative pieces of the segmented scan: the (head flag, value) pair and its operator, warp and
// block scans of pairs, the warp-wide search of a tile's first segment head in the offsets, the
// per-tile status words of the decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix
// Scan with Decoupled Look-back", 2016) whose carries stop at segment heads, and the steps of one
// staged tile (its head bits, a thread's two sweeps over its run, the carry in, the store) that the
// tile kernel (kernels/segmented_scan.cuh) composes.
#pragma once

#include <cstdint>

namespace corank::cuda::block {

/// A partial segmented reduction: `value` is the reduction since the last segment head inside the
/// range (or since the range's start), `head` says whether the range holds a head.
template <class T>
struct flagged {
  bool head;
  T value;
};

/// The segmented-scan operator: a head on the right cuts off everything on its left.
template <class T, class Op>
__device__ __forceinline__ flagged<T> combine(const flagged<T>& left, const flagged<T>& right,
                                              Op& op) {
  return {left.head || right.head, right.head ? right.value : op(left.value, right.value)};
}

/// Inclusive scan of pairs across a warp (Kogge-Stone with shuffles).
template <class T, class Op>
__device__ __forceinline__ flagged<T> warp_inclusive_scan(flagged<T> x, int lane, Op& op) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T v = __shfl_up_sync(0xffffffffu, x.value, d);
    const bool h = __shfl_up_sync(0xffffffffu, x.head, d);
    if (lane >= d) x = combine(flagged<T>{h, v}, x, op);
  }
  return x;
}

/// Shared memory of block_exclusive_scan.
template <class T, int Warps>
struct block_scan_storage {
  T value[Warps];
  bool head[Warps];
};

/// Block-wide scan of one pair per thread. Returns whether an exclusive prefix exists (false for
/// thread 0) and writes it to `prefix`; `total` receives the block's reduction. One barrier.
template <int Threads, class T, class Op>
__device__ __forceinline__ bool block_exclusive_scan(flagged<T> x, flagged<T>& prefix,
                                                     flagged<T>& total,
                                                     block_scan_storage<T, Threads / 32>& s,
                                                     Op& op) {
  constexpr int warps = Threads / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const flagged<T> inclusive = warp_inclusive_scan(x, lane, op);
  if (lane == 31) {
    s.value[warp] = inclusive.value;
    s.head[warp] = inclusive.head;
  }
  __syncthreads();
  // The prefix of the warps before this one, and the block's total (few warps: sequential).
  flagged<T> warp_prefix{s.head[0], s.value[0]};
  total = warp_prefix;
#pragma unroll
  for (int w = 1; w < warps; ++w) {
    const flagged<T> next{s.head[w], s.value[w]};
    if (w == warp) warp_prefix = total;
    total = combine(total, next, op);
  }
  const T up_value = __shfl_up_sync(0xffffffffu, inclusive.value, 1);
  const bool up_head = __shfl_up_sync(0xffffffffu, inclusive.head, 1);
  if (lane > 0) {
    prefix = warp > 0 ? combine(warp_prefix, flagged<T>{up_head, up_value}, op)
                      : flagged<T>{up_head, up_value};
    return true;
  }
  prefix = warp_prefix;
  return warp > 0;
}

/// lower_bound over sorted offsets[0, count) for `key`, by one warp: each round, 32 lanes probe
/// 32 evenly spaced positions, so about log32(count) dependent loads. All lanes get the result.
template <class Offset>
__device__ __forceinline__ std::int64_t warp_lower_bound(const Offset* offsets, std::int64_t count,
                                                         std::int64_t key, int lane) {
  std::int64_t lo = 0, hi = count;  // invariant: the answer lies in [lo, hi]
  while (lo < hi) {
    const std::int64_t step = (hi - lo + 31) / 32;
    const std::int64_t probe =
        lo + (lane + 1) * step - 1;  // offsets[probe] < key <=> answer > probe
    const bool below = probe < hi && static_cast<std::int64_t>(offsets[probe]) < key;
    const int c = __popc(__ballot_sync(0xffffffffu, below));
    const std::int64_t next_hi = lo + (c + 1) * step - 1;
    lo += c * step;
    hi = next_hi < hi ? next_hi : hi;
  }
  return lo;
}

/// Per-tile status for the decoupled look-back. A word holds (epoch << 2) | kind, so a workspace is
/// reused across calls without clearing: words of earlier calls read as "not ready".
struct tile_status {
  static constexpr unsigned aggregate = 1;  ///< value = reduction of a tile without heads
  static constexpr unsigned carry = 2;      ///< value = the carry out of the tile (final)
  static constexpr unsigned stored = 3;     ///< carry, and the tile's output is written

  __device__ static unsigned load_acquire(const unsigned* p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
  }
  __device__ static void store_release(unsigned* p, unsigned v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  }
  __device__ static unsigned load_relaxed(const unsigned* p) {
    unsigned v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
  }
  __device__ static void store_relaxed(unsigned* p, unsigned v) {
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  }
  __device__ static unsigned long long load_relaxed(const unsigned long long* p) {
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
  }
};

/// Aggregates and carries live in separate arrays: a tile without heads publishes its aggregate
/// and later its carry, and a reader that saw "aggregate" must not read the carry in its place.
template <class T>
struct tile_state {
  unsigned* words;
  T* aggregates;
  T* carries;
  unsigned epoch;

  __device__ void publish(std::int64_t tile, unsigned kind, const T& value) const {
    (kind == tile_status::carry ? carries : aggregates)[tile] = value;
    tile_status::store_release(words + tile, (epoch << 2) | kind);
  }

  /// The status word of `tile` once it is of this call (one thread): earlier calls' words, and
  /// tiles not yet published, read as not ready.
  __device__ unsigned wait_ready(std::int64_t tile) const {
    unsigned w = tile_status::load_acquire(words + tile);
    for (int spins = 0; (w >> 2) != epoch; ++spins) {
      if (spins > 4) __nanosleep(32);
      w = tile_status::load_acquire(words + tile);
    }
    return w;
  }

  /// The carry into `tile`: the reduction, back to the nearest segment head, of all earlier tiles.
  /// Called by one thread, one dependent load per predecessor. Tile 0 starts with a head, so the
  /// walk ends at or after it.
  template <class Op>
  __device__ T look_back(std::int64_t tile, Op& op) const {
    T carry{};
    bool have = false;
    for (std::int64_t pred = tile - 1;; --pred) {
      const bool final_carry = (wait_ready(pred) & 3u) >= tile_status::carry;
      const T v = final_carry ? carries[pred] : aggregates[pred];
      carry = have ? op(v, carry) : v;
      have = true;
      if (final_carry) return carry;
    }
  }

  /// As look_back, called by a whole warp; lane 0 gets the carry. Lane 0 first reads the nearest
  /// predecessor alone, and where its carry is final that ends the walk at the cost of one
  /// dependent load, as look_back's. Otherwise each round reads the status of the next 32
  /// predecessors at once (lane 0 the nearest), as CUB's look-back does, so a long segment's tile
  /// waits for one round per 32 predecessors, not for one dependent load per predecessor.
  template <class Op>
  __device__ T warp_look_back(std::int64_t tile, Op& op, int lane) const {
    T carry{};
    bool final_carry = false;
    if (lane == 0) {
      final_carry = (wait_ready(tile - 1) & 3u) >= tile_status::carry;
      carry = final_carry ? carries[tile - 1] : aggregates[tile - 1];
    }
    if (__shfl_sync(0xffffffffu, final_carry, 0)) return carry;
    // tile - 1 held an aggregate, so tile - 1 > 0 and the first window starts at a tile >= 0.
    for (std::int64_t window = tile - 2;; window -= 32) {
      const std::int64_t pred = window - lane;
      const bool inside = pred >= 0;  // lanes past tile 0 lie beyond its carry: never used
      unsigned w = inside ? tile_status::load_acquire(words + pred) : 0u;
      for (int spins = 0; !__all_sync(0xffffffffu, !inside || (w >> 2) == epoch); ++spins) {
        if (spins > 4) __nanosleep(32);
        if (inside && (w >> 2) != epoch) w = tile_status::load_acquire(words + pred);
      }
      final_carry = inside && (w & 3u) >= tile_status::carry;
      const unsigned carries_mask = __ballot_sync(0xffffffffu, final_carry);
      const int last = carries_mask ? __ffs(int(carries_mask)) - 1 : 31;  // the farthest lane used
      T v = inside && lane <= last ? (final_carry ? carries[pred] : aggregates[pred]) : T{};
      // In-order tree reduction: lane l holds lanes [l, l + d) and takes the older [l + d, l + 2d)
      // on its left, so lane 0 ends with v[last] op ... op v[0], all older than its carry so far.
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
        const T older = __shfl_down_sync(0xffffffffu, v, d);
        if (lane % (2 * d) == 0 && lane + d <= last) v = op(older, v);
      }
      if (lane == 0) carry = op(v, carry);
      if (carries_mask) return carry;
    }
  }

  /// After the block's output is written, a barrier and a fence: marks the tile stored.
  __device__ void mark_stored(std::int64_t tile) const {
    tile_status::store_relaxed(words + tile, (epoch << 2) | tile_status::stored);
  }
  __device__ bool is_stored(std::int64_t tile) const {
    return tile_status::load_relaxed(words + tile) == ((epoch << 2) | tile_status::stored);
  }
};

/// Several passes in place in one grid, each of `steps_per_pass` steps of an iteration (a =
/// scan(a * x) again and again) on a staged tile: block b is tile b % tiles of pass b / tiles.
/// Blocks start in index order, so a pass's tile runs once the same tile of the pass before is
/// stored (it reads that tile's output), not once the whole pass is. Each step takes its tile
/// state from a ring of slots, two passes' worth, epochs increasing by one per step: a tile a step
/// ahead of its successor must not overwrite the status word that the successor's look-back still
/// waits for. Before a pass reuses its slots, the pass that used them last must be done (every tile
/// counted in `tiles_done`, cumulative per pass of the ring), since its look-backs may still read
/// them. A single scan is one pass of one step, tiles_done null.
inline constexpr int pass_ring = 2;  ///< passes whose steps have slots of their own

template <class T>
struct step_states {
  tile_state<T> first;  ///< slot 0 at step 0's epoch
  std::int64_t tiles;
  std::int64_t slot_stride;        ///< entries between the slots of each array
  unsigned long long* tiles_done;  ///< per pass of the ring; null for a single pass
  int steps_per_pass = 1;          ///< the slots hold pass_ring times as many steps

  /// The state of step k of `pass`.
  __device__ tile_state<T> of_step(std::int64_t pass, int k) const {
    const std::int64_t step = pass * steps_per_pass + k;
    const std::int64_t at = (step % (steps_per_pass * pass_ring)) * slot_stride;
    return {first.words + at, first.aggregates + at, first.carries + at,
            first.epoch + unsigned(step)};
  }
  /// Waits until `tile` of `pass` (> 0) may start: the same tile of the pass before is stored (it
  /// is this tile's input) and the slots of `pass` are free (one thread; a barrier after it for the
  /// block). Both words are read at once, relaxed, and one fence orders the reads after them.
  __device__ void wait_input(std::int64_t pass, std::int64_t tile) const {
    const tile_state<T> before = of_step(pass - 1, steps_per_pass - 1);
    // The count once pass - pass_ring is done (counts are cumulative per pass of the ring).
    const unsigned long long* done = tiles_done + pass % pass_ring;
    const auto done_before = static_cast<unsigned long long>(pass / pass_ring) * tiles;
    for (int spins = 0;; ++spins) {
      const bool stored = before.is_stored(tile);
      const bool free = pass < pass_ring || tile_status::load_relaxed(done) >= done_before;
      if (stored && free) break;
      if (spins > 4) __nanosleep(64);
    }
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
  }
  /// After the tile of `pass` is stored and a barrier (one thread): marks it stored (in its last
  /// step's status word) and counts it done, behind one fence (its output and its look-backs'
  /// reads come before both).
  __device__ void finish_tile(std::int64_t pass, std::int64_t tile) const {
    __threadfence();
    of_step(pass, steps_per_pass - 1).mark_stored(tile);
    atomicAdd(tiles_done + pass % pass_ring, 1ull);
  }
};

// ---- the steps of one staged tile ------------------------------------------------------------

/// What a scan writes at position j, given the inclusive value there, the one before it in the
/// segment (`before`, meaningful unless `head`), and whether j is a segment head.
template <bool Exclusive, class T, class Op>
__device__ __forceinline__ T scan_output(const T& inclusive, const T& before, bool head,
                                         const T& init, Op& op) {
  if constexpr (Exclusive)
    return head ? init : op(init, before);
  else
    return inclusive;
}

/// Sets bit (h - base) of head_bits for every segment head h in [base, base + count): the offsets
/// from offsets[first_head] on that fall inside the tile (offsets[num_segments] = n is no head;
/// empty segments set the same bit again). This is the co-rank between element positions and
/// segment heads. Each round issues `Walk` loads per thread before using any, and goes on while
/// the round's last offset still fell inside the tile. Ends with a barrier.
template <int Threads, int Walk, class Offset>
__device__ __forceinline__ void mark_tile_heads(const Offset* offsets, std::int64_t num_segments,
                                                std::int64_t first_head, std::int64_t base,
                                                int count, unsigned* head_bits, int tid) {
  const std::int64_t end = base + count;
  for (std::int64_t first = first_head;; first += std::int64_t(Walk) * Threads) {
    std::int64_t head[Walk];
#pragma unroll
    for (int k = 0; k < Walk; ++k) {
      const std::int64_t i = first + k * Threads + tid;
      head[k] = i < num_segments ? static_cast<std::int64_t>(offsets[i]) : end;
    }
    // Heads in a warp are sorted, so lanes whose heads share a word are neighbours. Where any do
    // (short segments), OR them together (a suffix OR over equal words) and let the first of each
    // run write: one shared atomic per word instead of up to 32 on one address. Elsewhere each
    // lane writes its own bit, as without the shuffles.
    const int lane = tid % 32;
#pragma unroll
    for (int k = 0; k < Walk; ++k) {
      const bool inside = head[k] < end;
      const int at = inside ? int(head[k] - base) : 0;
      const int word = inside ? at / 32 : -1;
      unsigned bits = inside ? 1u << (at % 32) : 0u;
      const int word_after = __shfl_down_sync(0xffffffffu, word, 1);
      if (!__any_sync(0xffffffffu, inside && lane < 31 && word_after == word)) {
        if (inside) atomicOr(&head_bits[word], bits);
        continue;
      }
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
        const unsigned other_bits = __shfl_down_sync(0xffffffffu, bits, d);
        const int other_word = __shfl_down_sync(0xffffffffu, word, d);
        if (lane + d < 32 && other_word == word) bits |= other_bits;
      }
      const int word_before = __shfl_up_sync(0xffffffffu, word, 1);
      if (inside && (lane == 0 || word_before != word)) atomicOr(&head_bits[word], bits);
    }
    if (!__syncthreads_or(tid == Threads - 1 && head[Walk - 1] < end)) break;
  }
}

/// The head bits of this thread's run of `Items` items from item tid * Items of a tile of `count`
/// items (bit j: item j is a head or lies past the tile's end), from the one or two words the run
/// spans.
template <int Items>
__device__ __forceinline__ unsigned run_head_bits(const unsigned* head_bits, int tid, int count) {
  static_assert(Items < 32, "a run's head bits fit a word");
  const int first = tid * Items, word = first / 32, shift = first % 32, inside = count - first;
  unsigned bits = head_bits[word] >> shift;
  if (shift + Items > 32) bits |= head_bits[word + 1] << (32 - shift);
  if (inside < Items) bits |= inside <= 0 ? ~0u : ~0u << inside;
  return bits;
}

/// Sweep 1 over a thread's run: its (head, value) pair, items past the tile's end counting as
/// heads. With a scale (the scaled scan), each item becomes item * scale first, stored back.
/// Odd `Items` keep the run's accesses free of bank conflicts.
template <int Items, bool Scaled, class T, class Op>
__device__ __forceinline__ flagged<T> reduce_run(T* run, const T* scale, unsigned heads, Op& op) {
  flagged<T> mine{false, T{}};
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    T x = run[j];
    if constexpr (Scaled) {
      x = x * scale[j];
      run[j] = x;
    }
    const bool h = (heads >> j) & 1u;
    mine.value = (j == 0 || h) ? x : op(mine.value, x);
    mine.head = mine.head || h;
  }
  return mine;
}

/// Who looks back for a tile's carry in: thread 0 alone (tile_state::look_back), or warp 0
/// (tile_state::warp_look_back). Two instances of the tile kernel; the host picks one per call.
enum class look_back_by : int { thread, warp };

/// The tile's carry in, by thread 0 (`By` thread) or by warp 0 (`By` warp, lane = the thread's
/// lane): thread 0 publishes the tile's total in `state` (its carry at once if the tile holds a
/// head, else its aggregate) and, unless the tile starts at a head (thread 0's `starts_at_head`),
/// the look-back finds the carry in, which stops at the nearest head; then thread 0 publishes its
/// own carry. Returns the carry in, in thread 0 (meaningless when the tile starts at a head).
template <look_back_by By, class T, class Op>
__device__ __forceinline__ T tile_carry_in(const tile_state<T>& state, std::int64_t tile,
                                           const flagged<T>& total, bool starts_at_head, Op& op,
                                           int lane) {
  constexpr bool by_warp = By == look_back_by::warp;
  const bool publishes = !by_warp || lane == 0;
  if (publishes) {
    if (total.head)
      state.publish(tile, tile_status::carry, total.value);
    else
      state.publish(tile, tile_status::aggregate, total.value);
  }
  if constexpr (by_warp) starts_at_head = __shfl_sync(0xffffffffu, starts_at_head, 0);
  if (starts_at_head) return T{};
  T carry;
  if constexpr (by_warp)
    carry = state.warp_look_back(tile, op, lane);
  else
    carry = state.look_back(tile, op);
  if (publishes && !total.head) state.publish(tile, tile_status::carry, op(carry, total.value));
  return carry;
}

/// The value just before a thread's run within its segment: from its block prefix and the tile's
/// carry in (read only where it exists: the carry exists when the tile does not start at a head).
template <class T, class Op>
__device__ __forceinline__ T run_seed(const flagged<T>& prefix, bool has_prefix, const T* carry,
                                      bool starts_at_head, Op& op) {
  if (starts_at_head) return prefix.value;
  if (!has_prefix) return *carry;
  return prefix.head ? prefix.value : op(*carry, prefix.value);
}

/// Sweep 2 over a thread's run: rescans it in place from `before`, the value just before it within
/// its segment, writing what the scan writes (scan_output).
template <int Items, bool Exclusive, class T, class Op>
__device__ __forceinline__ void rescan_run(T* run, T before, unsigned heads, const T& init,
                                           Op& op) {
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const T x = run[j];
    const bool h = (heads >> j) & 1u;
    const T inclusive = h ? x : op(before, x);
    run[j] = scan_output<Exclusive>(inclusive, before, h, init, op);
    before = inclusive;
  }
}

/// Stores a staged tile of `count` of `TileItems` items to `out`: whole 16-byte vectors when the
/// tile is full and `out` aligned, else item by item.
template <int Threads, int TileItems, class T>
__device__ __forceinline__ void store_tile(const T* staged, T* out, int count, bool aligned,
                                           int tid) {
  constexpr int V = int(16 / sizeof(T));
  if (count == TileItems && aligned) {
    struct alignas(16) vec {
      T x[V];
    };
    const vec* from = reinterpret_cast<const vec*>(staged);
    vec* to = reinterpret_cast<vec*>(out);
#pragma unroll 4
    for (int vi = tid; vi < TileItems / V; vi += Threads) to[vi] = from[vi];
  } else {
    for (int i = tid; i < count; i += Threads) out[i] = staged[i];
  }
}

}  // namespace corank::cuda::block
