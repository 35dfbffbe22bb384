// The GPU bitonic sort's dispatch: the network's plan of tile and global passes, their shapes from
// the tuned policy and their launches. The contract and the entry points are in
// corank/cuda/bitonic_sort.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "corank/cuda/detail/launch.cuh"
#include "corank/cuda/detail/temporary_storage.cuh"
#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/bitonic_sort.cuh"
#include "corank/cuda/tuning/sort.cuh"

namespace corank::cuda::detail {

inline int ceil_log2(std::size_t n) {
  int bits = 0;
  while ((std::size_t(1) << bits) < n) ++bits;
  return bits;
}

/// The sort with a given shape (tuning::bitonic_shape); the entry points pass the tuned one.
template <class Key, class Value, class Compare,
          class Policy = tuning::bitonic_policy<
              sizeof(Key), std::is_same_v<Value, no_value> ? 0 : sizeof(Value)>>
cudaError_t bitonic_sort_impl(Key* keys, Value* vals, std::size_t n, Compare comp,
                              cudaStream_t stream) {
  constexpr bool has_values = !std::is_same_v<Value, no_value>;
  constexpr int NT = Policy::tile_threads, B = Policy::tile_bits_per_thread;
  constexpr int BG = Policy::global_bits, GT = Policy::global_threads;
  constexpr unsigned capacity = Policy::tile_items;
  constexpr int tile_bits = __builtin_ctz(capacity);
  if (n && !keys) return cudaErrorInvalidValue;
  if (has_values && n && !vals) return cudaErrorInvalidValue;
  if (n < 2) return cudaSuccess;
  if (has_values &&
      (n > std::size_t(-1) / 16 || overlaps(keys, n * sizeof(Key), vals, n * sizeof(Value))))
    return cudaErrorInvalidValue;
  const auto tile_kernel =
      kernels::bitonic_tile<NT, B, capacity, Policy::tile_min_blocks, Key, Value, Compare>;
  constexpr std::size_t smem = kernels::bitonic_smem_bytes<Key, Value>(capacity);
  const cudaError_t smem_status = allow_smem(tile_kernel, smem);
  CORANK_CUDA_TRY(smem_status);
  const std::size_t tiles = (n + capacity - 1) / capacity;
  if (tiles > 0x7fffffffu) return cudaErrorInvalidValue;
  // Tails in tiles of twice the capacity, for stages where that saves a global pass (without
  // wide tails, the same kernel as the tiles': nothing more to compile).
  constexpr unsigned wide_capacity = Policy::wide_tails ? 2 * capacity : capacity;
  const auto wide_kernel =
      kernels::bitonic_tile<NT, B, wide_capacity, Policy::tile_min_blocks, Key, Value, Compare>;
  constexpr std::size_t wide_smem = kernels::bitonic_smem_bytes<Key, Value>(wide_capacity);
  bool wide_tails = false;
  if constexpr (Policy::wide_tails) {
    const cudaError_t wide_smem_status = allow_smem(wide_kernel, wide_smem);
    CORANK_CUDA_TRY(wide_smem_status);
    int sms = 0;
    CORANK_CUDA_TRY(multiprocessor_count(&sms));
    wide_tails = tiles / 2 >= std::size_t(sms) * Policy::wide_tails_min_tiles_per_sm;
  }
  cudaError_t status = cudaSuccess;
  kernels::bitonic_plan(
      ceil_log2(n), tile_bits, BG,
      [&](int lo, int t_hi, int t_lo, bool flip) {
        if (status != cudaSuccess) return;
        const std::size_t chunks = kernels::bitonic_chunks(n, lo, BG);
        kernels::bitonic_global_pass<BG><<<unsigned((chunks + GT - 1) / GT), GT, 0, stream>>>(
            keys, vals, n, chunks, lo, t_hi, t_lo, flip, comp);
        status = cudaGetLastError();
      },
      [&](int first, int last, bool wide) {
        if (status != cudaSuccess) return;
        if (wide)
          wide_kernel<<<unsigned((tiles + 1) / 2), NT, wide_smem, stream>>>(keys, vals, n, first,
                                                                            last, comp);
        else
          tile_kernel<<<unsigned(tiles), NT, smem, stream>>>(keys, vals, n, first, last, comp);
        status = cudaGetLastError();
      },
      wide_tails);
  return status;
}

/// The sort from `storage` (which it does not need: the network sorts in place).
template <class Key, class Value, class Compare>
cudaError_t bitonic_sort_from(const temporary_storage& storage, Key* keys, Value* vals,
                              std::size_t n, Compare comp, cudaStream_t stream) {
  return with_temporary_storage(
      storage, 0, stream, [&](void*) { return bitonic_sort_impl(keys, vals, n, comp, stream); });
}

}  // namespace corank::cuda::detail
