// The GPU merge's dispatch: which kernel and scheme a call runs, its launch configuration (grid,
// threads, shared memory) and the launches. The contract and the entry points are in
// corank/cuda/merge.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "corank/cuda/detail/launch.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/merge.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/merge_options.hpp"
#include "corank/cuda/tuning/merge.cuh"
#include "corank/cuda/tuning/merge_table.hpp"

namespace corank::cuda::detail {

/// `options` with what it leaves open filled in from the tuning table's entry for m + n = total,
/// when a table is given.
inline merge_options resolve(const merge_options& options, std::size_t total) {
  merge_options r = options;
  if (options.tuning)
    if (const merge_tuning_entry* e = options.tuning->find(merge_algorithm::automatic, total)) {
      if (r.scheme == merge_scheme::by_size) r.scheme = e->scheme;
      if (!r.threads) r.threads = e->threads;
      if (!r.blocks) r.blocks = e->blocks;
    }
  return r;
}

/// automatic's scheme when neither the options nor a table chose one.
template <class K, bool HasValues>
merge_scheme default_scheme(std::size_t total) {
  return total >= tuning::merge_policy<sizeof(K), HasValues>::partitioned_from_total
             ? merge_scheme::partitioned
             : merge_scheme::single_launch;
}

/// The single-launch scheme of `automatic`. V = no_value for a key-only merge.
template <class K, class V, class Compare>
cudaError_t launch_single(const K* a, const V* va, std::size_t m, const K* b, const V* vb,
                          std::size_t n, K* out, V* vo, Compare comp, cudaStream_t stream,
                          unsigned threads, unsigned grid) {
  constexpr bool has_values = !std::is_same_v<V, no_value>;
  using shape = typename tuning::merge_policy<sizeof(K), has_values>::shape;
  if (threads && threads != unsigned(shape::threads)) return cudaErrorInvalidValue;
  const auto kernel = kernels::merge_single_launch<shape, has_values, K, V, Compare>;
  constexpr std::size_t smem = kernels::automatic_smem<shape, has_values, K, V>::bytes;
  int blocks_per_sm = 0;
  CORANK_CUDA_TRY(blocks_per_multiprocessor(kernel, shape::threads, smem, &blocks_per_sm));
  if (blocks_per_sm == 0) return cudaErrorInvalidConfiguration;
  int sms = 0;
  CORANK_CUDA_TRY(multiprocessor_count(&sms));
  const std::size_t tiles = (m + n + shape::tile - 1) / shape::tile;
  const std::size_t resident = std::size_t(blocks_per_sm) * std::size_t(sms);
  const std::size_t wanted = grid ? grid : resident;
  const std::size_t blocks = tiles < wanted ? tiles : wanted;
  kernel<<<unsigned(blocks), shape::threads, smem, stream>>>(a, va, m, b, vb, n, out, vo, comp,
                                                             tiles);
  return cudaGetLastError();
}

/// A partitioned problem (kernels::single_merge, or a merge sort pass: kernels::pairwise_runs) in
/// tiles of `threads` x Shape::items outputs: the partition pass, then one tile per block. The
/// first `lead_tiles` tiles (unset: automatic_defaults::lead_bytes_per_sm of input per
/// multiprocessor) search their own co-ranks and merge while the pass runs.
template <class Shape, class Problem, class Compare>
cudaError_t launch_partitioned_tiles(const Problem& p, unsigned threads,
                                     std::optional<std::size_t> lead_tiles, Compare comp,
                                     cudaStream_t stream) {
  using K = typename Problem::key_type;
  using V = typename Problem::value_type;
  using smem_t = kernels::partitioned_smem<Problem::has_values, K, V>;
  using defaults = tuning::automatic_defaults;
  const auto kernel = kernels::merge_partitioned<Shape, Problem, Compare>;
  // Allow the shared memory of its largest tile (or what the device allows).
  std::size_t optin = 0;
  CORANK_CUDA_TRY(smem_optin_limit(&optin));
  const std::size_t most = smem_t::bytes(std::size_t(Shape::max_threads) * Shape::items);
  CORANK_CUDA_TRY(allow_smem(kernel, most < optin ? most : optin));
  const std::size_t tile = std::size_t(threads) * Shape::items;
  const std::size_t tiles = (p.total() + tile - 1) / tile;
  if (tiles > std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
  if (!lead_tiles) {
    int sms = 0;
    CORANK_CUDA_TRY(multiprocessor_count(&sms));
    const std::size_t tile_input_bytes = tile * (sizeof(K) + (Problem::has_values ? sizeof(V) : 0));
    lead_tiles = defaults::lead_bytes_per_sm * std::size_t(sms) / tile_input_bytes;
  }
  const std::size_t lead = *lead_tiles;
  const dim3 grid{unsigned(tiles)}, block{threads};
  const std::size_t smem = smem_t::bytes(tile);
  if (tiles <= 1 || tiles <= lead) {  // every block searches its own co-ranks: no pass
    kernel<<<grid, block, smem, stream>>>(p, tiles, comp);
    return cudaGetLastError();
  }
  constexpr unsigned pt = defaults::partition_threads;
  const std::size_t searched = tiles - (lead > 1 ? lead : 1);  // boundaries the pass finds
  kernels::merge_partition<<<unsigned((searched + pt - 1) / pt), pt, 0, stream>>>(p, tile, tiles,
                                                                                  lead, comp);
  CORANK_CUDA_TRY(cudaGetLastError());
  // Launched early, while the partition pass runs: the lead blocks merge meanwhile, the others are
  // resident and waiting when the pass ends.
  return launch_early(kernel, grid, block, smem, stream, p, lead, comp);
}

/// The partitioned scheme of `automatic`.
template <class K, class V, class Compare>
cudaError_t launch_partitioned(const K* a, const V* va, std::size_t m, const K* b, const V* vb,
                               std::size_t n, K* out, V* vo, Compare comp, cudaStream_t stream,
                               unsigned threads, std::optional<std::size_t> lead_tiles) {
  constexpr bool has_values = !std::is_same_v<V, no_value>;
  using policy = tuning::merge_policy<sizeof(K), has_values>;
  using shape = typename policy::partitioned;
  if (!threads)
    threads = m + n >= policy::wide_blocks_from_total ? unsigned(shape::max_threads)
                                                      : policy::partitioned_threads;
  if (threads < 32 || threads > unsigned(shape::max_threads) || threads % 32)
    return cudaErrorInvalidValue;
  const kernels::single_merge<K, V> problem{{}, {0, a, va, m, b, vb, n}, out, vo};
  return launch_partitioned_tiles<shape>(problem, threads, lead_tiles, comp, stream);
}

/// The production kernel, with `options` resolved for m + n.
template <class K, class V, class Compare>
cudaError_t launch_automatic(const merge_options& options, const K* a, const V* va, std::size_t m,
                             const K* b, const V* vb, std::size_t n, K* out, V* vo, Compare comp,
                             cudaStream_t stream) {
  merge_options r = resolve(options, m + n);
  if (r.scheme == merge_scheme::by_size)
    r.scheme = default_scheme<K, !std::is_same_v<V, no_value>>(m + n);
  if (r.scheme == merge_scheme::partitioned)
    return launch_partitioned(a, va, m, b, vb, n, out, vo, comp, stream, r.threads, r.lead_tiles);
  return launch_single(a, va, m, b, vb, n, out, vo, comp, stream, r.threads, r.blocks);
}

/// The production kernel from `storage`: it needs none (each tile's co-ranks wait in its own
/// output range), but takes it like every entry point, so that a caller's buffer is checked alike.
template <class K, class V, class Compare>
cudaError_t merge_automatic(const temporary_storage& storage, const K* a, const V* va,
                            std::size_t m, const K* b, const V* vb, std::size_t n, K* out, V* vo,
                            Compare comp, cudaStream_t stream) {
  return with_temporary_storage(storage, 0, stream, [&](void*) {
    if (m + n == 0) return cudaSuccess;
    return launch_automatic(merge_options{}, a, va, m, b, vb, n, out, vo, comp, stream);
  });
}

}  // namespace corank::cuda::detail
