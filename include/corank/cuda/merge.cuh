// corank::cuda::merge and merge_by_key: stable merge of two sorted device arrays.
//
//   cudaError_t merge(a, m, b, n, out, comp = corank::less{}, stream = 0);
//   cudaError_t merge_by_key(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, comp,
//                            stream);
//   cudaError_t merge(resource, a, ...); merge(a, m, b, n, out, temp, temp_bytes, comp, stream);
//   std::size_t merge_temp_bytes<Key, Value = no_value>(m, n);   (0: see memory.cuh for the forms)
//   cudaError_t merge(options, a, ...); merge_by_key(options, keys_a, ...);
//
// Preconditions: device pointers; a[0,m) and b[0,n) sorted by comp (a strict weak order callable
// on the device); the output does not overlap an input. Violated (unsorted inputs, NaN keys, an
// inconsistent comparator), every kernel still ends and every output is one of the inputs'
// elements (each tile's cuts made consistent: consistent_co_rank), in an unspecified order and
// not necessarily a permutation. Stable: on ties A's element comes first.
// Keys: trivially copyable, 1 to 16 bytes. Sizes are 64-bit (m + n > 2^32 works).
// Asynchronous on `stream`, no device-wide synchronisation. No temporary storage (the
// partitioned scheme parks each tile's co-ranks in that tile's own output range until its block
// reads them), yet the three forms of every entry point exist (memory.cuh), with a query of 0.
// Returns cudaErrorInvalidValue for bad arguments (null with a non-zero size, overlapping output,
// sizes whose sum or byte count overflows, launch parameters out of range), else the launch's
// error.
// Work: O(m + n) moves, plus O(log(m + n)) reads per tile for the partition.
//
// The overloads without options run `automatic`, the production kernel: below
// tuning::merge_policy<...>::partitioned_from_total outputs one launch (each block searches its
// own tiles' co-ranks), from there a partition pass then one tile per block (merge_scheme).
// merge_options selects the study's kernels, the scheme, their parameters, and a measured tuning
// table (merge_tuning, `corank tune merge`) that fills in whatever the options leave at 0.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/merge.cuh"
#include "corank/cuda/memory.cuh"
#include "corank/cuda/merge_options.hpp"
#include "corank/cuda/tuning/merge.cuh"
#include "corank/cuda/tuning/merge_table.hpp"
#include "corank/functional.hpp"
#include "corank/merge_path.hpp"

namespace corank::cuda {

namespace detail {

/// Checks common to every entry point; `value_bytes` is 0 for a key-only merge.
inline cudaError_t check_arguments(const void* a, const void* va, std::size_t m, const void* b,
                                   const void* vb, std::size_t n, const void* out, const void* vout,
                                   std::size_t key_bytes, std::size_t value_bytes) {
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  if (m > max - n) return cudaErrorInvalidValue;
  const std::size_t total = m + n;
  const std::size_t wide = key_bytes > value_bytes ? key_bytes : value_bytes;
  if (total > max / wide) return cudaErrorInvalidValue;
  if ((m && !a) || (n && !b) || (total && !out)) return cudaErrorInvalidValue;
  if (overlaps(out, total * key_bytes, a, m * key_bytes) ||
      overlaps(out, total * key_bytes, b, n * key_bytes))
    return cudaErrorInvalidValue;
  if (value_bytes) {
    if ((m && !va) || (n && !vb) || (total && !vout)) return cudaErrorInvalidValue;
    const std::size_t out_bytes = total * value_bytes;
    if (overlaps(vout, out_bytes, va, m * value_bytes) ||
        overlaps(vout, out_bytes, vb, n * value_bytes) ||
        overlaps(vout, out_bytes, a, m * key_bytes) ||
        overlaps(vout, out_bytes, b, n * key_bytes) ||
        overlaps(vout, out_bytes, out, total * key_bytes) ||
        overlaps(out, total * key_bytes, va, m * value_bytes) ||
        overlaps(out, total * key_bytes, vb, n * value_bytes))
      return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

template <class K>
constexpr void check_key_type() {
  static_assert(std::is_trivially_copyable_v<K>,
                "corank::cuda::merge: keys must be trivially copyable");
  static_assert(sizeof(K) >= 1 && sizeof(K) <= 16, "corank::cuda::merge: keys of 1 to 16 bytes");
}

template <class K, class V>
cudaError_t check_by_key(const K* keys_a, const V* vals_a, std::size_t m, const K* keys_b,
                         const V* vals_b, std::size_t n, const K* keys_out, const V* vals_out) {
  check_key_type<K>();
  static_assert(std::is_trivially_copyable_v<V>,
                "corank::cuda::merge_by_key: values must be trivially copyable");
  return check_arguments(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, sizeof(K),
                         sizeof(V));
}

/// `options` with what it leaves open filled in from the tuning table's entry for m + n = total,
/// when a table is given.
inline merge_options resolve(const merge_options& options, std::size_t total) {
  merge_options r = options;
  if (options.tuning)
    if (const merge_tuning_entry* e = options.tuning->find(options.algorithm, total)) {
      if (r.scheme == merge_scheme::by_size) r.scheme = e->scheme;
      if (!r.threads) r.threads = e->threads;
      if (!r.blocks) r.blocks = e->blocks;
      if (!r.tile_items) r.tile_items = e->tile_items;
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

/// The single-launch scheme of `automatic`. V = kernels::no_value for a key-only merge.
template <class K, class V, class Compare>
cudaError_t launch_single(const K* a, const V* va, std::size_t m, const K* b, const V* vb,
                          std::size_t n, K* out, V* vo, Compare comp, cudaStream_t stream,
                          unsigned threads, unsigned grid) {
  constexpr bool has_values = !std::is_same_v<V, kernels::no_value>;
  using shape = typename tuning::merge_policy<sizeof(K), has_values>::shape;
  if (threads && threads != unsigned(shape::threads)) return cudaErrorInvalidValue;
  const auto kernel = kernels::merge_single_launch<shape, has_values, K, V, Compare>;
  constexpr std::size_t smem = kernels::automatic_smem<shape, has_values, K, V>::bytes;
  // Once per kernel: allow its shared memory, and learn how many blocks a multiprocessor holds.
  static const int blocks_per_sm = [&] {
    if (smem > 48 * 1024 &&
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)) !=
            cudaSuccess)
      return 0;
    int count = 0;
    const cudaError_t e =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&count, kernel, shape::threads, smem);
    return e == cudaSuccess ? count : 0;
  }();
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
  // Once per kernel: allow the shared memory of its largest tile (or what the device allows).
  static const cudaError_t configured = [&] {
    int device = 0, optin = 0;
    CORANK_CUDA_TRY(cudaGetDevice(&device));
    CORANK_CUDA_TRY(
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const std::size_t most = smem_t::bytes(std::size_t(Shape::max_threads) * Shape::items);
    const int allowed = most < std::size_t(optin) ? int(most) : optin;
    return allowed > 48 * 1024
               ? cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, allowed)
               : cudaSuccess;
  }();
  CORANK_CUDA_TRY(configured);
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
  constexpr bool has_values = !std::is_same_v<V, kernels::no_value>;
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
    r.scheme = default_scheme<K, !std::is_same_v<V, kernels::no_value>>(m + n);
  if (r.scheme == merge_scheme::partitioned)
    return launch_partitioned(a, va, m, b, vb, n, out, vo, comp, stream, r.threads, r.lead_tiles);
  return launch_single(a, va, m, b, vb, n, out, vo, comp, stream, r.threads, r.blocks);
}

/// The studied kernels, with the runtime parameters of `options`.
template <bool BranchFree, class K, class VA, class VB, class VO, class Compare>
cudaError_t launch_studied(const merge_options& given, const K* a, VA va, std::size_t m, const K* b,
                           VB vb, std::size_t n, K* out, VO vo, Compare comp, cudaStream_t stream) {
  using defaults = tuning::studied_defaults;
  const merge_options options = resolve(given, m + n);
  const std::size_t total = m + n;
  const unsigned threads = options.threads ? options.threads : defaults::threads;
  const unsigned tile = options.tile_items ? options.tile_items : defaults::tile_items;
  if (threads < 32 || threads > 1024 || threads % 32 || tile > (1u << 30))
    return cudaErrorInvalidValue;
  const bool basic = options.algorithm == merge_algorithm::basic;
  std::size_t blocks = options.blocks;
  if (!blocks) {
    const std::size_t per_block = basic ? std::size_t(threads) * defaults::basic_items_per_thread
                                        : std::size_t(tile) * defaults::tiles_per_block;
    int sms = 0;
    CORANK_CUDA_TRY(multiprocessor_count(&sms));
    const std::size_t floor = std::size_t(sms) * defaults::min_blocks_per_sm;
    blocks = (total + per_block - 1) / per_block;
    blocks = blocks < floor ? floor : blocks > defaults::max_blocks ? defaults::max_blocks : blocks;
  }
  if (blocks > std::size_t(std::numeric_limits<int>::max())) return cudaErrorInvalidValue;
  const bool reuse = options.reuse_neighbor_co_rank;
  if (basic) {
    kernels::merge_basic<BranchFree>
        <<<unsigned(blocks), threads, threads * sizeof(std::size_t), stream>>>(
            a, va, m, b, vb, n, out, vo, comp, reuse);
    return cudaGetLastError();
  }
  const std::size_t smem = kernels::studied_smem<K>::bytes(threads, tile);
  const auto run = [&](auto kernel) {
    if (smem > 48 * 1024)
      CORANK_CUDA_TRY(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    kernel<<<unsigned(blocks), threads, smem, stream>>>(a, va, m, b, vb, n, out, vo, comp, tile,
                                                        reuse);
    return cudaGetLastError();
  };
  if (options.algorithm == merge_algorithm::tiled)
    return run(kernels::merge_tiles<false, BranchFree, K, VA, VB, VO, Compare>);
  return run(kernels::merge_tiles<true, BranchFree, K, VA, VB, VO, Compare>);
}

template <class K, class VA, class VB, class VO, class V, class Compare>
cudaError_t dispatch(const merge_options& options, const K* a, VA va, std::size_t m, const K* b,
                     VB vb, std::size_t n, K* out, VO vo, const V* auto_va, const V* auto_vb,
                     V* auto_vo, Compare comp, cudaStream_t stream) {
  switch (options.algorithm) {
    case merge_algorithm::automatic:
      return launch_automatic(options, a, auto_va, m, b, auto_vb, n, out, auto_vo, comp, stream);
    case merge_algorithm::basic:
    case merge_algorithm::tiled:
    case merge_algorithm::circular:
      return options.branch_free
                 ? launch_studied<true>(options, a, va, m, b, vb, n, out, vo, comp, stream)
                 : launch_studied<false>(options, a, va, m, b, vb, n, out, vo, comp, stream);
  }
  return cudaErrorInvalidValue;
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

template <class T, class Compare>
cudaError_t merge_keys(const temporary_storage& storage, const T* a, std::size_t m, const T* b,
                       std::size_t n, T* out, Compare comp, cudaStream_t stream) {
  check_key_type<T>();
  CORANK_CUDA_TRY(check_arguments(a, nullptr, m, b, nullptr, n, out, nullptr, sizeof(T), 0));
  kernels::no_value* none = nullptr;
  return merge_automatic(storage, a, none, m, b, none, n, out, none, comp, stream);
}

template <class K, class V, class Compare>
cudaError_t merge_pairs(const temporary_storage& storage, const K* keys_a, const V* vals_a,
                        std::size_t m, const K* keys_b, const V* vals_b, std::size_t n, K* keys_out,
                        V* vals_out, Compare comp, cudaStream_t stream) {
  CORANK_CUDA_TRY(check_by_key(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out));
  return merge_automatic(storage, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, comp,
                         stream);
}

}  // namespace detail

/// Bytes of temporary storage the caller's-buffer overloads of merge (Value = no_value) and
/// merge_by_key need for m + n elements: none today (the query keeps the shape of every
/// algorithm's, so code written against it stays right if that changes).
template <class Key, class Value = no_value>
constexpr std::size_t merge_temp_bytes(std::size_t /*m*/, std::size_t /*n*/) {
  return 0;
}

/// Merges sorted a[0,m) and b[0,n) into out[0,m+n) with the production kernel.
template <class T, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out, Compare comp = {},
                  cudaStream_t stream = 0) {
  return detail::merge_keys({}, a, m, b, n, out, comp, stream);
}

/// As above, with temporary storage (none today) from `resource`.
template <class T, class Compare = corank::less>
cudaError_t merge(memory_resource_ref resource, const T* a, std::size_t m, const T* b,
                  std::size_t n, T* out, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_keys(resource, a, m, b, n, out, comp, stream);
}

/// As above, with the caller's temporary storage (temp_bytes >= merge_temp_bytes<T>(m, n)).
template <class T, class Compare = corank::less>
cudaError_t merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out, void* temp,
                  std::size_t temp_bytes, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_keys({temp, temp_bytes}, a, m, b, n, out, comp, stream);
}

/// As above, with the algorithm and its parameters chosen by `options` (no kernel of which needs
/// temporary storage).
template <class T, class Compare = corank::less>
cudaError_t merge(const merge_options& options, const T* a, std::size_t m, const T* b,
                  std::size_t n, T* out, Compare comp = {}, cudaStream_t stream = 0) {
  detail::check_key_type<T>();
  CORANK_CUDA_TRY(
      detail::check_arguments(a, nullptr, m, b, nullptr, n, out, nullptr, sizeof(T), 0));
  if (m + n == 0) return cudaSuccess;
  kernels::no_value* none = nullptr;
  return detail::dispatch(options, a, discard_iterator{}, m, b, discard_iterator{}, n, out,
                          discard_iterator{}, none, none, none, comp, stream);
}

/// Merges keys and moves values alongside: keys_out/vals_out[0,m+n) from the sorted keys_a[0,m)
/// (values vals_a) and keys_b[0,n) (values vals_b). Stable.
template <class K, class V, class Compare = corank::less, detail::not_a_buffer<Compare> = 0>
cudaError_t merge_by_key(const K* keys_a, const V* vals_a, std::size_t m, const K* keys_b,
                         const V* vals_b, std::size_t n, K* keys_out, V* vals_out,
                         Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_pairs({}, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, comp,
                             stream);
}

/// As above, with temporary storage (none today) from `resource`.
template <class K, class V, class Compare = corank::less>
cudaError_t merge_by_key(memory_resource_ref resource, const K* keys_a, const V* vals_a,
                         std::size_t m, const K* keys_b, const V* vals_b, std::size_t n,
                         K* keys_out, V* vals_out, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_pairs(resource, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out,
                             comp, stream);
}

/// As above, with the caller's temporary storage (temp_bytes >= merge_temp_bytes<K, V>(m, n)).
template <class K, class V, class Compare = corank::less>
cudaError_t merge_by_key(const K* keys_a, const V* vals_a, std::size_t m, const K* keys_b,
                         const V* vals_b, std::size_t n, K* keys_out, V* vals_out, void* temp,
                         std::size_t temp_bytes, Compare comp = {}, cudaStream_t stream = 0) {
  return detail::merge_pairs({temp, temp_bytes}, keys_a, vals_a, m, keys_b, vals_b, n, keys_out,
                             vals_out, comp, stream);
}

/// As above, with the algorithm and its parameters chosen by `options`.
template <class K, class V, class Compare = corank::less>
cudaError_t merge_by_key(const merge_options& options, const K* keys_a, const V* vals_a,
                         std::size_t m, const K* keys_b, const V* vals_b, std::size_t n,
                         K* keys_out, V* vals_out, Compare comp = {}, cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(detail::check_by_key(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out));
  if (m + n == 0) return cudaSuccess;
  return detail::dispatch(options, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, vals_a,
                          vals_b, vals_out, comp, stream);
}

}  // namespace corank::cuda
