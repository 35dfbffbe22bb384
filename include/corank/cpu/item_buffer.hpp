// Room for items of the CPU algorithms' temporary copies: the k-way merge's and the sort's
// buffers, the set operations' stage.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>

#include "corank/merge_path.hpp"

namespace corank::cpu::detail {

/// The type a buffer of the items behind iterator It holds (discard_iterator: none).
template <class It>
struct buffer_item {
  using type = typename std::iterator_traits<It>::value_type;
};
template <>
struct buffer_item<discard_iterator> {
  using type = discard_iterator;
};
template <class It>
using buffer_item_t = typename buffer_item<It>::type;

/// Room for at least n items of T, default-initialised (new T[n]: integers are not zeroed first),
/// grown by reserve (which drops the contents); discard_iterator: none.
template <class T>
struct item_buffer {
  std::unique_ptr<T[]> items;
  std::size_t count = 0;
  item_buffer() = default;
  explicit item_buffer(std::size_t n) { reserve(n); }
  void reserve(std::size_t n) {
    if (count < n || !items) items.reset(new T[n]), count = n;
  }
  T* begin() { return items.get(); }
};
template <>
struct item_buffer<discard_iterator> {
  item_buffer() = default;
  explicit item_buffer(std::size_t) {}
  void reserve(std::size_t) {}
  discard_iterator begin() { return {}; }
};

}  // namespace corank::cpu::detail
