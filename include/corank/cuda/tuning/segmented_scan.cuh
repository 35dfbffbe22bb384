// Tuning of the GPU segmented scan, apart from the algorithm: the tile shape of the single-pass
// kernel per element size, and the launch shape of the studied kernels.
//
// A tile is threads x items elements. Items per thread are odd so that each thread's run of items
// in shared memory (stride `items` words) is free of bank conflicts; the tile's bytes are a
// multiple of 16 so every full tile is read and written in whole 16-byte vectors.
// Chosen on an H100 (CUDA 13.0): measurements in docs/notes/tuning.md, history in
// docs/notes/segmented_scan.md.
#pragma once

#include <cstddef>

#include "corank/cuda/tuning/block_shape.cuh"
#include "corank/segmented_scan_contract.hpp"

namespace corank::cuda::tuning {

/// The values stay in shared memory (cp.async, no registers held), so a tile is as large as the
/// shared memory of 7 resident blocks allows (228 KiB per multiprocessor, 1 KiB reserved per
/// block): 29 KiB staged per block for the plain f32 scan (256 x 29 x 4 B), 26 KiB for the scaled
/// one (two inputs of 256 x 13 x 4 B). Bytes in flight per multiprocessor, not instructions, bound
/// a streaming kernel on an H100.
template <std::size_t ValueBytes, int Inputs = 1>
struct segmented_scan_policy {
  static constexpr int items_4 = Inputs == 1 ? 29 : 13, items_8 = Inputs == 1 ? 13 : 7;
  using shape = block_shape<256, ValueBytes <= 4 ? items_4 : items_8, 7>;
  static_assert(shape::tile * ValueBytes % 16 == 0, "a full tile must be whole 16-byte vectors");
};

/// The pass that finds each tile's first segment head runs from this many waves of tiles (tiles
/// over SMs x min_blocks) up: below, its launch costs more than the searches it takes off the
/// tiles.
struct segmented_scan_head_pass {
  static constexpr double from_waves = 1.2;
};

/// Tiles look back by a warp (32 predecessors a round) from this mean segment length up, by one
/// thread below: only carries many tiles back pay for the warp kernel, slower at shorter lengths.
struct segmented_scan_look_back {
  static constexpr std::size_t warp_from_mean_length = std::size_t(1) << 18;
};

/// The steps of an iteration (the scaled scan in place, again and again) go in passes of
/// `steps_per_pass` steps on each staged tile (temporal blocking: the 12 bytes per f32 element
/// move once for them all). Passes run in one grid (a pass's tile waits for the same tile of the
/// pass before) up to `one_grid_up_to_waves` waves of tiles, and as a grid per pass, each launched
/// early, above: one grid saves the step boundaries while a step spans about a wave, a grid per
/// pass balances better beyond; 16 steps per pass, since longer passes gain little and unevenly.
struct segmented_scan_iteration {
  static constexpr double one_grid_up_to_waves = 1.5;
  static constexpr int steps_per_pass = 16;
  /// The most steps a pass may take (the contract's limit): the look-back state holds a slot per
  /// step of two passes, 20 bytes per tile each.
  static constexpr int most_steps_per_pass = corank::segmented_scan_most_steps_per_pass;
  /// Tiles of passes of several steps: 6 blocks per SM leave the step loop 40 registers (at 7,
  /// 32 registers spilled and every step count ran 2-11% slower); 256 x 15 f32 elements of each
  /// input fill the shared memory of the 6.
  template <std::size_t ValueBytes>
  struct policy {
    using shape = block_shape<256, ValueBytes <= 4 ? 15 : 7, 6>;
    static_assert(shape::tile * ValueBytes % 16 == 0, "a full tile must be whole 16-byte vectors");
  };
};

/// The studied kernels: block size, and resident blocks per multiprocessor for the grid-stride
/// grid.
struct segmented_scan_studied {
  static constexpr int threads = 256;
  static constexpr int blocks_per_sm = 8;
};

}  // namespace corank::cuda::tuning
