// Tuning of the stable segmented sort (segmented_sort.cuh), apart from the algorithm. Chosen for
// an H100 (sm_90); the measured figures are in docs/notes/segmented_sort.md.
#pragma once

#include <cstddef>

namespace corank::cuda::tuning {

/// One tile of the stable segmented sort: Threads x Items keys. Segments of up to half a tile
/// are sorted in windows (every segment that starts in a window of half a tile is sorted by one
/// block, in one tile), longer ones in tiles of their own and then merge passes of tiles. Odd
/// Items keep each thread's run in shared memory free of bank conflicts.
template <std::size_t KeyBytes, std::size_t ValueBytes>
struct stable_segmented_policy {
  static constexpr int threads = 256;
  // Keys per thread: a window's latency chain is the same for any tile, so the longest runs that
  // fit registers and shared memory (docs/notes/segmented_sort.md, "Tuning").
  static constexpr int items = KeyBytes + ValueBytes <= 4    ? 15
                               : KeyBytes + ValueBytes <= 8  ? 11
                               : KeyBytes + ValueBytes <= 16 ? 7
                                                             : 5;
  static constexpr std::size_t tile = std::size_t(threads) * items;
  static constexpr std::size_t window = tile / 2;  // also the longest segment a window sorts
  // Windows whose segments are all this short place each key by its rank in its segment (a
  // comparison per key of the segment) instead of merge rounds: where the rank sort stopped
  // being faster on an H100 (docs/notes/segmented_sort.md, "Tuning").
  static constexpr unsigned rank_sort_max = 44;
};

}  // namespace corank::cuda::tuning
