// `corank bench toolbox`, CPU: the co-rank toolbox (issue 22) on sorted u32 keys
// (toolbox_inputs.hpp) against what a user writes with the standard library, each in a group of
// its own (the group's baseline the sequential std:: way, the speed-ups over it):
//   sorted search          sorted needles: std::lower_bound each (baseline), a sequential merge
//                          walk, std::transform(par) of std::lower_bound, sorted_lower_bound
//   lower_bound, any order needles shuffled: std::lower_bound each, std::transform(par),
//                          corank::cpu::lower_bound
//   set_union ... (four)   std::set_* (baseline), std::set_*(std::execution::par), corank's
//   join (inner)           std::equal_range of each key of A in B (baseline), corank::cpu::join
//   load-balancing search  std::fill of each segment (baseline), load_balancing_search
//   multiway merge         64 runs of 2n keys in all: a tree of std::merge passes (baseline),
//                          copy + std::stable_sort, __gnu_parallel::stable_multiway_merge,
//                          corank::cpu::multiway_merge
// plus a memcpy of the 2n keys (the copy every row's bandwidth is measured against). Every
// output is checked against the baseline's before the next contender runs.
#pragma once

#include <cstddef>
#include <vector>

#include "bench/contender.hpp"
#include "bench/report.hpp"

namespace corank::bench {

/// Default sizes (items per input): 1M and 10M, or 100K and 1M for a quick look.
std::vector<std::size_t> default_toolbox_sizes(bool quick);

/// The report "cpu toolbox" (groups as above; size: items per input). num_runs: the k-way merge's
/// runs.
report run_cpu_toolbox_bench(const run_config& config, std::size_t num_runs = 64);

}  // namespace corank::bench
