// Tuning of the stable segmented sort (segmented_sort.cuh), apart from the algorithm. Chosen for
// an H100 (sm_90); the measured figures are in docs/notes/segmented_sort.md.
#pragma once

#include <cstddef>

namespace corank::cuda::tuning {

/// One tile of the stable segmented sort: Threads x Items keys. Segments of up to half a tile
/// are sorted in windows (every segment that starts in a window of half a tile is sorted by one
/// block, in one tile), longer ones in tiles of their own and then merge passes of tiles. Odd
/// Items keep each thread's run in shared memory free of bank conflicts in the merges.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct stable_segmented_policy {
  static constexpr int threads = 256;
  // 16-byte keys: composite keys (key, segment) of 32 bytes; fewer per thread keeps the tile's
  // shared memory under 64 KiB.
  static constexpr int items = KeyBytes + ValueBytes <= 8 ? 7 : 5;
  static constexpr std::size_t tile = std::size_t(threads) * items;
  static constexpr std::size_t window = tile / 2;  // also the longest segment a window sorts
};

}  // namespace corank::cuda::tuning
