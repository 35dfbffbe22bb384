// The co-rank core and the CPU merge, against std::merge.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

#include "corank/cpu/merge.hpp"
#include "corank/cpu/merge_streams.hpp"
#include "corank/merge_path.hpp"
#include "support/merge_reference.hpp"
#include "support/seeded_test.hpp"

namespace {

using corank::test::origins;
using corank::test::reference_merge_by_key;
using corank::test::sorted_keys;

constexpr std::uint32_t poison32 = 0xDEADBEEFu;
constexpr std::uint64_t poison64 = 0xDEADBEEFDEADBEEFull;

class CoRank : public corank::test::seeded_test {};
class CpuMerge : public corank::test::seeded_test {
 protected:
  // Merges a and b with corank::cpu::merge_by_key and checks keys and origins against the
  // reference. The outputs are poisoned first so an unwritten element is caught.
  template <class T, class Compare = corank::less>
  void check(const std::vector<T>& a, const std::vector<T>& b, Compare comp = {},
             corank::cpu::options opt = {}) {
    std::vector<T> want_keys;
    std::vector<std::uint64_t> want_values;
    reference_merge_by_key(a, b, comp, want_keys, want_values);

    const auto va = origins(0, a.size()), vb = origins(1, b.size());
    std::vector<T> keys(a.size() + b.size(), T(poison32));
    std::vector<std::uint64_t> values(keys.size(), poison64);
    const auto [key_end, value_end] =
        corank::cpu::merge_by_key(a.begin(), a.end(), va.begin(), b.begin(), b.end(), vb.begin(),
                                  keys.begin(), values.begin(), comp, opt);
    ASSERT_EQ(key_end, keys.end());
    ASSERT_EQ(value_end, values.end());
    ASSERT_EQ(keys, want_keys) << "m=" << a.size() << " n=" << b.size();
    ASSERT_EQ(values, want_values) << "m=" << a.size() << " n=" << b.size();

    std::vector<T> keys_only(keys.size(), T(poison32));
    ASSERT_EQ(
        corank::cpu::merge(a.begin(), a.end(), b.begin(), b.end(), keys_only.begin(), comp, opt),
        keys_only.end());
    ASSERT_EQ(keys_only, want_keys);
  }

  static corank::cpu::options parallel(int threads) {
    corank::cpu::options opt;
    opt.threads = threads;
    opt.sequential_below = 0;  // exercise the parallel split even for tiny inputs
    return opt;
  }
};

// --- co_rank ----------------------------------------------------------------------------------

template <bool BranchFree>
void check_co_rank_against_merge(std::mt19937_64& rng, std::size_t m, std::size_t n,
                                 std::uint64_t range) {
  const auto a = sorted_keys<int>(rng, m, range), b = sorted_keys<int>(rng, n, range);
  std::vector<int> keys;
  std::vector<std::uint64_t> values;
  reference_merge_by_key(a, b, corank::less{}, keys, values);
  // The co-rank of k is the number of A-origins among the first k outputs.
  std::size_t from_a = 0;
  for (std::size_t k = 0; k <= m + n; ++k) {
    ASSERT_EQ(corank::co_rank<BranchFree>(k, a.data(), m, b.data(), n, corank::less{}), from_a)
        << "k=" << k << " m=" << m << " n=" << n;
    ASSERT_EQ(corank::co_rank_on_grid(k, a.data(), m, b.data(), n, corank::less{}), from_a)
        << "on the grid: k=" << k << " m=" << m << " n=" << n;
    if (k < m + n) from_a += (values[k] >> 63) == 0;
  }
}

TEST_F(CoRank, MatchesTheStableMergeAtEveryDiagonal) {
  for (std::size_t m : {0, 1, 2, 3, 7, 16, 33, 70})
    for (std::size_t n : {0, 1, 2, 5, 16, 31, 65})
      for (std::uint64_t range : {1, 3, 1000}) {
        check_co_rank_against_merge<false>(rng, m, n, range);
        check_co_rank_against_merge<true>(rng, m, n, range);
      }
}

TEST_F(CoRank, TiesGoToTheFirstInput) {
  const std::vector<int> a(5, 7), b(4, 7);
  for (std::size_t k = 0; k <= 9; ++k) {
    EXPECT_EQ(corank::co_rank(k, a.data(), a.size(), b.data(), b.size(), corank::less{}),
              std::min<std::size_t>(k, 5));
    EXPECT_EQ(corank::co_rank<true>(k, a.data(), a.size(), b.data(), b.size(), corank::less{}),
              std::min<std::size_t>(k, 5));
    EXPECT_EQ(corank::co_rank_on_grid(k, a.data(), a.size(), b.data(), b.size(), corank::less{}),
              std::min<std::size_t>(k, 5));
  }
}

TEST(EvenSplit, CoversTheRangeInNearEqualParts) {
  for (std::uint64_t total : {0ull, 1ull, 7ull, 1000ull, (1ull << 40) + 3})
    for (std::uint64_t parts : {1ull, 2ull, 3ull, 64ull}) {
      EXPECT_EQ(corank::even_split(total, parts, std::uint64_t(0)), 0u);
      EXPECT_EQ(corank::even_split(total, parts, parts), total);
      for (std::uint64_t p = 0; p < parts; ++p) {
        const auto size =
            corank::even_split(total, parts, p + 1) - corank::even_split(total, parts, p);
        EXPECT_LE(size, total / parts + 1);
        EXPECT_GE(size, total / parts);
      }
    }
}

TEST(EvenSplit, HandlesSizesAbove32Bits) {
  const std::uint64_t total = std::uint64_t(1) << 62;
  EXPECT_EQ(corank::even_split<std::uint64_t>(total, 3, 2), 2 * (total / 3) + 1);
}

TEST_F(CoRank, WorksWithSizesAndIndicesAbove32Bits) {
  // A virtual input of 2^33 + 5 elements, a[i] = 2i, against b[j] = 2j + 1: the merge interleaves.
  struct evens {
    std::uint64_t operator[](std::uint64_t i) const { return 2 * i; }
  };
  struct odds {
    std::uint64_t operator[](std::uint64_t i) const { return 2 * i + 1; }
  };
  const std::uint64_t m = (std::uint64_t(1) << 33) + 5, n = m;
  for (std::uint64_t k : {std::uint64_t(0), std::uint64_t(1) << 33, m + n - 1, m + n}) {
    EXPECT_EQ(corank::co_rank(k, evens{}, m, odds{}, n, corank::less{}), (k + 1) / 2);
    EXPECT_EQ(corank::co_rank<true>(k, evens{}, m, odds{}, n, corank::less{}), (k + 1) / 2);
    EXPECT_EQ(corank::co_rank_on_grid(k, evens{}, m, odds{}, n, corank::less{}), (k + 1) / 2);
  }
}

// --- serial merges ----------------------------------------------------------------------------

TEST_F(CpuMerge, SerialMergesMatchStdMerge) {
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t m = rng() % 100, n = rng() % 100;
    const auto a = sorted_keys<int>(rng, m, 1 + rng() % 50),
               b = sorted_keys<int>(rng, n, 1 + rng() % 50);
    std::vector<int> want(m + n), branchy(m + n, -1), branch_free(m + n, -1);
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
    corank::serial_merge<false>(a.begin(), a.end(), b.begin(), b.end(), branchy.begin(),
                                corank::less{});
    corank::serial_merge<true>(a.begin(), a.end(), b.begin(), b.end(), branch_free.begin(),
                               corank::less{});
    ASSERT_EQ(branchy, want);
    ASSERT_EQ(branch_free, want);
  }
}

// --- the interleaved multi-stream merge --------------------------------------------------------

// Runs merge_streams_by_key<Streams> with `min_items` per stream and checks keys and origins.
template <int Streams, class T>
void check_streams(const std::vector<T>& a, const std::vector<T>& b, std::ptrdiff_t min_items) {
  std::vector<T> want_keys;
  std::vector<std::uint64_t> want_values;
  reference_merge_by_key(a, b, corank::less{}, want_keys, want_values);
  const auto va = origins(0, a.size()), vb = origins(1, b.size());
  std::vector<T> keys(a.size() + b.size(), T(poison32));
  std::vector<std::uint64_t> values(keys.size(), poison64);
  corank::cpu::merge_streams_by_key<Streams>(a.data(), a.data() + a.size(), va.data(), b.data(),
                                             b.data() + b.size(), vb.data(), keys.data(),
                                             values.data(), corank::less{}, min_items);
  ASSERT_EQ(keys, want_keys) << "streams=" << Streams << " m=" << a.size() << " n=" << b.size();
  ASSERT_EQ(values, want_values) << "streams=" << Streams << " m=" << a.size() << " n=" << b.size();
}

template <int Streams>
void check_streams_around_split_points(std::mt19937_64& rng) {
  // Stream cuts sit at multiples of total / Streams, and fewer streams are used below
  // Streams * min_items: sizes around both, with few and many distinct keys.
  for (std::ptrdiff_t min_items : {1, 2, 5})
    for (std::ptrdiff_t base :
         {Streams * min_items, Streams * std::ptrdiff_t(7), Streams * std::ptrdiff_t(100)})
      for (std::ptrdiff_t shift : {-1, 0, 1})
        for (std::uint64_t range : {std::uint64_t(1), std::uint64_t(3), std::uint64_t(1) << 30}) {
          const std::size_t total = std::size_t(base + shift), m = rng() % (total + 1);
          check_streams<Streams>(sorted_keys<std::uint32_t>(rng, m, range),
                                 sorted_keys<std::uint32_t>(rng, total - m, range), min_items);
        }
}

TEST_F(CpuMerge, InterleavedStreamsMatchTheReferenceAroundTheirSplitPoints) {
  check_streams_around_split_points<1>(rng);
  check_streams_around_split_points<2>(rng);
  check_streams_around_split_points<3>(rng);
  check_streams_around_split_points<4>(rng);
  check_streams_around_split_points<8>(rng);
}

TEST_F(CpuMerge, InterleavedStreamsWithOneSidedAndUnevenInputs) {
  std::vector<std::uint32_t> low = sorted_keys<std::uint32_t>(rng, 1000, 1000), high = low;
  for (auto& x : high) x += 1000;
  check_streams<4>(low, high, 1);
  check_streams<4>(high, low, 1);
  check_streams<4>(low, std::vector<std::uint32_t>(3, 500), 1);  // B lands in one stream
  check_streams<4>(std::vector<std::uint32_t>(1, 7), low, 1);
  check_streams<4>(low, std::vector<std::uint32_t>{}, 1);
  check_streams<3>(std::vector<std::uint32_t>{}, low, 1);
}

TEST(ChunkCount, AtLeastOnePerThreadAtMostTheCapNoneTooSmall) {
  using corank::cpu::detail::chunk_count;
  EXPECT_EQ(chunk_count(0, 2, 8, 100), 2);
  EXPECT_EQ(chunk_count(199, 2, 8, 100), 2);
  EXPECT_EQ(chunk_count(300, 2, 8, 100), 3);
  EXPECT_EQ(chunk_count(1000000, 2, 8, 100), 16);
}

// --- the parallel merge -----------------------------------------------------------------------

TEST_F(CpuMerge, MatchesStdMergeOverManySizes) {
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t m = rng() % 5000, n = rng() % 5000;
    check(sorted_keys<std::uint32_t>(rng, m, 1u << 31),
          sorted_keys<std::uint32_t>(rng, n, 1u << 31), corank::less{},
          parallel(1 + int(rng() % 5)));
  }
}

TEST_F(CpuMerge, LargeInputsWithDefaultOptions) {
  for (std::size_t m : {std::size_t(1) << 20, (std::size_t(1) << 20) + 1})
    check(sorted_keys<std::uint32_t>(rng, m, 1u << 31),
          sorted_keys<std::uint32_t>(rng, 3 * m / 2, 1u << 31));
}

TEST_F(CpuMerge, EmptyInputs) {
  const std::vector<int> none, some = sorted_keys<int>(rng, 100, 10);
  for (int threads : {1, 2, 3}) {
    check(none, none, corank::less{}, parallel(threads));
    check(none, some, corank::less{}, parallel(threads));
    check(some, none, corank::less{}, parallel(threads));
  }
}

TEST_F(CpuMerge, SingleElements) {
  for (int threads : {1, 2, 4}) {
    check(std::vector<int>{1}, std::vector<int>{0}, corank::less{}, parallel(threads));
    check(std::vector<int>{0}, std::vector<int>{1}, corank::less{}, parallel(threads));
    check(std::vector<int>{5}, std::vector<int>{5}, corank::less{}, parallel(threads));
  }
}

TEST_F(CpuMerge, IsStableWhenAllKeysAreEqual) {
  for (int threads : {1, 2, 3, 8})
    check(std::vector<int>(1001, 3), std::vector<int>(999, 3), corank::less{}, parallel(threads));
}

TEST_F(CpuMerge, IsStableWithManyDuplicatesAcrossInputs) {
  for (int threads : {2, 3, 7})
    check(sorted_keys<int>(rng, 10000, 5), sorted_keys<int>(rng, 7000, 5), corank::less{},
          parallel(threads));
}

TEST_F(CpuMerge, OneInputEntirelyBeforeTheOther) {
  std::vector<int> low = sorted_keys<int>(rng, 3000, 1000), high = low;
  for (int& x : high) x += 1000;
  for (int threads : {2, 3}) {
    check(low, high, corank::less{}, parallel(threads));
    check(high, low, corank::less{}, parallel(threads));
  }
}

TEST_F(CpuMerge, SizesAroundTheParallelSplitPoints) {
  // With t threads the output is cut at multiples of (m+n)/t: sizes near multiples of t move
  // every cut by one.
  for (int threads : {2, 3, 4})
    for (std::size_t base :
         {std::size_t(threads), std::size_t(64 * threads), std::size_t(1000 * threads)})
      for (std::size_t m : {base - 1, base, base + 1})
        for (std::size_t n : {base - 1, base, base + 1})
          check(sorted_keys<int>(rng, m, 50), sorted_keys<int>(rng, n, 50), corank::less{},
                parallel(threads));
}

TEST_F(CpuMerge, SizesAroundTheChunkBoundaries) {
  // Large merges are cut into chunks of at least merge_min_chunk_items, up to
  // merge_chunks_per_thread per thread: sizes where the chunk count changes, plus or minus one.
  namespace tuning = corank::cpu::tuning;
  for (int threads : {2, 3})
    for (std::ptrdiff_t chunks :
         {std::ptrdiff_t(threads) + 1, std::ptrdiff_t(threads) * tuning::merge_chunks_per_thread})
      for (std::ptrdiff_t shift : {-1, 0, 1}) {
        const std::size_t total = std::size_t(chunks * tuning::merge_min_chunk_items + shift);
        check(sorted_keys<std::uint32_t>(rng, total / 3, 1u << 20),
              sorted_keys<std::uint32_t>(rng, total - total / 3, 1u << 20), corank::less{},
              parallel(threads));
      }
}

TEST_F(CpuMerge, AroundTheSequentialThreshold) {
  const std::size_t t = corank::cpu::options{}.sequential_below;
  for (std::size_t total : {t - 1, t, t + 1})
    check(sorted_keys<int>(rng, total / 2, 1000), sorted_keys<int>(rng, total - total / 2, 1000));
}

TEST_F(CpuMerge, DescendingComparator) {
  auto a = sorted_keys<std::int64_t>(rng, 5000, 100), b = sorted_keys<std::int64_t>(rng, 4000, 100);
  std::reverse(a.begin(), a.end());
  std::reverse(b.begin(), b.end());
  check(a, b, corank::greater{}, parallel(3));
}

TEST_F(CpuMerge, StructKeysWithACustomComparator) {
  struct point {
    std::int32_t x, y;
    bool operator==(const point& o) const { return x == o.x && y == o.y; }
  };
  auto by_x_then_y = [](const point& p, const point& q) {
    return p.x != q.x ? p.x < q.x : p.y < q.y;
  };
  auto make = [&](std::size_t n) {
    std::vector<point> v(n);
    for (auto& p : v) p = {int(rng() % 20), int(rng() % 3)};
    std::sort(v.begin(), v.end(), by_x_then_y);
    return v;
  };
  // point(int) for the poison value used by check().
  struct keyed : point {
    keyed() = default;
    explicit keyed(std::uint32_t) : point{-1, -1} {}
    keyed(point p) : point(p) {}
  };
  auto a0 = make(3000), b0 = make(2500);
  std::vector<keyed> a(a0.begin(), a0.end()), b(b0.begin(), b0.end());
  check(a, b, by_x_then_y, parallel(3));
}

TEST_F(CpuMerge, FloatingPointSignedZerosAreTies) {
  // -0.0 == +0.0 under <, so they are ties and must keep input order; compare the bits.
  std::vector<double> a{-1.0, -0.0, -0.0, 0.0, 2.0}, b{-0.0, 0.0, 0.0, 1.0};
  for (int threads : {1, 2, 3}) {
    std::vector<double> out(a.size() + b.size(), 99.0);
    corank::cpu::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(), corank::less{},
                       parallel(threads));
    // -1 | A: -0 -0 +0 | B: -0 +0 +0 | 1 2
    const std::vector<bool> negative{true, true, true, false, true, false, false, false, false};
    for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(std::signbit(out[i]), negative[i]) << i;
  }
}

TEST_F(CpuMerge, NonPointerIterators) {
  const auto a = sorted_keys<int>(rng, 3000, 100), b = sorted_keys<int>(rng, 2000, 100);
  std::deque<int> da(a.begin(), a.end()), db(b.begin(), b.end()), out(5000, -1);
  corank::cpu::merge(da.begin(), da.end(), db.begin(), db.end(), out.begin(), corank::less{},
                     parallel(2));
  std::vector<int> want(5000);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
  EXPECT_TRUE(std::equal(out.begin(), out.end(), want.begin()));
}

}  // namespace
