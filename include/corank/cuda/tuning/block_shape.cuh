// The block shape of a tuned kernel, one struct for every tuning table that names one.
#pragma once

namespace corank::cuda::tuning {

/// `threads` per block, `items` per thread (a tile of threads x items), and the blocks per
/// multiprocessor its registers must allow (__launch_bounds__).
template <int Threads, int Items, int MinBlocks>
struct block_shape {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int min_blocks = MinBlocks;
  static constexpr int tile = Threads * Items;
  static constexpr int warps = Threads / 32;
};

}  // namespace corank::cuda::tuning
