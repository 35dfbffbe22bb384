// The GPU co-rank toolbox against std:: references: load-balancing search and interval expand,
// sorted search, set operations, k-way merge. Inputs are sized around each algorithm's tile, so
// tiles start and end inside runs of equal keys; outputs are poisoned first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "corank/cuda/device.cuh"
#include "corank/cuda/join.cuh"
#include "corank/cuda/load_balance.cuh"
#include "corank/cuda/multiway_merge.cuh"
#include "corank/cuda/set_operations.cuh"
#include "corank/cuda/sorted_search.cuh"
#include "support/cuda_test.cuh"
#include "support/merge_reference.hpp"
#include "support/seeded_test.hpp"
#include "support/toolbox_cases.hpp"

namespace {

using namespace corank::test;
using corank::set_op;
namespace cc = corank::cuda;

class GpuToolbox : public seeded_test {};

// --- load-balancing search and interval expand -----------------------------------------------

TEST_F(GpuToolbox, LoadBalancingSearchGivesEveryItemItsSegment) {
  CORANK_REQUIRE_GPU();
  const std::size_t tile = cc::detail::load_balance_shape<unsigned>::tile;
  for (const auto& lengths : awkward_segment_lengths(rng, tile)) {
    const auto offsets = offsets_of<unsigned>(lengths);
    const auto want = reference_segments(lengths);
    device_buffer<unsigned> d_offsets(offsets);
    device_buffer<std::uint32_t> d_out(want.size());
    d_out.poison();
    CORANK_ASSERT_CUDA(
        cc::load_balancing_search(d_offsets.data(), lengths.size(), want.size(), d_out.data()));
    ASSERT_EQ(d_out.to_host(), want) << lengths.size() << " segments";
  }
}

TEST_F(GpuToolbox, IntervalExpandRepeatsEachValueOverItsSegment) {
  CORANK_REQUIRE_GPU();
  const std::size_t tile = cc::detail::load_balance_shape<std::uint64_t>::tile;
  for (const auto& lengths : awkward_segment_lengths(rng, tile)) {
    if (lengths.empty()) continue;
    const auto offsets = offsets_of<std::uint64_t>(lengths);
    std::vector<double> values(lengths.size()), want;
    for (std::size_t s = 0; s < values.size(); ++s) values[s] = 0.5 + double(s);
    for (std::size_t s = 0; s < lengths.size(); ++s) want.insert(want.end(), lengths[s], values[s]);
    device_buffer<std::uint64_t> d_offsets(offsets);
    device_buffer<double> d_values(values), d_out(want.size());
    d_out.poison();
    // The caller's-buffer form.
    const std::size_t bytes =
        cc::load_balance_temp_bytes<std::uint64_t>(lengths.size(), want.size());
    device_buffer<unsigned char> temp(bytes);
    CORANK_ASSERT_CUDA(cc::interval_expand(d_offsets.data(), lengths.size(), d_values.data(),
                                           want.size(), d_out.data(), temp.data(), bytes));
    ASSERT_EQ(d_out.to_host(), want) << lengths.size() << " segments";
  }
}

TEST_F(GpuToolbox, LoadBalancingSearchRefusesBadArguments) {
  CORANK_REQUIRE_GPU();
  device_buffer<unsigned> offsets(std::vector<unsigned>{0, 4});
  device_buffer<std::uint8_t> out(300);
  EXPECT_EQ(cc::load_balancing_search(offsets.data(), 0, 4, out.data()), cudaErrorInvalidValue);
  EXPECT_EQ(cc::load_balancing_search(static_cast<unsigned*>(nullptr), 1, 4, out.data()),
            cudaErrorInvalidValue);
  EXPECT_EQ(cc::load_balancing_search(offsets.data(), 300, 4, out.data()), cudaErrorInvalidValue)
      << "300 segments do not fit u8 indices";
  EXPECT_EQ(cc::load_balancing_search(offsets.data(), 1, 4, out.data(), nullptr, 0),
            cudaErrorInvalidValue)
      << "a buffer smaller than the query";
}

TEST_F(GpuToolbox, LoadBalancingSearchTakesSizesPast32Bits) {
  CORANK_REQUIRE_GPU();
  const std::uint64_t n = (std::uint64_t(1) << 32) + 5;
  const std::vector<std::uint64_t> offsets{0, std::uint64_t(1) << 31, (std::uint64_t(1) << 32) + 1,
                                           n};
  device_buffer<std::uint64_t> d_offsets(offsets);
  device_buffer<std::uint8_t> d_out(n);
  if (!d_out.data()) GTEST_SKIP() << "no room for " << n << " bytes";
  d_out.poison();
  CORANK_ASSERT_CUDA(cc::load_balancing_search(d_offsets.data(), 3, n, d_out.data()));
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  for (std::size_t s = 0; s < 3; ++s)
    for (const std::uint64_t j : {offsets[s], offsets[s + 1] - 1}) {
      std::uint8_t got = 0xA5;
      CORANK_ASSERT_CUDA(cudaMemcpy(&got, d_out.data() + j, 1, cudaMemcpyDeviceToHost));
      ASSERT_EQ(got, s) << "item " << j;
    }
}

// --- sorted search ------------------------------------------------------------------------------

template <class Index>
std::vector<Index> std_bounds(const std::vector<std::uint32_t>& hay,
                              const std::vector<std::uint32_t>& needles, bool upper) {
  std::vector<Index> want(needles.size());
  for (std::size_t i = 0; i < needles.size(); ++i)
    want[i] = Index((upper ? std::upper_bound(hay.begin(), hay.end(), needles[i])
                           : std::lower_bound(hay.begin(), hay.end(), needles[i])) -
                    hay.begin());
  return want;
}

TEST_F(GpuToolbox, SortedSearchMatchesStdBounds) {
  CORANK_REQUIRE_GPU();
  const std::size_t tile = cc::detail::sorted_search_shape<std::uint32_t, std::uint64_t>::tile;
  for (const auto& c : awkward_pairs<std::uint32_t>(rng, tile))
    for (int flip = 0; flip < 2; ++flip) {
      const auto& needles = flip ? c.b : c.a;
      const auto& hay = flip ? c.a : c.b;
      device_buffer<std::uint32_t> d_needles(needles), d_hay(hay);
      device_buffer<std::uint64_t> d_out(needles.size());
      for (const bool upper : {false, true}) {
        d_out.poison();
        CORANK_ASSERT_CUDA(upper
                               ? cc::sorted_upper_bound(d_hay.data(), hay.size(), d_needles.data(),
                                                        needles.size(), d_out.data())
                               : cc::sorted_lower_bound(d_hay.data(), hay.size(), d_needles.data(),
                                                        needles.size(), d_out.data()));
        ASSERT_EQ(d_out.to_host(), std_bounds<std::uint64_t>(hay, needles, upper))
            << c.name << " flip " << flip << (upper ? " upper" : " lower");
      }
    }
}

/// Needles in any order searched the way `way`, whatever their sizes would choose.
template <class Index>
cudaError_t unsorted_search(cc::detail::unsorted_search_way way, bool upper,
                            const device_buffer<std::uint32_t>& hay,
                            const device_buffer<std::uint32_t>& needles,
                            device_buffer<Index>& out) {
  const cc::temporary_storage cache;
  return upper ? cc::detail::unsorted_search<true>(cache, way, hay.data(), hay.size(),
                                                   needles.data(), needles.size(), out.data(),
                                                   corank::less{}, cudaStream_t{})
               : cc::detail::unsorted_search<false>(cache, way, hay.data(), hay.size(),
                                                    needles.data(), needles.size(), out.data(),
                                                    corank::less{}, cudaStream_t{});
}

TEST_F(GpuToolbox, UnsortedNeedlesMatchStdBoundsEitherWay) {
  CORANK_REQUIRE_GPU();
  using way = cc::detail::unsorted_search_way;
  const std::size_t tile = cc::detail::sorted_search_shape<std::uint32_t, std::uint64_t>::tile;
  for (const auto& c : awkward_pairs<std::uint32_t>(rng, tile))
    for (int flip = 0; flip < 2; ++flip) {
      auto needles = flip ? c.b : c.a;  // duplicates, all equal, outside the haystack, empty
      std::shuffle(needles.begin(), needles.end(), rng);
      const auto& hay = flip ? c.a : c.b;
      device_buffer<std::uint32_t> d_needles(needles), d_hay(hay);
      device_buffer<std::uint64_t> d_out(needles.size());
      for (const way w : {way::binary_search_each, way::sort_then_search})
        for (const bool upper : {false, true}) {
          d_out.poison();
          CORANK_ASSERT_CUDA(unsorted_search(w, upper, d_hay, d_needles, d_out));
          ASSERT_EQ(d_out.to_host(), std_bounds<std::uint64_t>(hay, needles, upper))
              << c.name << " flip " << flip << (upper ? " upper" : " lower")
              << (w == way::sort_then_search ? ", sorted first" : ", one by one");
        }
    }
}

TEST_F(GpuToolbox, UnsortedNeedlesMatchStdBoundsThroughThePublicCalls) {
  CORANK_REQUIRE_GPU();
  const auto hay = sorted_keys<std::uint32_t>(rng, 50001, 7000);
  auto needles = sorted_keys<std::uint32_t>(rng, 30001, 8000);
  std::shuffle(needles.begin(), needles.end(), rng);
  device_buffer<std::uint32_t> d_needles(needles), d_hay(hay), d_out(needles.size());
  for (const bool upper : {false, true}) {
    d_out.poison();
    CORANK_ASSERT_CUDA(upper ? cc::upper_bound(d_hay.data(), hay.size(), d_needles.data(),
                                               needles.size(), d_out.data())
                             : cc::lower_bound(d_hay.data(), hay.size(), d_needles.data(),
                                               needles.size(), d_out.data()));
    ASSERT_EQ(d_out.to_host(), std_bounds<std::uint32_t>(hay, needles, upper));
  }
}

TEST_F(GpuToolbox, UnsortedSearchSortsManyNeedlesInTheCallersBufferOfItsQuery) {
  CORANK_REQUIRE_GPU();
  namespace tuning = cc::tuning;
  // A haystack past the cache bound and needles past the crossover: they are sorted first.
  const std::size_t m = tuning::haystack_cached_bytes / sizeof(std::uint32_t) + 1001;
  const std::size_t n =
      std::max(tuning::sort_needles_from, m / tuning::sort_needles_from_share) + 3;
  ASSERT_EQ(cc::detail::choose_unsorted_search<std::uint32_t>(m, n),
            cc::detail::unsorted_search_way::sort_then_search);
  const auto hay = sorted_keys<std::uint32_t>(rng, m, std::uint64_t(1) << 32);
  std::vector<std::uint32_t> needles(n);
  std::uniform_int_distribution<std::uint32_t> any;
  for (std::uint32_t& x : needles) x = any(rng);
  for (std::size_t i = 0; i < n; i += 97) needles[i] = hay[(i * 7919) % m];  // some found
  device_buffer<std::uint32_t> d_needles(needles), d_hay(hay);
  device_buffer<std::uint64_t> d_out(n);
  const std::size_t bytes = cc::unsorted_search_temp_bytes<std::uint32_t, std::uint64_t>(m, n);
  ASSERT_GT(bytes, 0u);
  EXPECT_EQ(cc::unsorted_search_temp_bytes<std::uint32_t>(m, 100), 0u) << "few needles: no sort";
  device_buffer<unsigned char> temp(bytes);
  EXPECT_EQ(
      cc::lower_bound(d_hay.data(), m, d_needles.data(), n, d_out.data(), temp.data(), bytes - 1),
      cudaErrorInvalidValue)
      << "a buffer smaller than the query";
  for (const bool upper : {false, true}) {
    d_out.poison();
    CORANK_ASSERT_CUDA(upper ? cc::upper_bound(d_hay.data(), m, d_needles.data(), n, d_out.data(),
                                               temp.data(), bytes)
                             : cc::lower_bound(d_hay.data(), m, d_needles.data(), n, d_out.data(),
                                               temp.data(), bytes));
    ASSERT_EQ(d_out.to_host(), std_bounds<std::uint64_t>(hay, needles, upper))
        << (upper ? "upper" : "lower");
  }
}

TEST_F(GpuToolbox, UnsortedSearchRefusesBadArguments) {
  CORANK_REQUIRE_GPU();
  using way = cc::detail::unsorted_search_way;
  device_buffer<std::uint8_t> hay(std::vector<std::uint8_t>(300, 1)), needles(4);
  device_buffer<std::uint8_t> narrow(4);
  for (const way w : {way::binary_search_each, way::sort_then_search}) {
    EXPECT_EQ(cc::detail::unsorted_search<false>({}, w, hay.data(), 300, needles.data(), 4,
                                                 narrow.data(), corank::less{}, cudaStream_t{}),
              cudaErrorInvalidValue)
        << "u8 answers cannot hold 300";
    EXPECT_EQ(cc::detail::unsorted_search<false>({}, w, hay.data(), 200,
                                                 static_cast<const std::uint8_t*>(nullptr), 4,
                                                 narrow.data(), corank::less{}, cudaStream_t{}),
              cudaErrorInvalidValue)
        << "null needles";
  }
}

TEST_F(GpuToolbox, SortedSearchTakesSizesPast32Bits) {
  CORANK_REQUIRE_GPU();
  const std::uint64_t zeros = (std::uint64_t(1) << 32) + 3, m = zeros + 7;
  device_buffer<std::uint8_t> d_hay(m);
  if (!d_hay.data()) GTEST_SKIP() << "no room for " << m << " bytes";
  CORANK_ASSERT_CUDA(cudaMemset(d_hay.data(), 0, zeros));
  CORANK_ASSERT_CUDA(cudaMemset(d_hay.data() + zeros, 1, m - zeros));
  device_buffer<std::uint8_t> d_needles(std::vector<std::uint8_t>{0, 1, 1, 2});
  device_buffer<std::uint64_t> d_out(4);
  CORANK_ASSERT_CUDA(cc::sorted_lower_bound(d_hay.data(), m, d_needles.data(), 4, d_out.data()));
  EXPECT_EQ(d_out.to_host(), (std::vector<std::uint64_t>{0, zeros, zeros, m}));
  CORANK_ASSERT_CUDA(cc::sorted_upper_bound(d_hay.data(), m, d_needles.data(), 4, d_out.data()));
  EXPECT_EQ(d_out.to_host(), (std::vector<std::uint64_t>{zeros, m, m, m}));
  device_buffer<std::uint32_t> narrow(4);
  EXPECT_EQ(cc::sorted_lower_bound(d_hay.data(), m, d_needles.data(), 4, narrow.data()),
            cudaErrorInvalidValue)
      << "u32 answers cannot hold m";
}

// --- set operations -----------------------------------------------------------------------------

TEST_F(GpuToolbox, SetOperationsMatchStdWithMultisetSemanticsAndOrigins) {
  CORANK_REQUIRE_GPU();
  const std::size_t tile = cc::detail::set_operation_shape<std::uint32_t, std::uint64_t>::tile;
  for (const auto& c : awkward_pairs<std::uint32_t>(rng, tile))
    for (const set_op op : every_set_op) {
      std::vector<std::uint32_t> want_keys;
      std::vector<std::uint64_t> want_values;
      reference_set_operation(op, c.a, c.b, corank::less{}, want_keys, want_values);
      const std::size_t most = corank::set_operation_max_outputs(op, c.a.size(), c.b.size());
      device_buffer<std::uint32_t> ka(c.a), kb(c.b), keys(most + 1);
      device_buffer<std::uint64_t> va(origins(0, c.a.size())), vb(origins(1, c.b.size())),
          values(most + 1), d_count(1);
      keys.poison(), values.poison(), d_count.poison();
      const auto where = std::string(set_op_name(op)) + ", " + c.name;
      // Keys and values, the count left on the device.
      CORANK_ASSERT_CUDA(cc::set_operation_by_key(op, ka.data(), va.data(), c.a.size(), kb.data(),
                                                  vb.data(), c.b.size(), keys.data(), values.data(),
                                                  cc::output_count::on_device(d_count.data())));
      ASSERT_EQ(d_count.to_host()[0], want_keys.size()) << where;
      auto got_keys = keys.to_host();
      auto got_values = values.to_host();
      ASSERT_EQ(got_keys[want_keys.size()], 0xA5A5A5A5u) << where << ": wrote past its count";
      got_keys.resize(want_keys.size());
      got_values.resize(want_keys.size());
      ASSERT_EQ(got_keys, want_keys) << where;
      ASSERT_EQ(got_values, want_values) << where;
      // Keys alone, the count on the host, the caller's buffer.
      keys.poison();
      std::size_t count = 0;
      const std::size_t bytes = cc::set_operation_temp_bytes<std::uint32_t>(c.a.size(), c.b.size());
      device_buffer<unsigned char> temp(bytes);
      CORANK_ASSERT_CUDA(cc::set_operation(op, ka.data(), c.a.size(), kb.data(), c.b.size(),
                                           keys.data(), cc::output_count::to_host(&count),
                                           temp.data(), bytes));
      ASSERT_EQ(count, want_keys.size()) << where;
      got_keys = keys.to_host();
      got_keys.resize(count);
      ASSERT_EQ(got_keys, want_keys) << where << ", keys only";
    }
}

// Many more tiles than the GPU holds blocks at once (look-backs across many tiles), runs of equal
// keys across the tiles' cuts, outputs stored from every alignment.
TEST_F(GpuToolbox, SetOperationsOverManyTiles) {
  CORANK_REQUIRE_GPU();
  int sms = 0;
  CORANK_ASSERT_CUDA(cc::detail::multiprocessor_count(&sms));
  const std::size_t tile = cc::detail::set_operation_shape<std::uint32_t, std::uint64_t>::tile;
  // Four times the blocks 8 per SM would hold, in tiles of the pairs' (the smaller) shape.
  const std::size_t total = 4 * 8 * std::size_t(sms) * tile;
  const auto a = sorted_keys<std::uint32_t>(rng, total / 2 + 3, total / 5);
  const auto b = sorted_keys<std::uint32_t>(rng, total / 2 - 5, total / 5);
  device_buffer<std::uint32_t> ka(a), kb(b), keys(a.size() + b.size() + 1);
  device_buffer<std::uint64_t> va(origins(0, a.size())), vb(origins(1, b.size())),
      values(a.size() + b.size() + 1);
  for (const set_op op : every_set_op) {
    std::vector<std::uint32_t> want_keys;
    std::vector<std::uint64_t> want_values;
    reference_set_operation(op, a, b, corank::less{}, want_keys, want_values);
    keys.poison(), values.poison();
    std::size_t count = 0;
    CORANK_ASSERT_CUDA(cc::set_operation_by_key(op, ka.data(), va.data(), a.size(), kb.data(),
                                                vb.data(), b.size(), keys.data(), values.data(),
                                                cc::output_count::to_host(&count)));
    ASSERT_EQ(count, want_keys.size()) << set_op_name(op);
    auto got_keys = keys.to_host();
    auto got_values = values.to_host();
    ASSERT_EQ(got_keys[count], 0xA5A5A5A5u) << set_op_name(op) << ": wrote past its count";
    got_keys.resize(count), got_values.resize(count);
    ASSERT_EQ(got_keys, want_keys) << set_op_name(op);
    ASSERT_EQ(got_values, want_values) << set_op_name(op);
    keys.poison();
    CORANK_ASSERT_CUDA(cc::set_operation(op, ka.data(), a.size(), kb.data(), b.size(), keys.data(),
                                         cc::output_count::to_host(&count)));
    ASSERT_EQ(count, want_keys.size()) << set_op_name(op) << ", keys only";
    got_keys = keys.to_host();
    ASSERT_EQ(got_keys[count], 0xA5A5A5A5u) << set_op_name(op) << ", keys only: past its count";
    got_keys.resize(count);
    ASSERT_EQ(got_keys, want_keys) << set_op_name(op) << ", keys only";
  }
}

TEST_F(GpuToolbox, NamedSetOperationsAreTheirStdCounterparts) {
  CORANK_REQUIRE_GPU();
  const auto a = sorted_keys<int>(rng, 30000, 2000), b = sorted_keys<int>(rng, 25000, 2000);
  device_buffer<int> da(a), db(b), out(a.size() + b.size());
  std::vector<int> want(a.size() + b.size());
  std::size_t count = 0;
  const auto check = [&](cudaError_t status, std::vector<int>::iterator want_end) {
    ASSERT_EQ(status, cudaSuccess);
    ASSERT_EQ(count, std::size_t(want_end - want.begin()));
    auto got = out.to_host();
    ASSERT_TRUE(std::equal(want.begin(), want_end, got.begin()));
  };
  const auto to_host = cc::output_count::to_host(&count);
  check(cc::set_union(da.data(), a.size(), db.data(), b.size(), out.data(), to_host),
        std::set_union(a.begin(), a.end(), b.begin(), b.end(), want.begin()));
  check(cc::set_intersection(da.data(), a.size(), db.data(), b.size(), out.data(), to_host),
        std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), want.begin()));
  check(cc::set_difference(da.data(), a.size(), db.data(), b.size(), out.data(), to_host),
        std::set_difference(a.begin(), a.end(), b.begin(), b.end(), want.begin()));
  check(cc::set_symmetric_difference(da.data(), a.size(), db.data(), b.size(), out.data(), to_host),
        std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), want.begin()));
}

TEST_F(GpuToolbox, SetOperationsOnUnsortedInputsEndInBounds) {
  CORANK_REQUIRE_GPU();
  std::uniform_int_distribution<int> key(0, 50);
  std::vector<int> a(40000), b(30000);
  for (int& x : a) x = key(rng);
  for (int& x : b) x = key(rng);
  device_buffer<int> da(a), db(b);
  for (const set_op op : every_set_op) {
    const std::size_t most = corank::set_operation_max_outputs(op, a.size(), b.size());
    device_buffer<int> out(most + 64);
    out.poison();
    std::size_t count = 0;
    CORANK_ASSERT_CUDA(cc::set_operation(op, da.data(), a.size(), db.data(), b.size(), out.data(),
                                         cc::output_count::to_host(&count)));
    const auto got = out.to_host();
    for (std::size_t i = most; i < got.size(); ++i)
      ASSERT_EQ(std::uint32_t(got[i]), 0xA5A5A5A5u) << set_op_name(op) << ": wrote past the bound";
  }
}

TEST_F(GpuToolbox, SetOperationsRefuseBadArguments) {
  CORANK_REQUIRE_GPU();
  device_buffer<int> a(10), out(20);
  std::size_t count = 0;
  EXPECT_EQ(cc::set_union(a.data(), 10, a.data(), 10, out.data(), cc::output_count{}),
            cudaErrorInvalidValue)
      << "no count";
  EXPECT_EQ(cc::set_union(a.data(), 10, a.data(), 10, a.data(), cc::output_count::to_host(&count)),
            cudaErrorInvalidValue)
      << "output over an input";
  EXPECT_EQ(cc::set_union(static_cast<int*>(nullptr), 10, a.data(), 10, out.data(),
                          cc::output_count::to_host(&count)),
            cudaErrorInvalidValue);
}

// --- k-way merge ---------------------------------------------------------------------------------

// Runs of lengths around the tiles (an empty run and a long one among them), keys from `range`
// values (1: all equal), values their positions: merged by `passes`, both forms against a
// std::stable_sort of the positions by key.
template <class V>
void check_multiway_merges(std::mt19937_64& rng, std::uint64_t range,
                           cc::detail::multiway_passes passes) {
  const std::size_t tile = cc::detail::multiway_merge_shape<std::uint32_t, V>::tile;
  std::uniform_int_distribution<std::size_t> length(0, 3 * tile);
  for (const std::size_t runs : {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 64, 65, 1000}) {
    std::vector<std::size_t> lengths(runs);
    for (auto& l : lengths) l = runs > 100 ? length(rng) / 64 : length(rng);
    if (runs > 3) lengths[1] = 0, lengths[runs - 1] = 7 * tile + 1;  // empty and long runs
    const auto offsets = offsets_of<std::uint64_t>(lengths);
    std::vector<std::uint32_t> keys;
    for (std::size_t r = 0; r < runs; ++r) {
      const auto run = sorted_keys<std::uint32_t>(rng, lengths[r], range);
      keys.insert(keys.end(), run.begin(), run.end());
    }
    std::vector<V> values(keys.size());
    std::iota(values.begin(), values.end(), V(0));
    std::vector<std::size_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return keys[x] < keys[y]; });
    std::vector<std::uint32_t> want_keys(keys.size());
    std::vector<V> want_values(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      want_keys[i] = keys[order[i]], want_values[i] = values[order[i]];
    device_buffer<std::uint32_t> d_keys(keys), d_out(keys.size());
    device_buffer<V> d_values(values), d_vout(keys.size());
    device_buffer<std::uint64_t> d_offsets(offsets);
    d_out.poison(), d_vout.poison();
    const std::size_t n = keys.size();
    const bool automatic = passes == cc::detail::multiway_passes::automatic;
    const corank::no_value* none = nullptr;
    const auto merge = [&](const auto* values, auto* values_out) {
      return cc::detail::multiway_merge({}, d_keys.data(), values, d_offsets.data(), runs, n,
                                        d_out.data(), values_out, corank::less{}, 0, passes);
    };
    CORANK_ASSERT_CUDA(automatic ? cc::multiway_merge_by_key(d_keys.data(), d_values.data(),
                                                             d_offsets.data(), runs, n,
                                                             d_out.data(), d_vout.data())
                                 : merge(d_values.data(), d_vout.data()));
    ASSERT_EQ(d_out.to_host(), want_keys) << runs << " runs";
    ASSERT_EQ(d_vout.to_host(), want_values) << runs << " runs";
    d_out.poison();
    CORANK_ASSERT_CUDA(
        automatic ? cc::multiway_merge(d_keys.data(), d_offsets.data(), runs, n, d_out.data())
                  : merge(none, const_cast<corank::no_value*>(none)));
    ASSERT_EQ(d_out.to_host(), want_keys) << runs << " runs, keys only";
  }
}

TEST_F(GpuToolbox, MultiwayMergeIsStableByRunOrder) {
  CORANK_REQUIRE_GPU();
  check_multiway_merges<std::uint64_t>(rng, 30, cc::detail::multiway_passes::automatic);
}

TEST_F(GpuToolbox, MultiwayMergeInFourWayPassesIsStableByRunOrder) {
  CORANK_REQUIRE_GPU();
  const auto four_way = cc::detail::multiway_passes::four_way_where_three_left;
  check_multiway_merges<std::uint32_t>(rng, 30, four_way);
  check_multiway_merges<std::uint32_t>(rng, 1, four_way);  // all keys equal
  check_multiway_merges<std::uint32_t>(rng, 1u << 30, four_way);
}

TEST_F(GpuToolbox, MultiwayMergeInPairwisePassesIsStableByRunOrder) {
  CORANK_REQUIRE_GPU();
  const auto pairwise = cc::detail::multiway_passes::pairwise;
  check_multiway_merges<std::uint32_t>(rng, 30, pairwise);
  check_multiway_merges<std::uint32_t>(rng, 1, pairwise);
}

}  // namespace

// --- joins --------------------------------------------------------------------------------------

TEST_F(GpuToolbox, JoinsMatchTheNestedLoopJoin) {
  CORANK_REQUIRE_GPU();
  std::vector<sorted_pair<std::uint32_t>> cases;
  for (auto& c : awkward_pairs<std::uint32_t>(rng, 64))  // small: the reference is quadratic
    if (c.a.size() * c.b.size() <= 400000) cases.push_back(std::move(c));
  cases.push_back(
      {"many-to-many", std::vector<std::uint32_t>(700, 5), std::vector<std::uint32_t>(900, 5)});
  for (const auto& c : cases)
    for (const corank::join_kind kind : every_join_kind) {
      const auto want = nested_loop_join(kind, c.a, c.b);
      device_buffer<std::uint32_t> da(c.a), db(c.b);
      std::size_t pairs = 0;
      CORANK_ASSERT_CUDA(cc::join_size(kind, da.data(), c.a.size(), db.data(), c.b.size(), &pairs));
      ASSERT_EQ(pairs, want.a.size()) << c.name << " kind " << int(kind);
      device_buffer<std::size_t> out_a(pairs), out_b(pairs);
      out_a.poison(), out_b.poison();
      CORANK_ASSERT_CUDA(cc::join(kind, da.data(), c.a.size(), db.data(), c.b.size(), out_a.data(),
                                  out_b.data(), pairs));
      ASSERT_EQ(out_a.to_host(), want.a) << c.name << " kind " << int(kind);
      ASSERT_EQ(out_b.to_host(), want.b) << c.name << " kind " << int(kind);
    }
}

TEST_F(GpuToolbox, JoinSpreadsAHugeManyToManyMatch) {
  CORANK_REQUIRE_GPU();
  // 3000 x 4000 equal keys between singletons: 12 million pairs of one key.
  std::vector<std::uint32_t> a{1}, b{0};
  a.insert(a.end(), 3000, 7u), b.insert(b.end(), 4000, 7u);
  a.push_back(9), b.push_back(8);
  device_buffer<std::uint32_t> da(a), db(b);
  std::size_t pairs = 0;
  CORANK_ASSERT_CUDA(cc::join_size(corank::join_kind::full_outer, da.data(), a.size(), db.data(),
                                   b.size(), &pairs));
  ASSERT_EQ(pairs, 3000u * 4000u + 2 + 2);
  device_buffer<std::size_t> out_a(pairs), out_b(pairs);
  CORANK_ASSERT_CUDA(cc::join(corank::join_kind::full_outer, da.data(), a.size(), db.data(),
                              b.size(), out_a.data(), out_b.data(), pairs));
  const auto ga = out_a.to_host(), gb = out_b.to_host();
  ASSERT_EQ(ga[0], 0u);
  ASSERT_EQ(gb[0], corank::no_match);
  for (std::size_t k = 1; k + 3 < pairs; ++k) {
    ASSERT_EQ(ga[k], 1 + (k - 1) / 4000) << k;
    ASSERT_EQ(gb[k], 1 + (k - 1) % 4000) << k;
  }
  EXPECT_EQ(ga[pairs - 3], 3001u);
  EXPECT_EQ(gb[pairs - 3], corank::no_match);
  EXPECT_EQ(ga[pairs - 2], corank::no_match);
  EXPECT_EQ(gb[pairs - 2], 0u);
  EXPECT_EQ(gb[pairs - 1], 4001u);
}

// --- past 32-bit sizes: one-byte keys in blocks of equal keys (cudaMemset), checked by blocks ---

namespace {

/// Blocks of equal one-byte keys, in order: (key, how many).
using key_blocks = std::vector<std::pair<std::uint8_t, std::uint64_t>>;

std::uint64_t total_of(const key_blocks& blocks) {
  std::uint64_t total = 0;
  for (const auto& b : blocks) total += b.second;
  return total;
}

/// The blocks on the device (null when there is no room for them: the caller skips).
std::unique_ptr<device_buffer<std::uint8_t>> device_blocks(const key_blocks& blocks) {
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess || free_bytes < total_of(blocks))
    return nullptr;
  auto d = std::make_unique<device_buffer<std::uint8_t>>(total_of(blocks));
  std::uint64_t at = 0;
  for (const auto& [key, count] : blocks) {
    EXPECT_EQ(cudaMemset(d->data() + at, key, count), cudaSuccess);
    at += count;
  }
  return d;
}

/// The blocks of the first n keys of a device array.
key_blocks blocks_on_device(const std::uint8_t* d, std::uint64_t n) {
  std::vector<std::uint8_t> host(n);
  EXPECT_EQ(cudaMemcpy(host.data(), d, n, cudaMemcpyDeviceToHost), cudaSuccess);
  key_blocks blocks;
  for (std::uint64_t i = 0; i < n; ++i)
    if (blocks.empty() || blocks.back().first != host[i])
      blocks.push_back({host[i], 1});
    else
      ++blocks.back().second;
  return blocks;
}

}  // namespace

TEST_F(GpuToolbox, SetOperationsTakeSizesPast32Bits) {
  CORANK_REQUIRE_GPU();
  const std::uint64_t g = std::uint64_t(1) << 30;
  const key_blocks a{{0, g}, {1, g + 3}, {2, 5}}, b{{1, g + 1}, {2, g + 9}, {3, 7}};
  const std::uint64_t m = total_of(a), n = total_of(b);
  ASSERT_GT(m + n, std::uint64_t(1) << 32);
  const auto da = device_blocks(a), db = device_blocks(b);
  if (!da || !db) GTEST_SKIP() << "no room for " << m + n << " bytes of inputs";
  device_buffer<std::uint8_t> out(m + n);
  if (!out.data()) GTEST_SKIP() << "no room for " << m + n << " bytes of output";
  const auto count_in = [](const key_blocks& blocks, std::uint8_t key) {
    for (const auto& [k, c] : blocks)
      if (k == key) return c;
    return std::uint64_t(0);
  };
  for (const set_op op : every_set_op) {
    key_blocks want;
    for (std::uint8_t key = 0; key < 4; ++key) {
      const std::uint64_t p = count_in(a, key), q = count_in(b, key);
      const std::uint64_t copies = op == set_op::unite        ? std::max(p, q)
                                   : op == set_op::intersect  ? std::min(p, q)
                                   : op == set_op::difference ? (p > q ? p - q : 0)
                                                              : (p > q ? p - q : q - p);
      if (copies) want.push_back({key, copies});
    }
    out.poison();
    std::size_t count = 0;
    CORANK_ASSERT_CUDA(cc::set_operation(op, da->data(), m, db->data(), n, out.data(),
                                         cc::output_count::to_host(&count)));
    ASSERT_EQ(count, total_of(want)) << "op " << int(op);
    EXPECT_EQ(blocks_on_device(out.data(), count), want) << "op " << int(op);
  }
}

TEST_F(GpuToolbox, MultiwayMergeTakesSizesPast32Bits) {
  CORANK_REQUIRE_GPU();
  const std::uint64_t g = std::uint64_t(1) << 30;
  // Three runs of 2^31 + 3, 2^31 + 5 and 2^30 + 5 keys (64-bit offsets).
  const key_blocks keys{{0, 2 * g}, {2, 3}, {1, 2 * g + 5}, {0, 5}, {2, g}};
  const std::vector<std::uint64_t> offsets{0, 2 * g + 3, 4 * g + 8, 5 * g + 13};
  const std::uint64_t n = offsets.back();
  ASSERT_EQ(total_of(keys), n);
  const auto d_keys = device_blocks(keys);
  if (!d_keys) GTEST_SKIP() << "no room for " << n << " bytes";
  device_buffer<std::uint8_t> out(n);
  device_buffer<std::uint64_t> d_offsets(offsets);
  if (!out.data()) GTEST_SKIP() << "no room for " << n << " bytes of output";
  out.poison();
  const cudaError_t status = cc::multiway_merge(d_keys->data(), d_offsets.data(), 3, n, out.data());
  if (status == cudaErrorMemoryAllocation) GTEST_SKIP() << "no room for the merge's buffer";
  CORANK_ASSERT_CUDA(status);
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  EXPECT_EQ(blocks_on_device(out.data(), n),
            (key_blocks{{0, 2 * g + 5}, {1, 2 * g + 5}, {2, g + 3}}));
}

TEST_F(GpuToolbox, JoinFindsMatchesPast32Bits) {
  CORANK_REQUIRE_GPU();
  // B: 2^32 zeros, then five 1s and two 2s: their indices lie past 2^32.
  const std::uint64_t z = std::uint64_t(1) << 32;
  const auto db = device_blocks({{0, z}, {1, 5}, {2, 2}});
  if (!db) GTEST_SKIP() << "no room for " << z + 7 << " bytes";
  const std::vector<std::uint8_t> a{1, 1, 2, 3};
  device_buffer<std::uint8_t> da(a);
  for (const auto kind : {corank::join_kind::inner, corank::join_kind::left_outer}) {
    std::vector<std::size_t> want_a, want_b;
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 5; ++j) want_a.push_back(i), want_b.push_back(z + j);
    want_a.insert(want_a.end(), {2, 2});
    want_b.insert(want_b.end(), {z + 5, z + 6});
    if (kind == corank::join_kind::left_outer)
      want_a.push_back(3), want_b.push_back(corank::no_match);
    std::size_t pairs = 0;
    CORANK_ASSERT_CUDA(cc::join_size(kind, da.data(), a.size(), db->data(), z + 7, &pairs));
    ASSERT_EQ(pairs, want_a.size()) << "kind " << int(kind);
    device_buffer<std::size_t> out_a(pairs), out_b(pairs);
    out_a.poison(), out_b.poison();
    CORANK_ASSERT_CUDA(
        cc::join(kind, da.data(), a.size(), db->data(), z + 7, out_a.data(), out_b.data(), pairs));
    EXPECT_EQ(out_a.to_host(), want_a) << "kind " << int(kind);
    EXPECT_EQ(out_b.to_host(), want_b) << "kind " << int(kind);
  }
}
