#include "bench/gnu_parallel.hpp"

#include <omp.h>

#include <parallel/algorithm>

namespace corank::bench {

void gnu_parallel_merge(const std::uint32_t* a, std::size_t m, const std::uint32_t* b,
                        std::size_t n, std::uint32_t* out, int threads) {
  // __gnu_parallel::merge takes its thread count from OpenMP's default; restore it afterwards.
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  // libstdc++'s multiway merge does not compile with const iterators; it only reads the inputs.
  auto* first1 = const_cast<std::uint32_t*>(a);
  auto* first2 = const_cast<std::uint32_t*>(b);
  __gnu_parallel::merge(first1, first1 + m, first2, first2 + n, out);
  omp_set_num_threads(saved);
}

void gnu_parallel_sort(std::uint32_t* first, std::uint32_t* last, int threads) {
  __gnu_parallel::sort(first, last, __gnu_parallel::multiway_mergesort_tag(threads));
}

}  // namespace corank::bench
