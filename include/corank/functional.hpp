// Comparators usable on the host and the device (std::less is not __device__ everywhere).
#pragma once
#include "corank/config.hpp"

namespace corank {

struct less {
  template <class T, class U>
  CORANK_HD constexpr bool operator()(const T& a, const U& b) const { return a < b; }
};

struct greater {
  template <class T, class U>
  CORANK_HD constexpr bool operator()(const T& a, const U& b) const { return b < a; }
};

}  // namespace corank
