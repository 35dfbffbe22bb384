// Inputs and the reference for segmented-scan tests, shared by the CPU and GPU suites.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace corank::test {

/// CSR offsets (num_segments + 1 entries, first 0, last n) with segment lengths drawn
/// geometrically around `mean_length`; `empty_fraction` of the segments are forced empty.
template <class Offset = std::int64_t>
std::vector<Offset> random_offsets(std::mt19937_64& rng, std::size_t n, double mean_length,
                                   double empty_fraction = 0.0) {
  std::geometric_distribution<std::size_t> length(1.0 / (mean_length + 1.0));
  std::bernoulli_distribution empty(empty_fraction);
  std::vector<Offset> offsets{0};
  std::size_t pos = 0;
  while (pos < n) {
    const std::size_t len = empty(rng) ? 0 : length(rng);
    pos = std::min(n, pos + len);
    offsets.push_back(static_cast<Offset>(pos));
  }
  if (empty_fraction > 0) offsets.push_back(static_cast<Offset>(n));  // a trailing empty one
  return offsets;
}

/// Offsets with a head at each of `heads` (sorted, in [0, n]).
template <class Offset = std::int64_t>
std::vector<Offset> offsets_with_heads(std::size_t n, const std::vector<std::size_t>& heads) {
  std::vector<Offset> offsets{0};
  for (std::size_t h : heads)
    if (h > 0 && h < n) offsets.push_back(static_cast<Offset>(h));
  offsets.push_back(static_cast<Offset>(n));
  return offsets;
}

/// The sequential reference, accumulated in R (double for floating point).
template <class R, class T, class Offset, class Op>
std::vector<R> reference_segmented_scan(const std::vector<T>& in,
                                        const std::vector<Offset>& offsets, Op op,
                                        bool exclusive = false, R init = R{}) {
  std::vector<R> out(in.size());
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    R acc = init;
    for (auto j = static_cast<std::size_t>(offsets[s]);
         j < static_cast<std::size_t>(offsets[s + 1]); ++j) {
      const R v = static_cast<R>(in[j]);
      if (exclusive) {
        out[j] = acc;
        acc = op(acc, v);
      } else {
        acc = j == static_cast<std::size_t>(offsets[s]) ? v : op(acc, v);
        out[j] = acc;
      }
    }
  }
  return out;
}

/// `iterations` steps of the sparse-matrix iteration, a = inclusive scan of a[i] * scale[i], by
/// the reference, accumulated in R.
template <class R, class T, class Offset, class Op>
std::vector<R> reference_scaled_iterations(const std::vector<T>& a, const std::vector<T>& scale,
                                           const std::vector<Offset>& offsets, long long iterations,
                                           Op op) {
  std::vector<R> out(a.begin(), a.end());
  for (long long k = 0; k < iterations; ++k) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] *= static_cast<R>(scale[i]);
    out = reference_segmented_scan<R>(out, offsets, op);
  }
  return out;
}

template <class T>
std::vector<T> random_values(std::mt19937_64& rng, std::size_t n, double lo = -1.0,
                             double hi = 1.0) {
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<double> d(lo, hi);
    for (T& x : v) x = static_cast<T>(d(rng));
  } else {
    std::uniform_int_distribution<std::int64_t> d(static_cast<std::int64_t>(lo),
                                                  static_cast<std::int64_t>(hi));
    for (T& x : v) x = static_cast<T>(d(rng));
  }
  return v;
}

/// Largest |got - want| relative to the largest |want| (1 if all zero): the max-norm error.
template <class T, class R>
double relative_error_max_norm(const std::vector<T>& got, const std::vector<R>& want) {
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    err = std::max(err, std::abs(static_cast<double>(got[i]) - static_cast<double>(want[i])));
    scale = std::max(scale, std::abs(static_cast<double>(want[i])));
  }
  return err / (scale > 0 ? scale : 1.0);
}

}  // namespace corank::test
