// Test and benchmark inputs, written once for the CLI (`corank gen`), the benchmarks and the tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace corank::data {

/// uniform: the whole range of the type (floats: [-1e6, 1e6)); equal: one value everywhere;
/// few: 16 distinct values; low / high: the lower / upper half of the uniform range, so that
/// a `low` input lies entirely before a `high` one (the one-sided merge).
enum class distribution { uniform, equal, few, low, high };
enum class order { sorted, unsorted, reversed };

inline distribution parse_distribution(std::string_view s) {
  if (s == "uniform") return distribution::uniform;
  if (s == "equal") return distribution::equal;
  if (s == "few") return distribution::few;
  if (s == "low") return distribution::low;
  if (s == "high") return distribution::high;
  throw std::invalid_argument("unknown distribution '" + std::string(s) +
                              "' (uniform|equal|few|low|high)");
}

inline order parse_order(std::string_view s) {
  if (s == "sorted") return order::sorted;
  if (s == "unsorted") return order::unsorted;
  if (s == "reversed") return order::reversed;
  throw std::invalid_argument("unknown order '" + std::string(s) + "' (sorted|unsorted|reversed)");
}

namespace detail {
/// The values of distribution `d`: low and high split the range at its middle, low = [lo, mid],
/// high = [mid + 1, hi]. The middle is computed in the unsigned type: hi - lo overflows a signed
/// one (i32: [INT_MIN, -1] and [0, INT_MAX]).
template <class T>
std::pair<T, T> value_range(distribution d) {
  if constexpr (std::is_floating_point_v<T>) {
    const T lo = T(-1e6), hi = T(1e6);
    if (d == distribution::low) return {lo, T(0)};
    if (d == distribution::high)
      return {T(0), hi};  // uniform_real_distribution: [lo, 0) ends before 0
    return {lo, hi};
  } else {
    using U = std::make_unsigned_t<T>;
    const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    const T mid = T(U(lo) + (U(hi) - U(lo)) / 2);  // modular: exact for signed and unsigned
    if (d == distribution::low) return {lo, mid};
    if (d == distribution::high) return {T(mid + 1), hi};
    return {lo, hi};
  }
}
}  // namespace detail

/// n keys of distribution `d` in order `o`, reproducible from `seed`.
template <class T>
std::vector<T> generate_keys(std::size_t n, distribution d, order o, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> keys(n);
  const auto [lo, hi] = detail::value_range<T>(d);
  if (d == distribution::equal) {
    std::fill(keys.begin(), keys.end(), T(42));
  } else if (d == distribution::few) {
    std::uniform_int_distribution<int> pick(0, 15);
    for (T& k : keys) k = T(pick(rng) * 7);
  } else if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> pick(lo, hi);
    for (T& k : keys) k = pick(rng);
  } else {
    std::uniform_int_distribution<T> pick(lo, hi);
    for (T& k : keys) k = pick(rng);
  }
  if (o == order::sorted) std::sort(keys.begin(), keys.end());
  if (o == order::reversed) std::sort(keys.begin(), keys.end(), std::greater<>{});
  return keys;
}

}  // namespace corank::data
