#include "bench/gnu_parallel.hpp"

#include <omp.h>

#include <parallel/algorithm>
#include <utility>
#include <vector>

namespace corank::bench {
namespace {

/// OpenMP's default thread count (which __gnu_parallel takes) set while it lives.
struct omp_threads {
  int saved = omp_get_max_threads();
  explicit omp_threads(int threads) { omp_set_num_threads(threads); }
  ~omp_threads() { omp_set_num_threads(saved); }
};

}  // namespace

template <class T>
void gnu_parallel_merge(const T* a, std::size_t m, const T* b, std::size_t n, T* out, int threads) {
  omp_threads scope(threads);
  // libstdc++'s multiway merge does not compile with const iterators; it only reads the inputs.
  auto* first1 = const_cast<T*>(a);
  auto* first2 = const_cast<T*>(b);
  __gnu_parallel::merge(first1, first1 + m, first2, first2 + n, out);
}

template <class T>
void gnu_parallel_sort(T* first, T* last, int threads) {
  __gnu_parallel::sort(first, last, __gnu_parallel::multiway_mergesort_tag(threads));
}

void gnu_parallel_stable_sort(key_value32* first, key_value32* last, int threads) {
  omp_threads scope(threads);
  __gnu_parallel::stable_sort(first, last);
}

void gnu_parallel_multiway_merge(const std::uint32_t* keys, const std::uint64_t* offsets,
                                 std::size_t runs, std::uint32_t* out, int threads) {
  // The merge advances the sequences' begins: a fresh list every call. Non-const iterators, as
  // in gnu_parallel_merge: the inputs are only read.
  auto* first = const_cast<std::uint32_t*>(keys);
  std::vector<std::pair<std::uint32_t*, std::uint32_t*>> sequences(runs);
  for (std::size_t r = 0; r < runs; ++r)
    sequences[r] = {first + offsets[r], first + offsets[r + 1]};
  __gnu_parallel::stable_multiway_merge(sequences.begin(), sequences.end(), out,
                                        std::ptrdiff_t(offsets[runs]), std::less<std::uint32_t>(),
                                        __gnu_parallel::parallel_tag(threads));
}

template void gnu_parallel_merge(const std::uint32_t*, std::size_t, const std::uint32_t*,
                                 std::size_t, std::uint32_t*, int);
template void gnu_parallel_merge(const key_value32*, std::size_t, const key_value32*, std::size_t,
                                 key_value32*, int);
template void gnu_parallel_sort(std::uint32_t*, std::uint32_t*, int);
template void gnu_parallel_sort(std::uint64_t*, std::uint64_t*, int);

}  // namespace corank::bench
