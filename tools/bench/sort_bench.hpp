// `corank bench sort`: corank's stable sort and its peers side by side on uniform u32 keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/contender.hpp"
#include "bench/report.hpp"

namespace corank::bench {

/// One sort to time: `keys` (n items) is reset from `input` before every run, sorted in place.
struct sort_problem {
  const std::uint32_t* input;
  std::uint32_t* keys;
  std::size_t n;
  int threads;
};

using sort_contender = contender<sort_problem>;

/// memcpy (the copy reference), std::sort (the baseline), std::stable_sort, GNU parallel
/// multiway mergesort and corank::cpu::stable_sort.
std::vector<sort_contender> cpu_sort_contenders();

/// Runs `contenders` over the configured sizes; every output is checked against std::sort.
report run_sort_bench(const run_config& config, const std::vector<sort_contender>& contenders);

/// Default sizes: 1K ... 20M keys, or small ones for a quick look.
std::vector<std::size_t> default_sort_sizes(bool quick);

}  // namespace corank::bench
