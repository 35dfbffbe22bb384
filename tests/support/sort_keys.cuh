// Struct keys with custom comparators, shared by the GPU sort suites.
#pragma once

#include <cstdint>

namespace corank::test {

/// 8-byte key ordered by `hi` only: distinct keys tie, so only a stable sort gives one answer.
struct pair_key {
  std::uint32_t hi, lo;
};
struct by_hi {
  __host__ __device__ bool operator()(const pair_key& x, const pair_key& y) const {
    return x.hi < y.hi;
  }
};

/// 16-byte key ordered by `major` descending, then `minor` ascending (`pad` ties).
struct wide_key {
  std::uint64_t major;
  std::uint32_t minor, pad;
};
struct wide_order {
  __host__ __device__ bool operator()(const wide_key& x, const wide_key& y) const {
    return x.major != y.major ? x.major > y.major : x.minor < y.minor;
  }
};

}  // namespace corank::test
