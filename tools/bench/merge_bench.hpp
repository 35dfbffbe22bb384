// `corank bench merge`: corank's merge and its peers side by side on sorted uniform u32 keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/contender.hpp"
#include "bench/report.hpp"

namespace corank::bench {

/// One merge to time: a[0,m) and b[0,n) sorted, out[0,m+n) written by the contender.
struct merge_problem {
  const std::uint32_t* a;
  std::size_t m;
  const std::uint32_t* b;
  std::size_t n;
  std::uint32_t* out;
  int threads;
  const std::uint32_t* expected;  ///< the right output (std::merge's), the copy's source
};

using merge_contender = contender<merge_problem>;

/// memcpy (the copy reference), std::merge (the baseline), __gnu_parallel::merge and
/// corank::cpu::merge.
std::vector<merge_contender> cpu_merge_contenders();

/// Runs `contenders` over the configured sizes; every output is checked against std::merge.
report run_merge_bench(const run_config& config, const std::vector<merge_contender>& contenders);

/// Default sizes: 1K ... 100M per input (the study's), or small ones for a quick look.
std::vector<std::size_t> default_merge_sizes(bool quick);

}  // namespace corank::bench
