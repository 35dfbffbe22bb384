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

/// The steps of an iteration (the scaled scan in place, again and again) go in passes of
/// `steps_per_pass` steps on each staged tile (temporal blocking: the 12 bytes per f32 element
/// move once for them all). Passes run in one grid (a pass's tile waits for the same tile of the
/// pass before) up to `one_grid_up_to_waves` waves of tiles, and as a grid per pass, each launched
/// early, above. H100, spmv stand-ins, ms per step (docs/PERFORMANCE.md, "Segmented scan",
/// iteration history 10-12):
/// - one grid vs a grid per pass, one step per pass: cop20k_A (0.85 waves) 0.0096 vs 0.0113, cant
///   (1.30) 0.0151 vs 0.0168; consph (1.96) 0.0314 vs 0.0293, pwtk (3.78) 0.0632 vs 0.0603; two
///   steps per pass: mc2depi (0.68) 0.0051 vs 0.0061, cant 0.0092 vs 0.0097, consph 0.0174 vs
///   0.0189;
/// - steps per pass 1 / 2 / 4 / 8 (`policy` tiles): pwtk 0.0594 / 0.0381 / 0.0274 / 0.0224,
///   rail4284 0.0605 / 0.0389 / 0.0302 / 0.0256, cant 0.0140 / 0.0094 / 0.0073 / 0.0062; then 8 /
///   16 / 32: pwtk 0.0220 / 0.0180 / 0.0161, shipsec1 0.0171 / 0.0133 / 0.0131, consph 0.0111 /
///   0.0098 / 0.0086, cant 0.0063 / 0.0059 / 0.0060.
struct segmented_scan_iteration {
  static constexpr double one_grid_up_to_waves = 1.5;
  static constexpr int steps_per_pass = 16;
  /// The most steps a pass may take (segmented_scan_options::steps_per_pass): the look-back state
  /// holds a slot per step of two passes, 20 bytes per tile each.
  static constexpr int most_steps_per_pass = 16;
  /// Tiles of passes of several steps: 6 blocks per SM leave the step loop 40 registers (at 7,
  /// 32 registers spilled and every step count ran 2-11% slower); 256 x 15 f32 elements of each
  /// input fill the shared memory of the 6.
  template <std::size_t ValueBytes>
  struct policy {
    using shape = segmented_scan_shape<256, ValueBytes <= 4 ? 15 : 7, 6>;
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
