#include "bench/toolbox_inputs.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

namespace corank::bench {

std::vector<std::uint32_t> sorted_increments(std::size_t n, std::uint32_t mean_step,
                                             std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> step(0, 2 * mean_step);
  std::vector<std::uint32_t> keys(n);
  std::uint32_t key = 0;
  for (auto& k : keys) k = key += step(rng);
  return keys;
}

toolbox_inputs make_toolbox_inputs(std::size_t n, std::size_t num_runs, std::uint64_t seed) {
  // Keys reach about 20 x the items of a run times the runs (40n for the k-way merge's): u32 keys
  // hold that up to 10^8 items per input.
  if (n > 100000000)
    throw std::invalid_argument("bench toolbox: " + std::to_string(n) +
                                " items per input; at most 10^8 (u32 keys)");
  toolbox_inputs in;
  in.n = n;
  in.a = sorted_increments(n, 20, seed * 4);
  in.b = sorted_increments(n, 20, seed * 4 + 1);
  in.needles = in.a;
  std::shuffle(in.needles.begin(), in.needles.end(), std::mt19937_64(seed * 4 + 2));

  const std::size_t total = 2 * n;
  in.run_offsets.assign(1, 0);
  in.runs.reserve(total);
  for (std::size_t r = 0; r < num_runs; ++r) {
    const std::size_t length = total / num_runs + (r < total % num_runs);
    const auto run = sorted_increments(length, std::uint32_t(20 * num_runs), seed * 1000 + r);
    in.runs.insert(in.runs.end(), run.begin(), run.end());
    in.run_offsets.push_back(in.runs.size());
  }

  const std::size_t segments = std::max<std::size_t>(n / 100, 1);
  std::mt19937_64 rng(seed * 4 + 3);
  std::uniform_int_distribution<std::uint32_t> cut(0, std::uint32_t(n));
  in.segment_offsets.resize(segments + 1);
  for (std::size_t s = 1; s < segments; ++s) in.segment_offsets[s] = cut(rng);
  std::sort(in.segment_offsets.begin() + 1, in.segment_offsets.end() - 1);
  in.segment_offsets.front() = 0;
  in.segment_offsets.back() = std::uint32_t(n);
  return in;
}

std::size_t std_set_operation(set_op op, const std::uint32_t* a, std::size_t m,
                              const std::uint32_t* b, std::size_t n, std::uint32_t* out) {
  switch (op) {
    case set_op::unite:
      return std::size_t(std::set_union(a, a + m, b, b + n, out) - out);
    case set_op::intersect:
      return std::size_t(std::set_intersection(a, a + m, b, b + n, out) - out);
    case set_op::difference:
      return std::size_t(std::set_difference(a, a + m, b, b + n, out) - out);
    case set_op::symmetric_difference:
      return std::size_t(std::set_symmetric_difference(a, a + m, b, b + n, out) - out);
  }
  return 0;
}

index_pairs inner_join_reference(const std::vector<std::uint32_t>& a,
                                 const std::vector<std::uint32_t>& b) {
  index_pairs r;
  std::size_t lo = 0;  // the first of b not before a[i]
  for (std::size_t i = 0; i < a.size(); ++i) {
    while (lo < b.size() && b[lo] < a[i]) ++lo;
    for (std::size_t j = lo; j < b.size() && !(a[i] < b[j]); ++j)
      r.a.push_back(i), r.b.push_back(j);
  }
  return r;
}

}  // namespace corank::bench
