// The benchmark input shapes (tools/support/data/shapes.hpp): each shape has the property it is
// named for, every key type's keys keep the order of the bits they come from, segment offsets are
// valid CSR, and the CPU stable sort sorts every shape of every key type like std::stable_sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "corank/cpu/sort.hpp"
#include "support/data/shapes.hpp"
#include "support/seeded_test.hpp"

namespace {

using corank::data::key_shape;
using corank::data::record;
using corank::data::record_less;
using corank::data::segment_shape;

class Shapes : public corank::test::seeded_test {};

template <class T>
std::uint64_t key_of(const T& k) {
  if constexpr (std::is_same_v<T, record>)
    return k.key;
  else
    return std::uint64_t(k);
}

TEST_F(Shapes, EachShapeHasItsProperty) {
  const std::uint64_t seed = rng();
  const std::size_t n = 10007;
  const auto gen = [&](key_shape s) {
    return corank::data::generate_shape<std::uint64_t>(n, s, seed);
  };
  const auto presorted = gen(key_shape::presorted);
  EXPECT_TRUE(std::is_sorted(presorted.begin(), presorted.end()));
  const auto reverse = gen(key_shape::reverse);
  EXPECT_TRUE(std::is_sorted(reverse.rbegin(), reverse.rend()));
  // Nearly sorted: n/100 swaps move at most 2n/100 positions.
  const auto nearly = gen(key_shape::nearly_sorted);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < n; ++i) moved += nearly[i] != presorted[i];
  EXPECT_GT(moved, 0u);
  EXPECT_LE(moved, 2 * (n / 100));
  const auto few = gen(key_shape::few);
  EXPECT_LE(std::set<std::uint64_t>(few.begin(), few.end()).size(), 16u);
  EXPECT_GE(std::set<std::uint64_t>(few.begin(), few.end()).size(), 8u);
  const auto equal = gen(key_shape::equal);
  EXPECT_EQ(std::set<std::uint64_t>(equal.begin(), equal.end()).size(), 1u);
  // Zipf: heavy repeats, yet many values.
  const auto zipf = gen(key_shape::zipf);
  const std::set<std::uint64_t> zipf_values(zipf.begin(), zipf.end());
  EXPECT_LT(zipf_values.size(), n / 2);
  EXPECT_GT(zipf_values.size(), 100u);
  const auto uniform = gen(key_shape::uniform);
  EXPECT_GT(std::set<std::uint64_t>(uniform.begin(), uniform.end()).size(), n - 10);
  EXPECT_FALSE(std::is_sorted(uniform.begin(), uniform.end()));
  // Reproducible from the seed, different for another.
  EXPECT_EQ(uniform, gen(key_shape::uniform));
  EXPECT_NE(uniform,
            (corank::data::generate_shape<std::uint64_t>(n, key_shape::uniform, seed + 1)));
}

TEST_F(Shapes, KeysKeepTheOrderOfTheirBits) {
  std::vector<std::uint64_t> bits(1000);
  for (auto& b : bits) b = rng();
  std::sort(bits.begin(), bits.end());
  const auto check = [&](auto tag) {
    using T = decltype(tag);
    for (std::size_t i = 1; i < bits.size(); ++i)
      EXPECT_FALSE(corank::data::key_from_bits<T>(bits[i]) <
                   corank::data::key_from_bits<T>(bits[i - 1]));
  };
  check(std::uint32_t{}), check(std::uint64_t{}), check(float{}), check(double{});
  EXPECT_EQ(corank::data::key_from_bits<float>(0), -1e6f);
  EXPECT_LT(corank::data::key_from_bits<double>(~std::uint64_t(0)), 1e6);
}

TEST_F(Shapes, SegmentOffsetsAreValid) {
  const std::uint64_t seed = rng();
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(100003)})
    for (auto [shape, length] : {std::pair{segment_shape::fixed, std::size_t(1)},
                                 std::pair{segment_shape::fixed, std::size_t(37)},
                                 std::pair{segment_shape::uniform, std::size_t(64)},
                                 std::pair{segment_shape::power_law, std::size_t(0)},
                                 std::pair{segment_shape::one_segment, std::size_t(0)},
                                 std::pair{segment_shape::half_empty, std::size_t(8)}}) {
      SCOPED_TRACE(corank::data::segment_shape_name(shape, length) + ", n " + std::to_string(n));
      const auto off = corank::data::generate_segments<std::int64_t>(n, shape, length, seed);
      ASSERT_GE(off.size(), 1u);  // no segments when n is 0
      EXPECT_EQ(off.front(), 0);
      EXPECT_EQ(std::size_t(off.back()), n);
      EXPECT_TRUE(std::is_sorted(off.begin(), off.end()));
      std::size_t empty = 0;
      for (std::size_t s = 0; s + 1 < off.size(); ++s) {
        const auto len = std::size_t(off[s + 1] - off[s]);
        empty += len == 0;
        if (shape == segment_shape::fixed && s + 2 < off.size()) {
          EXPECT_EQ(len, length);
        }
        if (shape == segment_shape::uniform) {
          EXPECT_LE(len, length);
        }
      }
      if (shape == segment_shape::half_empty && n > 100) {
        EXPECT_GE(empty, (off.size() - 1) / 2 - 1);
      }
      if (shape != segment_shape::half_empty && n > 0) {
        EXPECT_EQ(empty, 0u);
      }
    }
  EXPECT_THROW(corank::data::generate_segments<int>(10, segment_shape::fixed, 0, seed),
               std::invalid_argument);
}

// Every shape of every key type through the CPU stable sort, against std::stable_sort (records:
// equal keys, payloads in input order, so stability shows).
template <class T, class Compare>
void sorts_every_shape(std::uint64_t seed, Compare comp) {
  for (key_shape shape : corank::data::all_key_shapes()) {
    SCOPED_TRACE(corank::data::name(shape));
    auto keys = corank::data::generate_shape<T>(20011, shape, seed);
    auto want = keys;
    std::stable_sort(want.begin(), want.end(), comp);
    corank::cpu::stable_sort(keys.begin(), keys.end(), comp);
    EXPECT_TRUE(keys == want);
  }
}

TEST_F(Shapes, CpuStableSortSortsEveryShape) {
  const std::uint64_t seed = rng();
  sorts_every_shape<std::uint32_t>(seed, corank::less{});
  sorts_every_shape<std::uint64_t>(seed, corank::less{});
  sorts_every_shape<float>(seed, corank::less{});
  sorts_every_shape<double>(seed, corank::less{});
  sorts_every_shape<record>(seed, record_less{});
}

}  // namespace
