// Dispatch of the GPU k-way merge: a tree of passes between the output and a buffer of n keys (and
// values), the last landing in the output: four-way passes (the sort's kernels over
// kernels::multiway_four_way_runs) while three runs or more are left, where the sort takes them
// (narrow keys and values, from its four_way_from keys), else pairwise ones
// (kernels::merge_run_pairs).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "corank/cuda/detail/launch.cuh"
#include "corank/cuda/detail/merge_path_walk.cuh"
#include "corank/cuda/detail/merge_sort.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/kernels/multiway_merge.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/tuning/merge.cuh"
#include "corank/cuda/tuning/toolbox.cuh"
#include "corank/functional.hpp"

namespace corank::cuda::detail {

/// The production merge's partitioned tile (tuning/merge.cuh) with toolbox_threads threads.
template <class K, class V>
struct multiway_merge_shape {
  static constexpr bool has_values = !std::is_same_v<V, no_value>;
  static constexpr int threads = tuning::toolbox_threads;
  static constexpr int items = tuning::merge_policy<sizeof(K), has_values>::partitioned_items;
  static constexpr std::size_t tile = std::size_t(threads) * items;
  static constexpr std::size_t smem =
      kernels::partitioned_smem<has_values, K, V>::bytes(std::size_t(threads) * items);
};

/// Which passes the tree takes: the sort's rule (automatic), or one kind forced (tests, bench).
enum class multiway_passes { automatic, pairwise, four_way_where_three_left };

/// Whether the tree of n keys of K (and V) takes four-way passes where three runs or more are left.
template <class K, class V>
bool four_way_merge_tree(std::size_t n, multiway_passes passes) {
  using policy = sort_policy<K, V>;
  // Four-way trees were measured for narrow keys and values only (notes/toolbox.md).
  if (passes == multiway_passes::automatic)
    return policy::merge_ways == 4 && policy::narrow && n >= policy::four_way_from;
  return passes == multiway_passes::four_way_where_three_left;
}

/// The ways of the pass that merges runs of `width` input runs each: four while three runs or more
/// are left (four-way trees), else two.
inline std::size_t merge_tree_ways(std::size_t width, std::size_t runs, bool four_way) {
  const std::size_t left = (runs + width - 1) / width;
  return four_way && left >= 3 ? 4 : 2;
}

inline int merge_tree_passes(std::size_t runs, bool four_way) {
  int passes = 0;
  for (std::size_t width = 1; width < runs; width *= merge_tree_ways(width, runs, four_way))
    ++passes;
  return passes;
}

/// The four-way pass of runs of `width` input runs (no grid samples).
template <class K, class V, class Offset>
kernels::multiway_four_way_runs<K, V, Offset> multiway_four_way_pass(
    const K* keys, const V* vals, const Offset* offsets, std::size_t runs, std::size_t n,
    std::size_t width, K* keys_out, V* vals_out) {
  using shape = typename sort_policy<K, V>::four_way;
  return {
      {{}, keys, vals, n, width, shape::stride, shape::parts, keys_out, vals_out}, offsets, runs};
}

struct multiway_merge_parts {
  temporary_part keys, values, cuts;
};

/// A buffer of n keys (and values) when the tree has two passes or more (one pass reads the input
/// and writes the output), and the cuts of its largest four-way pass (the first).
template <class K, class V>
temporary_layout multiway_merge_layout(std::size_t n, std::size_t runs, multiway_merge_parts* parts,
                                       multiway_passes passes = multiway_passes::automatic) {
  temporary_layout layout;
  const bool four_way = four_way_merge_tree<K, V>(n, passes);
  const bool buffered = merge_tree_passes(runs, four_way) >= 2;
  multiway_merge_parts p;
  p.keys = layout.add<K>(buffered ? n : 0);
  if (!std::is_same_v<V, no_value>) p.values = layout.add<V>(buffered ? n : 0);
  const bool has_four_way = four_way && merge_tree_ways(1, runs, true) == 4;
  const int* none = nullptr;
  p.cuts = layout.add<sort_cut>(
      has_four_way ? multiway_four_way_pass<K, V>(
                         static_cast<const K*>(nullptr), static_cast<const V*>(nullptr), none, runs,
                         n, 1, static_cast<K*>(nullptr), static_cast<V*>(nullptr))
                         .slots()
                   : 0);
  if (parts) *parts = p;
  return layout;
}

template <class K, class V, class Offset, class Compare>
cudaError_t multiway_merge(const temporary_storage& storage, const K* keys, const V* vals,
                           const Offset* offsets, std::size_t runs, std::size_t n, K* keys_out,
                           V* vals_out, Compare comp, cudaStream_t stream,
                           multiway_passes which = multiway_passes::automatic) {
  using shape = multiway_merge_shape<K, V>;
  constexpr bool has_values = shape::has_values;
  check_toolbox_key<K>();
  static_assert(std::is_integral_v<Offset>, "corank::cuda: integer offsets");
  static_assert(std::is_trivially_copyable_v<V>, "corank::cuda: values must be trivially copyable");
  if (n && runs == 0) return cudaErrorInvalidValue;
  if (!offsets && runs) return cudaErrorInvalidValue;
  CORANK_CUDA_TRY(check_two_inputs(keys, n, nullptr, 0, sizeof(K), keys_out, n, sizeof(K)));
  if (has_values) {
    CORANK_CUDA_TRY(check_two_inputs(vals, n, nullptr, 0, sizeof(V), vals_out, n, sizeof(V)));
    if (overlaps(vals_out, n * sizeof(V), keys_out, n * sizeof(K)) ||
        overlaps(vals_out, n * sizeof(V), keys, n * sizeof(K)))
      return cudaErrorInvalidValue;
  }
  multiway_merge_parts parts;
  const std::size_t bytes = multiway_merge_layout<K, V>(n, runs, &parts, which).bytes();
  const bool four_way = four_way_merge_tree<K, V>(n, which);
  return with_temporary_storage(storage, bytes, stream, [&](void* temp) {
    if (n == 0) return cudaSuccess;
    const int passes = merge_tree_passes(runs, four_way);
    if (passes == 0) {  // one run: a copy
      CORANK_CUDA_TRY(
          cudaMemcpyAsync(keys_out, keys, n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
      return has_values
                 ? cudaMemcpyAsync(vals_out, vals, n * sizeof(V), cudaMemcpyDeviceToDevice, stream)
                 : cudaSuccess;
    }
    const std::size_t tiles = tiles_of(n, shape::tile);
    if (tiles > std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
    const auto kernel =
        kernels::merge_run_pairs<shape::threads, shape::items, has_values, K, V, Offset, Compare>;
    CORANK_CUDA_TRY(allow_smem(kernel, shape::smem));
    K* buffer_keys = parts.keys.in<K>(temp);
    V* buffer_vals = has_values ? parts.values.in<V>(temp) : nullptr;
    // The first pass writes where the passes left make the last one land in the output.
    bool to_output = passes % 2 == 1;
    const K* from_keys = keys;
    const V* from_vals = vals;
    for (std::size_t width = 1; width < runs;) {
      K* to_keys = to_output ? keys_out : buffer_keys;
      V* to_vals = to_output ? vals_out : buffer_vals;
      const std::size_t ways = merge_tree_ways(width, runs, four_way);
      if (ways == 4) {
        const auto pass = multiway_four_way_pass<K, V>(from_keys, from_vals, offsets, runs, n,
                                                       width, to_keys, to_vals);
        CORANK_CUDA_TRY((launch_four_way_pass<typename sort_policy<K, V>::four_way>(
            pass, parts.cuts.in<sort_cut>(temp), comp, stream,
            n < sort_policy<K, V>::lane_search_below)));
      } else {
        kernel<<<unsigned(tiles), shape::threads, shape::smem, stream>>>(
            from_keys, from_vals, offsets, runs, width, n, to_keys, to_vals, comp);
        CORANK_CUDA_TRY(cudaGetLastError());
      }
      from_keys = to_keys, from_vals = to_vals;
      to_output = !to_output;
      width *= ways;
    }
    return cudaSuccess;
  });
}

}  // namespace corank::cuda::detail
