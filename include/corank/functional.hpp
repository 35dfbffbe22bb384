// Comparators and scan operators usable on the host and the device (std::less is not __device__
// everywhere).
#pragma once
#include "corank/config.hpp"

namespace corank {

/// Stand-in value type of a key-only merge or sort: no registers, no memory traffic.
struct no_value {};

struct less {
  template <class T, class U>
  CORANK_HD constexpr bool operator()(const T& a, const U& b) const {
    return a < b;
  }
};

struct greater {
  template <class T, class U>
  CORANK_HD constexpr bool operator()(const T& a, const U& b) const {
    return b < a;
  }
};

/// Scan operators: associative, applied as op(prefix, element).
struct plus {
  template <class T>
  CORANK_HD constexpr T operator()(const T& a, const T& b) const {
    return a + b;
  }
};

struct maximum {
  template <class T>
  CORANK_HD constexpr T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};

struct minimum {
  template <class T>
  CORANK_HD constexpr T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

}  // namespace corank
