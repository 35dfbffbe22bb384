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
  // Keys per thread: a block's work in a window is half a tile, and its latency chain (offsets,
  // keys, a scan, the rounds) is the same for any tile, so the longest runs that fit registers
  // and shared memory. H100, 64M u32 keys in segments of 2-64: 7 per thread (and whole-tile
  // merges) 1.0-2.6 ms; 15 (and merges of straddling segments only) 1.1-2.6, one outlier at 7
  // keys 4.8 (docs/notes/segmented_sort.md). Not yet measured apart.
  static constexpr int items = KeyBytes + ValueBytes <= 4    ? 15
                               : KeyBytes + ValueBytes <= 8  ? 11
                               : KeyBytes + ValueBytes <= 16 ? 7
                                                             : 5;
  static constexpr std::size_t tile = std::size_t(threads) * items;
  static constexpr std::size_t window = tile / 2;  // also the longest segment a window sorts
  // Windows whose segments are all this short place each key by its rank in its segment (a
  // comparison per key of the segment) instead of merge rounds. First guess, to be measured.
  static constexpr unsigned rank_sort_max = 64;
};

}  // namespace corank::cuda::tuning
