// The input shapes a user brings to a sort, a merge or a segmented scan, for the GPU benchmarks
// and the tests alike: key distributions and orders (uniform, presorted, reverse, nearly sorted,
// few distinct, all equal, Zipf) for every key type, and segment-length patterns.
//
// Every generator is O(n) and computes element i from (seed, i) alone where it can (a counter
// hash), so a 100M-element input takes a fraction of a second and a test can ask for any size.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "corank/config.hpp"

namespace corank::data {

/// The 16-byte struct key: ordered by `key` alone (record_less), so equal keys keep their
/// payloads in input order only if the sort or merge is stable.
struct record {
  std::uint64_t key;
  std::uint64_t payload;
  friend bool operator==(const record& a, const record& b) {
    return a.key == b.key && a.payload == b.payload;
  }
};

struct record_less {
  CORANK_HD bool operator()(const record& a, const record& b) const { return a.key < b.key; }
};

/// uniform: random over the type's range; presorted, reverse: random values in (reverse) order;
/// nearly_sorted: presorted with 1% of the positions swapped at random; few: 16 distinct values;
/// equal: one value; zipf: values drawn by a Zipf law (exponent 1.2) over 2^20 random values.
enum class key_shape { uniform, presorted, reverse, nearly_sorted, few, equal, zipf };

inline const std::vector<key_shape>& all_key_shapes() {
  static const std::vector<key_shape> all = {
      key_shape::uniform, key_shape::presorted, key_shape::reverse, key_shape::nearly_sorted,
      key_shape::few,     key_shape::equal,     key_shape::zipf};
  return all;
}

inline const char* name(key_shape s) {
  switch (s) {
    case key_shape::uniform:
      return "uniform";
    case key_shape::presorted:
      return "presorted";
    case key_shape::reverse:
      return "reverse";
    case key_shape::nearly_sorted:
      return "nearly sorted";
    case key_shape::few:
      return "few distinct";
    case key_shape::equal:
      return "all equal";
    case key_shape::zipf:
      return "zipf";
  }
  return "?";
}

/// The shape of name(s), spaces written as spaces or '-' ("nearly-sorted"); throws
/// std::invalid_argument naming the shapes for another name.
inline key_shape key_shape_named(std::string_view wanted) {
  std::string list;
  for (key_shape s : all_key_shapes()) {
    std::string n = name(s);
    if (n.size() == wanted.size() &&
        std::equal(n.begin(), n.end(), wanted.begin(),
                   [](char x, char y) { return x == y || (x == ' ' && y == '-'); }))
      return s;
    std::replace(n.begin(), n.end(), ' ', '-');
    list += (list.empty() ? "" : ", ") + n;
  }
  throw std::invalid_argument("unknown input shape '" + std::string(wanted) + "' (" + list + ")");
}

/// splitmix64: a counter hash, so element i of an input depends on (seed, i) only.
constexpr std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// A key of type T from 64 random or ordered bits, monotone in them: the order of the bits is
/// the order of the keys (ties where T is narrower), for every key type the benchmarks use.
template <class T>
T key_from_bits(std::uint64_t bits, std::uint64_t payload = 0);

template <>
inline std::uint32_t key_from_bits<std::uint32_t>(std::uint64_t b, std::uint64_t) {
  return std::uint32_t(b >> 32);
}
template <>
inline std::uint64_t key_from_bits<std::uint64_t>(std::uint64_t b, std::uint64_t) {
  return b;
}
// Floats: 2^24 (2^53) evenly spaced values in [-1e6, 1e6), negatives included.
template <>
inline float key_from_bits<float>(std::uint64_t b, std::uint64_t) {
  return float(double(b >> 40) * (2e6 / 16777216.0) - 1e6);
}
template <>
inline double key_from_bits<double>(std::uint64_t b, std::uint64_t) {
  return double(b >> 11) * (2e6 / 9007199254740992.0) - 1e6;
}
template <>
inline record key_from_bits<record>(std::uint64_t b, std::uint64_t payload) {
  return {b, payload};
}

namespace detail {
/// Zipf's law over `domain` ranks (exponent s > 1): the inverse of the continuous law's CDF,
/// rounded down, from a uniform u in [0, 1).
inline std::uint64_t zipf_rank(double u, double s, double domain) {
  const double top = std::pow(domain + 1, 1 - s);
  const double x = std::pow(1 - u * (1 - top), 1 / (1 - s));
  return std::min<std::uint64_t>(std::uint64_t(x) - 1, std::uint64_t(domain) - 1);
}
inline double unit(std::uint64_t h) { return double(h >> 11) / 9007199254740992.0; }
}  // namespace detail

/// n keys of `shape`, reproducible from `seed`. A record's payload is its input position, so a
/// stable result is unique and a comparison with the reference checks stability too.
template <class T>
std::vector<T> generate_shape(std::size_t n, key_shape shape, std::uint64_t seed) {
  std::vector<T> keys(n);
  const std::uint64_t s = mix(seed);
  const auto bits_at = [&](std::size_t i) -> std::uint64_t {
    const std::uint64_t h = mix(s ^ mix(i));
    switch (shape) {
      case key_shape::few:
        return mix(s + h % 16);
      case key_shape::equal:
        return std::uint64_t(1) << 62;
      case key_shape::zipf:
        return mix(s + detail::zipf_rank(detail::unit(h), 1.2, 1 << 20));
      default:
        return h;
    }
  };
  const bool ordered = shape == key_shape::presorted || shape == key_shape::reverse ||
                       shape == key_shape::nearly_sorted;
  if (!ordered) {
    for (std::size_t i = 0; i < n; ++i) keys[i] = key_from_bits<T>(bits_at(i), i);
    return keys;
  }
  // Sorted values in O(n): random gaps of mean 2^63 / (n + 1), summed (below 2^64 whatever the
  // draws, so the sum never wraps).
  const std::uint64_t mean_gap = (std::uint64_t(1) << 63) / (n + 1);
  std::uint64_t acc = 0;
  for (std::size_t i = 0; i < n; ++i) {
    acc += mean_gap ? mix(s ^ mix(i)) % (2 * mean_gap) : 0;
    keys[shape == key_shape::reverse ? n - 1 - i : i] = key_from_bits<T>(acc, 0);
  }
  if (shape == key_shape::nearly_sorted)
    for (std::size_t k = 0; k < n / 100; ++k)
      std::swap(keys[mix(s + 2 * k) % n], keys[mix(s + 2 * k + 1) % n]);
  if constexpr (std::is_same_v<T, record>)
    for (std::size_t i = 0; i < n; ++i) keys[i].payload = i;
  return keys;
}

/// Segment lengths for the segmented scans: CSR offsets (num_segments + 1 of them, the first 0,
/// the last n) of n elements.
///  fixed L: every segment L long (the last one shorter); uniform L: lengths U[1, L]; power law:
///  lengths 1 + a Zipf law (exponent 1.5) over [1, 2^20); one segment: all of it; half empty:
///  every other segment empty, the others U[1, 2L-1].
enum class segment_shape { fixed, uniform, power_law, one_segment, half_empty };

inline std::string segment_shape_name(segment_shape shape, std::size_t length) {
  switch (shape) {
    case segment_shape::fixed:
      return "fixed " + std::to_string(length);
    case segment_shape::uniform:
      return "U[1," + std::to_string(length) + "]";
    case segment_shape::power_law:
      return "power law";
    case segment_shape::one_segment:
      return "one segment";
    case segment_shape::half_empty:
      return "half empty, mean " + std::to_string(length);
  }
  return "?";
}

template <class Offset>
std::vector<Offset> generate_segments(std::size_t n, segment_shape shape, std::size_t length,
                                      std::uint64_t seed) {
  if (shape != segment_shape::one_segment && shape != segment_shape::power_law && length == 0)
    throw std::invalid_argument("generate_segments: length must be positive");
  std::vector<Offset> offsets{0};
  if (shape == segment_shape::one_segment) {
    offsets.push_back(Offset(n));
    return offsets;
  }
  if (shape == segment_shape::fixed) offsets.reserve(n / length + 2);
  const std::uint64_t s = mix(seed);
  std::size_t pos = 0;
  for (std::uint64_t k = 0; pos < n; ++k) {
    const std::uint64_t h = mix(s ^ mix(k));
    std::size_t len = length;
    if (shape == segment_shape::uniform) len = 1 + h % length;
    if (shape == segment_shape::power_law)
      len = 1 + std::size_t(detail::zipf_rank(detail::unit(h), 1.5, double(1 << 20)));
    if (shape == segment_shape::half_empty) len = k % 2 ? 0 : 1 + h % (2 * length - 1);
    pos += std::min(len, n - pos);
    offsets.push_back(Offset(pos));
  }
  return offsets;
}

}  // namespace corank::data
