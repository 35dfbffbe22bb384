// The GPU segmented sort sweep (`corank bench segmented-sort --backend gpu`): corank's stable and
// unstable segmented sorts against CUB's DeviceSegmentedSort (and, for equal lengths,
// DeviceSegmentedRadixSort) on u32 keys, by segment length (every length 1-64, then 2^k - 1, 2^k,
// 2^k + 1) and on mixed distributions, all at the same total of keys; plus one segment of n
// against corank's whole-array stable_sort of n. Every corank result is checked against CUB's.
#pragma once

#include <cstddef>
#include <vector>

#include "bench/report.hpp"
#include "bench/timing.hpp"

namespace corank::bench {

/// Two warm-up runs, then 3 to 5 timed ones.
inline timing_config lean_timing() {
  timing_config t;
  t.warmup_runs = 2, t.min_runs = 3, t.max_runs = 5, t.target_seconds = 0.02;
  return t;
}

struct gpu_segmented_sort_config {
  std::size_t total_keys = std::size_t(1) << 26;  ///< keys of every shape of the sweep
  std::vector<std::size_t> lengths;               ///< equal lengths (empty: the default sweep)
  bool mixed = true;                              ///< also the mixed distributions
  bool pairs = true;  ///< also u32 pairs (SortPairs) at a few lengths and the mixed ones
  std::vector<std::size_t> single_sizes = {1000000, 10000000};  ///< one segment vs stable_sort
  /// Few runs: the sweep has over a hundred shapes of 64M keys (about two minutes on an H100).
  timing_config timing = lean_timing();
  bool show_progress = true;
};

/// The default sweep: 1-64, then 2^k - 1, 2^k, 2^k + 1 for k = 7 .. 20.
std::vector<std::size_t> default_segment_lengths();

/// One report, "gpu segmented sort sweep": groups "keys, length L", "keys, <distribution>", "pairs,
/// ...", "one segment of n"; baseline cub::DeviceSegmentedSort (or corank stable_sort for one
/// segment).
report run_gpu_segmented_sort_bench(const gpu_segmented_sort_config& config);

}  // namespace corank::bench
