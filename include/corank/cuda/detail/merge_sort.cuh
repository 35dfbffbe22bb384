// The GPU merge sort's dispatch: the temporary storage's layout, the tile sort and the merge
// passes (four-way or two-way), their shapes from the tuned policy and their launches. The contract
// and the entry points are in corank/cuda/merge_sort.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <limits>
#include <optional>
#include <type_traits>

#include "corank/cuda/detail/bitonic_sort.cuh"
#include "corank/cuda/detail/launch.cuh"
#include "corank/cuda/detail/merge.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/merge_sort.cuh"
#include "corank/cuda/tuning/sort.cuh"
#include "corank/four_way_split.hpp"

namespace corank::cuda::detail {

/// A four-way pass's cut (four_way_split.hpp), one per sample.
using sort_cut = four_way_split<std::size_t>;

/// The tuned policy for keys and values of these sizes.
template <class Key, class Value>
using sort_policy =
    tuning::merge_sort_policy<sizeof(Key), std::is_same_v<Value, no_value> ? 0 : sizeof(Value)>;

/// The policy's own tile sort shape (threads x items).
template <class Policy>
using default_tile = tuning::block_shape<Policy::threads, Policy::items, Policy::tile_min_blocks>;

/// The runs' width after a pass of `ways`-way merges from `width`, or n when that reaches n (no
/// overflow, whatever n).
inline std::size_t next_run_width(std::size_t width, std::size_t ways, std::size_t n) {
  return width > n / ways ? n : width * ways;
}

/// Merge passes from tiles of `tile` keys to n: four-way or two-way.
inline int merge_passes(std::size_t n, std::size_t tile, std::size_t ways) {
  int passes = 0;
  for (std::size_t width = tile; width < n; width = next_run_width(width, ways, n)) ++passes;
  return passes;
}

/// A four-way pass over runs of `width` (its cuts in temporary storage), reading the input's grid
/// samples and writing the output's (unless null) when the policy keeps them; skipped unless the
/// sort's input (`order`) needs merges.
template <class Key, class Value, class Policy>
kernels::four_way_runs<Key, Value> four_way_pass(const Key* keys, const Value* vals, std::size_t n,
                                                 std::size_t width, Key* keys_out, Value* vals_out,
                                                 const Key* samples = nullptr,
                                                 Key* samples_out = nullptr,
                                                 kernels::input_order order = {}) {
  using shape = typename Policy::four_way;
  return {{},           keys,     vals,     n,       width,       shape::stride,
          shape::parts, keys_out, vals_out, samples, samples_out, order};
}

/// The temporary storage: a second array of keys and of values, the four-way passes' cuts, and
/// two arrays of grid samples (a pass's input's and its output's).
template <class Key, class Value, class Policy = sort_policy<Key, Value>>
struct merge_sort_layout {
  static constexpr bool has_values = !std::is_same_v<Value, no_value>;
  /// Four-way passes for n keys (else two-way).
  static bool four_way(std::size_t n) {
    return Policy::merge_ways == 4 && n >= Policy::four_way_from;
  }
  /// Cut slots of the largest four-way pass from tiles of `tile` keys.
  static std::size_t most_slots(std::size_t n, std::size_t tile) {
    std::size_t most = 0;
    for (std::size_t width = tile; width < n; width = next_run_width(width, 4, n)) {
      most = std::max(
          most,
          four_way_pass<Key, Value, Policy>(nullptr, nullptr, n, width, nullptr, nullptr).slots());
    }
    return most;
  }
  template <class... Tiles>
  static std::size_t most_slots_of(std::size_t n, tuning::sort_tile_choices<Tiles...>) {
    return std::max({most_slots(n, std::size_t(Tiles::tile))...});
  }
  /// Enough cuts for whichever tile the sort takes (it depends on n and on the comparator).
  static std::size_t cuts(std::size_t n) {
    if (!four_way(n)) return 0;
    std::size_t most = most_slots(n, std::size_t(default_tile<Policy>::tile));
    if constexpr (!std::is_void_v<typename Policy::four_way_tiles>)
      most = std::max(most, most_slots_of(n, typename Policy::four_way_tiles{}));
    return most;
  }
  static constexpr unsigned sample_every = Policy::four_way::sample_every;
  /// Keys in one array of grid samples: two per sample_every.
  static std::size_t samples(std::size_t n) {
    constexpr std::size_t every = sample_every > 0 ? sample_every : 1;
    if (sample_every == 0 || !four_way(n)) return 0;
    return 2 * ((n + every - 1) / every);
  }
  struct parts {
    temporary_part keys, values, order, cuts, samples_in, samples_out;
    std::size_t bytes;
  };
  static parts of(std::size_t n) {
    temporary_layout layout;
    parts p;
    p.keys = layout.add<Key>(n);
    p.values = layout.add<Value>(has_values ? n : 0);
    if (layout.bytes() == std::numeric_limits<std::size_t>::max())
      return {{}, {}, {}, {}, {}, {}, layout.bytes()};
    p.order = layout.add<unsigned>(2);  // kernels::input_order's facts
    p.cuts = layout.add<sort_cut>(cuts(n));
    p.samples_in = layout.add<Key>(samples(n));
    p.samples_out = layout.add<Key>(samples(n));
    p.bytes = layout.bytes();
    return p;
  }
  static std::size_t bytes(std::size_t n) { return of(n).bytes; }
};

/// A number no earlier sort in this process used (kernels::input_order's epoch): never 0, which
/// fresh memory often holds, nor ~0u, to which a captured call clears the facts.
inline unsigned next_sort_epoch() {
  static std::atomic<unsigned> calls{0};
  unsigned epoch = 0;
  do epoch = ++calls;
  while (epoch == 0 || epoch == ~0u);
  return epoch;
}

/// The order check of keys[0, n), n >= 2 (kernels::find_input_order), into order's facts, cleared
/// first when the stream is being captured: a graph's replays repeat the call's epoch, so facts
/// left by one replay would claim to be the next one's (harmless, but every replay would sort).
template <class Policy, class Key, class Compare>
cudaError_t check_input_order(const Key* keys, std::size_t n, kernels::input_order order,
                              Compare comp, cudaStream_t stream) {
  auto capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
      capture != cudaStreamCaptureStatusNone)
    CORANK_CUDA_TRY(cudaMemsetAsync(order.facts, 0xFF, 2 * sizeof(unsigned), stream));
  using shape = typename Policy::order_check;
  constexpr std::size_t chunk = std::size_t(shape::threads) * shape::items;
  const std::size_t chunks = (n - 1 + chunk - 1) / chunk;
  const unsigned blocks = unsigned(chunks < shape::max_blocks ? chunks : shape::max_blocks);
  kernels::find_input_order<shape::threads, shape::items>
      <<<blocks, shape::threads, 0, stream>>>(keys, n, order, comp);
  return cudaGetLastError();
}

/// One four-way pass: the cuts (four_way_partition, each sample's searches shared by the Shape's
/// search_lanes lanes when lane_search, else one thread each), then one tile per block, launched
/// early so its blocks are resident and waiting when the cuts are done
/// (block::wait_for_prior_grid).
template <class Shape, class Problem, class Compare>
cudaError_t launch_four_way_pass(const Problem& p, sort_cut* cuts, Compare comp,
                                 cudaStream_t stream, bool lane_search = true) {
  using K = typename Problem::key_type;
  using V = typename Problem::value_type;
  constexpr std::size_t smem = kernels::four_way_smem<Problem::has_values, K, V>::bytes(
      std::size_t(Shape::threads) * Shape::items);
  const auto kernel = kernels::four_way_merge_tiles<Shape, Problem, Compare>;
  const cudaError_t configured = allow_smem(kernel, smem);
  CORANK_CUDA_TRY(configured);
  if (p.stride != Shape::stride || p.parts != Shape::parts) return cudaErrorInvalidValue;
  const std::size_t slots = p.slots(), tiles = p.tiles();
  if (slots > std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
  constexpr unsigned pt = tuning::automatic_defaults::partition_threads;
  const unsigned lanes = lane_search ? Shape::search_lanes : 1;
  const unsigned blocks = unsigned((slots * lanes + pt - 1) / pt);
  if (lanes == 1)
    kernels::four_way_partition<Shape, 1><<<blocks, pt, 0, stream>>>(p, cuts, comp);
  else
    kernels::four_way_partition<Shape, Shape::search_lanes>
        <<<blocks, pt, 0, stream>>>(p, cuts, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  return launch_early(kernel, dim3(unsigned(tiles)), dim3(Shape::threads), smem, stream, p,
                      static_cast<const sort_cut*>(cuts), comp);
}

/// The sort with a given policy (merge ways, passes' shapes) and tile sort shape.
template <class Tile, class Key, class Value, class Compare, class Policy>
cudaError_t merge_sort_from_tiles(Key* keys, Value* vals, std::size_t n, void* temp, Compare comp,
                                  cudaStream_t stream) {
  using layout = merge_sort_layout<Key, Value, Policy>;
  constexpr int NT = Policy::threads, VT = Policy::items;  // the two-way passes' shape
  static_assert(Policy::merge_ways == 2 || Policy::merge_ways == 4, "two-way or four-way passes");
  const bool four_way = layout::four_way(n);
  const std::size_t ways = four_way ? 4 : 2;
  constexpr std::size_t tile = Tile::tile;
  // Two-way passes (pairwise_runs) take runs of a multiple of their own tile.
  if (!four_way && tile % (std::size_t(Policy::pass_threads) * VT) != 0)
    return cudaErrorInvalidValue;
  const auto parts = layout::of(n);
  Key* keys_tmp = parts.keys.template in<Key>(temp);
  Value* vals_tmp = parts.values.template in<Value>(temp);
  auto* cuts = parts.cuts.template in<sort_cut>(temp);
  // Grid samples of a pass's input and of its output (null when the passes keep none), swapped
  // like the keys.
  Key* samples_in = parts.samples_in.template in<Key>(temp);
  Key* samples_out = parts.samples_out.template in<Key>(temp);
  const std::size_t tiles = (n + tile - 1) / tile;
  if (tiles > 0x7fffffffu) return cudaErrorInvalidValue;
  const int passes = merge_passes(n, tile, ways);
  // Ping-pong so that the last pass writes into `keys`.
  Key* src_k = passes % 2 ? keys_tmp : keys;
  Value* src_v = passes % 2 ? vals_tmp : vals;
  Key* dst_k = passes % 2 ? keys : keys_tmp;
  Value* dst_v = passes % 2 ? vals : vals_tmp;
  // A sorted input ends here (in place), a strictly descending one in the tile sort (reversed);
  // small sorts skip the check (no facts: every kernel runs).
  kernels::input_order order{};
  if (n * (sizeof(Key) + (layout::has_values ? sizeof(Value) : 0)) >=
      Policy::order_check_from_bytes) {
    order = {parts.order.template in<unsigned>(temp), next_sort_epoch()};
    CORANK_CUDA_TRY(check_input_order<Policy>(keys, n, order, comp, stream));
  }
  const auto tile_kernel = kernels::merge_sort_tiles<Tile::threads, Tile::items, Tile::min_blocks,
                                                     layout::sample_every, Key, Value, Compare>;
  constexpr std::size_t tile_smem = sizeof(kernels::merge_sort_smem<int(tile), Key, Value>);
  const cudaError_t tile_smem_status = allow_smem(tile_kernel, tile_smem);
  CORANK_CUDA_TRY(tile_smem_status);
  tile_kernel<<<unsigned(tiles), Tile::threads, tile_smem, stream>>>(keys, vals, src_k, src_v,
                                                                     samples_in, n, order, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  for (std::size_t width = tile; width < n; width *= ways) {
    if (four_way) {
      const bool last = 4 * width >= n;  // no pass reads this one's samples
      const auto pass = four_way_pass<Key, Value, Policy>(
          src_k, src_v, n, width, dst_k, dst_v, samples_in, last ? nullptr : samples_out, order);
      CORANK_CUDA_TRY((launch_four_way_pass<typename Policy::four_way>(
          pass, cuts, comp, stream, n < Policy::lane_search_below)));
      std::swap(samples_in, samples_out);
    } else {
      // The production merge's partitioned scheme, every pair of runs a merge of its own.
      const kernels::pairwise_runs<Key, Value> pass{{},    src_k, src_v, n,
                                                    width, dst_k, dst_v, order};
      using pass_shape = tuning::partitioned_shape<NT, VT, 1>;
      CORANK_CUDA_TRY(launch_partitioned_tiles<pass_shape>(pass, Policy::pass_threads, std::nullopt,
                                                           comp, stream));
    }
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  return cudaSuccess;
}

/// Of the tile choices, the one whose four-way passes to n are fewest (the first on a tie).
template <class... Tiles>
int fewest_passes_tile(std::size_t n, tuning::sort_tile_choices<Tiles...>) {
  const int passes[] = {merge_passes(n, std::size_t(Tiles::tile), 4)...};
  int best = 0;
  for (int i = 1; i < int(sizeof...(Tiles)); ++i) best = passes[i] < passes[best] ? i : best;
  return best;
}

template <class Key, class Value, class Compare, class Policy, class... Tiles>
cudaError_t merge_sort_from_chosen_tiles(Key* keys, Value* vals, std::size_t n, void* temp,
                                         Compare comp, cudaStream_t stream,
                                         tuning::sort_tile_choices<Tiles...> choices) {
  const int chosen = fewest_passes_tile(n, choices);
  cudaError_t status = cudaErrorInvalidValue;
  int i = 0;
  ((i++ == chosen ? (status = merge_sort_from_tiles<Tiles, Key, Value, Compare, Policy>(
                         keys, vals, n, temp, comp, stream))
                  : status),
   ...);
  return status;
}

/// The sort with a given policy; the entry points pass the tuned one. The tile sort is the
/// policy's own, or, with four-way passes, of its four_way_tiles the one that needs the fewest
/// passes (tiles that need the register network only for keys it sorts stably). Two-way
/// passes need runs of a multiple of their tile, which the policy's own tile is.
template <class Key, class Value, class Compare, class Policy = sort_policy<Key, Value>>
cudaError_t merge_sort_run(Key* keys, Value* vals, std::size_t n, void* temp, Compare comp,
                           cudaStream_t stream) {
  using choices = typename Policy::four_way_tiles;
  if constexpr (!std::is_void_v<choices>) {
    if constexpr (!Policy::four_way_tiles_need_network ||
                  block::network_sorts_stably<Key, Value, Compare>) {
      if (merge_sort_layout<Key, Value, Policy>::four_way(n))
        return merge_sort_from_chosen_tiles<Key, Value, Compare, Policy>(keys, vals, n, temp, comp,
                                                                         stream, choices{});
    }
  }
  return merge_sort_from_tiles<default_tile<Policy>, Key, Value, Compare, Policy>(
      keys, vals, n, temp, comp, stream);
}

}  // namespace corank::cuda::detail
