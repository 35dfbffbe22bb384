// What the toolbox's dispatch code shares: tile counts, grids, the partition pass's launch, and the
// argument checks of two sorted inputs.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <type_traits>

#include "corank/cuda/device.cuh"
#include "corank/cuda/error.cuh"
#include "corank/cuda/kernels/merge_path_walk.cuh"
#include "corank/cuda/tuning/toolbox.cuh"

namespace corank::cuda::detail {

/// Tiles of `tile` items covering `total` (0 for none).
inline std::size_t tiles_of(std::size_t total, std::size_t tile) {
  return total / tile + (total % tile != 0);
}

/// Blocks of `threads` covering `count` threads' work.
inline unsigned blocks_of(std::size_t count, unsigned threads) {
  return unsigned((count + threads - 1) / threads);
}

/// Whether `count` items of `bytes` each overflow a size_t byte count.
inline bool bytes_overflow(std::size_t count, std::size_t bytes) {
  return bytes && count > std::numeric_limits<std::size_t>::max() / bytes;
}

/// The partition pass: cuts[t] for t <= tiles (tiles + 1 entries).
template <class ItA, class ItB, class Compare>
cudaError_t launch_merge_path_cuts(ItA a, std::size_t m, ItB b, std::size_t n, std::size_t tile,
                                   std::size_t tiles, std::size_t* cuts, Compare comp,
                                   cudaStream_t stream) {
  constexpr unsigned threads = tuning::toolbox_partition_threads;
  kernels::merge_path_cuts<<<blocks_of(tiles + 1, threads), threads, 0, stream>>>(
      a, m, b, n, tile, tiles, cuts, comp);
  return cudaGetLastError();
}

/// Checks of two inputs a[0, m), b[0, n) of `key_bytes` each and an output `out` of `out_count`
/// items of `out_bytes` each: no null pointer with a non-zero size, no byte count that overflows,
/// no output over an input; tiles of at most INT_MAX blocks.
inline cudaError_t check_two_inputs(const void* a, std::size_t m, const void* b, std::size_t n,
                                    std::size_t key_bytes, const void* out, std::size_t out_count,
                                    std::size_t out_bytes) {
  if (m > std::numeric_limits<std::size_t>::max() - n) return cudaErrorInvalidValue;
  if (bytes_overflow(m + n, key_bytes) || bytes_overflow(out_count, out_bytes))
    return cudaErrorInvalidValue;
  if ((m && !a) || (n && !b) || (out_count && !out)) return cudaErrorInvalidValue;
  if (overlaps(out, out_count * out_bytes, a, m * key_bytes) ||
      overlaps(out, out_count * out_bytes, b, n * key_bytes))
    return cudaErrorInvalidValue;
  return cudaSuccess;
}

template <class K>
constexpr void check_toolbox_key() {
  static_assert(std::is_trivially_copyable_v<K>, "corank::cuda: keys must be trivially copyable");
}

}  // namespace corank::cuda::detail
