// The GPU merge kernels, `automatic`'s two schemes: merge_single_launch, and merge_partition +
// merge_partitioned (which also run the merge sort's passes: a problem type says which merges the
// tiles belong to). The study's kernels (basic, tiled, circular) are in corank/study/.
//
// They cut the output into equal parts by co-rank (merge_path.hpp) and merge each part with the
// one sequential merge. Values travel through the same code (no_value for a key-only merge).
#pragma once

#include <cstddef>

#include "corank/cuda/block/co_rank.cuh"
#include "corank/cuda/block/load_store.cuh"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"

namespace corank::cuda::kernels {

// ---- automatic: the production kernel ---------------------------------------------------------

using corank::no_value;

/// Shared memory of the production kernel: two input stages (the tile being merged and the next
/// one in flight) and an output stage, for keys and, with values, for values.
template <class Shape, bool HasValues, class K, class V>
struct automatic_smem {
  static constexpr int KV = block::vector_items<K>, VV = block::vector_items<V>;
  // Input slack: the shift of A, the gap to B's own shift, one readable slot past B's end.
  static constexpr int key_in = Shape::tile + 3 * KV, key_out = Shape::tile + KV;
  static constexpr int val_in = HasValues ? Shape::tile + 3 * VV : 0;
  static constexpr int val_out = HasValues ? Shape::tile + VV : 0;
  static constexpr std::size_t round16(std::size_t b) { return (b + 15) / 16 * 16; }
  static constexpr std::size_t key_in_bytes = round16(key_in * sizeof(K));
  static constexpr std::size_t key_out_bytes = round16(key_out * sizeof(K));
  static constexpr std::size_t val_in_bytes = round16(val_in * sizeof(V));
  static constexpr std::size_t val_out_bytes = round16(val_out * sizeof(V));
  static constexpr std::size_t bytes =
      2 * key_in_bytes + key_out_bytes + 2 * val_in_bytes + val_out_bytes;

  unsigned char* base;
  __device__ K* keys_in(int stage) const {
    return reinterpret_cast<K*>(base + stage * key_in_bytes);
  }
  __device__ K* keys_out() const { return reinterpret_cast<K*>(base + 2 * key_in_bytes); }
  __device__ V* vals_in(int stage) const {
    return reinterpret_cast<V*>(base + 2 * key_in_bytes + key_out_bytes + stage * val_in_bytes);
  }
  __device__ V* vals_out() const {
    return reinterpret_cast<V*>(base + 2 * key_in_bytes + key_out_bytes + 2 * val_in_bytes);
  }
};

/// Where a tile's inputs lie in global memory and in its shared stage: A at its congruent shift,
/// B at the next vector boundary plus its own shift (keys and values each).
template <class K, class V>
struct tile_layout {
  std::size_t diag0, a0, b0;
  int count_a, count_b, ka, kb, va, vb;

  __device__ tile_layout(std::size_t diag0_, std::size_t diag1, std::size_t a0_, std::size_t a1,
                         const K* keys_a, const K* keys_b, const V* vals_a, const V* vals_b)
      : diag0(diag0_), a0(a0_), b0(diag0_ - a0_) {
    count_a = int(a1 - a0);
    count_b = int(diag1 - a1 - b0);
    ka = block::congruent_shift(keys_a + a0);
    kb = after_a(ka, block::vector_items<K>) + block::congruent_shift(keys_b + b0);
    va = vals_a ? block::congruent_shift(vals_a + a0) : 0;
    vb = vals_a ? after_a(va, block::vector_items<V>) + block::congruent_shift(vals_b + b0) : 0;
  }
  __device__ int after_a(int a_start, int per_vector) const {
    return (a_start + count_a + per_vector - 1) / per_vector * per_vector;
  }
  /// Where the value of the key staged at `key_slot` is staged.
  __device__ int value_slot(int key_slot) const {
    return key_slot < kb ? key_slot - ka + va : key_slot - kb + vb;
  }
};

/// Each thread of the block merges VT outputs of a staged tile (keys at sk, placed as l says)
/// into registers: one co-rank search in shared memory, then a register run. from[j] is the
/// stage slot of output j. Outputs past the tile's end repeat its last key (not stored).
template <int VT, class K, class V, class Compare>
__device__ __forceinline__ void merge_staged_run(const K* sk, const tile_layout<K, V>& l, int tid,
                                                 K (&keys)[VT], int (&from)[VT], Compare comp) {
  const int count = l.count_a + l.count_b;
  const int diag = min(tid * VT, count);
  const int i = co_rank<true>(diag, sk + l.ka, l.count_a, sk + l.kb, l.count_b, comp);
  serial_merge_registers<VT>(sk, l.ka + i, l.ka + l.count_a, l.kb + diag - i, l.kb + l.count_b,
                             keys, from, comp);
}

/// One launch, no partition pass. Block p walks tiles [first, last) of `tile` outputs each (an
/// even share of all tiles; the grid is as large as the GPU holds at once). Three warps find the
/// co-ranks of its first two tiles in global memory (warp_co_rank). After that, once every W
/// tiles (W = warps per block), the W warps together find the ends of the next W tiles, each
/// searching only past the last known end (data about to be loaded anyway): the search's memory
/// latency is paid once per W tiles rather than on every tile. Software pipeline: while the block
/// merges tile t, the inputs of tile t + 1 travel to the other shared stage by cp.async (16-byte
/// vectors; no registers held). Each thread merges a register-resident run of Items outputs from
/// one co-rank, and the tile leaves through the output stage with 16-byte stores. With values,
/// each output's value is gathered by its merge index from the staged values.
template <class Shape, bool HasValues, class K, class V, class Compare>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    merge_single_launch(const K* keys_a, const V* vals_a, std::size_t m, const K* keys_b,
                        const V* vals_b, std::size_t n, K* keys_out, V* vals_out, Compare comp,
                        std::size_t tiles) {
  constexpr int NT = Shape::threads, VT = Shape::items, NV = Shape::tile;
  using smem_t = automatic_smem<Shape, HasValues, K, V>;
  constexpr int key_iters = (NV / smem_t::KV + NT - 1) / NT;
  constexpr int val_iters = (NV / smem_t::VV + NT - 1) / NT;
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  const smem_t smem{smem_bytes};
  constexpr int W = NT / 32;  // tile ends found per search round-trip
  __shared__ std::size_t corank_at[3], ends[W];

  const int tid = threadIdx.x;
  const std::size_t total = m + n;
  const std::size_t first = even_split<std::size_t>(tiles, gridDim.x, blockIdx.x);
  const std::size_t last = even_split<std::size_t>(tiles, gridDim.x, blockIdx.x + 1);
  const auto tile_end = [&](std::size_t t) { return min((t + 1) * NV, total); };
  const auto layout = [&](std::size_t t, std::size_t a0, std::size_t a1) {
    return tile_layout<K, V>(t * NV, tile_end(t), a0, a1, keys_a, keys_b,
                             HasValues ? vals_a : nullptr, vals_b);
  };
  // Starts the copy of tile t (co-ranks a0, a1) into stage `stage`; every thread commits a group.
  const auto issue = [&](std::size_t t, std::size_t a0, std::size_t a1, int stage) {
    if (t < last) {
      const tile_layout<K, V> l = layout(t, a0, a1);
      K* sk = smem.keys_in(stage);
      block::copy_ranges_async<NT>(block::vector_range<K>(keys_a + l.a0, sk + l.ka, l.count_a),
                                   block::vector_range<K>(keys_b + l.b0, sk + l.kb, l.count_b),
                                   tid);
      if constexpr (HasValues) {
        V* sv = smem.vals_in(stage);
        block::copy_ranges_async<NT>(block::vector_range<V>(vals_a + l.a0, sv + l.va, l.count_a),
                                     block::vector_range<V>(vals_b + l.b0, sv + l.vb, l.count_b),
                                     tid);
      }
    }
    __pipeline_commit();
  };

  if (tid < 96) {  // co-ranks of: first tile's start, its end, the next tile's end
    const std::size_t k = tid < 32 ? first * NV : tile_end(first + (tid / 32 - 1));
    const std::size_t i = block::warp_co_rank(k, keys_a, m, keys_b, n, comp);
    if (tid % 32 == 0) corank_at[tid / 32] = i;
  }
  __syncthreads();
  // Each cut clamped against the one before (consistent_co_rank): tiles within both inputs even
  // where co-ranks disagree (a violated precondition).
  std::size_t a0 = corank_at[0];
  std::size_t a1 = consistent_co_rank(corank_at[1], tile_end(first), a0, first * NV, m, n);
  std::size_t a2 = consistent_co_rank(corank_at[2], tile_end(first + 1), a1, tile_end(first), m, n);
  issue(first, a0, a1, 0);

  for (std::size_t t = first; t < last; ++t) {
    const int stage = int(t - first) & 1;
    issue(t + 1, a1, a2, stage ^ 1);  // the other stage was last read before the previous barrier
    // Every W tiles, while the copies fly: warp w finds the end of tile t + 2 + w, past a2.
    const bool search = (t - first) % W == 0;
    if (search && t + 2 + tid / 32 < last) {
      const std::size_t k = tile_end(t + 2 + tid / 32);
      const std::size_t i =
          block::warp_co_rank(k, keys_a, m, keys_b, n, comp, a2, a2 + (k - tile_end(t + 1)));
      if (tid % 32 == 0) ends[tid / 32] = i;
    }
    __pipeline_wait_prior(1);  // this thread's copies of tile t have landed
    __syncthreads();           // and everyone's
    // The end of tile t + 2, found in the last search iteration (ends[] is rewritten only after
    // the next barrier C, so it is read here, before it).
    const std::size_t a3 =
        consistent_co_rank(ends[(t - first) % W], tile_end(t + 2), a2, tile_end(t + 1), m, n);

    // Each thread: one co-rank in shared memory, then Items outputs into registers.
    const tile_layout<K, V> l = layout(t, a0, a1);
    const int count = l.count_a + l.count_b;
    K keys[VT];
    int from[VT];
    merge_staged_run<VT>(smem.keys_in(stage), l, tid, keys, from, comp);
    const int ko = block::congruent_shift(keys_out + l.diag0);
    K* out_k = smem.keys_out();
#pragma unroll
    for (int j = 0; j < VT; ++j)
      if (tid * VT + j < count) out_k[ko + tid * VT + j] = keys[j];
    int vo = 0;
    if constexpr (HasValues) {
      const V* sv = smem.vals_in(stage);
      V* out_v = smem.vals_out();
      vo = block::congruent_shift(vals_out + l.diag0);
#pragma unroll
      for (int j = 0; j < VT; ++j)
        if (tid * VT + j < count) out_v[vo + tid * VT + j] = sv[l.value_slot(from[j])];
    }
    __syncthreads();  // the output stage is complete
    block::copy_range<key_iters + 1>(out_k + ko, keys_out + l.diag0, count, tid, NT);
    if constexpr (HasValues)
      block::copy_range<val_iters + 1>(smem.vals_out() + vo, vals_out + l.diag0, count, tid, NT);
    a0 = a1, a1 = a2, a2 = a3;
  }
  __pipeline_wait_prior(0);
}

// ---- automatic, partitioned: a partition pass, then one tile per block -------------------------

/// One merge within a partitioned problem: its inputs, and the output position of its first output.
template <class K, class V>
struct merge_segment {
  std::size_t base;
  const K* keys_a;
  const V* vals_a;
  std::size_t m;
  const K* keys_b;
  const V* vals_b;
  std::size_t n;
  __device__ std::size_t end() const { return base + m + n; }
};

/// The key and value types of a partitioned problem.
template <class K, class V>
struct problem_types {
  using key_type = K;
  using value_type = V;
  static constexpr bool has_values = !std::is_same_v<V, no_value>;
};

/// What a merge sort learns of its input before it sorts (kernels::find_input_order, in
/// merge_sort.cuh): whether some key is below its predecessor (a descent), and whether some key is
/// not. Each fact is a word that a block which sees it sets to the call's epoch, a number no
/// earlier call used, so the words need no clearing: a stale or garbage word can only claim a fact
/// that is false, which costs the full sort, never a wrong result. No descent: sorted already;
/// nothing but descents: strictly descending (no ties), reversed by the tile sort; the merge
/// passes run on anything else (or with no facts: a pass run alone).
struct input_order {
  unsigned* facts = nullptr;  // [0]: a descent seen, [1]: a non-descent seen
  unsigned epoch = 0;
  __device__ bool descent() const { return facts[0] == epoch; }
  __device__ bool non_descent() const { return facts[1] == epoch; }
  __device__ bool needs_merges() const { return !facts || (descent() && non_descent()); }
};

/// What the partitioned kernels merge: one merge of A and B (a segment at base 0) into the output.
template <class K, class V>
struct single_merge : problem_types<K, V> {
  merge_segment<K, V> inputs;
  K* keys_out;
  V* vals_out;
  __host__ __device__ std::size_t total() const { return inputs.m + inputs.n; }
  __device__ merge_segment<K, V> segment(std::size_t) const { return inputs; }
  __device__ bool skipped() const { return false; }
};

/// Or a merge sort pass: the runs of `width` of keys[0, n) merged pairwise into keys_out, each pair
/// a merge of its own. `width` is a multiple of the tile, so no tile straddles two pairs. Skipped
/// (no block reads or writes) when the sort's input needs no merges.
template <class K, class V>
struct pairwise_runs : problem_types<K, V> {
  const K* keys;
  const V* vals;
  std::size_t n, width;
  K* keys_out;
  V* vals_out;
  input_order order{};
  __host__ __device__ std::size_t total() const { return n; }
  __device__ bool skipped() const { return !order.needs_merges(); }
  __device__ merge_segment<K, V> segment(std::size_t k) const {
    const std::size_t pair = k / (2 * width) * (2 * width);
    const std::size_t m = min(width, n - pair), nb = min(2 * width, n - pair) - m;
    const V* va = problem_types<K, V>::has_values ? vals + pair : nullptr;
    return {pair, keys + pair, va, m, keys + pair + m, va ? va + m : nullptr, nb};
  }
};

/// Where the partition pass leaves tile t's co-ranks in A: in the first 16 bytes of tile t's own
/// output range (its start at bytes [0, 8), its end at [8, 16)). Only block t reads them, before
/// it overwrites them with its outputs, so the merge needs no temporary storage and no ordering
/// between blocks. A last tile of fewer than 8 bytes holds no start: its block searches.
struct partition_slots {
  template <class K>
  __device__ static unsigned char* at(K* out, std::size_t tile_start) {
    return reinterpret_cast<unsigned char*>(out + tile_start);
  }
  template <class K>
  __device__ static bool holds_start(std::size_t tile_items) {
    return tile_items * sizeof(K) >= 8;
  }
  // memcpy: the output may be aligned to its element only (1 byte for u8 keys).
  __device__ static void store(unsigned char* p, std::size_t v) { memcpy(p, &v, sizeof v); }
  __device__ static std::size_t load(const unsigned char* p) {
    std::size_t v;
    memcpy(&v, p, sizeof v);
    return v;
  }
};

/// The partition pass: thread j takes boundary b = first_boundary + j (between tiles b - 1 and
/// b, at output k = b * tile), finds the co-rank of k in its merge segment and stores it as tile
/// b's start and, unless k starts a segment (then tile b - 1 ends its own), as tile b - 1's end.
/// Tiles below `lead_tiles` search their own co-ranks, so the pass
/// neither computes their boundaries nor writes into their outputs (they may be writing them
/// already). The searches probe a shared grid (co_rank_on_grid), so their upper levels hit L2:
/// with one midpoint search per 3840-output tile this pass alone took 77-91 us of a 0.61-0.64 ms
/// merge at 10^8 + 10^8 on an H100, bound by its random DRAM reads (grid: 49 us).
template <class Problem, class Compare>
__global__ void merge_partition(Problem p, std::size_t tile, std::size_t tiles,
                                std::size_t lead_tiles, Compare comp) {
  block::allow_dependent_launch();
  if (p.skipped()) return;
  const std::size_t first_boundary = lead_tiles > 1 ? lead_tiles : 1;
  const std::size_t boundary = first_boundary + std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (boundary >= tiles) return;
  const std::size_t k = boundary * tile;
  const auto seg = p.segment(k);
  const std::size_t i = co_rank_on_grid(k - seg.base, seg.keys_a, seg.m, seg.keys_b, seg.n, comp);
  if (boundary > lead_tiles && k != seg.base)
    partition_slots::store(partition_slots::at(p.keys_out, k - tile) + 8, i);
  if (partition_slots::holds_start<typename Problem::key_type>(min(k + tile, seg.end()) - k))
    partition_slots::store(partition_slots::at(p.keys_out, k), i);
}

/// Shared memory of the partitioned kernel for a tile of `tile` outputs: one input stage for keys
/// and one for values, each reused as the output stage once every thread holds its run.
template <bool HasValues, class K, class V>
struct partitioned_smem {
  static constexpr int KV = block::vector_items<K>, VV = block::vector_items<V>;
  // Slack: A's shift, the gap to B's own shift, one readable slot past B's end.
  __host__ __device__ static constexpr std::size_t key_bytes(std::size_t tile) {
    return (tile + 3 * KV) * sizeof(K) + 15 & ~std::size_t(15);
  }
  __host__ __device__ static constexpr std::size_t bytes(std::size_t tile) {
    return key_bytes(tile) + (HasValues ? (tile + 3 * VV) * sizeof(V) + 15 & ~std::size_t(15) : 0);
  }
};

/// Merges one tile held in shared memory: outputs [diag0, diag1) of the stable merge of A and B,
/// whose co-ranks in A are a0 and a1. cp.async the tile's two input ranges into `stage` (16-byte
/// vectors, each at its congruent shift), each thread merges a register-resident run of VT outputs
/// from one co-rank, the runs go back to the same stage and leave with 16-byte stores. At most
/// blockDim.x * VT outputs; `stage` holds partitioned_smem<HasValues, K, V>::bytes of that. Called
/// by the whole block.
template <int VT, bool HasValues, class K, class V, class Compare>
__device__ __forceinline__ void merge_staged_tile(const K* keys_a, const V* vals_a, const K* keys_b,
                                                  const V* vals_b, K* keys_out, V* vals_out,
                                                  std::size_t diag0, std::size_t diag1,
                                                  std::size_t a0, std::size_t a1,
                                                  unsigned char* stage, Compare comp) {
  using smem_t = partitioned_smem<HasValues, K, V>;
  const int NT = int(blockDim.x), tid = int(threadIdx.x);
  const tile_layout<K, V> l(diag0, diag1, a0, a1, keys_a, keys_b, HasValues ? vals_a : nullptr,
                            vals_b);
  K* sk = reinterpret_cast<K*>(stage);
  V* sv = reinterpret_cast<V*>(stage + smem_t::key_bytes(std::size_t(NT) * VT));
  block::copy_ranges_async(block::vector_range<K>(keys_a + l.a0, sk + l.ka, l.count_a),
                           block::vector_range<K>(keys_b + l.b0, sk + l.kb, l.count_b), tid, NT);
  if constexpr (HasValues)
    block::copy_ranges_async(block::vector_range<V>(vals_a + l.a0, sv + l.va, l.count_a),
                             block::vector_range<V>(vals_b + l.b0, sv + l.vb, l.count_b), tid, NT);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();

  const int count = l.count_a + l.count_b;
  K keys[VT];
  int from[VT];
  merge_staged_run<VT>(sk, l, tid, keys, from, comp);
  [[maybe_unused]] V vals[HasValues ? VT : 1];
  if constexpr (HasValues)
#pragma unroll
    for (int j = 0; j < VT; ++j)
      if (tid * VT + j < count) vals[j] = sv[l.value_slot(from[j])];
  __syncthreads();  // every run is in registers: the input stage becomes the output stage
  const int ko = block::congruent_shift(keys_out + diag0);
#pragma unroll
  for (int j = 0; j < VT; ++j)
    if (tid * VT + j < count) sk[ko + tid * VT + j] = keys[j];
  int vo = 0;
  if constexpr (HasValues) {
    vo = block::congruent_shift(vals_out + diag0);
#pragma unroll
    for (int j = 0; j < VT; ++j)
      if (tid * VT + j < count) sv[vo + tid * VT + j] = vals[j];
  }
  __syncthreads();
  block::copy_range<block::copy_iters<K, VT>>(sk + ko, keys_out + diag0, count, tid, NT);
  if constexpr (HasValues)
    block::copy_range<block::copy_iters<V, VT>>(sv + vo, vals_out + diag0, count, tid, NT);
}

/// One tile of blockDim.x * Items outputs per block (merge_staged_tile), its co-ranks read from
/// the partition slots, or, for the first `lead_tiles` blocks, searched by the block itself (two
/// warp searches) so that the first waves merge while the partition pass runs instead of waiting
/// for it. Short-lived blocks and many of them resident: while some wait for their loads, others
/// merge or store, which is what keeps DRAM busy.
template <class Shape, class Problem, class Compare>
__global__ void __launch_bounds__(Shape::max_threads, Shape::min_blocks)
    merge_partitioned(Problem p, std::size_t lead_tiles, Compare comp) {
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  __shared__ std::size_t bounds[2];
  const int NT = int(blockDim.x), tid = int(threadIdx.x);
  const std::size_t tile = std::size_t(NT) * Shape::items;
  const std::size_t t = blockIdx.x, diag0 = t * tile;
  const auto seg = p.segment(diag0);
  const std::size_t diag1 = min(diag0 + tile, seg.end());
  const bool segment_end = diag1 == seg.end();
  const unsigned warp = unsigned(tid) / 32;
  const bool skipped = p.skipped();  // read here, tested after the wait (its latency hidden)
  if (t < lead_tiles) {
    if (skipped) return;
    // Warp 0 searches the start, warp 1 the end (warp 0 both in a one-warp block).
    for (unsigned which = warp; which < 2; which += unsigned(NT) / 32) {
      const std::size_t k = (which == 0 ? diag0 : diag1) - seg.base;
      const std::size_t i =
          which == 0 && k == 0 ? 0
          : which == 1 && segment_end
              ? seg.m
              : block::warp_co_rank(k, seg.keys_a, seg.m, seg.keys_b, seg.n, comp);
      if (tid % 32 == 0) bounds[which] = i;
    }
  } else {
    block::wait_for_prior_grid();  // the partition pass (launched early: programmatic launch)
    if (skipped) return;
    if (warp == 0) {
      const unsigned char* slots = partition_slots::at(p.keys_out, diag0);
      std::size_t a0 = 0;
      if (diag0 != seg.base)
        a0 =
            partition_slots::holds_start<typename Problem::key_type>(diag1 - diag0)
                ? partition_slots::load(slots)
                : block::warp_co_rank(diag0 - seg.base, seg.keys_a, seg.m, seg.keys_b, seg.n, comp);
      if (tid == 0)
        bounds[0] = a0, bounds[1] = segment_end ? seg.m : partition_slots::load(slots + 8);
    }
  }
  __syncthreads();
  // The end clamped against the start: a tile within both inputs even where co-ranks disagree.
  const std::size_t a1 =
      consistent_co_rank(bounds[1], diag1 - seg.base, bounds[0], diag0 - seg.base, seg.m, seg.n);
  merge_staged_tile<Shape::items, Problem::has_values>(
      seg.keys_a, seg.vals_a, seg.keys_b, seg.vals_b, p.keys_out + seg.base,
      Problem::has_values ? p.vals_out + seg.base : nullptr, diag0 - seg.base, diag1 - seg.base,
      bounds[0], a1, smem_bytes, comp);
}

}  // namespace corank::cuda::kernels
