// The public CPU header built as a user of the headers alone builds it: g++ -std=c++17 -fopenmp.
// Compiling is the test: each entry point is instantiated once.
#include <corank/corank.hpp>
#include <vector>

void instantiate_every_entry_point(std::vector<unsigned>& k, std::vector<float>& v,
                                   const std::vector<unsigned>& offsets) {
  namespace cc = corank::cpu;
  const std::size_t n = k.size() / 2, segments = offsets.size() - 1;
  std::vector<unsigned> out(k.size());
  std::vector<float> vout(v.size());
  cc::merge(k.begin(), k.begin() + n, k.begin() + n, k.end(), out.begin());
  cc::merge_by_key(k.begin(), k.begin() + n, v.begin(), k.begin() + n, k.end(), v.begin() + n,
                   out.begin(), vout.begin(), corank::greater{});
  cc::stable_sort(k.begin(), k.end());
  cc::stable_sort_by_key(k.begin(), k.end(), v.begin());
  cc::segmented_inclusive_scan(v.data(), v.size(), offsets.data(), segments, v.data());
  cc::segmented_exclusive_scan(v.data(), v.size(), offsets.data(), segments, v.data(), 0.0f);
  cc::scaled_segmented_scan_iterations(v.data(), vout.data(), v.size(), offsets.data(), segments,
                                       3);
}

/// The co-rank toolbox on the CPU, and the cache of temporary storage: every entry point once.
void instantiate_the_toolbox(std::vector<unsigned>& k, std::vector<float>& v,
                             const std::vector<unsigned>& offsets) {
  namespace cc = corank::cpu;
  const std::size_t n = k.size() / 2, segments = offsets.size() - 1;
  const auto a = k.begin(), a_end = k.begin() + n, b = a_end, b_end = k.end();
  std::vector<unsigned> out(k.size());
  std::vector<float> vout(v.size());
  std::vector<std::size_t> at(k.size());
  cc::sorted_lower_bound(a, a_end, b, b_end, at.begin());
  cc::sorted_upper_bound(a, a_end, b, b_end, at.begin(), corank::greater{});
  cc::lower_bound(a, a_end, b, b_end, at.begin());
  cc::upper_bound(a, a_end, b, b_end, at.begin());
  cc::set_union(a, a_end, b, b_end, out.begin());
  cc::set_intersection_by_key(a, a_end, v.begin(), b, b_end, v.begin() + n, out.begin(),
                              vout.begin(), corank::greater{});
  cc::set_operation(corank::set_op::symmetric_difference, a, a_end, b, b_end, out.begin());
  const auto pairs = cc::join(corank::join_kind::full_outer, a, a_end, b, b_end);
  cc::load_balancing_search(offsets.data(), segments, pairs.size(), out.begin());
  cc::interval_expand(offsets.data(), segments, v.begin(), n, vout.begin());
  cc::multiway_merge(k.data(), offsets.data(), segments, out.data());
  cc::multiway_merge_by_key(k.data(), v.data(), offsets.data(), segments, out.data(), vout.data());
  cc::set_cache_limit(cc::cache_limit() + cc::cached_memory_bytes());
  cc::release_cached_memory();
}
