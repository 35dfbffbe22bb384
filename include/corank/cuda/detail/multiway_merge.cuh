// Dispatch of the GPU k-way merge: ceil(log2 k) passes of kernels::merge_run_pairs between the
// output and a buffer of n keys (and values), the last landing in the output.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "corank/cuda/detail/launch.cuh"
#include "corank/cuda/detail/merge_path_walk.cuh"
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

inline int merge_tree_passes(std::size_t runs) {
  int passes = 0;
  for (std::size_t width = 1; width < runs; width *= 2) ++passes;
  return passes;
}

struct multiway_merge_parts {
  temporary_part keys, values;
};

/// A buffer of n keys (and values) when the tree has two passes or more (one pass reads the input
/// and writes the output).
template <class K, class V>
temporary_layout multiway_merge_layout(std::size_t n, std::size_t runs,
                                       multiway_merge_parts* parts) {
  temporary_layout layout;
  const bool buffered = merge_tree_passes(runs) >= 2;
  multiway_merge_parts p;
  p.keys = layout.add<K>(buffered ? n : 0);
  if (!std::is_same_v<V, no_value>) p.values = layout.add<V>(buffered ? n : 0);
  if (parts) *parts = p;
  return layout;
}

template <class K, class V, class Offset, class Compare>
cudaError_t multiway_merge(const temporary_storage& storage, const K* keys, const V* vals,
                           const Offset* offsets, std::size_t runs, std::size_t n, K* keys_out,
                           V* vals_out, Compare comp, cudaStream_t stream) {
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
  const std::size_t bytes = multiway_merge_layout<K, V>(n, runs, &parts).bytes();
  return with_temporary_storage(storage, bytes, stream, [&](void* temp) {
    if (n == 0) return cudaSuccess;
    const int passes = merge_tree_passes(runs);
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
    for (std::size_t width = 1; width < runs; width *= 2) {
      K* to_keys = to_output ? keys_out : buffer_keys;
      V* to_vals = to_output ? vals_out : buffer_vals;
      kernel<<<unsigned(tiles), shape::threads, shape::smem, stream>>>(
          from_keys, from_vals, offsets, runs, width, n, to_keys, to_vals, comp);
      CORANK_CUDA_TRY(cudaGetLastError());
      from_keys = to_keys, from_vals = to_vals;
      to_output = !to_output;
    }
    return cudaSuccess;
  });
}

}  // namespace corank::cuda::detail
