// `corank bench merge`: corank's merge and its peers side by side on sorted uniform u32 keys,
// alone and with u32 values (separate arrays for corank's merge_by_key, structs for everyone).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/contender.hpp"
#include "bench/cpu_peers.hpp"
#include "bench/report.hpp"

namespace corank::bench {

/// One merge to time: a[0,m) and b[0,n) sorted, out[0,m+n) written by the contender.
template <class T>
struct merge_problem_of {
  const T* a;
  std::size_t m;
  const T* b;
  std::size_t n;
  T* out;
  int threads;
  const T* expected;  ///< the right output (std::merge's), the copy's source
};
using merge_problem = merge_problem_of<std::uint32_t>;

template <class T>
using merge_contender_of = contender<merge_problem_of<T>>;
using merge_contender = merge_contender_of<std::uint32_t>;

/// memcpy (the copy reference), std::merge (the baseline), __gnu_parallel::merge,
/// std::merge(std::execution::par) where built in, and corank::cpu::merge.
std::vector<merge_contender> cpu_merge_contenders();

/// The pairs ({key, value} structs, u32 each, ordered by key): memcpy, std::merge (the
/// baseline), __gnu_parallel::merge and corank::cpu::merge on structs, and
/// corank::cpu::merge_by_key on separate key and value arrays.
std::vector<merge_contender_of<key_value32>> cpu_pair_merge_contenders();

/// Runs `contenders` over the configured sizes; every output is checked against std::merge.
template <class T>
report run_merge_bench(const run_config& config,
                       const std::vector<merge_contender_of<T>>& contenders);

/// `corank bench merge --backend cpu`: u32 keys; unless `quick`, u32 pairs too.
std::vector<report> run_cpu_merge_benches(const run_config& config, bool quick);

/// Default sizes: 1K ... 100M per input (the study's), or small ones for a quick look.
std::vector<std::size_t> default_merge_sizes(bool quick);

}  // namespace corank::bench
