// The kernels of the stable merge sort (merge_sort.cuh): find the input's order, sort each tile,
// then merge passes. Two-way passes are the production merge's partitioned kernels over
// kernels::pairwise_runs; four-way passes (half as many passes over memory) are
// four_way_partition and four_way_merge_tiles below, cut at samples (four_way_split.hpp). An
// input found sorted costs the order check alone, one found strictly descending a reversal
// (input_order, in merge.cuh): every later kernel reads the facts and returns.
#pragma once

#include <cstddef>
#include <type_traits>

#include "corank/cuda/block/bitonic_network.cuh"
#include "corank/cuda/block/co_rank.cuh"
#include "corank/cuda/block/load_store.cuh"
#include "corank/cuda/block/merge_sort.cuh"
#include "corank/cuda/kernels/merge.cuh"
#include "corank/four_way_split.hpp"
#include "corank/merge_path.hpp"

namespace corank::cuda::kernels {

/// Shared memory of the merge sort kernels: a tile of keys and values plus one readable slot.
template <int Tile, class Key, class Value>
struct merge_sort_smem {
  static constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  Key keys[Tile + 1];
  // 16-byte aligned, as the values in global memory: the tile loads copy whole vectors.
  alignas(16) std::conditional_t<has_values, Value, char> vals[has_values ? Tile + 1 : 1];
};

/// The input's order facts (input_order) for keys[0, n), n >= 2: block b checks the chunks b,
/// b + grid, ... of NT x VT consecutive pairs (keys[i], keys[i + 1]) and stops once it has seen
/// both facts, which in an unsorted input is within its first chunk: such an input is read here
/// only in the grid's first chunks; a sorted or strictly descending one is read once.
template <int NT, int VT, class Key, class Compare>
__global__ void __launch_bounds__(NT)
    find_input_order(const Key* keys, std::size_t n, input_order order, Compare comp) {
  constexpr std::size_t chunk = std::size_t(NT) * VT;
  bool descent = false, non_descent = false;  // seen by the block so far
  for (std::size_t start = blockIdx.x * chunk; start < n - 1; start += gridDim.x * chunk) {
    bool d = false, nd = false;
#pragma unroll
    for (int j = 0; j < VT; ++j) {
      const std::size_t i = start + std::size_t(j) * NT + threadIdx.x;
      if (i < n - 1) (comp(keys[i + 1], keys[i]) ? d : nd) = true;
    }
    const bool block_d = __syncthreads_or(d), block_nd = __syncthreads_or(nd);
    if (threadIdx.x == 0) {
      if (block_d && !descent) order.facts[0] = order.epoch;
      if (block_nd && !non_descent) order.facts[1] = order.epoch;
    }
    descent = descent || block_d;
    non_descent = non_descent || block_nd;
    if (descent && non_descent) return;
  }
}

/// Sorts each tile of NT * VT items stably: registers, then merges in shared memory. Reads
/// keys_in, writes keys_out (may be the same array: a block reads its whole tile first) and, when
/// SampleEvery > 0 and samples_out is given, the output's grid samples (four-way passes follow).
/// The tile is loaded and stored in 16-byte vectors where the arrays allow. An input that needs no
/// merges (input_order) is left as it is when sorted, and reversed in keys_in (the array being
/// sorted) when strictly descending: with no ties, that is its stable sort.
template <int NT, int VT, int MinBlocks, unsigned SampleEvery, class Key, class Value,
          class Compare>
__global__ void __launch_bounds__(NT, MinBlocks)
    merge_sort_tiles(Key* keys_in, Value* vals_in, Key* keys_out, Value* vals_out, Key* samples_out,
                     std::size_t n, input_order order, Compare comp) {
  constexpr int tile = NT * VT;
  constexpr bool has_values = !std::is_same_v<Value, block::no_value>;
  if (!order.needs_merges()) {
    if (order.descent())
      for (std::size_t i = blockIdx.x * std::size_t(NT) + threadIdx.x; i < n / 2;
           i += std::size_t(gridDim.x) * NT) {
        const Key k = keys_in[i];
        keys_in[i] = keys_in[n - 1 - i], keys_in[n - 1 - i] = k;
        if constexpr (has_values) {
          const Value v = vals_in[i];
          vals_in[i] = vals_in[n - 1 - i], vals_in[n - 1 - i] = v;
        }
      }
    return;
  }
  // Dynamic: a tile of pairs may take more than the 48 KiB of static shared memory.
  extern __shared__ __align__(16) unsigned char tile_smem[];
  auto& smem = *reinterpret_cast<merge_sort_smem<tile, Key, Value>*>(tile_smem);
  Value* s_vals = reinterpret_cast<Value*>(smem.vals);
  const std::size_t start = std::size_t(blockIdx.x) * tile;
  const unsigned count = unsigned(n - start < std::size_t(tile) ? n - start : tile);
  const int tid = int(threadIdx.x);
  // The whole tile in flight at once: asynchronous 16-byte copies, no registers held.
  block::copy_range_async<NT>(block::vector_range<Key>(keys_in + start, smem.keys, int(count)),
                              tid);
  if constexpr (has_values)
    block::copy_range_async<NT>(block::vector_range<Value>(vals_in + start, s_vals, int(count)),
                                tid);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  block::sort_runs_in_shared<NT, VT>(smem.keys, s_vals, count,
                                     block::rounds_to_cover<VT>(0, count - 1), tid, comp);
  block::copy_range<block::copy_iters<Key, VT>>(smem.keys, keys_out + start, int(count), tid, NT);
  if constexpr (has_values)
    block::copy_range<block::copy_iters<Value, VT>>(s_vals, vals_out + start, int(count), tid, NT);
  if constexpr (SampleEvery > 0)
    if (samples_out)
      block::store_grid_samples<NT, SampleEvery>(smem.keys, start, count, samples_out, tid);
}

// ---- four-way passes ---------------------------------------------------------------------------

/// A cut slot of a four-way pass (the problem's slot(s)): group, sample index within its kind,
/// the group's first slot, and whether the sample is CD's.
struct group_slot {
  std::size_t group, index, group_first_slot;
  bool cd;
};
/// A tile of a four-way pass (the problem's tile(t)): group, tile within it, the group's first
/// slot.
struct group_tile {
  std::size_t group, in_group, group_first_slot;
};

/// A four-way merge sort pass: the runs of `width` of keys[0, n) merged four at a time into
/// keys_out, each group of four runs (A, B, C, D; the last group may hold fewer, shorter ones) cut
/// before every `stride`-th element of AB and of CD (four_way_split.hpp), a tile taking `parts`
/// consecutive parts. Each group has cut_slots() slots for its cuts, in output order. With a shape
/// that keeps grid samples, `samples`, unless null, are the input's (the cut searches read them)
/// and `samples_out`, unless null (the last pass, or none kept), receives the output's.
template <class K, class V>
struct four_way_runs : problem_types<K, V> {
  const K* keys;
  const V* vals;
  std::size_t n, width, stride, parts;
  K* keys_out;
  V* vals_out;
  const K* samples = nullptr;
  K* samples_out = nullptr;
  input_order order{};  // the sort's input: no block reads or writes unless it needs merges

  struct group_runs {
    std::size_t base;
    four_runs<const K*, std::size_t> keys;
    const V* vals[4];
  };

  __host__ __device__ std::size_t groups() const { return (n + 4 * width - 1) / (4 * width); }
  /// Samples of one kind in the largest group (AB holds up to 2 x width, and no more than n).
  __host__ __device__ std::size_t kind_samples() const {
    const std::size_t most = 2 * width < n ? 2 * width : n;
    return (most + stride - 1) / stride;
  }
  __host__ __device__ std::size_t cut_slots() const { return 2 * kind_samples(); }
  __host__ __device__ std::size_t tiles_per_group() const {
    return (cut_slots() + parts - 1) / parts;
  }
  __host__ __device__ std::size_t slots() const { return groups() * cut_slots(); }
  __host__ __device__ std::size_t tiles() const { return groups() * tiles_per_group(); }

  /// Where cut slot s lies: its group, whether it is one of CD's samples, which one of its kind,
  /// and the group's first slot (the cut kernels ask the problem, so another layout of groups,
  /// kernels::multiway_four_way_runs's, takes the same kernels).
  __device__ group_slot slot(std::size_t s) const {
    const std::size_t group = s / cut_slots(), in_group = s % cut_slots();
    const bool cd = in_group >= kind_samples();
    return {group, cd ? in_group - kind_samples() : in_group, group * cut_slots(), cd};
  }
  /// Tile t's group, its place among the group's tiles and the group's first cut slot.
  __device__ group_tile tile(std::size_t t) const {
    const std::size_t group = t / tiles_per_group();
    return {group, t % tiles_per_group(), group * cut_slots()};
  }

  __device__ group_runs group(std::size_t g) const {
    const std::size_t base = g * 4 * width;
    std::size_t start[5];
    for (int r = 0; r < 5; ++r) start[r] = min(base + r * width, n);
    group_runs runs{
        base,
        {keys + start[0], keys + start[1], keys + start[2], keys + start[3], start[1] - start[0],
         start[2] - start[1], start[3] - start[2], start[4] - start[3]},
        {}};
    for (int r = 0; r < 4; ++r)
      runs.vals[r] = problem_types<K, V>::has_values ? vals + start[r] : nullptr;
    return runs;
  }

  /// The group's runs as the cut searches read them: through the grid samples when Every > 0.
  template <unsigned Every>
  __device__ auto search_runs(std::size_t g) const {
    const four_runs<const K*, std::size_t> runs = group(g).keys;
    if constexpr (Every == 0) {
      return runs;
    } else {
      const grid_sampled_ptr<K, Every> all{keys, samples, 0};
      return four_runs<grid_sampled_ptr<K, Every>, std::size_t>{all + std::size_t(runs.a - keys),
                                                                all + std::size_t(runs.b - keys),
                                                                all + std::size_t(runs.c - keys),
                                                                all + std::size_t(runs.d - keys),
                                                                runs.na,
                                                                runs.nb,
                                                                runs.nc,
                                                                runs.nd};
    }
  }
};

/// The four-way pass's cuts: lane group j (Lanes lanes) takes sample j (a group's AB samples, then
/// its CD samples), finds the cut before it (one co-rank, then two grid searches stepped together,
/// through the input's grid samples when the problem has them) and stores it at its place in
/// output order (sorted_index).
template <class Shape, unsigned Lanes, class Problem, class Compare>
__global__ void four_way_partition(Problem p, four_way_split<std::size_t>* cuts, Compare comp) {
  block::allow_dependent_launch();
  if (!p.order.needs_merges()) return;
  // Each sample's searches are shared by Lanes consecutive lanes; conditions below hold for a
  // whole group or none of it.
  using search = std::conditional_t<Lanes == 1, grid_search, block::lane_group_search<Lanes>>;
  const std::size_t sample = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / Lanes;
  if (sample >= p.slots()) return;
  const group_slot slot = p.slot(sample);
  const std::size_t group = slot.group, index = slot.index;
  const bool cd = slot.cd;
  const auto cut = [&](const auto& runs) {
    const auto grid = sample_grid<std::size_t>::of(runs, p.stride);
    if (index >= grid.samples(cd)) return;  // past a short group's samples
    const four_way_split<std::size_t> c =
        split_before_sample<search>(runs, p.stride, cd, index, comp);
    if (threadIdx.x % Lanes == 0)
      cuts[slot.group_first_slot + sorted_index(grid, cd, index, c)] = c;
  };
  if constexpr (Shape::sample_every > 0)
    if (p.samples) return cut(p.template search_runs<Shape::sample_every>(group));
  cut(p.template search_runs<0>(group));
}

/// Shared memory of four_way_merge_tiles for tiles of up to `tile` outputs: one stage of keys and
/// one of values, which hold in turn the four input pieces, the merged AB and CD side by side,
/// and the output.
template <bool HasValues, class K, class V>
struct four_way_smem {
  // Slack: per pair of pieces, A's shift, the gap to B's own shift, one readable slot past B and
  // the gap to the next vector. A whole number of 16-byte vectors and of elements.
  __host__ __device__ static constexpr std::size_t items(std::size_t tile, int per_vector) {
    return (tile + 8 * per_vector + 15) / 16 * 16;
  }
  __host__ __device__ static constexpr std::size_t key_items(std::size_t tile) {
    return items(tile, block::vector_items<K>);
  }
  __host__ __device__ static constexpr std::size_t bytes(std::size_t tile) {
    return key_items(tile) * sizeof(K) +
           (HasValues ? items(tile, block::vector_items<V>) * sizeof(V) : 0);
  }
};

/// One tile of a four-way pass per block: `parts` consecutive parts of a group, from sorted cut
/// q to cut q + parts (or the group's end). Loads the pieces of A and B, then those of C and D,
/// into one stage (cp.async, each pair laid out as the two-way merge lays out its tile; the keys,
/// then the values, which arrive while the keys merge); merges A with B and C with D into
/// registers (threads split between the two by their outputs, Items each) and writes the two
/// results back side by side; merges those into registers, and stores through the stage with
/// 16-byte stores. Odd Items keep each thread's run in shared memory free of bank
/// conflicts. The problem's stride and parts are the Shape's (launch_four_way_pass checks), known
/// here at compile time.
template <class Shape, class Problem, class Compare>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    four_way_merge_tiles(Problem p, const four_way_split<std::size_t>* cuts, Compare comp) {
  using K = typename Problem::key_type;
  using V = typename Problem::value_type;
  constexpr bool HasValues = Problem::has_values;
  constexpr int NT = Shape::threads, VT = Shape::items;
  using smem_t = four_way_smem<HasValues, K, V>;
  using cut = four_way_split<std::size_t>;
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ cut bounds[2];
  const int tid = int(threadIdx.x);
  const group_tile tile = p.tile(blockIdx.x);
  const std::size_t first = tile.in_group * Shape::parts;
  const auto runs = p.group(tile.group);
  const std::size_t samples = sample_grid<std::size_t>::of(runs.keys, Shape::stride).samples();
  if (first >= samples) return;                // past a short group's cuts
  const bool merges = p.order.needs_merges();  // read here, tested after the wait
  block::wait_for_prior_grid();                // the cuts (four_way_partition, launched before)
  if (!merges) return;
  if (tid < 2) {
    const std::size_t q = first + (tid ? Shape::parts : 0);
    bounds[tid] = q < samples ? cuts[tile.group_first_slot + q] : runs.keys.end();
  }
  __syncthreads();
  cut c0 = bounds[0], c1 = bounds[1];
  // Cuts that a violated precondition left inconsistent: an empty tile (four_way_split.hpp).
  if (!bounds_a_piece(c0, c1, runs.keys.end(), std::size_t(NT - 2) * VT)) c0 = c1 = runs.keys.end();

  K* sk = reinterpret_cast<K*>(smem);
  V* sv = reinterpret_cast<V*>(smem + smem_t::key_items(std::size_t(NT) * VT) * sizeof(K));
  const tile_layout<K, V> ab(c0.a + c0.b, c1.a + c1.b, c0.a, c1.a, runs.keys.a, runs.keys.b,
                             runs.vals[0], runs.vals[1]);
  const tile_layout<K, V> cd(c0.c + c0.d, c1.c + c1.d, c0.c, c1.c, runs.keys.c, runs.keys.d,
                             runs.vals[2], runs.vals[3]);
  // C and D's pieces start at the first vector boundary past B's readable end slot.
  const auto past_b = [](int b_start, int count_b, int per_vector) {
    return (b_start + count_b + per_vector) / per_vector * per_vector;
  };
  const int cd_keys = past_b(ab.kb, ab.count_b, block::vector_items<K>);
  const int cd_vals = HasValues ? past_b(ab.vb, ab.count_b, block::vector_items<V>) : 0;
  // The pieces of a pair of runs (l: where they start and go), from from_a and from_b to `to`.
  // Keys first, values in a group of their own: the first merges need only the keys, so the
  // values keep arriving while they run.
  const auto load = [&](const tile_layout<K, V>& l, const auto* from_a, const auto* from_b,
                        auto* to, int slot_a, int slot_b) {
    block::copy_ranges_async(block::vector_range(from_a + l.a0, to + slot_a, l.count_a),
                             block::vector_range(from_b + l.b0, to + slot_b, l.count_b), tid, NT);
  };
  load(ab, runs.keys.a, runs.keys.b, sk, ab.ka, ab.kb);
  load(cd, runs.keys.c, runs.keys.d, sk + cd_keys, cd.ka, cd.kb);
  __pipeline_commit();
  if constexpr (HasValues) {
    load(ab, runs.vals[0], runs.vals[1], sv, ab.va, ab.vb);
    load(cd, runs.vals[2], runs.vals[3], sv + cd_vals, cd.va, cd.vb);
    __pipeline_commit();
    __pipeline_wait_prior(1);
  } else {
    __pipeline_wait_prior(0);
  }
  __syncthreads();  // the keys are staged

  // A with B, C with D: the first threads take AB's outputs, Items each, the next ones CD's.
  // Results go back as AB then CD: sk[0, n_ab + n_cd).
  const int n_ab = ab.count_a + ab.count_b, n_cd = cd.count_a + cd.count_b, total = n_ab + n_cd;
  const int ab_threads = (n_ab + VT - 1) / VT;
  const bool on_cd = tid >= ab_threads;
  const int local = on_cd ? tid - ab_threads : tid, count = on_cd ? n_cd : n_ab;
  const int out = (on_cd ? n_ab : 0) + local * VT;
  K keys[VT];
  int from[VT];
  [[maybe_unused]] V vals[HasValues ? VT : 1];
  const tile_layout<K, V> l = on_cd ? cd : ab;
  if (local * VT < count)
    merge_staged_run<VT>(sk + (on_cd ? cd_keys : 0), l, local, keys, from, comp);
  if constexpr (HasValues) {
    __pipeline_wait_prior(0);
    __syncthreads();  // the values are staged
    if (local * VT < count)
#pragma unroll
      for (int j = 0; j < VT; ++j)
        if (local * VT + j < count) vals[j] = sv[(on_cd ? cd_vals : 0) + l.value_slot(from[j])];
  }
  __syncthreads();  // every input is merged into registers
  if (local * VT < count)
#pragma unroll
    for (int j = 0; j < VT; ++j)
      if (local * VT + j < count) {
        sk[out + j] = keys[j];
        if constexpr (HasValues) sv[out + j] = vals[j];
      }
  __syncthreads();

  // The two halves into registers, Items outputs per thread from one co-rank.
  const int diag = min(tid * VT, total);
  const int i = co_rank<true>(diag, sk, n_ab, sk + n_ab, n_cd, comp);
  serial_merge_registers<VT>(sk, i, n_ab, n_ab + diag - i, total, keys, from, comp);
  if constexpr (HasValues)
#pragma unroll
    for (int j = 0; j < VT; ++j)
      if (tid * VT + j < total) vals[j] = sv[from[j]];
  __syncthreads();  // every output is in registers: the stage becomes the output stage

  const std::size_t out_at = runs.base + c0.position();
  const int ko = block::congruent_shift(p.keys_out + out_at);
#pragma unroll
  for (int j = 0; j < VT; ++j)
    if (tid * VT + j < total) sk[ko + tid * VT + j] = keys[j];
  int vo = 0;
  if constexpr (HasValues) {
    vo = block::congruent_shift(p.vals_out + out_at);
#pragma unroll
    for (int j = 0; j < VT; ++j)
      if (tid * VT + j < total) sv[vo + tid * VT + j] = vals[j];
  }
  __syncthreads();
  if constexpr (Shape::sample_every > 0)
    if (p.samples_out)
      block::store_grid_samples<NT, Shape::sample_every>(sk + ko, out_at, std::size_t(total),
                                                         p.samples_out, tid);
  block::copy_range<block::copy_iters<K, VT>>(sk + ko, p.keys_out + out_at, total, tid, NT);
  if constexpr (HasValues)
    block::copy_range<block::copy_iters<V, VT>>(sv + vo, p.vals_out + out_at, total, tid, NT);
}

}  // namespace corank::cuda::kernels
