// The CPU library under misuse: violated preconditions end (in an unspecified order, as std::
// does) with nothing lost, exceptions from comparators and operators propagate from the parallel
// paths as from the sequential ones, and move-only types sort and merge.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "corank/cpu/merge.hpp"
#include "corank/cpu/segmented_scan.hpp"
#include "corank/cpu/sort.hpp"
#include "support/misuse.hpp"
#include "support/seeded_test.hpp"

namespace {

using corank::test::bit_multiset;
using corank::test::coin_less;
using corank::test::finishes_within;
using corank::test::hang_limit;

class CpuMisuse : public corank::test::seeded_test {
 protected:
  /// The calling thread alone, and several threads splitting even small inputs.
  static std::vector<corank::cpu::options> paths() {
    corank::cpu::options sequential, parallel2, parallel3;
    sequential.threads = 1;
    parallel2.threads = 2, parallel2.sequential_below = 0;
    parallel3.threads = 3, parallel3.sequential_below = 0;
    return {sequential, parallel2, parallel3, corank::cpu::options{}};
  }

  std::vector<double> uniform_doubles(std::size_t n) {
    std::uniform_real_distribution<double> pick(-1000.0, 1000.0);
    std::vector<double> v(n);
    for (double& x : v) x = pick(rng);
    return v;
  }
};

template <class T>
std::vector<T> concat(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> all = a;
  all.insert(all.end(), b.begin(), b.end());
  return all;
}

// --- violated preconditions end, and lose nothing ---------------------------------------------

// The common way to get there: NaN in float data (every tenth value; std::stable_sort returns).
TEST_F(CpuMisuse, StableSortOfDoublesWithNanEnds) {
  for (const auto& opt : paths())
    for (std::size_t n : {300u, 1000u, 5000u, 100000u}) {
      std::vector<double> keys = uniform_doubles(n);
      for (std::size_t i = 0; i < n; i += 10) keys[i] = std::numeric_limits<double>::quiet_NaN();
      std::vector<double> got = keys;
      finishes_within(hang_limit, [&] {
        corank::cpu::stable_sort(got.begin(), got.end(), corank::less{}, opt);
      });
      ASSERT_EQ(bit_multiset(got), bit_multiset(keys)) << "n=" << n << " threads=" << opt.threads;

      // By key: every value travels with its own key.
      std::vector<double> k2 = keys;
      std::vector<std::uint32_t> pos(n);
      std::iota(pos.begin(), pos.end(), 0u);
      finishes_within(hang_limit, [&] {
        corank::cpu::stable_sort_by_key(k2.begin(), k2.end(), pos.begin(), corank::less{}, opt);
      });
      std::vector<std::uint32_t> seen = pos;
      std::sort(seen.begin(), seen.end());
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(seen[i], i) << "n=" << n << ": values are not a permutation";
        ASSERT_EQ(std::memcmp(&k2[i], &keys[pos[i]], sizeof(double)), 0) << "i=" << i;
      }
    }
}

// `<=` is no strict weak order, but it orders consistently (ties go to the later element): its
// co-ranks stay monotone, and the result is sorted, though not stably.
TEST_F(CpuMisuse, StableSortWithLessOrEqualSorts) {
  std::uniform_int_distribution<int> pick(0, 50);  // many ties: `<=` answers true both ways
  for (const auto& opt : paths())
    for (std::size_t n : {1000u, 4096u, 100000u}) {
      std::vector<int> keys(n);
      for (int& k : keys) k = pick(rng);
      std::vector<int> got = keys;
      finishes_within(hang_limit, [&] {
        corank::cpu::stable_sort(
            got.begin(), got.end(), [](int x, int y) { return x <= y; }, opt);
      });
      ASSERT_TRUE(std::is_sorted(got.begin(), got.end())) << "n=" << n;
      ASSERT_EQ(bit_multiset(got), bit_multiset(keys)) << "n=" << n << " threads=" << opt.threads;
    }
}

TEST_F(CpuMisuse, StableSortWithARandomComparatorEnds) {
  for (const auto& opt : paths())
    for (std::size_t n : {1000u, 100000u}) {
      std::vector<int> keys(n);
      for (int& k : keys) k = int(rng());
      std::vector<int> got = keys;
      finishes_within(hang_limit,
                      [&] { corank::cpu::stable_sort(got.begin(), got.end(), coin_less{}, opt); });
      ASSERT_EQ(bit_multiset(got), bit_multiset(keys)) << "n=" << n << " threads=" << opt.threads;
    }
}

TEST_F(CpuMisuse, MergeOfUnsortedInputsEnds) {
  for (const auto& opt : paths())
    for (std::size_t side : {1000u, 50000u}) {
      std::vector<int> a(side), b(side + 7);
      for (int& x : a) x = int(rng() % 1000);
      for (int& x : b) x = int(rng() % 1000);
      std::vector<int> out(a.size() + b.size());
      finishes_within(hang_limit, [&] {
        corank::cpu::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(), corank::less{},
                           opt);
      });
      ASSERT_EQ(bit_multiset(out), bit_multiset(concat(a, b))) << "side=" << side;
    }
}

// The README's own call, on data sorted the other way.
TEST_F(CpuMisuse, MergeWithGreaterOnAscendingDataEnds) {
  for (const auto& opt : paths())
    for (std::size_t side : {256u, 1000u, 100000u}) {
      std::vector<int> a(side), b(side);
      for (int& x : a) x = int(rng() % 100000);
      for (int& x : b) x = int(rng() % 100000);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      std::vector<int> out(2 * side);
      std::vector<std::uint64_t> va(side, 1), vb(side, 2), vout(2 * side);
      finishes_within(hang_limit, [&] {
        corank::cpu::merge_by_key(a.begin(), a.end(), va.begin(), b.begin(), b.end(), vb.begin(),
                                  out.begin(), vout.begin(), corank::greater{}, opt);
      });
      ASSERT_EQ(bit_multiset(out), bit_multiset(concat(a, b))) << "side=" << side;
      ASSERT_EQ(std::count(vout.begin(), vout.end(), 1u), std::ptrdiff_t(side));
    }
}

TEST_F(CpuMisuse, MergeWithNanKeysEnds) {
  for (const auto& opt : paths()) {
    std::vector<double> a = uniform_doubles(3000), b = uniform_doubles(2000);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    for (std::size_t i = 0; i < a.size(); i += 10) a[i] = std::nan("");
    for (std::size_t i = 5; i < b.size(); i += 10) b[i] = std::nan("");
    std::vector<double> out(a.size() + b.size());
    finishes_within(hang_limit, [&] {
      corank::cpu::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(), corank::less{}, opt);
    });
    ASSERT_EQ(bit_multiset(out), bit_multiset(concat(a, b))) << "threads=" << opt.threads;
  }
}

// The output over an input: the contents are unspecified, but the call returns.
TEST_F(CpuMisuse, MergeIntoAnOverlappingOutputEnds) {
  const std::size_t side = 1 << 20;
  for (const auto& opt : paths()) {
    std::vector<int> buffer(3 * side), b(side);
    for (std::size_t i = 0; i < side; ++i) buffer[side + i] = int(2 * i), b[i] = int(2 * i + 1);
    for (std::size_t shift : {0u, 1u, 1000u}) {
      auto a = buffer.begin() + std::ptrdiff_t(side);
      finishes_within(hang_limit, [&] {
        corank::cpu::merge(a, a + std::ptrdiff_t(side), b.begin(), b.end(),
                           buffer.begin() + std::ptrdiff_t(shift), corank::less{}, opt);
      });
    }
  }
}

// --- exceptions propagate from every path
// ---------------------------------------------------------

struct comparator_error : std::runtime_error {
  comparator_error() : std::runtime_error("comparator failed") {}
};

/// corank::less that throws on its `fail_at`-th call (counted across threads).
struct throwing_less {
  std::atomic<long>* calls;
  long fail_at;
  template <class T>
  bool operator()(const T& x, const T& y) const {
    if (calls->fetch_add(1, std::memory_order_relaxed) == fail_at) throw comparator_error();
    return x < y;
  }
};

TEST_F(CpuMisuse, ThrowingComparatorPropagatesFromSorts) {
  for (const auto& opt : paths())
    for (std::size_t n : {1000u, 200000u})
      for (long fail_at : {0L, 2000L}) {
        std::vector<int> keys(n);
        for (int& k : keys) k = int(rng() % 1000);
        std::vector<int> got = keys, vals(n);
        std::atomic<long> calls{0};
        finishes_within(hang_limit, [&] {
          EXPECT_THROW(
              corank::cpu::stable_sort(got.begin(), got.end(), throwing_less{&calls, fail_at}, opt),
              comparator_error)
              << "n=" << n << " threads=" << opt.threads;
        });
        got = keys;
        calls = 0;
        finishes_within(hang_limit, [&] {
          EXPECT_THROW(corank::cpu::stable_sort_by_key(got.begin(), got.end(), vals.begin(),
                                                       throwing_less{&calls, fail_at}, opt),
                       comparator_error)
              << "n=" << n << " threads=" << opt.threads;
        });
      }
}

TEST_F(CpuMisuse, ThrowingComparatorPropagatesFromMerges) {
  for (const auto& opt : paths())
    for (std::size_t side : {1000u, 200000u})
      for (long fail_at : {0L, 100L}) {
        std::vector<int> a(side), b(side), out(2 * side);
        std::iota(a.begin(), a.end(), 0);
        std::iota(b.begin(), b.end(), 0);
        std::atomic<long> calls{0};
        finishes_within(hang_limit, [&] {
          EXPECT_THROW(corank::cpu::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin(),
                                          throwing_less{&calls, fail_at}, opt),
                       comparator_error)
              << "side=" << side << " threads=" << opt.threads;
        });
      }
}

/// corank::plus that throws on its `fail_at`-th call.
struct throwing_plus {
  std::atomic<long>* calls;
  long fail_at;
  double operator()(double x, double y) const {
    if (calls->fetch_add(1, std::memory_order_relaxed) == fail_at) throw comparator_error();
    return x + y;
  }
};

TEST_F(CpuMisuse, ThrowingOperatorPropagatesFromSegmentedScans) {
  const std::size_t n = 100000;
  std::vector<double> in(n, 1.0), out(n);
  std::vector<std::uint32_t> offsets{0, 10, 40000, 40001, std::uint32_t(n)};
  const std::size_t segments = offsets.size() - 1;
  for (const auto& opt : paths())
    for (long fail_at : {0L, 30000L}) {
      std::atomic<long> calls{0};
      finishes_within(hang_limit, [&] {
        EXPECT_THROW(
            corank::cpu::segmented_inclusive_scan(in.data(), n, offsets.data(), segments,
                                                  out.data(), throwing_plus{&calls, fail_at}, opt),
            comparator_error)
            << "threads=" << opt.threads;
      });
      calls = 0;
      finishes_within(hang_limit, [&] {
        EXPECT_THROW(corank::cpu::segmented_exclusive_scan(in.data(), n, offsets.data(), segments,
                                                           out.data(), 0.0,
                                                           throwing_plus{&calls, fail_at}, opt),
                     comparator_error);
      });
      for (int per_pass : {1, 4}) {
        corank::cpu::segmented_scan_options iterate = opt;
        iterate.steps_per_pass = per_pass;
        std::vector<double> a(n, 1.0), scale(n, 0.5);
        calls = 0;
        finishes_within(hang_limit, [&] {
          EXPECT_THROW(corank::cpu::scaled_segmented_scan_iterations(
                           a.data(), scale.data(), n, offsets.data(), segments, 8,
                           throwing_plus{&calls, fail_at}, iterate),
                       comparator_error)
              << "steps per pass " << per_pass;
        });
      }
    }
}

#ifndef CORANK_TEST_COPYABLE_ONLY
// --- move-only types ---------------------------------------------------------------------------

struct item {
  int key, position;
};
using owned = std::unique_ptr<item>;
struct by_key {
  bool operator()(const owned& x, const owned& y) const { return x->key < y->key; }
};

TEST_F(CpuMisuse, StableSortOfMoveOnlyKeys) {
  for (const auto& opt : paths())
    for (std::size_t n : {0u, 1u, 17u, 1000u, 100000u}) {
      std::vector<owned> keys;
      for (std::size_t i = 0; i < n; ++i)
        keys.push_back(std::make_unique<item>(item{int(rng() % 100), int(i)}));
      corank::cpu::stable_sort(keys.begin(), keys.end(), by_key{}, opt);
      for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(keys[i]) << "lost at " << i;
      for (std::size_t i = 1; i < n; ++i) {
        ASSERT_LE(keys[i - 1]->key, keys[i]->key) << "n=" << n << " i=" << i;
        if (keys[i - 1]->key == keys[i]->key) {
          ASSERT_LT(keys[i - 1]->position, keys[i]->position) << "not stable at " << i;
        }
      }
    }
}

// A sort moves its items: with cuts that disagree, nothing may be moved twice or left behind.
TEST_F(CpuMisuse, StableSortOfMoveOnlyKeysWithNanEnds) {
  for (const auto& opt : paths())
    for (std::size_t n : {1000u, 100000u}) {
      std::vector<std::unique_ptr<double>> keys;
      std::vector<double> want;
      for (std::size_t i = 0; i < n; ++i) {
        want.push_back(i % 10 == 0 ? std::nan("") : double(rng() % 1000));
        keys.push_back(std::make_unique<double>(want.back()));
      }
      finishes_within(hang_limit, [&] {
        corank::cpu::stable_sort(
            keys.begin(), keys.end(),
            [](const std::unique_ptr<double>& x, const std::unique_ptr<double>& y) {
              return *x < *y;
            },
            opt);
      });
      std::vector<double> got;
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(keys[i]) << "lost at " << i << ", n=" << n << " threads=" << opt.threads;
        got.push_back(*keys[i]);
      }
      ASSERT_EQ(bit_multiset(got), bit_multiset(want));
    }
}

TEST_F(CpuMisuse, StableSortByKeyWithMoveOnlyValues) {
  for (const auto& opt : paths()) {
    const std::size_t n = 50000;
    std::vector<int> keys(n);
    std::vector<std::unique_ptr<int>> vals;
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = int(rng() % 1000);
      vals.push_back(std::make_unique<int>(keys[i]));
    }
    corank::cpu::stable_sort_by_key(keys.begin(), keys.end(), vals.begin(), corank::less{}, opt);
    ASSERT_TRUE(std::is_sorted(keys.begin(), keys.end()));
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(vals[i]) << "lost at " << i;
      ASSERT_EQ(*vals[i], keys[i]) << "i=" << i;
    }
  }
}

TEST_F(CpuMisuse, MergeOfMoveOnlyKeysThroughMoveIterators) {
  for (const auto& opt : paths()) {
    const std::size_t m = 40000, n = 30000;
    std::vector<owned> a, b, out(m + n);
    for (std::size_t i = 0; i < m; ++i)
      a.push_back(std::make_unique<item>(item{int(i / 3), int(i)}));
    for (std::size_t i = 0; i < n; ++i)
      b.push_back(std::make_unique<item>(item{int(i / 2), int(m + i)}));
    corank::cpu::merge(std::make_move_iterator(a.begin()), std::make_move_iterator(a.end()),
                       std::make_move_iterator(b.begin()), std::make_move_iterator(b.end()),
                       out.begin(), by_key{}, opt);
    for (std::size_t i = 0; i < m + n; ++i) ASSERT_TRUE(out[i]) << "lost at " << i;
    for (std::size_t i = 1; i < m + n; ++i) {
      ASSERT_LE(out[i - 1]->key, out[i]->key);
      if (out[i - 1]->key == out[i]->key) {
        ASSERT_LT(out[i - 1]->position, out[i]->position) << "not stable at " << i;
      }
    }
  }
}
#endif

}  // namespace
