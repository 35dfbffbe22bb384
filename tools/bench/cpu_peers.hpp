// The CPU sorts and merges a user would pick instead of corank's, each built in when its library
// is found (TBB: libtbb-dev; Boost.Sort: libboost-dev; Highway's vqsort: libhwy-dev; IPS4o:
// libips4o-dev), kept in one
// translation unit so their headers (<execution>, TBB, Boost) stay out of the rest.
#pragma once

#include <cstddef>
#include <cstdint>

#include "corank/merge_path_walk.hpp"

namespace corank::bench {

/// A key and its value, ordered by the key alone: the "pairs" rows sort these.
struct key_value32 {
  std::uint32_t key, value;
  friend bool operator<(const key_value32& x, const key_value32& y) { return x.key < y.key; }
  friend bool operator==(const key_value32& x, const key_value32& y) {
    return x.key == y.key && x.value == y.value;
  }
};

/// Which peers this build has.
bool have_tbb();         // tbb::parallel_sort, std::sort/std::merge(std::execution::par)
bool have_boost_sort();  // boost::sort::block_indirect_sort, parallel_stable_sort
bool have_vqsort();      // hwy::VQSort (one thread: Highway 1.0 has no parallel sort)
bool have_ips4o();       // ips4o::parallel::sort (OpenMP)

/// Sorts on `threads` threads (unstable ones where they say so). T: std::uint32_t,
/// std::uint64_t or key_value32 (the stable ones only).
template <class T>
void tbb_parallel_sort(T* first, T* last, int threads);  // unstable
template <class T>
void std_par_sort(T* first, T* last, int threads);  // unstable
template <class T>
void std_par_stable_sort(T* first, T* last, int threads);
template <class T>
void boost_block_indirect_sort(T* first, T* last, int threads);  // unstable
template <class T>
void boost_parallel_stable_sort(T* first, T* last, int threads);
template <class T>
void ips4o_parallel_sort(T* first, T* last, int threads);  // unstable
template <class T>
void vqsort(T* first, T* last);  // unstable, one thread

/// std::merge(std::execution::par) on `threads` threads.
void std_par_merge(const std::uint32_t* a, std::size_t m, const std::uint32_t* b, std::size_t n,
                   std::uint32_t* out, int threads);

/// The toolbox's peers on std::execution::par (`threads` threads): the set operation `op` of
/// std::set_* (returns the output count), and std::lower_bound of every needle by
/// std::transform.
std::size_t std_par_set_operation(set_op op, const std::uint32_t* a, std::size_t m,
                                  const std::uint32_t* b, std::size_t n, std::uint32_t* out,
                                  int threads);
void std_par_lower_bounds(const std::uint32_t* haystack, std::size_t m,
                          const std::uint32_t* needles, std::size_t n, std::uint32_t* out,
                          int threads);

}  // namespace corank::bench
