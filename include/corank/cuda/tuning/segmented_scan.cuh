// Tuning of the GPU segmented scan, apart from the algorithm: the tile shape of the single-pass
// kernel per element size, and the launch shape of the studied kernels.
//
// A tile is threads x items elements. Items per thread are odd so that each thread's run of items
// in shared memory (stride `items` words) is free of bank conflicts; the tile's bytes are a
// multiple of 16 so every full tile is read and written in whole 16-byte vectors.
// Chosen on an H100 (CUDA 13.0); see docs/PERFORMANCE.md ("Segmented scan").
#pragma once

#include <cstddef>

namespace corank::cuda::tuning {

template <int Threads, int Items, int MinBlocks>
struct segmented_scan_shape {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int min_blocks = MinBlocks;  ///< blocks per multiprocessor the registers allow
  static constexpr int tile = Threads * Items;
  static constexpr int warps = Threads / 32;
};

/// The values stay in shared memory (cp.async, no registers held), so a tile is as large as the
/// shared memory of 7 resident blocks allows (228 KiB per multiprocessor, 1 KiB reserved per
/// block): 29 KiB staged per block for the plain f32 scan (256 x 29 x 4 B), 26 KiB for the scaled
/// one (two inputs of 256 x 13 x 4 B). Bytes in flight per multiprocessor, not instructions, bound
/// a streaming kernel on an H100.
template <std::size_t ValueBytes, int Inputs = 1>
struct segmented_scan_policy {
  static constexpr int items_4 = Inputs == 1 ? 29 : 13, items_8 = Inputs == 1 ? 13 : 7;
  using shape = segmented_scan_shape<256, ValueBytes <= 4 ? items_4 : items_8, 7>;
  static_assert(shape::tile * ValueBytes % 16 == 0, "a full tile must be whole 16-byte vectors");
};

/// The pass that finds each tile's first segment head runs from this many waves of tiles (tiles
/// over SMs x min_blocks) up. H100, spmv stand-ins (scaled f32 tiles): with the pass, webbase-1M
/// (1.01 waves) 0.0182 -> 0.0200 ms, cop20k_A (0.85) 0.0152 -> 0.0168, while cant (1.30 waves)
/// 0.0227 -> 0.0214, pwtk (3.8) 0.0715 -> 0.0675 and 100M plain scans 2-8% faster.
struct segmented_scan_head_pass {
  static constexpr double from_waves = 1.2;
};

/// The steps of an iteration run in one grid (a step's tile waits for the same tile of the step
/// before) up to this many waves of tiles, and as a grid per step, each launched early, above.
/// H100, spmv stand-ins (scaled f32 tiles), ms per step, one grid vs a grid per step: cop20k_A
/// (0.85 waves) 0.0096 vs 0.0113, cant (1.30) 0.0151 vs 0.0168, pdb1HYS (1.41) 0.0176 vs 0.0182;
/// consph (1.96) 0.0314 vs 0.0293, pwtk (3.78) 0.0632 vs 0.0603. A step's tile in one grid waits
/// for its input through memory and signals its output, which costs more than a grid boundary
/// once the tiles of a step fill the device.
struct segmented_scan_iteration {
  static constexpr double one_grid_up_to_waves = 1.5;
  /// Steps of the iteration done on each staged tile when a grid runs one pass (temporal
  /// blocking: the 12 bytes per element move once for this many steps). See docs/PERFORMANCE.md
  /// ("Segmented scan", iteration history 11).
  static constexpr int steps_per_pass = 2;
};

/// The studied kernels: block size, and resident blocks per multiprocessor for the grid-stride
/// grid.
struct segmented_scan_studied {
  static constexpr int threads = 256;
  static constexpr int blocks_per_sm = 8;
};

}  // namespace corank::cuda::tuning
