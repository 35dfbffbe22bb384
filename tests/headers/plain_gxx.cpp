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
