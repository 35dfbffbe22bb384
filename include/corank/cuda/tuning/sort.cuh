// Tuning of the GPU sorts, apart from the algorithms. Chosen for an H100 (sm_90); the measured
// figures are in docs/PERFORMANCE.md ("GPU sort").
//
// Bitonic sort: a tile of tile_threads x 2^tile_bits_per_thread keys is sorted (and later
// finished, after each global stage's long-distance steps) in shared memory; each thread runs
// 2^tile_bits_per_thread keys' worth of steps in registers per shared-memory pass. The global
// passes run global_bits steps per pass over memory (2^global_bits keys per thread in registers):
// for 10M u32 keys, 33 passes over the array instead of the 300 of one step per pass.
#pragma once

#include <cstddef>

namespace corank::cuda::tuning {

template <std::size_t KeyBytes, std::size_t ValueBytes>
struct bitonic_policy {
  static constexpr bool narrow = KeyBytes + ValueBytes <= 8;
  static constexpr int tile_threads = narrow ? 512 : 256;
  static constexpr int tile_bits_per_thread = 4;  // 16 keys per thread
  static constexpr int global_bits = narrow ? 5 : 4;
  static constexpr int global_threads = 256;
};

/// Segmented sort: segments of up to 2^warp_max_bits keys are sorted by one warp each, up to
/// 2^block_max_bits by one block of block_threads; larger ones by a block walking the network in
/// global memory.
struct segmented_policy {
  static constexpr int warps_per_block = 8;
  static constexpr int warp_max_bits = 10;  // 32 lanes x 32 keys
  static constexpr int block_threads = 256;
  static constexpr int block_max_bits = 13;  // 256 threads x 32 keys
};

}  // namespace corank::cuda::tuning
