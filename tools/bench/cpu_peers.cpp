#include "bench/cpu_peers.hpp"

#include <algorithm>
#include <stdexcept>

#if defined(CORANK_BENCH_TBB)
#include <tbb/global_control.h>
#include <tbb/parallel_sort.h>

#include <execution>
#endif
#if __has_include(<boost/sort/sort.hpp>)
#include <boost/sort/sort.hpp>
#define CORANK_BENCH_BOOST_SORT 1
#else
#define CORANK_BENCH_BOOST_SORT 0
#endif
// IPS4o (Debian libips4o-dev, header-only, on OpenMP): CMake defines CORANK_BENCH_IPS4O and links
// libatomic when it finds it.
#if defined(CORANK_BENCH_IPS4O)
#include <ips4o.hpp>
#else
#define CORANK_BENCH_IPS4O 0
#endif
#include "corank/cpu/simd_sort.hpp"

namespace corank::bench {
namespace {

[[noreturn, maybe_unused]] void missing(const char* what) {
  throw std::logic_error(std::string(what) + " is not built in (its library was not found)");
}

#if defined(CORANK_BENCH_TBB)
/// TBB's scheduler (behind std::execution::par too) on `threads` threads, while it lives.
struct tbb_threads {
  tbb::global_control limit;
  explicit tbb_threads(int threads)
      : limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads)) {}
};
#endif

}  // namespace

bool have_tbb() {
#if defined(CORANK_BENCH_TBB)
  return true;
#else
  return false;
#endif
}
bool have_boost_sort() { return CORANK_BENCH_BOOST_SORT; }
bool have_vqsort() { return CORANK_HAS_SIMD_SORT; }
bool have_ips4o() { return CORANK_BENCH_IPS4O; }

template <class T>
void tbb_parallel_sort(T* first, T* last, int threads) {
#if defined(CORANK_BENCH_TBB)
  tbb_threads scope(threads);
  tbb::parallel_sort(first, last);
#else
  (void)first, (void)last, (void)threads, missing("TBB");
#endif
}

template <class T>
void std_par_sort(T* first, T* last, int threads) {
#if defined(CORANK_BENCH_TBB)
  tbb_threads scope(threads);
  std::sort(std::execution::par, first, last);
#else
  (void)first, (void)last, (void)threads, missing("std::execution::par (TBB)");
#endif
}

template <class T>
void std_par_stable_sort(T* first, T* last, int threads) {
#if defined(CORANK_BENCH_TBB)
  tbb_threads scope(threads);
  std::stable_sort(std::execution::par, first, last);
#else
  (void)first, (void)last, (void)threads, missing("std::execution::par (TBB)");
#endif
}

template <class T>
void boost_block_indirect_sort(T* first, T* last, int threads) {
#if CORANK_BENCH_BOOST_SORT
  boost::sort::block_indirect_sort(first, last, std::uint32_t(threads));
#else
  (void)first, (void)last, (void)threads, missing("Boost.Sort");
#endif
}

template <class T>
void boost_parallel_stable_sort(T* first, T* last, int threads) {
#if CORANK_BENCH_BOOST_SORT
  boost::sort::parallel_stable_sort(first, last, std::uint32_t(threads));
#else
  (void)first, (void)last, (void)threads, missing("Boost.Sort");
#endif
}

template <class T>
void ips4o_parallel_sort(T* first, T* last, int threads) {
#if CORANK_BENCH_IPS4O
  ips4o::parallel::sort(first, last, std::less<>(), threads);
#else
  (void)first, (void)last, (void)threads, missing("IPS4o");
#endif
}

template <class T>
void vqsort(T* first, T* last) {
#if CORANK_HAS_SIMD_SORT
  cpu::detail::simd_sort<corank::less>(first, last - first);
#else
  (void)first, (void)last, missing("Highway's vqsort");
#endif
}

void std_par_merge(const std::uint32_t* a, std::size_t m, const std::uint32_t* b, std::size_t n,
                   std::uint32_t* out, int threads) {
#if defined(CORANK_BENCH_TBB)
  tbb_threads scope(threads);
  std::merge(std::execution::par, a, a + m, b, b + n, out);
#else
  (void)a, (void)m, (void)b, (void)n, (void)out, (void)threads, missing("std::execution::par");
#endif
}

std::size_t std_par_set_operation(set_op op, const std::uint32_t* a, std::size_t m,
                                  const std::uint32_t* b, std::size_t n, std::uint32_t* out,
                                  int threads) {
#if defined(CORANK_BENCH_TBB)
  tbb_threads scope(threads);
  const auto par = std::execution::par;
  switch (op) {
    case set_op::unite:
      return std::size_t(std::set_union(par, a, a + m, b, b + n, out) - out);
    case set_op::intersect:
      return std::size_t(std::set_intersection(par, a, a + m, b, b + n, out) - out);
    case set_op::difference:
      return std::size_t(std::set_difference(par, a, a + m, b, b + n, out) - out);
    case set_op::symmetric_difference:
      return std::size_t(std::set_symmetric_difference(par, a, a + m, b, b + n, out) - out);
  }
  return 0;
#else
  (void)op, (void)a, (void)m, (void)b, (void)n, (void)out, (void)threads;
  missing("std::execution::par");
#endif
}

void std_par_lower_bounds(const std::uint32_t* haystack, std::size_t m,
                          const std::uint32_t* needles, std::size_t n, std::uint32_t* out,
                          int threads) {
#if defined(CORANK_BENCH_TBB)
  tbb_threads scope(threads);
  std::transform(std::execution::par, needles, needles + n, out, [=](std::uint32_t key) {
    return std::uint32_t(std::lower_bound(haystack, haystack + m, key) - haystack);
  });
#else
  (void)haystack, (void)m, (void)needles, (void)n, (void)out, (void)threads;
  missing("std::execution::par");
#endif
}

template void tbb_parallel_sort(std::uint32_t*, std::uint32_t*, int);
template void tbb_parallel_sort(std::uint64_t*, std::uint64_t*, int);
template void std_par_sort(std::uint32_t*, std::uint32_t*, int);
template void std_par_sort(std::uint64_t*, std::uint64_t*, int);
template void std_par_stable_sort(key_value32*, key_value32*, int);
template void boost_block_indirect_sort(std::uint32_t*, std::uint32_t*, int);
template void boost_block_indirect_sort(std::uint64_t*, std::uint64_t*, int);
template void boost_parallel_stable_sort(key_value32*, key_value32*, int);
template void ips4o_parallel_sort(std::uint32_t*, std::uint32_t*, int);
template void ips4o_parallel_sort(std::uint64_t*, std::uint64_t*, int);
template void vqsort(std::uint32_t*, std::uint32_t*);
template void vqsort(std::uint64_t*, std::uint64_t*);

}  // namespace corank::bench
