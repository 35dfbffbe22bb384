// The GPU entry points under violated preconditions: NaN keys, a comparator that is not a strict
// weak order, unsorted inputs to a merge, overlapping buffers. Every kernel must end (a kernel
// that never does wedges the device for every process on it): each call runs under a watchdog
// and must return cudaSuccess; the output is checked as far as the algorithm promises (merges
// and two-way sorts: every output is an input element with its own value; bitonic sorts: a
// permutation). Overlapping buffers are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/merge.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "corank/study/merge.cuh"
#include "support/cuda_test.cuh"
#include "support/misuse.hpp"
#include "support/seeded_test.hpp"

namespace {

using corank::cuda::merge_algorithm;
using merge_options = corank::study::cuda::merge_options;  // any kernel's
using corank::test::bit_multiset;
using corank::test::coin_less;
using corank::test::device_buffer;
using corank::test::finishes_within;
using corank::test::hang_limit;

/// The merge kernels: automatic's two schemes (with a partition pass and with chained tile ends),
/// and the study's basic, tiled and circular kernels in their variants.
std::vector<std::pair<std::string, merge_options>> merge_configs() {
  std::vector<std::pair<std::string, merge_options>> c;
  const auto add = [&](std::string name, merge_algorithm alg, unsigned threads, unsigned tile,
                       unsigned blocks, bool reuse, bool branch_free) {
    merge_options o;
    o.algorithm = alg, o.threads = threads, o.tile_items = tile, o.blocks = blocks;
    o.reuse_neighbor_co_rank = reuse, o.branch_free = branch_free;
    c.emplace_back(std::move(name), o);
  };
  add("automatic", merge_algorithm::automatic, 0, 0, 0, true, true);
  add("automatic_single_launch_grid3", merge_algorithm::automatic, 0, 0, 3, true, true);
  c.back().second.scheme = corank::cuda::merge_scheme::single_launch;
  for (std::size_t lead : {0u, 3u}) {
    add("automatic_partitioned_lead" + std::to_string(lead), merge_algorithm::automatic, 32, 0, 0,
        true, true);
    c.back().second.scheme = corank::cuda::merge_scheme::partitioned;
    c.back().second.lead_tiles = lead;
  }
  for (bool reuse : {false, true})
    for (bool bf : {false, true}) {
      const std::string variant = std::string(reuse ? "_reuse" : "") + (bf ? "_branch_free" : "");
      add("basic" + variant, merge_algorithm::basic, 128, 0, 0, reuse, bf);
      add("tiled" + variant, merge_algorithm::tiled, 128, 5, 0, reuse, bf);
      add("circular" + variant, merge_algorithm::circular, 128, 128, 0, reuse, bf);
    }
  return c;
}

/// Merges by key on the device (values: where each key came from, A's i as i, B's j as m + j)
/// under the watchdog, and checks that it succeeded and that every output is an input element
/// with its own value.
template <class K, class Compare>
void check_merge_ends(const std::vector<K>& a, const std::vector<K>& b, Compare comp,
                      const merge_options& opt) {
  const std::size_t m = a.size(), n = b.size();
  std::vector<std::uint32_t> va(m), vb(n);
  std::iota(va.begin(), va.end(), 0u);
  std::iota(vb.begin(), vb.end(), std::uint32_t(m));
  device_buffer<K> da(a), db(b), dk(m + n);
  device_buffer<std::uint32_t> dva(va), dvb(vb), dv(m + n);
  dk.poison();
  dv.poison();
  cudaError_t launched = cudaErrorUnknown, finished = cudaErrorUnknown;
  finishes_within(hang_limit, [&] {
    launched = corank::study::cuda::merge_by_key(opt, da.data(), dva.data(), m, db.data(),
                                                 dvb.data(), n, dk.data(), dv.data(), comp);
    finished = cudaDeviceSynchronize();
  });
  ASSERT_EQ(launched, cudaSuccess) << cudaGetErrorString(launched);
  ASSERT_EQ(finished, cudaSuccess) << cudaGetErrorString(finished);
  const std::vector<K> keys = dk.to_host();
  const std::vector<std::uint32_t> vals = dv.to_host();
  for (std::size_t i = 0; i < m + n; ++i) {
    ASSERT_LT(vals[i], m + n) << "output " << i << " is no input element";
    const K& want = vals[i] < m ? a[vals[i]] : b[vals[i] - m];
    ASSERT_EQ(std::memcmp(&keys[i], &want, sizeof(K)), 0) << "output " << i;
  }
}

class GpuMisuse : public corank::test::seeded_test {
 protected:
  std::vector<float> floats_with_nan(std::size_t n, bool sorted) {
    std::uniform_real_distribution<float> pick(-1000.f, 1000.f);
    std::vector<float> v(n);
    for (float& x : v) x = pick(rng);
    if (sorted) std::sort(v.begin(), v.end());
    for (std::size_t i = 0; i < n; i += 10) v[i] = std::numeric_limits<float>::quiet_NaN();
    return v;
  }
  std::vector<std::uint32_t> words(std::size_t n, std::uint32_t range, bool sorted) {
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = std::uint32_t(rng() % range);
    if (sorted) std::sort(v.begin(), v.end());
    return v;
  }
};

TEST_F(GpuMisuse, MergeWithNanKeysEnds) {
  CORANK_REQUIRE_GPU();
  for (const auto& [name, opt] : merge_configs())
    for (std::size_t side : {1000u, 100000u}) {
      SCOPED_TRACE(name + ", " + std::to_string(side) + " per side");
      check_merge_ends(floats_with_nan(side, true), floats_with_nan(side + 3, true), corank::less{},
                       opt);
    }
}

TEST_F(GpuMisuse, MergeWithARandomComparatorEnds) {
  CORANK_REQUIRE_GPU();
  for (const auto& [name, opt] : merge_configs())
    for (std::size_t side : {1000u, 100000u}) {
      SCOPED_TRACE(name + ", " + std::to_string(side) + " per side");
      check_merge_ends(words(side, ~0u, true), words(side + 5, ~0u, true), coin_less{}, opt);
    }
}

TEST_F(GpuMisuse, MergeOfUnsortedInputsEnds) {
  CORANK_REQUIRE_GPU();
  for (const auto& [name, opt] : merge_configs())
    for (std::size_t side : {1000u, 100000u}) {
      SCOPED_TRACE(name + ", " + std::to_string(side) + " per side");
      check_merge_ends(words(side, 1000, false), words(side, 1000, false), corank::less{}, opt);
    }
}

// The README's call on data sorted the other way, large enough for automatic's partition pass.
TEST_F(GpuMisuse, MergeWithGreaterOnAscendingDataEnds) {
  CORANK_REQUIRE_GPU();
  for (const auto& [name, opt] : merge_configs())
    for (std::size_t side : {256u, 100000u}) {
      SCOPED_TRACE(name + ", " + std::to_string(side) + " per side");
      check_merge_ends(words(side, ~0u, true), words(side, ~0u, true), corank::greater{}, opt);
    }
  check_merge_ends(words(5000000, ~0u, true), words(5000000, ~0u, true), corank::greater{},
                   merge_options{});
}

/// Runs a sort under the watchdog; it must launch and finish without error.
template <class Sort>
void check_sort_ends(Sort sort) {
  cudaError_t launched = cudaErrorUnknown, finished = cudaErrorUnknown;
  finishes_within(hang_limit, [&] {
    launched = sort();
    finished = cudaDeviceSynchronize();
  });
  ASSERT_EQ(launched, cudaSuccess) << cudaGetErrorString(launched);
  ASSERT_EQ(finished, cudaSuccess) << cudaGetErrorString(finished);
}

/// Whether every element of `got` occurs in `from`.
template <class T>
bool drawn_from(const std::vector<T>& got, const std::vector<T>& from) {
  const auto all = bit_multiset(from);
  for (const std::uint64_t b : bit_multiset(got))
    if (!std::binary_search(all.begin(), all.end(), b)) return false;
  return true;
}

// Two-way sorts (below four_way_from keys) write every output from an input; four-way ones may
// leave a tile whose cuts were inconsistent unwritten, so from there only the end is checked.
TEST_F(GpuMisuse, StableSortWithNanKeysEnds) {
  CORANK_REQUIRE_GPU();
  for (std::size_t n : {300u, 1000u, 100000u, 8000000u}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const auto keys = floats_with_nan(n, false);
    device_buffer<float> dk(keys);
    check_sort_ends([&] { return corank::cuda::stable_sort(dk.data(), n); });
    if (n < 1000000) {
      ASSERT_TRUE(drawn_from(dk.to_host(), keys)) << "an output that is no input";
    }
  }
}

TEST_F(GpuMisuse, StableSortWithARandomComparatorEnds) {
  CORANK_REQUIRE_GPU();
  for (std::size_t n : {1000u, 100000u, 8000000u}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const auto keys = words(n, ~0u, false);
    std::vector<std::uint32_t> vals(n);
    std::iota(vals.begin(), vals.end(), 0u);
    device_buffer<std::uint32_t> dk(keys), dk2(keys), dv(vals);
    check_sort_ends([&] { return corank::cuda::stable_sort(dk.data(), n, coin_less{}); });
    check_sort_ends(
        [&] { return corank::cuda::stable_sort_by_key(dk2.data(), dv.data(), n, coin_less{}); });
    if (n < 1000000) {
      const auto got_keys = dk2.to_host(), got_vals = dv.to_host();
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_LT(got_vals[i], n) << "output " << i << " is no input element";
        ASSERT_EQ(got_keys[i], keys[got_vals[i]]) << "output " << i;
      }
    }
  }
}

/// Four-way passes at small sizes: small tiles, four-way from the first pass, so garbage cuts
/// (cut slots that colliding sorted indices left unwritten: poisoned temporary storage) are met.
struct small_four_way_policy : corank::cuda::tuning::merge_sort_policy<4, 4> {
  static constexpr int threads = 64, items = 3, pass_threads = 32, merge_ways = 4;
  static constexpr std::size_t four_way_from = 1;
  static constexpr std::size_t lane_search_below = ~std::size_t(0);
  using four_way = corank::cuda::tuning::four_way_shape<64, 5, 2, 1, 8, 4>;
};

TEST_F(GpuMisuse, FourWayPassesWithARandomComparatorEnd) {
  CORANK_REQUIRE_GPU();
  using layout =
      corank::cuda::detail::merge_sort_layout<std::uint32_t, std::uint32_t, small_four_way_policy>;
  for (std::size_t n : {1000u, 49153u, 200000u}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const auto keys = words(n, ~0u, false);
    std::vector<std::uint32_t> vals(n);
    std::iota(vals.begin(), vals.end(), 0u);
    device_buffer<std::uint32_t> dk(keys), dv(vals);
    device_buffer<unsigned char> temp(layout::bytes(n));
    temp.poison();
    check_sort_ends([&] {
      return corank::cuda::detail::merge_sort_run<std::uint32_t, std::uint32_t, coin_less,
                                                  small_four_way_policy>(
          dk.data(), dv.data(), n, temp.data(), coin_less{}, cudaStream_t(0));
    });
  }
}

TEST_F(GpuMisuse, BitonicSortWithNanKeysOrARandomComparatorPermutes) {
  CORANK_REQUIRE_GPU();
  for (std::size_t n : {1000u, 100000u, 3000000u}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const auto floats = floats_with_nan(n, false);
    device_buffer<float> df(floats);
    check_sort_ends([&] { return corank::cuda::bitonic_sort(df.data(), n); });
    ASSERT_EQ(bit_multiset(df.to_host()), bit_multiset(floats));

    const auto keys = words(n, ~0u, false);
    std::vector<std::uint32_t> vals(n);
    std::iota(vals.begin(), vals.end(), 0u);
    device_buffer<std::uint32_t> dk(keys), dv(vals);
    check_sort_ends(
        [&] { return corank::cuda::bitonic_sort_by_key(dk.data(), dv.data(), n, coin_less{}); });
    const auto got_keys = dk.to_host(), got_vals = dv.to_host();
    ASSERT_EQ(bit_multiset(got_vals), bit_multiset(vals));
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got_keys[i], keys[got_vals[i]]) << "i=" << i;
  }
}

// After all of the above the device still sorts and merges correctly.
TEST_F(GpuMisuse, DeviceStillWorksAfterwards) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 1 << 20;
  auto keys = words(n, ~0u, false);
  device_buffer<std::uint32_t> dk(keys);
  check_sort_ends([&] { return corank::cuda::stable_sort(dk.data(), n); });
  std::sort(keys.begin(), keys.end());
  ASSERT_EQ(dk.to_host(), keys);
}

TEST_F(GpuMisuse, OverlappingSortBuffersAreRefused) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 1000;
  device_buffer<std::uint32_t> buffer(2 * n);
  std::uint32_t* keys = buffer.data();
  using corank::cuda::stable_sort_temp_bytes;
  EXPECT_EQ(corank::cuda::stable_sort_by_key(keys, keys, n), cudaErrorInvalidValue);
  EXPECT_EQ(corank::cuda::stable_sort_by_key(keys, keys + n / 2, n), cudaErrorInvalidValue);
  EXPECT_EQ(corank::cuda::stable_sort_by_key(keys + n / 2, keys, n), cudaErrorInvalidValue);
  EXPECT_EQ(corank::cuda::bitonic_sort_by_key(keys, keys + n - 1, n), cudaErrorInvalidValue);
  // The caller's temporary storage over the keys or the values.
  device_buffer<unsigned char> temp(stable_sort_temp_bytes<std::uint32_t, std::uint32_t>(n) +
                                    4 * n);
  auto* inside = reinterpret_cast<std::uint32_t*>(temp.data()) + 8;
  device_buffer<std::uint32_t> other(n);
  EXPECT_EQ(corank::cuda::stable_sort(inside, n, temp.data(), temp.size()), cudaErrorInvalidValue);
  EXPECT_EQ(corank::cuda::stable_sort_by_key(other.data(), inside, n, temp.data(), temp.size()),
            cudaErrorInvalidValue);
  // Side by side is no overlap.
  EXPECT_EQ(corank::cuda::stable_sort_by_key(keys, keys + n, n), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

}  // namespace
