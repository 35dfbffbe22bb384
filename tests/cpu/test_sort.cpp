// The CPU stable sort, against std::stable_sort. Values record each key's original position, so
// stability is checked, not assumed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "corank/cpu/sort.hpp"
#include "support/seeded_test.hpp"

namespace {

class CpuSort : public corank::test::seeded_test {
 public:
  static corank::cpu::options threads(int t) {
    corank::cpu::options opt;
    opt.threads = t;
    opt.sequential_below = 0;  // exercise the parallel phases even for tiny inputs
    return opt;
  }

  // Sorts keys with stable_sort_by_key (values = original positions) and with stable_sort, and
  // compares both against std::stable_sort.
  template <class T, class Compare = corank::less>
  void check(const std::vector<T>& keys, Compare comp = {}, corank::cpu::sort_options opt = {}) {
    std::vector<std::uint64_t> want_pos(keys.size());
    std::iota(want_pos.begin(), want_pos.end(), 0);
    std::stable_sort(want_pos.begin(), want_pos.end(),
                     [&](std::uint64_t x, std::uint64_t y) { return comp(keys[x], keys[y]); });

    std::vector<T> got = keys;
    std::vector<std::uint64_t> pos(keys.size());
    std::iota(pos.begin(), pos.end(), 0);
    corank::cpu::stable_sort_by_key(got.begin(), got.end(), pos.begin(), comp, opt);
    ASSERT_EQ(pos, want_pos) << "n=" << keys.size() << " threads=" << opt.threads;
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_TRUE(!comp(got[i], keys[pos[i]]) && !comp(keys[pos[i]], got[i])) << i;

    std::vector<T> only = keys;
    corank::cpu::stable_sort(only.begin(), only.end(), comp, opt);
    for (std::size_t i = 0; i < only.size(); ++i)
      ASSERT_TRUE(!comp(only[i], keys[want_pos[i]]) && !comp(keys[want_pos[i]], only[i])) << i;
  }

  std::vector<std::uint32_t> random_keys(std::size_t n, std::uint32_t range) {
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = static_cast<std::uint32_t>(rng() % range);
    return v;
  }
};

TEST_F(CpuSort, PowersOfTwoPlusMinusOne) {
  for (std::size_t p = 1; p <= (std::size_t(1) << 15); p *= 2)
    for (std::size_t n : {p - 1, p, p + 1})
      for (int t : {1, 2, 3}) check(random_keys(n, 1u << 31), corank::less{}, threads(t));
}

TEST_F(CpuSort, EmptyAndSingleElement) {
  for (int t : {1, 2}) {
    check(std::vector<std::uint32_t>{}, corank::less{}, threads(t));
    check(std::vector<std::uint32_t>{7}, corank::less{}, threads(t));
  }
}

TEST_F(CpuSort, IsStableWhenAllKeysAreEqual) {
  for (int t : {1, 2, 3}) check(std::vector<std::uint32_t>(5000, 9), corank::less{}, threads(t));
}

TEST_F(CpuSort, IsStableWithFewDistinctKeys) {
  for (int t : {1, 2, 4}) check(random_keys(20000 + rng() % 1000, 5), corank::less{}, threads(t));
}

TEST_F(CpuSort, SortedAndReversedInputs) {
  auto keys = random_keys(30000, 1000);
  std::sort(keys.begin(), keys.end());
  for (int t : {1, 2}) check(keys, corank::less{}, threads(t));
  std::reverse(keys.begin(), keys.end());
  for (int t : {1, 2}) check(keys, corank::less{}, threads(t));
}

TEST_F(CpuSort, LargeInputWithDefaultOptions) {
  check(random_keys((std::size_t(1) << 20) + 3, 1u << 31));
  check(random_keys(300001, 100));
}

TEST_F(CpuSort, SizesAroundTheBlockAndChunkBoundaries) {
  const std::size_t block = corank::cpu::tuning::sort_block_items;
  for (int t : {2, 3})
    for (std::size_t base : {block, block * t, block * t * 5, std::size_t(4096) * t})
      for (std::size_t n : {base - 1, base, base + 1})
        check(random_keys(n, 50), corank::less{}, threads(t));
}

TEST_F(CpuSort, DescendingComparator) {
  for (int t : {1, 3}) check(random_keys(10000, 300), corank::greater{}, threads(t));
}

TEST_F(CpuSort, SignedZerosAreTiesAndKeepTheirOrder) {
  std::vector<double> keys;
  for (int i = 0; i < 3000; ++i)
    keys.push_back(rng() % 2 ? -0.0 : 0.0), keys.push_back(double(rng() % 5) - 2);
  for (int t : {1, 2}) {
    check(keys, corank::less{}, threads(t));
    // Bits, not just order: the zeros come out in input order, signs included.
    std::vector<double> got = keys;
    corank::cpu::stable_sort(got.begin(), got.end(), corank::less{}, threads(t));
    std::vector<double> want = keys;
    std::stable_sort(want.begin(), want.end());
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(std::signbit(got[i]), std::signbit(want[i])) << i;
  }
}

TEST_F(CpuSort, StructKeysWithACustomComparator) {
  struct point {
    std::int32_t x = 0, y = 0;
  };
  auto by_x = [](const point& p, const point& q) { return p.x < q.x; };  // y is not compared
  std::vector<point> keys(7000);
  for (auto& p : keys) p = {int(rng() % 40) - 20, int(rng() % 1000)};
  for (int t : {1, 2, 3}) check(keys, by_x, threads(t));
}

// Keys-only integer sorts take the SIMD base case where the build has one (cpu/simd_sort.hpp):
// every width it handles, signed and unsigned, both orders, around the sequential threshold and
// the tagged sort's chunk, with few distinct keys; by key (values = positions, packed into pairs;
// keys of up to 32 bits through the SIMD sort of (key, index) tags) they stay stable.
template <class T>
std::vector<T> integer_keys(std::mt19937_64& rng, std::size_t n, std::uint64_t range) {
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(rng() % range - range / 2);
  return v;
}

template <class T, class Fixture>
void check_integer_width(Fixture& f, std::mt19937_64& rng) {
  const std::size_t seq = corank::cpu::tuning::sequential_below_items;
  const std::size_t chunk = corank::cpu::tuning::sort_tagged_chunk_items;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(17), seq - 1,
                        seq, seq + 1, std::size_t(100003), chunk + 1, 2 * chunk + 7})
    for (int t : {1, 2, 4}) {
      corank::cpu::options opt;
      opt.threads = t;  // the default threshold: both sides of it
      for (std::uint64_t range : {std::uint64_t(7), std::uint64_t(1) << 62}) {
        const auto keys = integer_keys<T>(rng, n, range);
        f.check(keys, corank::less{}, opt);
        f.check(keys, corank::greater{}, opt);
        std::vector<T> got = keys, want = keys;
        corank::cpu::stable_sort(got.begin(), got.end(), corank::less{}, opt);
        std::sort(want.begin(), want.end());
        ASSERT_EQ(got, want) << "n=" << n << " threads=" << t << " bytes=" << sizeof(T);
      }
    }
}

TEST_F(CpuSort, IntegerKeysOfEveryWidthTheSimdSortTakes) {
  check_integer_width<std::uint8_t>(*this, rng);  // by key only: the tagged order
  check_integer_width<std::int8_t>(*this, rng);
  check_integer_width<std::uint16_t>(*this, rng);
  check_integer_width<std::int16_t>(*this, rng);
  check_integer_width<std::uint32_t>(*this, rng);
  check_integer_width<std::int32_t>(*this, rng);
  check_integer_width<std::uint64_t>(*this, rng);
  check_integer_width<std::int64_t>(*this, rng);
  check_integer_width<long long>(*this, rng);
}

// Keys or values too large (or not trivially copyable) to pack into pairs keep the separate
// arrays: still stable, values alongside.
TEST_F(CpuSort, ByKeyWithKeysAndValuesThatDoNotPack) {
  struct wide {
    std::uint64_t hi = 0, lo = 0;
  };
  auto by_hi = [](const wide& x, const wide& y) { return x.hi < y.hi; };
  std::vector<wide> keys(9000);
  for (auto& k : keys) k = {rng() % 50, rng()};
  for (int t : {1, 2, 3}) check(keys, by_hi, threads(t));

  for (int t : {1, 2, 3}) {
    const auto k = random_keys(5000, 40);
    std::vector<std::string> vals(k.size());
    for (std::size_t i = 0; i < k.size(); ++i) vals[i] = std::to_string(i);
    std::vector<std::size_t> order(k.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return k[x] < k[y]; });
    auto got_keys = k;
    auto got_vals = vals;
    corank::cpu::stable_sort_by_key(got_keys.begin(), got_keys.end(), got_vals.begin(),
                                    corank::less{}, threads(t));
    for (std::size_t i = 0; i < k.size(); ++i) {
      ASSERT_EQ(got_keys[i], k[order[i]]) << i;
      ASSERT_EQ(got_vals[i], vals[order[i]]) << i;
    }
  }
}

// The sorted chunks merged by passes of k-way merges (multiway_from_items and _chunks = 0): one
// pass up to
// one_pass_most_runs chunks, passes of 3 beyond; copyable items only (others stay pairwise).
TEST_F(CpuSort, KWayMergePassesAreStable) {
  for (const std::size_t most : {3, 4, 64})
    for (const int t : {2, 3, 5, 9}) {
      corank::cpu::sort_options opt = threads(t);
      opt.multiway_from_items = opt.multiway_from_chunks = 0;
      opt.one_pass_most_runs = most;  // more chunks: passes of up to 3 runs
      opt.most_runs_per_pass = 3;
      SCOPED_TRACE(testing::Message() << "one pass up to " << most << ", threads " << t);
      check(random_keys(100000 + rng() % 1000, 1u << 31), corank::less{}, opt);
      check(random_keys(70000, 7), corank::less{}, opt);
      check(random_keys(t * 16 + 1, 3), corank::less{}, opt);
      check(std::vector<std::uint32_t>(20000, 4), corank::less{}, opt);
      std::vector<double> reals(30000);
      for (auto& x : reals) x = double(rng() % 100) - 50.0;
      check(reals, corank::greater{}, opt);
      // Many chunks of 2^18 (the tagged SIMD order by key, where Highway is built in).
      if (t <= 3) check(random_keys((std::size_t(1) << 20) + 3, 1000), corank::less{}, opt);
      const auto keys = random_keys(50000, 100);
      std::deque<std::uint32_t> d(keys.begin(), keys.end());
      corank::cpu::stable_sort(d.begin(), d.end(), corank::less{}, opt);
      std::vector<std::uint32_t> want = keys;
      std::sort(want.begin(), want.end());
      ASSERT_TRUE(std::equal(d.begin(), d.end(), want.begin()));
    }
}

// The tagged SIMD order by key (32-bit keys) from chunks of any size: one item, a few, 1000, one
// thread's share (0), by pairwise and k-way passes.
TEST_F(CpuSort, TaggedChunksOfAnySize) {
  for (const std::size_t chunk : {1, 2, 1000, 0})
    for (const int t : {1, 2, 3})
      for (const bool multiway : {false, true}) {
        corank::cpu::sort_options opt = threads(t);
        opt.tagged_chunk_items = chunk;
        opt.multiway_from_items = multiway ? 0 : ~std::size_t(0);
        opt.multiway_from_chunks = 0;
        SCOPED_TRACE(testing::Message() << "chunks of " << chunk << ", threads " << t
                                        << (multiway ? ", k-way" : ", pairwise"));
        check(random_keys(30011, 1u << 31), corank::less{}, opt);
        check(random_keys(20000, 5), corank::greater{}, opt);
      }
}

TEST_F(CpuSort, NonPointerIterators) {
  const auto keys = random_keys(9000, 100);
  std::deque<std::uint32_t> d(keys.begin(), keys.end());
  corank::cpu::stable_sort(d.begin(), d.end(), corank::less{}, threads(2));
  std::vector<std::uint32_t> want = keys;
  std::sort(want.begin(), want.end());
  EXPECT_TRUE(std::equal(d.begin(), d.end(), want.begin()));
}

}  // namespace
