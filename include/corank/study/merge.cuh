// corank::study::cuda::merge and merge_by_key: the study's GPU merges (basic, tiled, circular,
// each with or without its two optimisations), to be measured beside the production kernel.
//
//   cudaError_t merge(options, a, m, b, n, out, comp = corank::less{}, stream = 0);
//   cudaError_t merge_by_key(options, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out,
//                            comp = corank::less{}, stream = 0);
//
// The contract of corank::cuda::merge (corank/cuda/merge.cuh): the same preconditions, stability,
// key types, 64-bit sizes, asynchrony, the same argument checks (cudaErrorInvalidValue) and no
// temporary storage. options.algorithm = automatic runs the production kernel with the options'
// product fields (corank::cuda::merge_options), so that every kernel can be chosen through one
// call and measured side by side (corank bench merge, corank tune merge).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>

#include "corank/cuda/error.cuh"
#include "corank/cuda/merge.cuh"
#include "corank/cuda/tuning/merge.cuh"
#include "corank/functional.hpp"
#include "corank/study/kernels/merge.cuh"

namespace corank::study::cuda {

using corank::cuda::merge_algorithm;

/// A merge of any kernel: the production options (used by `automatic`, the default, only) and the
/// study's. 0 leaves a parameter to the tuning table's entry of the kernel when one is given, else
/// to the defaults of tuning::studied_defaults.
struct merge_options : corank::cuda::merge_options {
  merge_algorithm algorithm = merge_algorithm::automatic;
  unsigned tile_items = 0;  ///< tiled/circular: items per input per iteration (shared memory)
  /// Optimisation 1 of the study: one co-rank per thread, the start taken from the left
  /// neighbour's end through shared memory.
  bool reuse_neighbor_co_rank = true;
  /// Optimisation 2 of the study: branch-free sequential merge and co-rank search.
  bool branch_free = true;
};

namespace detail {

/// `options` with what it leaves open filled in from the tuning table's entry of its kernel for
/// m + n = total, when a table is given.
inline merge_options resolve(const merge_options& options, std::size_t total) {
  merge_options r = options;
  if (options.tuning)
    if (const auto* e = options.tuning->find(options.algorithm, total)) {
      if (!r.threads) r.threads = e->threads;
      if (!r.blocks) r.blocks = e->blocks;
      if (!r.tile_items) r.tile_items = e->tile_items;
    }
  return r;
}

/// The studied kernels, with the runtime parameters of `options`.
template <bool BranchFree, class K, class VA, class VB, class VO, class Compare>
cudaError_t launch_studied(const merge_options& given, const K* a, VA va, std::size_t m, const K* b,
                           VB vb, std::size_t n, K* out, VO vo, Compare comp, cudaStream_t stream) {
  using defaults = corank::cuda::tuning::studied_defaults;
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
    CORANK_CUDA_TRY(corank::cuda::detail::multiprocessor_count(&sms));
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
    CORANK_CUDA_TRY(corank::cuda::detail::allow_smem(kernel, smem));
    kernel<<<unsigned(blocks), threads, smem, stream>>>(a, va, m, b, vb, n, out, vo, comp, tile,
                                                        reuse);
    return cudaGetLastError();
  };
  if (options.algorithm == merge_algorithm::tiled)
    return run(kernels::merge_tiles<false, BranchFree, K, VA, VB, VO, Compare>);
  return run(kernels::merge_tiles<true, BranchFree, K, VA, VB, VO, Compare>);
}

/// The kernel of options.algorithm; arguments checked by the caller. The studied kernels take
/// values as va/vb/vo (discard_iterator for keys alone), the production one as auto_va/... (null
/// no_value pointers for keys alone).
template <class K, class VA, class VB, class VO, class V, class Compare>
cudaError_t dispatch(const merge_options& options, const K* a, VA va, std::size_t m, const K* b,
                     VB vb, std::size_t n, K* out, VO vo, const V* auto_va, const V* auto_vb,
                     V* auto_vo, Compare comp, cudaStream_t stream) {
  switch (options.algorithm) {
    case merge_algorithm::automatic:
      return corank::cuda::detail::launch_automatic(options, a, auto_va, m, b, auto_vb, n, out,
                                                    auto_vo, comp, stream);
    case merge_algorithm::basic:
    case merge_algorithm::tiled:
    case merge_algorithm::circular:
      return options.branch_free
                 ? launch_studied<true>(options, a, va, m, b, vb, n, out, vo, comp, stream)
                 : launch_studied<false>(options, a, va, m, b, vb, n, out, vo, comp, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace detail

/// Merges sorted a[0,m) and b[0,n) into out[0,m+n) with the kernel and parameters of `options`.
template <class T, class Compare = corank::less>
cudaError_t merge(const merge_options& options, const T* a, std::size_t m, const T* b,
                  std::size_t n, T* out, Compare comp = {}, cudaStream_t stream = 0) {
  namespace product = corank::cuda::detail;
  product::check_key_type<T>();
  CORANK_CUDA_TRY(
      product::check_arguments(a, nullptr, m, b, nullptr, n, out, nullptr, sizeof(T), 0));
  if (m + n == 0) return cudaSuccess;
  corank::no_value* none = nullptr;
  return detail::dispatch(options, a, discard_iterator{}, m, b, discard_iterator{}, n, out,
                          discard_iterator{}, none, none, none, comp, stream);
}

/// Merges keys and moves values alongside, with the kernel and parameters of `options`.
template <class K, class V, class Compare = corank::less>
cudaError_t merge_by_key(const merge_options& options, const K* keys_a, const V* vals_a,
                         std::size_t m, const K* keys_b, const V* vals_b, std::size_t n,
                         K* keys_out, V* vals_out, Compare comp = {}, cudaStream_t stream = 0) {
  CORANK_CUDA_TRY(
      corank::cuda::detail::check_by_key(keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out));
  if (m + n == 0) return cudaSuccess;
  return detail::dispatch(options, keys_a, vals_a, m, keys_b, vals_b, n, keys_out, vals_out, vals_a,
                          vals_b, vals_out, comp, stream);
}

}  // namespace corank::study::cuda
