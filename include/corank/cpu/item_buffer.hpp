// Room for items of the CPU algorithms' temporary copies: the k-way merge's and the sort's
// buffers, the set operations' stage.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>

#include "corank/cpu/memory.hpp"
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

/// Whether buffers of T come from the library's cache (cpu/memory.hpp): items whose creation and
/// destruction do nothing, so that memory a call leaves holds them for the next, and no more
/// aligned than operator new's blocks.
template <class T>
inline constexpr bool cached_items =
    std::is_trivially_default_constructible_v<T>&& std::is_trivially_destructible_v<T> &&
    alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ && !std::is_same_v<T, discard_iterator>;

/// Room for at least n items of T, default-initialised (integers are not zeroed first), grown by
/// reserve (which drops the contents); discard_iterator: none. `threads`: the threads of the
/// call that will use it, which touch a block new to the cache first.
template <class T, bool Cached = cached_items<T>>
struct item_buffer {
  std::unique_ptr<T[]> items;
  std::size_t count = 0;
  item_buffer() = default;
  explicit item_buffer(std::size_t n, int threads = 1) { reserve(n, threads); }
  void reserve(std::size_t n, int = 1) {
    if (count < n || !items) items.reset(new T[n]), count = n;
  }
  T* begin() { return items.get(); }
};
template <class T>
struct item_buffer<T, true> {
  cached_block block;
  T* items = nullptr;
  std::size_t count = 0;
  item_buffer() = default;
  explicit item_buffer(std::size_t n, int threads = 1) { reserve(n, threads); }
  void reserve(std::size_t n, int threads = 1) {
    if (items && count >= n) return;
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    block.take(n > 0 ? n * sizeof(T) : sizeof(T), threads);
    // Items of trivial lifetime: the storage holds them once it is theirs (their default
    // initialisation does nothing).
    items = std::launder(reinterpret_cast<T*>(block.data()));
    count = n;
  }
  T* begin() { return items; }
};
template <>
struct item_buffer<discard_iterator, false> {
  item_buffer() = default;
  explicit item_buffer(std::size_t, int = 1) {}
  void reserve(std::size_t, int = 1) {}
  discard_iterator begin() { return {}; }
};

}  // namespace corank::cpu::detail
