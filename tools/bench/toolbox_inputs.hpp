// The inputs of `corank bench toolbox`, shared by its CPU and GPU rows (toolbox_bench.cpp,
// gpu_toolbox.cu): one set per size, made on the host; the std:: set operations by name, and the
// inner join's reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "corank/merge_path_walk.hpp"

namespace corank::bench {

struct toolbox_inputs {
  std::size_t n = 0;  ///< items per input
  /// Sorted u32 keys, n each: random increments of 0 to 40 (mean 20), so the two overlap over
  /// their whole range, one key in 41 repeats its neighbour and about 5% of A's keys are in B.
  std::vector<std::uint32_t> a, b;
  std::vector<std::uint32_t> needles;  ///< a shuffled: needles in any order
  /// The k-way merge: 2n keys in `num_runs` sorted runs of near-equal lengths (runs[offsets[r],
  /// offsets[r + 1])), each of the same increments scaled by num_runs so that the runs overlap.
  std::vector<std::uint32_t> runs;
  std::vector<std::uint64_t> run_offsets;
  /// The load-balancing search: n items in max(n / 100, 1) segments of random lengths (CSR
  /// offsets, empty segments possible).
  std::vector<std::uint32_t> segment_offsets;
};

toolbox_inputs make_toolbox_inputs(std::size_t n, std::size_t num_runs, std::uint64_t seed);

/// n sorted u32 keys, increments uniform in [0, 2 * mean_step].
std::vector<std::uint32_t> sorted_increments(std::size_t n, std::uint32_t mean_step,
                                             std::uint64_t seed);

/// The four set operations and their std:: names.
inline constexpr std::pair<set_op, const char*> named_set_operations[] = {
    {set_op::unite, "set_union"},
    {set_op::intersect, "set_intersection"},
    {set_op::difference, "set_difference"},
    {set_op::symmetric_difference, "set_symmetric_difference"}};

/// std::set_union, std::set_intersection, ... of a[0, m) and b[0, n) by `op`; the output count.
std::size_t std_set_operation(set_op op, const std::uint32_t* a, std::size_t m,
                              const std::uint32_t* b, std::size_t n, std::uint32_t* out);

/// The index pairs of a join: (a[k], b[k]) for k < size().
struct index_pairs {
  std::vector<std::size_t> a, b;
  std::size_t size() const { return a.size(); }
};

/// Every (i, j) with a[i] == b[j], by i then j: one sequential walk of both sorted inputs.
index_pairs inner_join_reference(const std::vector<std::uint32_t>& a,
                                 const std::vector<std::uint32_t>& b);

}  // namespace corank::bench
