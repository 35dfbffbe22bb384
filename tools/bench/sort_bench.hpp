// `corank bench sort`: corank's stable sort and its peers side by side on uniform random keys:
// u32 and u64 keys alone, and u32 keys with u32 values (separate arrays for corank's by-key sort,
// {key, value} structs for everyone).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench/contender.hpp"
#include "bench/cpu_peers.hpp"
#include "bench/report.hpp"

namespace corank::bench {

/// One sort to time: `keys` (n items) is reset from `input` before every run, sorted in place.
template <class T>
struct sort_problem_of {
  const T* input;
  T* keys;
  std::size_t n;
  int threads;
};
using sort_problem = sort_problem_of<std::uint32_t>;

template <class T>
using sort_contender_of = contender<sort_problem_of<T>>;
using sort_contender = sort_contender_of<std::uint32_t>;

/// memcpy (the copy reference), std::sort (the baseline), std::stable_sort, GNU parallel
/// multiway mergesort, TBB parallel_sort, std::sort(std::execution::par), Boost.Sort
/// block_indirect_sort, Highway's vqsort (one thread) where built in, and
/// corank::cpu::stable_sort. T: std::uint32_t or std::uint64_t.
template <class T>
std::vector<sort_contender_of<T>> cpu_sort_contenders_of();
std::vector<sort_contender> cpu_sort_contenders();

/// The pairs: memcpy, std::stable_sort (the baseline), GNU parallel stable sort,
/// std::stable_sort(std::execution::par) and Boost.Sort parallel_stable_sort on structs,
/// corank::cpu::stable_sort on structs and corank::cpu::stable_sort_by_key on separate arrays.
std::vector<sort_contender_of<key_value32>> cpu_pair_sort_contenders();

/// Runs `contenders` over the configured sizes; every output is checked against a stable sort.
template <class T>
report run_sort_bench(const run_config& config,
                      const std::vector<sort_contender_of<T>>& contenders);

/// `corank bench sort --backend cpu`: u32 keys; unless `quick`, u64 keys and u32 pairs too.
std::vector<report> run_cpu_sort_benches(const run_config& config, bool quick);

/// Default sizes: 1K ... 20M keys, or small ones for a quick look.
std::vector<std::size_t> default_sort_sizes(bool quick);

}  // namespace corank::bench
