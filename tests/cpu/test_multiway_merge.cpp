// The k-way co-rank (multiway_co_rank.hpp) against the counts of a stable sort, and the CPU k-way
// merge (one pass and the tree) against std::stable_sort of the concatenated runs; values carry
// each key's origin, so stability by run order is checked, not assumed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "corank/cpu/multiway_merge.hpp"
#include "corank/functional.hpp"
#include "corank/multiway_co_rank.hpp"
#include "support/seeded_test.hpp"

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

class MultiwayCoRank : public corank::test::seeded_test {
 protected:
  /// Runs of the given lengths, keys in [0, distinct), each sorted by comp, one after another.
  template <class Compare = corank::less>
  std::vector<u32> runs(const std::vector<u64>& lengths, u32 distinct, Compare comp = {}) {
    std::uniform_int_distribution<u32> key(0, distinct - 1);
    std::vector<u32> keys;
    for (const u64 len : lengths) {
      const auto first = keys.size();
      for (u64 i = 0; i < len; ++i) keys.push_back(key(rng));
      std::sort(keys.begin() + long(first), keys.end(), comp);
    }
    return keys;
  }

  /// Every rank's cut against the counts of the reference (a stable sort of the concatenation
  /// orders ties by run, then by position), for all ranks 0 ... n when n is small, else a sample
  /// with both ends.
  template <class Compare = corank::less>
  void check(const std::vector<u64>& lengths, const std::vector<u32>& keys, Compare comp = {}) {
    const u64 k = lengths.size();
    std::vector<u64> starts(k + 1, 0);
    std::partial_sum(lengths.begin(), lengths.end(), starts.begin() + 1);
    const u64 n = starts[k];
    std::vector<u64> order(n), run_of(n);
    std::iota(order.begin(), order.end(), u64(0));
    for (u64 j = 0; j < k; ++j)
      std::fill(run_of.begin() + long(starts[j]), run_of.begin() + long(starts[j + 1]), j);
    std::stable_sort(order.begin(), order.end(),
                     [&](u64 x, u64 y) { return comp(keys[x], keys[y]); });
    std::vector<u64> ranks;
    if (n <= 600) {
      ranks.resize(n + 1);
      std::iota(ranks.begin(), ranks.end(), u64(0));
    } else {
      ranks = {0, 1, n / 2, n - 1, n};
      for (int s = 0; s < 200; ++s) ranks.push_back(rng() % (n + 1));
      std::sort(ranks.begin(), ranks.end());
    }
    std::vector<u64> want(k, 0), got(k), work(2 * k);
    u64 done = 0;
    for (const u64 r : ranks) {
      for (; done < r; ++done) ++want[run_of[order[done]]];
      std::fill(got.begin(), got.end(), ~u64(0));
      corank::multiway_co_rank(keys.data(), starts.data(), k, r, got.data(), work.data(), comp);
      ASSERT_EQ(got, want) << k << " runs, " << n << " items, rank " << r;
    }
  }
};

TEST_F(MultiwayCoRank, MatchesTheStableSortForOneToSeventyRuns) {
  std::uniform_int_distribution<u64> length(0, 40);
  for (u64 k = 1; k <= 70; ++k)
    for (const u32 distinct : {2u, 20u, 1u << 30}) {
      std::vector<u64> lengths(k);
      for (auto& l : lengths) l = length(rng);
      check(lengths, runs(lengths, distinct));
    }
}

TEST_F(MultiwayCoRank, EmptyRunsAndNoItems) {
  check({0}, {});
  check({0, 0, 0}, {});
  const std::vector<u64> lengths{0, 5, 0, 0, 7, 0};
  check(lengths, runs(lengths, 4));
}

TEST_F(MultiwayCoRank, AllKeysEqualAcrossRuns) {
  // Ties go by run: the first rank items fill the runs in order.
  const std::vector<u64> lengths{3, 0, 17, 1, 9, 40};
  check(lengths, std::vector<u32>(70, 5));
}

TEST_F(MultiwayCoRank, OneRunBeforeAllOthers) {
  for (const bool first_low : {true, false}) {
    std::vector<u64> lengths{50, 30, 20, 45};
    std::vector<u32> keys = runs(lengths, 100);
    // Run 2 (items 80 ... 99) entirely below (or above) every other key.
    for (u64 i = 80; i < 100; ++i) keys[i] = first_low ? 0 : 1000 + u32(i);
    for (u64 i = 0; i < keys.size(); ++i)
      if (i < 80 || i >= 100) keys[i] += 1;
    check(lengths, keys);
  }
}

TEST_F(MultiwayCoRank, SkewedLengths) {
  const std::vector<u64> lengths{1, 100000, 2, 0, 3, 5000, 1};
  check(lengths, runs(lengths, 50));
  const std::vector<u64> one_long{200000};
  check(one_long, runs(one_long, 1000));
}

TEST_F(MultiwayCoRank, AnyComparator) {
  const std::vector<u64> lengths{30, 12, 0, 44, 9};
  check(lengths, runs(lengths, 10, corank::greater{}), corank::greater{});
}

/// Keys computed from their position: run j holds keys (i * step_j) >> 20, so runs of billions of
/// items take no memory.
struct implicit_keys {
  const u64* starts;
  const u64* steps;
  u64 k;
  u64 at = 0;
  u64 operator[](u64 i) const {
    const u64 p = at + i;
    u64 j = 0;
    while (starts[j + 1] <= p) ++j;
    return ((p - starts[j]) * steps[j]) >> 20;
  }
  implicit_keys operator+(u64 d) const { return {starts, steps, k, at + d}; }
};

TEST_F(MultiwayCoRank, SixtyFourBitSizes) {
  // Past 2^32 items: the cut is checked by its definition, every taken item of a run before every
  // item left in every other run (ties taken from the lower run first), the counts summing to r.
  const std::vector<u64> lengths{u64(3) << 31, 5, u64(1) << 33, 0, (u64(1) << 32) + 7};
  const std::vector<u64> steps{1 << 20, 3 << 19, 1 << 19, 1 << 20, 5 << 18};
  const u64 k = lengths.size();
  std::vector<u64> starts(k + 1, 0);
  std::partial_sum(lengths.begin(), lengths.end(), starts.begin() + 1);
  const u64 n = starts[k];
  const implicit_keys keys{starts.data(), steps.data(), k};
  std::vector<u64> ranks{0, 1, n / 3, n / 2, (u64(1) << 32) + 1, n - 1, n};
  for (int s = 0; s < 20; ++s) ranks.push_back(rng() % (n + 1));
  std::vector<u64> cut(k), work(2 * k);
  for (const u64 r : ranks) {
    corank::multiway_co_rank(keys, starts.data(), k, r, cut.data(), work.data(), corank::less{});
    ASSERT_EQ(std::accumulate(cut.begin(), cut.end(), u64(0)), r) << "rank " << r;
    for (u64 j = 0; j < k; ++j) {
      ASSERT_LE(cut[j], lengths[j]);
      if (cut[j] == 0) continue;
      const u64 last_taken = keys[starts[j] + cut[j] - 1];
      for (u64 i = 0; i < k; ++i) {
        if (i == j || cut[i] == lengths[i]) continue;
        const u64 first_left = keys[starts[i] + cut[i]];
        ASSERT_TRUE(last_taken < first_left || (last_taken == first_left && j < i))
            << "rank " << r << ": run " << j << " takes " << last_taken << ", run " << i
            << " leaves " << first_left;
      }
    }
  }
}

TEST_F(MultiwayCoRank, EndsOnAComparatorThatIsNoOrder) {
  // A violated precondition: counts within the runs, summing to the rank, and the call ends.
  const std::vector<u64> lengths{300, 0, 1000, 77, 500};
  std::vector<u32> keys(1877);
  for (auto& x : keys) x = u32(rng() % 100);  // unsorted
  std::vector<u64> starts{0, 300, 300, 1300, 1377, 1877}, cut(5), work(10);
  std::mt19937_64 coin(rng());
  const auto random_order = [&](u32, u32) { return bool(coin() & 1); };
  for (const u64 r : {u64(0), u64(1), u64(900), u64(1876), u64(1877)}) {
    corank::multiway_co_rank(keys.data(), starts.data(), u64(5), r, cut.data(), work.data(),
                             random_order);
    ASSERT_EQ(std::accumulate(cut.begin(), cut.end(), u64(0)), r);
    for (u64 j = 0; j < 5; ++j) ASSERT_LE(cut[j], lengths[j]);
  }
}

// --- the k-way merge -----------------------------------------------------------------------------

class CpuMultiwayMerge : public corank::test::seeded_test {
 protected:
  static constexpr u32 poison_key = 0xDEADBEEFu;
  static constexpr u64 poison_value = ~u64(0);

  static corank::cpu::multiway_options settings(int threads, std::size_t one_pass_most_runs,
                                                std::size_t most_runs_per_pass = 2) {
    corank::cpu::multiway_options opt;
    opt.threads = threads;
    opt.sequential_below = 0;  // the parallel path for small inputs too
    opt.one_pass_most_runs = one_pass_most_runs;
    opt.most_runs_per_pass = most_runs_per_pass;
    return opt;
  }

  /// Merges runs of the given lengths (keys in [0, distinct)) by key with values = origins, and
  /// keys alone, into poisoned outputs, against a stable sort of the concatenation.
  void check(const std::vector<u64>& lengths, u32 distinct,
             const corank::cpu::multiway_options& opt) {
    const std::size_t k = lengths.size();
    SCOPED_TRACE(testing::Message() << k << " runs, threads " << opt.threads << ", one pass up to "
                                    << opt.one_pass_most_runs << ", then passes of "
                                    << opt.most_runs_per_pass << ", distinct " << distinct);
    std::vector<u64> offsets(k + 1, 0);
    std::partial_sum(lengths.begin(), lengths.end(), offsets.begin() + 1);
    const u64 n = offsets[k];
    std::vector<u32> keys;
    std::uniform_int_distribution<u32> key(0, distinct - 1);
    for (const u64 len : lengths) {
      const auto first = keys.size();
      for (u64 i = 0; i < len; ++i) keys.push_back(key(rng));
      std::sort(keys.begin() + long(first), keys.end());
    }
    std::vector<u64> origins(n);
    std::iota(origins.begin(), origins.end(), u64(0));
    std::vector<u64> want = origins;
    std::stable_sort(want.begin(), want.end(), [&](u64 x, u64 y) { return keys[x] < keys[y]; });

    std::vector<u32> got_keys(n, poison_key);
    std::vector<u64> got_values(n, poison_value);
    corank::cpu::multiway_merge_by_key(keys.data(), origins.data(), offsets.data(), k,
                                       got_keys.data(), got_values.data(), corank::less{}, opt);
    ASSERT_EQ(got_values, want) << "by key: not the stable merge";
    for (u64 i = 0; i < n; ++i) ASSERT_EQ(got_keys[i], keys[want[i]]) << i;

    std::fill(got_keys.begin(), got_keys.end(), poison_key);
    corank::cpu::multiway_merge(keys.data(), offsets.data(), k, got_keys.data(), corank::less{},
                                opt);
    for (u64 i = 0; i < n; ++i) ASSERT_EQ(got_keys[i], keys[want[i]]) << "keys alone, " << i;
  }

  std::vector<u64> random_lengths(std::size_t k, u64 most) {
    std::uniform_int_distribution<u64> length(0, most);
    std::vector<u64> lengths(k);
    for (auto& l : lengths) l = length(rng);
    return lengths;
  }
};

TEST_F(CpuMultiwayMerge, OnePassIsTheStableMerge) {
  for (const std::size_t k : {2, 3, 4, 5, 16, 63, 64, 65, 200})
    for (const int threads : {1, 2, 3, 7})
      for (const u32 distinct : {3u, 1u << 30})
        check(random_lengths(k, 3 * 65536 / k + 50), distinct, settings(threads, 1 << 20));
}

TEST_F(CpuMultiwayMerge, OnePassWithThousandsOfRuns) {
  for (const std::size_t k : {1000, 4097})
    for (const int threads : {2, 5}) {
      auto lengths = random_lengths(k, 600);
      lengths[0] = 0, lengths[k / 2] = 100000, lengths[k - 1] = 0;
      check(lengths, 1000, settings(threads, 1 << 20));
    }
}

TEST_F(CpuMultiwayMerge, PassesOfFewerRunsAreTheStableMerge) {
  // 1 and 2: the pairwise tree; 5 and 16: passes of up to 5 (16) runs each.
  for (const std::size_t most : {1, 2, 5, 16})
    for (const std::size_t k : {2, 3, 17, 300})
      for (const int threads : {1, 3})
        check(random_lengths(k, 2000), 50, settings(threads, 1, most));
}

TEST_F(CpuMultiwayMerge, FanInTakesTheFewestPasses) {
  using corank::cpu::detail::multiway_fan_in;
  EXPECT_EQ(multiway_fan_in(1024, 1), 2u);
  EXPECT_EQ(multiway_fan_in(1024, 2), 2u);
  EXPECT_EQ(multiway_fan_in(5, 64), 5u);
  EXPECT_EQ(multiway_fan_in(64, 64), 64u);
  EXPECT_EQ(multiway_fan_in(65, 64), 9u);     // two passes: 9 x 9 >= 65
  EXPECT_EQ(multiway_fan_in(1024, 64), 32u);  // two passes
  EXPECT_EQ(multiway_fan_in(1025, 32), 11u);  // three passes: 11^3 >= 1025 > 10^3
  EXPECT_EQ(multiway_fan_in(64, settings(1, 64)), 64u);
  EXPECT_EQ(multiway_fan_in(2, settings(1, 64)), 2u);
  EXPECT_EQ(multiway_fan_in(65, settings(1, 64)), 2u);      // the tree
  EXPECT_EQ(multiway_fan_in(65, settings(1, 64, 16)), 9u);  // two passes
}

TEST_F(CpuMultiwayMerge, EdgeRuns) {
  for (const std::size_t one_pass : {std::size_t(1), std::size_t(1) << 20})
    for (const int threads : {1, 2, 4}) {
      const auto opt = settings(threads, one_pass);
      check({}, 10, opt);
      check({0}, 10, opt);
      check({0, 0, 0}, 10, opt);
      check({70000}, 10, opt);
      check({0, 100000, 0, 1}, 10, opt);
      check({5, 90000, 3, 0, 40000, 7}, 1, opt);  // all keys equal: run order throughout
      check({65536, 65535, 65537, 1, 65536}, 1u << 30, opt);
    }
}

TEST_F(CpuMultiwayMerge, OneRunBeforeAllOthers) {
  // Keys of run 1 all below the others': a piece's cut then takes nothing from most runs.
  const std::vector<u64> lengths{50000, 80000, 30000, 1000};
  std::vector<u64> offsets{0, 50000, 130000, 160000, 161000};
  std::vector<u32> keys(161000);
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = i >= 50000 && i < 130000 ? u32(i / 1000) : u32(1000 + (i % 50000));
  std::sort(keys.begin(), keys.begin() + 50000);
  std::sort(keys.begin() + 130000, keys.begin() + 160000);
  std::sort(keys.begin() + 160000, keys.end());
  std::vector<u32> want = keys, got(keys.size(), poison_key);
  std::stable_sort(want.begin(), want.end());
  for (const int threads : {2, 3}) {
    corank::cpu::multiway_merge(keys.data(), offsets.data(), 4, got.data(), corank::less{},
                                settings(threads, 64));
    ASSERT_EQ(got, want) << "threads " << threads;
  }
}

TEST_F(CpuMultiwayMerge, EndsWithAPermutationOnAComparatorThatIsNoOrder) {
  // A violated precondition (unsorted runs, a comparator that flips coins): the call ends and the
  // output is a permutation of the inputs.
  const std::size_t k = 9, n = 200000;
  std::vector<u64> offsets(k + 1);
  for (std::size_t j = 0; j <= k; ++j) offsets[j] = n * j / k;
  std::vector<u32> keys(n);
  for (auto& x : keys) x = u32(rng() % 1000);
  std::vector<u64> origins(n);
  std::iota(origins.begin(), origins.end(), u64(0));
  const u64 seed = rng();
  const auto coin = [seed](u32 x, u32 y) {
    return bool((std::hash<u64>{}(seed ^ (u64(x) << 32 | y)) >> 7) & 1);
  };
  for (const std::size_t one_pass : {std::size_t(1), std::size_t(64)}) {
    std::vector<u32> got_keys(n, poison_key);
    std::vector<u64> got(n, poison_value);
    corank::cpu::multiway_merge_by_key(keys.data(), origins.data(), offsets.data(), k,
                                       got_keys.data(), got.data(), coin, settings(3, one_pass));
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, origins) << "not a permutation, one pass up to " << one_pass;
  }
}

}  // namespace

namespace {

// Offsets that are no CSR, null pointers with items and overlapping outputs throw before the
// output is touched (the passes would read and write out of bounds).
TEST(CpuMultiwayMergeArguments, BadArgumentsThrowAndWriteNothing) {
  const std::vector<u32> keys{1, 5, 9, 2, 3, 4, 0, 7};
  const std::vector<u64> values{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<u32> out(keys.size(), 0xDEADBEEFu);
  std::vector<u64> out_values(keys.size(), ~u64(0));
  const auto throws = [&](const std::vector<long long>& offsets, const u32* k, const u64* v,
                          u32* ko, u64* vo, const char* what, bool keys_alone_too = true) {
    SCOPED_TRACE(what);
    for (const int threads : {1, 3}) {
      corank::cpu::multiway_options opt;
      opt.threads = threads, opt.sequential_below = 0;
      EXPECT_THROW(corank::cpu::multiway_merge_by_key(k, v, offsets.data(), offsets.size() - 1, ko,
                                                      vo, corank::less{}, opt),
                   std::invalid_argument);
      if (keys_alone_too) {
        EXPECT_THROW(corank::cpu::multiway_merge(k, offsets.data(), offsets.size() - 1, ko,
                                                 corank::less{}, opt),
                     std::invalid_argument);
      }
    }
    for (const u32 x : out) ASSERT_EQ(x, 0xDEADBEEFu);
    for (const u64 x : out_values) ASSERT_EQ(x, ~u64(0));
  };
  throws({1, 3, 8}, keys.data(), values.data(), out.data(), out_values.data(), "offsets[0] != 0");
  throws({0, 6, 3, 8}, keys.data(), values.data(), out.data(), out_values.data(), "decreasing");
  throws({0, -2, 8}, keys.data(), nullptr, out.data(), nullptr, "negative offset");
  throws({0, 3, 8}, nullptr, nullptr, out.data(), nullptr, "null keys");
  throws({0, 3, 8}, keys.data(), nullptr, nullptr, nullptr, "null output");
  throws({0, 3, 8}, keys.data(), nullptr, out.data(), out_values.data(), "null values", false);
  std::vector<u32> in_place = keys;
  throws({0, 3, 8}, in_place.data(), nullptr, in_place.data() + 1, nullptr, "output over input");
  throws({0, 3, 8}, keys.data(), values.data(), out.data(), reinterpret_cast<u64*>(out.data()),
         "values over keys", false);
  // No runs, or runs with no items: nothing to check the pointers against.
  EXPECT_NO_THROW(
      corank::cpu::multiway_merge(keys.data(), static_cast<const u64*>(nullptr), 0, out.data()));
  const std::vector<u64> empty_runs{0, 0, 0};
  EXPECT_NO_THROW(corank::cpu::multiway_merge(static_cast<const u32*>(nullptr), empty_runs.data(),
                                              2, static_cast<u32*>(nullptr)));
}

}  // namespace
