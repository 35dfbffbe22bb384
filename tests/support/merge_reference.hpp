// Inputs and the reference for merge tests: pairs whose payload records where each key came from,
// so stability is checked, not assumed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace corank::test {

/// Payload of a merged element: which input (0 = A, 1 = B) and the index there.
inline std::uint64_t origin(int input, std::size_t index) {
  return (std::uint64_t(input) << 63) | index;
}

/// Sorted keys drawn from [0, range): a small range makes many ties within and across inputs.
template <class T>
std::vector<T> sorted_keys(std::mt19937_64& rng, std::size_t n, std::uint64_t range) {
  std::uniform_int_distribution<std::uint64_t> pick(0, range - 1);
  std::vector<T> keys(n);
  for (T& k : keys) k = static_cast<T>(pick(rng));
  std::sort(keys.begin(), keys.end());
  return keys;
}

/// The reference: std::merge of (key, origin) pairs ordered by key alone.
template <class T, class Compare>
void reference_merge_by_key(const std::vector<T>& a, const std::vector<T>& b, Compare comp,
                            std::vector<T>& keys, std::vector<std::uint64_t>& values) {
  struct item {
    T key;
    std::uint64_t value;
  };
  std::vector<item> ia(a.size()), ib(b.size()), out(a.size() + b.size());
  for (std::size_t i = 0; i < a.size(); ++i) ia[i] = {a[i], origin(0, i)};
  for (std::size_t i = 0; i < b.size(); ++i) ib[i] = {b[i], origin(1, i)};
  std::merge(ia.begin(), ia.end(), ib.begin(), ib.end(), out.begin(),
             [&](const item& x, const item& y) { return comp(x.key, y.key); });
  keys.resize(out.size());
  values.resize(out.size());
  for (std::size_t i = 0; i < out.size(); ++i) keys[i] = out[i].key, values[i] = out[i].value;
}

/// Payload arrays for inputs a and b in the format of origin().
inline std::vector<std::uint64_t> origins(int input, std::size_t n) {
  std::vector<std::uint64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = origin(input, i);
  return v;
}

}  // namespace corank::test
