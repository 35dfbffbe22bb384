// The circular-buffer (double-buffer) merge of the study keeps each input's tile in a ring in
// shared memory. Its index arithmetic lives here, once; the ring is seen through an iterator so the
// ordinary co_rank and serial merge of merge_path.hpp run on it unchanged.
#pragma once

#include <cstddef>

#include "corank/config.hpp"

namespace corank::cuda::block {

/// Physical slot of logical position `offset` in a ring of `capacity` slots starting at `head`.
/// Preconditions: head < capacity and offset <= capacity, so one conditional subtraction wraps
/// (no division, unlike `%`).
CORANK_HD unsigned ring_index(unsigned head, unsigned offset, unsigned capacity) {
  const unsigned i = head + offset;
  return i >= capacity ? i - capacity : i;
}

/// Random-access view of a ring buffer: position 0 is the slot at `head`.
template <class T>
struct ring_iterator {
  T* buffer;
  unsigned capacity;
  unsigned head;
  unsigned offset = 0;

  CORANK_HD T& operator*() const { return buffer[ring_index(head, offset, capacity)]; }
  template <class I>
  CORANK_HD T& operator[](I i) const {
    return buffer[ring_index(head, offset + unsigned(i), capacity)];
  }
  CORANK_HD ring_iterator& operator++() {
    ++offset;
    return *this;
  }
  template <class I>
  CORANK_HD ring_iterator& operator+=(I i) {
    offset += unsigned(i);
    return *this;
  }
  template <class I>
  CORANK_HD ring_iterator operator+(I i) const {
    ring_iterator r = *this;
    return r += i;
  }
  CORANK_HD std::ptrdiff_t operator-(const ring_iterator& o) const {
    return std::ptrdiff_t(offset) - std::ptrdiff_t(o.offset);
  }
  CORANK_HD bool operator!=(const ring_iterator& o) const { return offset != o.offset; }
  CORANK_HD bool operator==(const ring_iterator& o) const { return offset == o.offset; }
};

}  // namespace corank::cuda::block
