// The CPU co-rank toolbox against std:: references: load-balancing search and interval expand,
// sorted search, set operations, k-way merge. Every check runs on the calling thread and on four
// threads with the parallel split forced even for tiny inputs, so pieces start and end inside
// runs of equal keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "corank/cpu/join.hpp"
#include "corank/cpu/load_balance.hpp"
#include "corank/cpu/multiway_merge.hpp"
#include "corank/cpu/set_operations.hpp"
#include "corank/cpu/sorted_search.hpp"
#include "support/merge_reference.hpp"
#include "support/seeded_test.hpp"
#include "support/toolbox_cases.hpp"

namespace {

using namespace corank::test;
using corank::set_op;

constexpr std::uint32_t poison32 = 0xDEADBEEFu;
constexpr std::uint64_t poison64 = 0xDEADBEEFDEADBEEFull;
constexpr std::size_t piece = 64;  // the inputs' shapes are sized around this

std::vector<corank::cpu::options> thread_settings() {
  corank::cpu::options parallel;
  parallel.threads = 4;
  parallel.sequential_below = 0;
  return {corank::cpu::options{}, parallel};
}

class CpuToolbox : public seeded_test {};

// --- load-balancing search and interval expand -----------------------------------------------

TEST_F(CpuToolbox, LoadBalancingSearchGivesEveryItemItsSegment) {
  for (const auto& lengths : awkward_segment_lengths(rng, piece))
    for (const auto& opt : thread_settings()) {
      const auto offsets = offsets_of<int>(lengths);
      const auto want = reference_segments(lengths);
      std::vector<std::uint32_t> got(want.size(), poison32);
      corank::cpu::load_balancing_search(offsets.data(), lengths.size(), want.size(), got.data(),
                                         opt);
      ASSERT_EQ(got, want) << lengths.size() << " segments, threads " << opt.threads;
    }
}

TEST_F(CpuToolbox, IntervalExpandRepeatsEachValueOverItsSegment) {
  for (const auto& lengths : awkward_segment_lengths(rng, piece))
    for (const auto& opt : thread_settings()) {
      const auto offsets = offsets_of<std::uint64_t>(lengths);
      std::vector<double> values(lengths.size());
      for (std::size_t s = 0; s < values.size(); ++s) values[s] = 0.5 + double(s);
      std::vector<double> want;
      for (std::size_t s = 0; s < lengths.size(); ++s)
        want.insert(want.end(), lengths[s], values[s]);
      std::vector<double> got(want.size(), -1.0);
      corank::cpu::interval_expand(offsets.data(), lengths.size(), values.data(), want.size(),
                                   got.data(), opt);
      ASSERT_EQ(got, want) << lengths.size() << " segments, threads " << opt.threads;
    }
}

TEST_F(CpuToolbox, LoadBalancingSearchStaysInRangeWhenOffsetsFallShort) {
  // offsets[S] < n: the items past the last end get segment S, nothing is read out of range.
  const std::vector<unsigned> offsets{0, 3, 5};
  std::vector<std::uint32_t> got(9, poison32);
  corank::cpu::load_balancing_search(offsets.data(), 2, got.size(), got.data());
  EXPECT_EQ(got, (std::vector<std::uint32_t>{0, 0, 0, 1, 1, 2, 2, 2, 2}));
}

// --- sorted search ------------------------------------------------------------------------------

TEST_F(CpuToolbox, SortedSearchMatchesStdBounds) {
  for (const auto& c : awkward_pairs<std::uint32_t>(rng, piece))
    for (const auto& opt : thread_settings()) {
      // Needles a, haystack b, and the other way round.
      for (int flip = 0; flip < 2; ++flip) {
        const auto& needles = flip ? c.b : c.a;
        const auto& hay = flip ? c.a : c.b;
        std::vector<std::uint64_t> want_lower(needles.size()), want_upper(needles.size());
        for (std::size_t i = 0; i < needles.size(); ++i) {
          want_lower[i] = std::lower_bound(hay.begin(), hay.end(), needles[i]) - hay.begin();
          want_upper[i] = std::upper_bound(hay.begin(), hay.end(), needles[i]) - hay.begin();
        }
        std::vector<std::uint64_t> got(needles.size(), poison64);
        corank::cpu::sorted_lower_bound(hay.begin(), hay.end(), needles.begin(), needles.end(),
                                        got.begin(), corank::less{}, opt);
        ASSERT_EQ(got, want_lower) << c.name << " flip " << flip << " threads " << opt.threads;
        std::fill(got.begin(), got.end(), poison64);
        corank::cpu::sorted_upper_bound(hay.begin(), hay.end(), needles.begin(), needles.end(),
                                        got.begin(), corank::less{}, opt);
        ASSERT_EQ(got, want_upper) << c.name << " flip " << flip << " threads " << opt.threads;
      }
    }
}

/// std::lower_bound (or upper) of each needle, as an index.
template <class T, class Compare = std::less<>>
std::vector<std::uint64_t> std_bounds(const std::vector<T>& hay, const std::vector<T>& needles,
                                      bool upper, Compare comp = {}) {
  std::vector<std::uint64_t> want(needles.size());
  for (std::size_t i = 0; i < needles.size(); ++i)
    want[i] = std::uint64_t((upper ? std::upper_bound(hay.begin(), hay.end(), needles[i], comp)
                                   : std::lower_bound(hay.begin(), hay.end(), needles[i], comp)) -
                            hay.begin());
  return want;
}

TEST_F(CpuToolbox, UnsortedNeedlesMatchStdBoundsEitherWay) {
  namespace detail = corank::cpu::detail;
  using corank::cpu::bound;
  for (const auto& c : awkward_pairs<std::uint32_t>(rng, piece))
    for (int flip = 0; flip < 2; ++flip) {
      auto needles = flip ? c.b : c.a;  // duplicates, all equal, outside the haystack, empty
      std::shuffle(needles.begin(), needles.end(), rng);
      const auto& hay = flip ? c.a : c.b;
      const auto want_lower = std_bounds(hay, needles, false);
      const auto want_upper = std_bounds(hay, needles, true);
      const std::size_t m = hay.size(), n = needles.size();
      for (const auto& opt : thread_settings())
        for (const bool sorted_first : {false, true}) {
          // Each way, forced, for the bound `which` (an integral_constant of bound).
          const auto search = [&](auto which, std::vector<std::uint64_t>& got) {
            constexpr bound b = decltype(which)::value;
            if (sorted_first)
              detail::sort_then_search<b>(hay.begin(), m, needles.begin(), n, got.begin(),
                                          corank::less{}, opt);
            else
              detail::binary_searches<b>(hay.begin(), m, needles.begin(), n, got.begin(),
                                         corank::less{}, opt);
          };
          for (const bool upper : {false, true}) {
            std::vector<std::uint64_t> got(n, poison64);
            if (upper)
              search(std::integral_constant<bound, bound::upper>{}, got);
            else
              search(std::integral_constant<bound, bound::lower>{}, got);
            ASSERT_EQ(got, upper ? want_upper : want_lower)
                << c.name << " flip " << flip << " threads " << opt.threads
                << (upper ? " upper" : " lower")
                << (sorted_first ? ", sorted first" : ", one by one");
          }
        }
    }
}

TEST_F(CpuToolbox, UnsortedNeedlesMatchStdBoundsThroughThePublicCalls) {
  namespace tuning = corank::cpu::tuning;
  // Few needles in a small haystack (one by one), and many in a haystack past the cache bound
  // (sorted first), descending by greater.
  const std::size_t big_m = tuning::haystack_cached_bytes / sizeof(int) + 17;
  const std::size_t big_n =
      std::max(tuning::sort_needles_from, big_m / tuning::sort_needles_from_share) + 5;
  ASSERT_TRUE(corank::cpu::detail::sort_needles_first<int>(big_m, big_n));
  ASSERT_FALSE(corank::cpu::detail::sort_needles_first<int>(5000, 3001));
  for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{5000, 3001}, {big_m, big_n}}) {
    auto hay = sorted_keys<int>(rng, m, 7 * m / 5);
    auto needles = sorted_keys<int>(rng, n, 8 * m / 5);
    std::reverse(hay.begin(), hay.end());
    std::shuffle(needles.begin(), needles.end(), rng);
    const auto want_lower = std_bounds(hay, needles, false, std::greater<>{});
    const auto want_upper = std_bounds(hay, needles, true, std::greater<>{});
    for (const auto& opt : thread_settings()) {
      std::vector<std::uint64_t> got(n, poison64);
      corank::cpu::lower_bound(hay.begin(), hay.end(), needles.begin(), needles.end(), got.begin(),
                               corank::greater{}, opt);
      ASSERT_EQ(got, want_lower) << m << " keys, " << n << " needles";
      std::fill(got.begin(), got.end(), poison64);
      corank::cpu::upper_bound(hay.begin(), hay.end(), needles.begin(), needles.end(), got.begin(),
                               corank::greater{}, opt);
      ASSERT_EQ(got, want_upper) << m << " keys, " << n << " needles";
    }
  }
}

TEST_F(CpuToolbox, SortedSearchTakesAnyComparator) {
  auto hay = sorted_keys<int>(rng, 2000, 300), needles = sorted_keys<int>(rng, 1500, 300);
  std::reverse(hay.begin(), hay.end());
  std::reverse(needles.begin(), needles.end());
  const auto opt = thread_settings()[1];
  std::vector<std::size_t> got(needles.size()), want(needles.size());
  for (std::size_t i = 0; i < needles.size(); ++i)
    want[i] = std::lower_bound(hay.begin(), hay.end(), needles[i], std::greater<>{}) - hay.begin();
  corank::cpu::sorted_lower_bound(hay.begin(), hay.end(), needles.begin(), needles.end(),
                                  got.begin(), corank::greater{}, opt);
  ASSERT_EQ(got, want);
}

// --- set operations -----------------------------------------------------------------------------

TEST_F(CpuToolbox, SetOperationsMatchStdWithMultisetSemanticsAndOrigins) {
  for (const auto& c : awkward_pairs<std::uint32_t>(rng, piece))
    for (const set_op op : every_set_op)
      for (const auto& opt : thread_settings()) {
        std::vector<std::uint32_t> want_keys;
        std::vector<std::uint64_t> want_values;
        reference_set_operation(op, c.a, c.b, corank::less{}, want_keys, want_values);
        const std::size_t most = corank::set_operation_max_outputs(op, c.a.size(), c.b.size());
        std::vector<std::uint32_t> keys(most, poison32);
        std::vector<std::uint64_t> values(most, poison64);
        const auto va = origins(0, c.a.size()), vb = origins(1, c.b.size());
        const auto [key_end, value_end] = corank::cpu::set_operation_by_key(
            op, c.a.begin(), c.a.end(), va.begin(), c.b.begin(), c.b.end(), vb.begin(),
            keys.begin(), values.begin(), corank::less{}, opt);
        const auto where = std::string(set_op_name(op)) + ", " + c.name + ", threads " +
                           std::to_string(opt.threads);
        ASSERT_EQ(std::size_t(key_end - keys.begin()), want_keys.size()) << where;
        ASSERT_EQ(std::size_t(value_end - values.begin()), want_keys.size()) << where;
        keys.resize(want_keys.size());
        values.resize(want_keys.size());
        ASSERT_EQ(keys, want_keys) << where;
        ASSERT_EQ(values, want_values) << where;
      }
}

// The GPU tiles' loop (merge_path_walk.hpp), run here on the host: balanced cuts every VT - 1
// outputs, VT steps per piece in "registers", the kept candidates concatenated, against std::.
template <set_op Op, int VT>
void check_register_set_loop(const sorted_pair<std::uint32_t>& c) {
  std::vector<std::uint32_t> want_keys;
  std::vector<std::uint64_t> want_values;
  reference_set_operation(Op, c.a, c.b, corank::less{}, want_keys, want_values);
  const std::size_t m = c.a.size(), n = c.b.size(), step = VT - 1;
  std::vector<std::uint32_t> got_keys;
  std::vector<std::uint64_t> got_values;
  corank::cut_pair<std::size_t> from{0, 0};
  for (std::size_t k = step; from.a + from.b < m + n; k += step) {
    const auto to =
        corank::balanced_co_rank(std::min(k, m + n), c.a.data(), m, c.b.data(), n, corank::less{});
    const std::size_t pa = to.a - from.a, pb = to.b - from.b;
    ASSERT_LE(pa + pb, std::size_t(VT)) << c.name;
    // One array as a GPU tile's stage: A's piece, then B's, then a readable slot past B's end
    // holding A's last key (the loop must ignore the keys at both ends, even equal ones).
    std::vector<std::uint32_t> keys(c.a.begin() + from.a, c.a.begin() + to.a);
    keys.insert(keys.end(), c.b.begin() + from.b, c.b.begin() + to.b);
    keys.push_back(pa ? keys[pa - 1] : poison32);
    std::uint32_t out[VT];
    std::size_t index[VT];
    const unsigned kept = corank::serial_set_operation_registers<Op>(
        keys.data(), std::size_t(0), pa, pa, pa + pb, out, index, corank::less{});
    for (int s = 0; s < VT; ++s)
      if (kept >> s & 1u) {
        got_keys.push_back(out[s]);
        got_values.push_back(index[s] < pa ? origin(0, from.a + index[s])
                                           : origin(1, from.b + index[s] - pa));
      }
    from = to;
  }
  ASSERT_EQ(got_keys, want_keys) << set_op_name(Op) << ", " << c.name;
  ASSERT_EQ(got_values, want_values) << set_op_name(Op) << ", " << c.name;
}

TEST_F(CpuToolbox, RegisterSetLoopBetweenBalancedCutsMatchesStd) {
  for (const auto& c : awkward_pairs<std::uint32_t>(rng, piece)) {
    check_register_set_loop<set_op::unite, 15>(c);
    check_register_set_loop<set_op::intersect, 15>(c);
    check_register_set_loop<set_op::difference, 7>(c);
    check_register_set_loop<set_op::symmetric_difference, 32>(c);
  }
}

TEST_F(CpuToolbox, NamedSetOperationsAreTheirStdCounterparts) {
  const auto a = sorted_keys<int>(rng, 3000, 200), b = sorted_keys<int>(rng, 2500, 200);
  const auto opt = thread_settings()[1];
  std::vector<int> want(a.size() + b.size()), got(a.size() + b.size());
  const auto same = [&](auto ours, auto theirs) {
    const auto end = ours(got.begin());
    const auto want_end = theirs(want.begin());
    ASSERT_EQ(end - got.begin(), want_end - want.begin());
    ASSERT_TRUE(std::equal(got.begin(), end, want.begin()));
  };
  using corank::cpu::options;
  same(
      [&](auto o) {
        return corank::cpu::set_union(a.begin(), a.end(), b.begin(), b.end(), o, corank::less{},
                                      opt);
      },
      [&](auto o) { return std::set_union(a.begin(), a.end(), b.begin(), b.end(), o); });
  same(
      [&](auto o) {
        return corank::cpu::set_intersection(a.begin(), a.end(), b.begin(), b.end(), o,
                                             corank::less{}, opt);
      },
      [&](auto o) { return std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), o); });
  same(
      [&](auto o) {
        return corank::cpu::set_difference(a.begin(), a.end(), b.begin(), b.end(), o,
                                           corank::less{}, opt);
      },
      [&](auto o) { return std::set_difference(a.begin(), a.end(), b.begin(), b.end(), o); });
  same(
      [&](auto o) {
        return corank::cpu::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), o,
                                                     corank::less{}, opt);
      },
      [&](auto o) {
        return std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), o);
      });
}

TEST_F(CpuToolbox, SetOperationPieceStoresNothingPastItsCount) {
  // The branch-free piece loop stores a candidate every step; a piece whose output ends before its
  // inputs do (trailing pairs of a difference, B-only keys of an intersection) must not store at
  // its count, where the next piece's output begins.
  std::uniform_int_distribution<std::size_t> length(0, 40);
  for (int round = 0; round < 200; ++round) {
    const auto a = sorted_keys<int>(rng, length(rng), 12),
               b = sorted_keys<int>(rng, length(rng), 12);
    for (const set_op op : every_set_op) {
      std::size_t count = 0, written = 0;
      std::vector<int> got;
      corank::with_set_op(
          op,
          [&](auto kind) {
            constexpr set_op Op = decltype(kind)::value;
            const corank::discard_iterator none;
            count = corank::cpu::detail::set_operation_piece<Op, true>(
                a.begin(), none, 0, a.size(), b.begin(), none, 0, b.size(), none, none, 0,
                corank::less{});
            got.assign(count + 4, -7);
            written = corank::cpu::detail::set_operation_piece<Op, false>(
                a.begin(), none, 0, a.size(), b.begin(), none, 0, b.size(), got.begin(), none,
                count, corank::less{});
            return 0;
          },
          0);
      std::vector<int> want_keys;
      std::vector<std::uint64_t> want_origins;
      reference_set_operation(op, a, b, corank::less{}, want_keys, want_origins);
      const auto where = std::string(set_op_name(op)) + ", round " + std::to_string(round);
      ASSERT_EQ(written, count) << where;
      ASSERT_EQ(std::vector<int>(got.begin(), got.begin() + std::ptrdiff_t(count)), want_keys)
          << where;
      for (std::size_t i = count; i < got.size(); ++i)
        ASSERT_EQ(got[i], -7) << where << ", at " << i;
    }
  }
}

/// An output that records every store (k, value): a proxy, not memory.
struct recording_output {
  std::vector<std::pair<std::size_t, int>>* stores;
  std::size_t at;
  struct slot {
    const recording_output* out;
    std::size_t k;
    void operator=(int v) const { out->stores->emplace_back(k, v); }
  };
  slot operator[](std::ptrdiff_t i) const { return {this, at + std::size_t(i)}; }
  recording_output operator+(std::ptrdiff_t i) const { return {stores, at + std::size_t(i)}; }
};

TEST_F(CpuToolbox, SetOperationsStoreEachOutputOnceThroughAProxy) {
  // Outputs that are not plain memory see std::'s stores: each output once, nothing else.
  const auto a = sorted_keys<int>(rng, 500, 40), b = sorted_keys<int>(rng, 400, 40);
  for (const set_op op : every_set_op) {
    std::vector<int> want_keys;
    std::vector<std::uint64_t> want_origins;
    reference_set_operation(op, a, b, corank::less{}, want_keys, want_origins);
    std::vector<std::pair<std::size_t, int>> stores;
    corank::cpu::set_operation(op, a.begin(), a.end(), b.begin(), b.end(),
                               recording_output{&stores, 0}, corank::less{});
    ASSERT_EQ(stores.size(), want_keys.size()) << set_op_name(op);
    for (std::size_t k = 0; k < stores.size(); ++k) {
      ASSERT_EQ(stores[k].first, k) << set_op_name(op);
      ASSERT_EQ(stores[k].second, want_keys[k]) << set_op_name(op) << ", at " << k;
    }
  }
}

TEST_F(CpuToolbox, SetOperationsOnUnsortedInputsEndInBounds) {
  // A violated precondition: any output, but never more than the bound, and the call ends.
  std::uniform_int_distribution<int> key(0, 50);
  std::vector<int> a(4000), b(3000);
  for (int& x : a) x = key(rng);
  for (int& x : b) x = key(rng);
  for (const set_op op : every_set_op) {
    const std::size_t most = corank::set_operation_max_outputs(op, a.size(), b.size());
    std::vector<int> out(most + 16, -7);
    const auto end = corank::cpu::set_operation(op, a.begin(), a.end(), b.begin(), b.end(),
                                                out.begin(), corank::less{}, thread_settings()[1]);
    ASSERT_LE(std::size_t(end - out.begin()), most);
    for (std::size_t i = most; i < out.size(); ++i) ASSERT_EQ(out[i], -7);
  }
}

// --- k-way merge ---------------------------------------------------------------------------------

TEST_F(CpuToolbox, MultiwayMergeIsStableByRunOrder) {
  std::uniform_int_distribution<std::size_t> length(0, 3 * piece);
  for (const std::size_t runs : {0, 1, 2, 3, 5, 8, 64, 65, 300})
    for (const auto& opt : thread_settings()) {
      std::vector<std::size_t> lengths(runs);
      for (auto& l : lengths) l = length(rng);
      if (runs > 3) lengths[1] = 0, lengths[runs - 1] = 20 * piece;  // empty and long runs
      const auto offsets = offsets_of<unsigned>(lengths);
      std::vector<std::uint32_t> keys;
      std::vector<std::uint64_t> values;
      for (std::size_t r = 0; r < runs; ++r) {
        const auto run = sorted_keys<std::uint32_t>(rng, lengths[r], 30);
        keys.insert(keys.end(), run.begin(), run.end());
        for (std::size_t i = 0; i < run.size(); ++i) values.push_back(origin(0, values.size()));
      }
      // The reference: a stable sort by key keeps run order, then order within the run.
      std::vector<std::size_t> order(keys.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t x, std::size_t y) { return keys[x] < keys[y]; });
      std::vector<std::uint32_t> want_keys(keys.size()), got_keys(keys.size(), poison32);
      std::vector<std::uint64_t> want_values(keys.size()), got_values(keys.size(), poison64);
      for (std::size_t i = 0; i < order.size(); ++i)
        want_keys[i] = keys[order[i]], want_values[i] = values[order[i]];
      corank::cpu::multiway_merge_by_key(keys.data(), values.data(), offsets.data(), runs,
                                         got_keys.data(), got_values.data(), corank::less{}, opt);
      ASSERT_EQ(got_keys, want_keys) << runs << " runs, threads " << opt.threads;
      ASSERT_EQ(got_values, want_values) << runs << " runs, threads " << opt.threads;
      std::fill(got_keys.begin(), got_keys.end(), poison32);
      corank::cpu::multiway_merge(keys.data(), offsets.data(), runs, got_keys.data(),
                                  corank::less{}, opt);
      ASSERT_EQ(got_keys, want_keys) << runs << " runs, keys only";
    }
}

}  // namespace

// --- joins --------------------------------------------------------------------------------------

TEST_F(CpuToolbox, JoinsMatchTheNestedLoopJoin) {
  using corank::cpu::join_kind;
  std::vector<sorted_pair<std::uint32_t>> cases;
  for (auto& c : awkward_pairs<std::uint32_t>(rng, 16))  // small: the reference is quadratic
    if (c.a.size() * c.b.size() <= 200000) cases.push_back(std::move(c));
  cases.push_back(
      {"many-to-many", std::vector<std::uint32_t>(300, 5), std::vector<std::uint32_t>(400, 5)});
  for (const auto& c : cases)
    for (const join_kind kind : {join_kind::inner, join_kind::left_outer, join_kind::full_outer})
      for (const auto& opt : thread_settings()) {
        const auto want = nested_loop_join(kind, c.a, c.b);
        ASSERT_EQ(want.a.size(), want.b.size());
        const auto got = corank::cpu::join(kind, c.a.begin(), c.a.end(), c.b.begin(), c.b.end(),
                                           corank::less{}, opt);
        ASSERT_EQ(got.a, want.a) << c.name << " kind " << int(kind) << " threads " << opt.threads;
        ASSERT_EQ(got.b, want.b) << c.name << " kind " << int(kind) << " threads " << opt.threads;
      }
}
