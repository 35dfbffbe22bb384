// The input generator shared by `corank gen`, the tests and the benchmarks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

#include "support/data/generate.hpp"

namespace {

using namespace corank::data;

template <class T>
class Generate : public ::testing::Test {};
using key_types =
    ::testing::Types<std::uint32_t, std::int32_t, std::uint64_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(Generate, key_types);

TYPED_TEST(Generate, LowLiesEntirelyBeforeHighAndBothSpreadOverTheirHalf) {
  using T = TypeParam;
  const auto low = generate_keys<T>(2000, distribution::low, order::sorted, 1);
  const auto high = generate_keys<T>(2000, distribution::high, order::sorted, 2);
  EXPECT_LT(low.back(), high.front());
  EXPECT_GT(std::set<T>(low.begin(), low.end()).size(), 1900u);
  EXPECT_GT(std::set<T>(high.begin(), high.end()).size(), 1900u);
  if constexpr (std::is_integral_v<T>) {
    const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    // The halves split the range in the middle: i32 low is [INT_MIN, -1], high [0, INT_MAX].
    const auto [low_lo, low_hi] = detail::value_range<T>(distribution::low);
    const auto [high_lo, high_hi] = detail::value_range<T>(distribution::high);
    EXPECT_EQ(low_lo, lo);
    EXPECT_EQ(high_hi, hi);
    EXPECT_EQ(T(low_hi + 1), high_lo);
    if constexpr (std::is_signed_v<T>) {
      EXPECT_EQ(high_lo, T(0));
    }
  }
}

}  // namespace
