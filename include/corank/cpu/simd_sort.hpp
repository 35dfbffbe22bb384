// The SIMD base case of the CPU sorts: Highway's vqsort (libhwy-contrib), which picks the widest
// instruction set of the running CPU at run time (AVX-512, AVX2, SSE4, ...), so one binary runs
// everywhere.
//
// Used only where an unstable sort cannot be observed: keys alone, integers, ordered by
// corank::less or corank::greater (equal integers cannot be told apart). Floating-point keys
// (-0.0 and +0.0 tie but differ), by-key sorts and other comparators keep the stable scalar path.
//
// Optional: the build defines CORANK_WITH_HIGHWAY and links hwy::hwy_contrib (the CMake target
// corank does when CORANK_WITH_HIGHWAY is on and Highway is found). Without it, and in code that
// nvcc compiles, simd_sortable is false and the library stays header-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "corank/functional.hpp"

#if !defined(CORANK_WITH_HIGHWAY) || defined(__CUDACC__)
#define CORANK_HAS_SIMD_SORT 0
#elif !__has_include(<hwy/contrib/sort/vqsort.h>)
#define CORANK_HAS_SIMD_SORT 0
#else
#include <hwy/contrib/sort/vqsort.h>
#include <hwy/targets.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#define CORANK_HAS_SIMD_SORT 1
#endif

namespace corank::cpu::detail {

/// The element pointer behind a contiguous iterator (pointers and std::vector's iterators), or
/// nullptr_t for others.
template <class It>
auto contiguous_data(It it) {
  using T = std::remove_reference_t<decltype(*it)>;
  if constexpr (std::is_pointer_v<It>)
    return it;
  else if constexpr (std::is_same_v<It, typename std::vector<std::remove_const_t<T>>::iterator>)
    return &*it;
  else
    return nullptr;
}

/// Key types vqsort sorts: the 16-, 32- and 64-bit integers.
template <class T>
inline constexpr bool simd_key = std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                 (sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);

/// Whether the keys-only sort of It under Compare may take the SIMD sort.
template <class It, class Compare>
inline constexpr bool simd_sortable = [] {
  if constexpr (CORANK_HAS_SIMD_SORT &&
                !std::is_same_v<decltype(contiguous_data(std::declval<It>())), std::nullptr_t>) {
    using T = std::remove_pointer_t<decltype(contiguous_data(std::declval<It>()))>;
    return simd_key<T> && !std::is_const_v<T> &&
           (std::is_same_v<Compare, corank::less> || std::is_same_v<Compare, corank::greater>);
  } else {
    return false;
  }
}();

#if CORANK_HAS_SIMD_SORT
/// Highway before its AVX3_ZEN4 target sorts through AVX-512 compress-stores to memory, which
/// AMD Zen 4 runs in microcode: there vqsort's AVX-512 path took 7x the time of its AVX2 path
/// (4M u32 on one core of the development machine, an EPYC Genoa: 480 ms against 70 ms; SSE4
/// 200 ms). On AMD CPUs, such a Highway is told once to skip its AVX-512 targets (a process-wide
/// setting: hwy::DisableTargets). Newer Highways pick AVX3_ZEN4 and are left alone.
inline bool avoid_slow_simd_targets() {
#if !defined(HWY_AVX3_ZEN4) && (defined(__x86_64__) || defined(__i386__))
  unsigned leaf, ebx, ecx, edx;
  if (__get_cpuid(0, &leaf, &ebx, &ecx, &edx) && ebx == 0x68747541u /* "Auth"enticAMD */)
    hwy::DisableTargets(HWY_AVX3 | HWY_AVX3_DL);
#endif
  return true;
}
#endif

/// Whether keys of type K under Compare may be sorted stably by the SIMD sort, each tagged with
/// its index (simd_stable_order): integers of at most 32 bits, ordered by corank::less or
/// corank::greater.
template <class K, class Compare>
inline constexpr bool simd_sortable_tagged =
    CORANK_HAS_SIMD_SORT&& std::is_integral_v<K> && !std::is_same_v<K, bool> && sizeof(K) <= 4 &&
    (std::is_same_v<Compare, corank::less> || std::is_same_v<Compare, corank::greater>);

/// The unsigned bits whose ascending order is comp's order of integer keys of at most 32 bits:
/// the sign bit flipped (signed keys), all bits flipped (corank::greater).
template <class Compare, class K>
std::uint32_t ordered_bits(K key) {
  std::uint32_t bits = static_cast<std::make_unsigned_t<K>>(key);
  if constexpr (std::is_signed_v<K>) bits ^= std::uint32_t(1) << (8 * sizeof(K) - 1);
  if constexpr (std::is_same_v<Compare, corank::greater>) bits = ~bits;
  return bits;
}

template <class Compare, class It>
void simd_sort(It keys, std::ptrdiff_t n);

/// The stable order of keys[0, n) (n < 2^32; where simd_sortable_tagged): tagged[i] = (key bits
/// << 32) | index, sorted by vqsort. Ties sort by index, so an unstable sort of the tags is a
/// stable sort of the keys; the low 32 bits of tagged[r] are the index of the key of rank r.
template <class Compare, class KeyIt>
void simd_stable_order(KeyIt keys, std::ptrdiff_t n, std::uint64_t* tagged) {
  for (std::ptrdiff_t i = 0; i < n; ++i)
    tagged[i] = std::uint64_t(ordered_bits<Compare>(keys[i])) << 32 | std::uint64_t(i);
  simd_sort<corank::less>(tagged, n);
}

/// Sorts keys[0, n) in place with vqsort (only where simd_sortable<It, Compare>).
template <class Compare, class It>
void simd_sort(It keys, std::ptrdiff_t n) {
#if CORANK_HAS_SIMD_SORT
  static const bool targets_chosen = avoid_slow_simd_targets();
  (void)targets_chosen;
  auto* data = contiguous_data(keys);
  using T = std::remove_pointer_t<decltype(data)>;
  // vqsort has overloads for the fixed-width types; long and long long are both 64-bit here.
  using fixed = std::conditional_t<
      sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, std::int16_t, std::uint16_t>,
      std::conditional_t<sizeof(T) == 4,
                         std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>,
                         std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>>;
  const hwy::Sorter sorter;
  if constexpr (std::is_same_v<Compare, corank::greater>)
    sorter(reinterpret_cast<fixed*>(data), std::size_t(n), hwy::SortDescending());
  else
    sorter(reinterpret_cast<fixed*>(data), std::size_t(n), hwy::SortAscending());
#else
  (void)keys, (void)n;
#endif
}

}  // namespace corank::cpu::detail
