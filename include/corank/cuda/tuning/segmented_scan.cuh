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

template <int Threads, int Items>
struct segmented_scan_shape {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int tile = Threads * Items;
  static constexpr int warps = Threads / 32;
};

template <std::size_t ValueBytes>
struct segmented_scan_policy {
  // 256 x 15 x 4 bytes = 15 KiB of values per tile (3840 items, 960 vectors).
  using shape = segmented_scan_shape<256, ValueBytes <= 4 ? 15 : 9>;
  static_assert(shape::tile * ValueBytes % 16 == 0, "a full tile must be whole 16-byte vectors");
};

/// The studied kernels: block size, and resident blocks per multiprocessor for the grid-stride
/// grid.
struct segmented_scan_studied {
  static constexpr int threads = 256;
  static constexpr int blocks_per_sm = 8;
};

}  // namespace corank::cuda::tuning
