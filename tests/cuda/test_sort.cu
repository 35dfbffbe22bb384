// GPU sorts against std::sort / std::stable_sort: bitonic_sort (not stable: keys checked bitwise
// against a multiset, pairs as a multiset of (key, value)), stable_sort (bitwise equal to
// std::stable_sort, values recording the original position). Every device array has guard elements
// on both sides that must survive: nothing past the end is read or written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include "corank/cuda/bitonic_sort.cuh"
#include "corank/cuda/merge_sort.cuh"
#include "corank/study/bitonic_sort_host.cuh"
#include "support/cuda_test.cuh"
#include "support/seeded_test.hpp"
#include "support/sort_keys.cuh"

namespace {

using corank::test::by_hi;
using corank::test::device_buffer;
using corank::test::pair_key;
using corank::test::wide_key;
using corank::test::wide_order;

constexpr std::size_t guard = 7;            // guard elements on each side
constexpr unsigned char guard_byte = 0x5A;  // their byte pattern

/// A device copy of `host` between two guard regions. The data is 16-byte unaligned (7 guard
/// elements before it), or aligned (16 before it) when `aligned`, so that both the vector and the
/// scalar paths of the loads and stores run.
template <class T>
struct guarded {
  std::size_t n, front;
  device_buffer<T> buffer;
  explicit guarded(const std::vector<T>& host, bool aligned = false)
      : n(host.size()), front(aligned ? 16 : guard), buffer(n + front + guard) {
    cudaMemset(buffer.data(), guard_byte, buffer.size() * sizeof(T));
    if (n) cudaMemcpy(data(), host.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  }
  T* data() { return buffer.data() + front; }
  std::vector<T> result() {
    std::vector<T> all = buffer.to_host();
    const auto* bytes = reinterpret_cast<const unsigned char*>(all.data());
    const std::size_t total = all.size() * sizeof(T);
    for (std::size_t i = 0; i < front * sizeof(T); ++i)
      EXPECT_EQ(bytes[i], guard_byte) << "guard before the array overwritten";
    for (std::size_t i = 0; i < guard * sizeof(T); ++i)
      EXPECT_EQ(bytes[total - 1 - i], guard_byte) << "guard after the array overwritten";
    return std::vector<T>(all.begin() + std::ptrdiff_t(front),
                          all.begin() + std::ptrdiff_t(front + n));
  }
};

template <class T>
bool bytes_less(const T& x, const T& y) {
  return std::memcmp(&x, &y, sizeof(T)) < 0;
}

/// `got` is sorted by comp and holds the same elements (bitwise) as `input`.
template <class T, class Compare>
void expect_sorted_permutation(std::vector<T> input, std::vector<T> got, Compare comp) {
  ASSERT_EQ(got.size(), input.size());
  const auto bad = std::is_sorted_until(got.begin(), got.end(), comp);
  ASSERT_TRUE(bad == got.end()) << "out of order at " << (bad - got.begin()) << " of "
                                << got.size();
  std::sort(input.begin(), input.end(), bytes_less<T>);
  std::sort(got.begin(), got.end(), bytes_less<T>);
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &input[i], sizeof(T)), 0) << "not a permutation of the input";
}

template <class K, class Compare>
void expect_bitonic_sorts(const std::vector<K>& keys, Compare comp) {
  CORANK_REQUIRE_GPU();
  guarded<K> d(keys);
  CORANK_ASSERT_CUDA(corank::cuda::bitonic_sort(d.data(), keys.size(), comp));
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  expect_sorted_permutation(keys, d.result(), comp);
}

/// Key-value: the keys come out sorted and the (key, value) pairs are those of the input.
template <class K, class Compare>
void expect_bitonic_sorts_pairs(const std::vector<K>& keys, Compare comp) {
  CORANK_REQUIRE_GPU();
  std::vector<std::uint32_t> vals(keys.size());
  std::iota(vals.begin(), vals.end(), 0u);
  guarded<K> dk(keys);
  guarded<std::uint32_t> dv(vals);
  CORANK_ASSERT_CUDA(corank::cuda::bitonic_sort_by_key(dk.data(), dv.data(), keys.size(), comp));
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  const auto got_keys = dk.result();
  const auto got_vals = dv.result();
  ASSERT_TRUE(std::is_sorted(got_keys.begin(), got_keys.end(), comp));
  std::vector<char> seen(keys.size(), 0);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint32_t v = got_vals[i];
    ASSERT_LT(v, keys.size());
    ASSERT_FALSE(seen[v]) << "value " << v << " twice";
    seen[v] = 1;
    ASSERT_EQ(std::memcmp(&got_keys[i], &keys[v], sizeof(K)), 0) << "pair split at " << i;
  }
}

/// Sizes around every interesting boundary: tiny, powers of two +-1, tiles (4096 to 32768 keys
/// by key size) +-1 and their multiples.
std::vector<std::size_t> edge_sizes() {
  std::vector<std::size_t> s = {0, 1, 2, 3, 5, 31, 33, 100};
  for (int b : {6, 10, 12, 13, 14, 15, 17, 20})
    for (long d : {-1L, 0L, 1L}) s.push_back(std::size_t((1L << b) + d));
  for (std::size_t t : {4096u, 8192u, 16384u, 32768u})
    for (std::size_t m : {3u, 5u})
      for (long d : {-1L, 1L}) s.push_back(t * m + d);
  return s;
}

template <class K>
std::vector<K> random_keys(std::mt19937_64& rng, std::size_t n, std::uint64_t range) {
  std::vector<K> v(n);
  for (auto& x : v) x = K(rng() % range);
  return v;
}

class BitonicSort : public corank::test::seeded_test {};

TEST_F(BitonicSort, SortsU32AtEdgeSizes) {
  for (std::size_t n : edge_sizes()) {
    SCOPED_TRACE(n);
    expect_bitonic_sorts(random_keys<std::uint32_t>(rng, n, 1ull << 32), corank::less{});
  }
}

/// Wide tails (stages finished in tiles of twice the capacity) with a small shape, so that they
/// run at every size from two tiles up: 2048-key tiles, 4-step global passes.
struct small_wide_shape : corank::cuda::tuning::bitonic_shape<128, 4, 1, 4, 128, 1, true> {
  static constexpr unsigned wide_tails_min_tiles_per_sm = 0;
};
TEST_F(BitonicSort, WideTailsSortAtEdgeSizes) {
  CORANK_REQUIRE_GPU();
  for (std::size_t n : {4095u, 4096u, 4097u, 8191u, 65537u, 131072u, 200003u}) {
    SCOPED_TRACE(n);
    const auto keys = random_keys<std::uint32_t>(rng, n, n % 2 ? 1ull << 32 : 50);
    guarded<std::uint32_t> d(keys);
    CORANK_ASSERT_CUDA((corank::cuda::detail::bitonic_sort_impl<std::uint32_t, corank::no_value,
                                                                corank::less, small_wide_shape>(
        d.data(), static_cast<corank::no_value*>(nullptr), n, corank::less{}, cudaStream_t(0))));
    CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
    expect_sorted_permutation(keys, d.result(), corank::less{});
  }
}

TEST_F(BitonicSort, SortsDescending) {
  for (std::size_t n : {1000u, 8193u, 100000u, 1234567u})
    expect_bitonic_sorts(random_keys<std::uint32_t>(rng, n, 1ull << 32), corank::greater{});
}

TEST_F(BitonicSort, SortsRandomSizes) {
  for (int i = 0; i < 12; ++i) {
    const std::size_t n = rng() % (1u << (4 + rng() % 19));
    SCOPED_TRACE(n);
    expect_bitonic_sorts(random_keys<std::uint32_t>(rng, n, 1ull << 32), corank::less{});
  }
}

TEST_F(BitonicSort, SortsAllEqualFewDistinctSortedAndReversed) {
  const std::size_t n = 3 * 8192 + 77;
  expect_bitonic_sorts(std::vector<std::uint32_t>(n, 42u), corank::less{});
  expect_bitonic_sorts(random_keys<std::uint32_t>(rng, n, 3), corank::less{});
  auto v = random_keys<std::uint32_t>(rng, n, 1ull << 32);
  std::sort(v.begin(), v.end());
  expect_bitonic_sorts(v, corank::less{});
  std::reverse(v.begin(), v.end());
  expect_bitonic_sorts(v, corank::less{});
}

TEST_F(BitonicSort, SortsFloatsWithSignedZeros) {
  std::vector<float> v(50000);
  for (auto& x : v) {
    const auto r = rng() % 4;
    x = r == 0 ? 0.0f : r == 1 ? -0.0f : float(std::int64_t(rng() % 2001) - 1000) / 7.0f;
  }
  expect_bitonic_sorts(v, corank::less{});
  expect_bitonic_sorts(v, corank::greater{});
}

TEST_F(BitonicSort, SortsStructKeysWithCustomComparators) {
  for (std::size_t n : {0u, 1u, 4095u, 4097u, 70001u}) {
    std::vector<pair_key> a(n);
    for (auto& k : a) k = {std::uint32_t(rng() % 100), std::uint32_t(rng())};
    expect_bitonic_sorts(a, by_hi{});
    std::vector<wide_key> b(n);
    for (auto& k : b) k = {rng() % 50, std::uint32_t(rng() % 1000), 0};
    expect_bitonic_sorts(b, wide_order{});
  }
}

TEST_F(BitonicSort, SortsPairs) {
  for (std::size_t n : {0u, 1u, 2u, 8191u, 8193u, 16385u, 300000u}) {
    SCOPED_TRACE(n);
    expect_bitonic_sorts_pairs(random_keys<std::uint32_t>(rng, n, 1000), corank::less{});
    expect_bitonic_sorts_pairs(random_keys<std::uint64_t>(rng, n, ~0ull), corank::greater{});
  }
  std::vector<wide_key> w(20000);
  for (auto& k : w) k = {rng() % 10, std::uint32_t(rng() % 10), 0};
  expect_bitonic_sorts_pairs(w, wide_order{});
}

TEST_F(BitonicSort, HostEntryReportsTransferAndKernelTimes) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 1 << 20;
  std::uint32_t* pinned = nullptr;
  CORANK_ASSERT_CUDA(cudaMallocHost(&pinned, n * sizeof(std::uint32_t)));
  const auto keys = random_keys<std::uint32_t>(rng, n, 1ull << 32);
  std::copy(keys.begin(), keys.end(), pinned);
  corank::study::cuda::transfer_timings t;
  CORANK_ASSERT_CUDA(corank::study::cuda::bitonic_sort_host(pinned, n, corank::less{}, &t));
  expect_sorted_permutation(keys, std::vector<std::uint32_t>(pinned, pinned + n), corank::less{});
  EXPECT_GT(t.h2d_ms, 0.0f);
  EXPECT_GT(t.kernel_ms, 0.0f);
  EXPECT_GT(t.d2h_ms, 0.0f);
  cudaFreeHost(pinned);
}

// Above 2^31 keys (64-bit indices everywhere): u8 keys, checked by counts and order.
TEST_F(BitonicSort, HugeSortsMoreThan2Pow31Keys) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = (std::size_t(1) << 31) + 4099;
  std::vector<std::uint8_t> keys(n);
  std::size_t counts[256] = {};
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t r = rng();
    for (std::size_t j = i; j < i + 8 && j < n; ++j, r >>= 8) ++counts[keys[j] = std::uint8_t(r)];
  }
  for (bool stable : {false, true}) {
    SCOPED_TRACE(stable ? "stable_sort" : "bitonic_sort");
    device_buffer<std::uint8_t> d(keys);
    ASSERT_NE(d.data(), nullptr);
    CORANK_ASSERT_CUDA(stable ? corank::cuda::stable_sort(d.data(), n)
                              : corank::cuda::bitonic_sort(d.data(), n));
    CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
    const std::vector<std::uint8_t> got = d.to_host();
    std::size_t at = 0;
    for (int k = 0; k < 256; ++k)
      for (std::size_t c = 0; c < counts[k]; ++c, ++at)
        if (got[at] != k) FAIL() << "key " << int(got[at]) << " at " << at << ", expected " << k;
  }
}

// ---- stable_sort

/// stable_sort_by_key with values recording the original position, and stable_sort of the keys
/// alone (with the caller's temporary storage when `caller_temp`), against std::stable_sort; the
/// arrays 16-byte aligned when `aligned` (else not).
template <class K, class Compare>
void expect_stable_sorts(const std::vector<K>& keys, Compare comp, bool caller_temp = false,
                         bool aligned = false) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> expected_vals(n);
  std::iota(expected_vals.begin(), expected_vals.end(), 0u);
  std::stable_sort(expected_vals.begin(), expected_vals.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return comp(keys[x], keys[y]); });
  guarded<K> dk(keys, aligned), dk2(keys, aligned);
  std::vector<std::uint32_t> vals(n);
  std::iota(vals.begin(), vals.end(), 0u);
  guarded<std::uint32_t> dv(vals, aligned);
  if (caller_temp) {
    device_buffer<unsigned char> temp(corank::cuda::stable_sort_temp_bytes<K>(n) + 1);
    CORANK_ASSERT_CUDA(corank::cuda::stable_sort(dk.data(), n, temp.data(), temp.size(), comp));
    device_buffer<unsigned char> temp2(corank::cuda::stable_sort_temp_bytes<K, std::uint32_t>(n));
    CORANK_ASSERT_CUDA(corank::cuda::stable_sort_by_key(dk2.data(), dv.data(), n, temp2.data(),
                                                        temp2.size(), comp));
  } else {
    CORANK_ASSERT_CUDA(corank::cuda::stable_sort(dk.data(), n, comp));
    CORANK_ASSERT_CUDA(corank::cuda::stable_sort_by_key(dk2.data(), dv.data(), n, comp));
  }
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  const auto got_keys = dk.result(), got_keys2 = dk2.result();
  const auto got_vals = dv.result();
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(got_vals[i], expected_vals[i])
        << "not stable (or not sorted) at " << i << " of " << n;
    ASSERT_EQ(std::memcmp(&got_keys[i], &keys[expected_vals[i]], sizeof(K)), 0)
        << "keys-only sort differs at " << i;
    ASSERT_EQ(std::memcmp(&got_keys2[i], &keys[expected_vals[i]], sizeof(K)), 0)
        << "key-value sort's keys differ at " << i;
  }
}

class StableSort : public corank::test::seeded_test {};

/// Runs of `width` in keys[0, n), each sorted, and the stable merge of each group of `group`
/// runs (values: positions), the reference of one merge pass.
struct pass_case {
  std::vector<std::uint32_t> keys, vals, want_keys, want_vals;
};
pass_case merge_pass_case(std::mt19937_64& rng, std::size_t n, std::size_t width, std::size_t group,
                          std::uint64_t distinct) {
  pass_case c{random_keys<std::uint32_t>(rng, n, distinct), std::vector<std::uint32_t>(n), {}, {}};
  for (std::size_t r = 0; r < n; r += width)
    std::sort(c.keys.begin() + r, c.keys.begin() + std::min(n, r + width));
  std::iota(c.vals.begin(), c.vals.end(), 0u);
  for (std::size_t g = 0; g < n; g += group * width) {
    // The group's runs are sorted, so its stable sort is their stable merge.
    std::vector<std::size_t> order(std::min(n, g + group * width) - g);
    std::iota(order.begin(), order.end(), g);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return c.keys[x] < c.keys[y]; });
    for (std::size_t i : order) c.want_keys.push_back(c.keys[i]), c.want_vals.push_back(c.vals[i]);
  }
  return c;
}

/// One two-way merge sort pass (detail::launch_partitioned_tiles over kernels::pairwise_runs),
/// with small tiles so that the partition pass, the lead tiles and both side by side all run at
/// the tests' sizes: runs of `width` merged pairwise, the last pair short or missing its B run.
TEST_F(StableSort, MergePassMergesRunsPairwiseWithAndWithoutLeadTiles) {
  CORANK_REQUIRE_GPU();
  using shape = corank::cuda::tuning::partitioned_shape<128, 5, 1>;
  constexpr unsigned threads = 64;  // tiles of 320 outputs
  std::uniform_int_distribution<std::size_t> size(0, 20000);
  for (std::size_t width : {320u, 640u, 2560u})
    for (int round = 0; round < 3; ++round) {
      const std::size_t n = round == 0 ? 2 * width * 7 : size(rng);
      const pass_case c = merge_pass_case(rng, n, width, 2, round == 1 ? 16 : 1u << 30);
      for (std::optional<std::size_t> lead :
           {std::optional<std::size_t>{}, std::optional<std::size_t>{0},
            std::optional<std::size_t>{1}, std::optional<std::size_t>{5}}) {
        SCOPED_TRACE(testing::Message() << "width " << width << ", n " << n << ", lead "
                                        << (lead ? long(*lead) : -1L));
        guarded<std::uint32_t> dk(c.keys), dv(c.vals),
            ok(std::vector<std::uint32_t>(n, 0xA5A5A5A5u)),
            ov(std::vector<std::uint32_t>(n, 0xA5A5A5A5u));
        const corank::cuda::kernels::pairwise_runs<std::uint32_t, std::uint32_t> pass{
            {}, dk.data(), dv.data(), n, width, ok.data(), ov.data()};
        CORANK_ASSERT_CUDA(corank::cuda::detail::launch_partitioned_tiles<shape>(
            pass, threads, lead, corank::less{}, cudaStream_t(0)));
        CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
        const auto got_keys = ok.result(), got_vals = ov.result();
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_EQ(got_keys[i], c.want_keys[i]) << "key at " << i;
          ASSERT_EQ(got_vals[i], c.want_vals[i]) << "value at " << i;
        }
      }
    }
}

/// The grid samples of x (grid_sampled_ptr): x[t every] and x[t every + every - 1] at 2t and 2t +
/// 1, poison where a group ends past x.
std::vector<std::uint32_t> grid_samples(const std::vector<std::uint32_t>& x, unsigned every) {
  std::vector<std::uint32_t> s(2 * ((x.size() + every - 1) / every), 0xA5A5A5A5u);
  for (std::size_t q = 0; q < x.size(); ++q)
    if (q % every == 0 || q % every == every - 1) s[2 * (q / every) + (q % every != 0)] = x[q];
  return s;
}

/// One four-way pass as the sort runs it (detail::launch_four_way_pass: cuts, then tiles), with
/// small blocks (320 outputs) so that many groups, samples and tiles run at the tests' sizes:
/// tiles of one part and of three, widths that the stride divides and that it does not, groups of
/// fewer or shorter runs at the end, few distinct keys (ties across all four runs), keys only and
/// pairs; cut searches on the keys alone and through grid samples (read from the input's, written
/// for the output: checked), by groups of lanes (pairs) and by one thread each (keys only).
TEST_F(StableSort, FourWayPassMergesGroupsOfFourRuns) {
  CORANK_REQUIRE_GPU();
  const auto check = [&](auto shape_tag, std::size_t n, std::size_t width, const pass_case& c) {
    using shape = decltype(shape_tag);
    constexpr unsigned every = shape::sample_every;
    SCOPED_TRACE(testing::Message()
                 << "width " << width << ", n " << n << ", parts " << shape::parts << ", stride "
                 << shape::stride << ", samples every " << every << ", search lanes "
                 << shape::search_lanes);
    guarded<std::uint32_t> dk(c.keys), dv(c.vals), ok(std::vector<std::uint32_t>(n, 0xA5A5A5A5u)),
        ov(std::vector<std::uint32_t>(n, 0xA5A5A5A5u)),
        ok2(std::vector<std::uint32_t>(n, 0xA5A5A5A5u));
    const std::vector<std::uint32_t> samples_in = grid_samples(c.keys, every ? every : 1),
                                     want_samples = grid_samples(c.want_keys, every ? every : 1);
    guarded<std::uint32_t> ds(samples_in),
        ds_out(std::vector<std::uint32_t>(want_samples.size(), 0xA5A5A5A5u));
    const corank::cuda::kernels::four_way_runs<std::uint32_t, std::uint32_t> pairs{
        {},
        dk.data(),
        dv.data(),
        n,
        width,
        shape::stride,
        shape::parts,
        ok.data(),
        ov.data(),
        ds.data(),
        every ? ds_out.data() : nullptr};
    // Keys only: the cut searches read the keys alone.
    const corank::cuda::kernels::four_way_runs<std::uint32_t, corank::no_value> keys_only{
        {}, dk.data(), nullptr, n, width, shape::stride, shape::parts, ok2.data(), nullptr};
    device_buffer<corank::cuda::detail::sort_cut> cuts(std::max<std::size_t>(pairs.slots(), 1));
    if (n > 0) {
      CORANK_ASSERT_CUDA(corank::cuda::detail::launch_four_way_pass<shape>(
          pairs, cuts.data(), corank::less{}, cudaStream_t(0)));
      CORANK_ASSERT_CUDA(corank::cuda::detail::launch_four_way_pass<shape>(
          keys_only, cuts.data(), corank::less{}, cudaStream_t(0), false));
      auto other_stride = pairs;  // a problem cut for another shape is refused
      other_stride.stride += 1;
      EXPECT_EQ(corank::cuda::detail::launch_four_way_pass<shape>(other_stride, cuts.data(),
                                                                  corank::less{}, cudaStream_t(0)),
                cudaErrorInvalidValue);
    }
    CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
    const auto got_keys = ok.result(), got_vals = ov.result(), got_keys2 = ok2.result();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got_keys[i], c.want_keys[i]) << "key at " << i;
      ASSERT_EQ(got_vals[i], c.want_vals[i]) << "value at " << i;
      ASSERT_EQ(got_keys2[i], c.want_keys[i]) << "key-only pass, key at " << i;
    }
    if (every) {
      const auto got_samples = ds_out.result();
      for (std::size_t i = 0; i < want_samples.size(); ++i)
        ASSERT_EQ(got_samples[i], want_samples[i]) << "the output's grid sample " << i;
    }
  };
  std::uniform_int_distribution<std::size_t> size(0, 30000);
  for (std::size_t width : {1u, 37u, 103u, 320u, 1000u, 2560u})
    for (int round = 0; round < 4; ++round) {
      const std::size_t n = round == 0 ? 4 * width * 5 : round == 1 ? 2 * width + 3 : size(rng);
      const pass_case c = merge_pass_case(rng, n, width, 4, round == 2 ? 16 : 1u << 30);
      check(corank::cuda::tuning::four_way_shape<64, 5, 1>{}, n, width, c);
      check(corank::cuda::tuning::four_way_shape<64, 5, 3>{}, n, width, c);
      check(corank::cuda::tuning::four_way_shape<64, 5, 1, 1, 8, 4>{}, n, width, c);
      check(corank::cuda::tuning::four_way_shape<64, 5, 3, 1, 4, 8>{}, n, width, c);
      check(corank::cuda::tuning::four_way_shape<64, 5, 2, 1, 0, 32>{}, n, width, c);
    }
}

/// A policy with small tiles, so that whole sorts at the tests' sizes make many passes; grid
/// samples every 8 keys (tiles and strides on the grid) or 64 (the 192-key tiles are not); cut
/// searches by 4 lanes, or one thread (samples every 64).
template <int Ways, unsigned SampleEvery = 8>
struct small_sort_policy : corank::cuda::tuning::merge_sort_policy<4, 4> {
  static constexpr int threads = 64, items = 3, pass_threads = 32, merge_ways = Ways;
  static constexpr std::size_t four_way_from = 1;  // every sort (n >= 2) that makes a pass
  static constexpr std::size_t lane_search_below = SampleEvery == 64 ? 1 : ~std::size_t(0);
  using four_way = corank::cuda::tuning::four_way_shape<64, 5, 2, 1, SampleEvery, 4>;
};

/// Whole sorts through small tiles (192 keys): four-way passes, an odd number of doublings (a last
/// pass of two runs) and an even one, and the two-way passes the sort keeps as a variant.
TEST_F(StableSort, SortsThroughManyFourWayAndTwoWayPasses) {
  CORANK_REQUIRE_GPU();
  const auto check = [&](auto policy, std::size_t n, std::uint64_t distinct) {
    using P = decltype(policy);
    using layout = corank::cuda::detail::merge_sort_layout<std::uint32_t, std::uint32_t, P>;
    SCOPED_TRACE(testing::Message() << "ways " << P::merge_ways << ", n " << n
                                    << ", two-way pass threads " << P::pass_threads);
    const auto keys = random_keys<std::uint32_t>(rng, n, distinct);
    std::vector<std::uint32_t> vals(n), want(n);
    std::iota(vals.begin(), vals.end(), 0u);
    std::iota(want.begin(), want.end(), 0u);
    std::stable_sort(want.begin(), want.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
    guarded<std::uint32_t> dk(keys, n % 2 == 0), dv(vals, n % 2 == 0);  // both alignments
    device_buffer<unsigned char> temp(layout::bytes(n) + 1);
    CORANK_ASSERT_CUDA(
        (corank::cuda::detail::merge_sort_run<std::uint32_t, std::uint32_t, corank::less, P>(
            dk.data(), dv.data(), n, temp.data(), corank::less{}, cudaStream_t(0))));
    CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
    const auto got_keys = dk.result(), got_vals = dv.result();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got_vals[i], want[i]) << "not stable (or not sorted) at " << i;
      ASSERT_EQ(got_keys[i], keys[want[i]]);
    }
  };
  // 192 x 4^k and 192 x 2 x 4^k (+-1): even and odd doublings.
  for (std::size_t n : {2u, 191u, 192u, 193u, 385u, 767u, 768u, 769u, 3071u, 3073u, 6145u, 49151u,
                        49153u, 98305u, 200000u})
    for (std::uint64_t distinct : {std::uint64_t(1) << 32, std::uint64_t(3)}) {
      check(small_sort_policy<4>{}, n, distinct);
      check(small_sort_policy<4, 64>{}, n, distinct);
      check(small_sort_policy<4, 0>{}, n, distinct);
      check(small_sort_policy<2>{}, n, distinct);
    }
}

/// The keys per tile of each tile sort shape a policy may choose for four-way passes.
template <class... Tiles>
std::vector<std::size_t> tile_keys(corank::cuda::tuning::sort_tile_choices<Tiles...>) {
  return {std::size_t(Tiles::tile)...};
}

TEST_F(StableSort, SortsU32AtEdgeSizes) {
  std::vector<std::size_t> sizes = edge_sizes();
  // Around multiples of the tiles of the tuned shapes (u32 keys, u32 pairs, 8-byte keys).
  using corank::cuda::tuning::merge_sort_policy;
  std::vector<std::size_t> tiles = {
      merge_sort_policy<4, 0>::threads * merge_sort_policy<4, 0>::items,
      merge_sort_policy<4, 4>::threads * merge_sort_policy<4, 4>::items,
      merge_sort_policy<8, 0>::threads * merge_sort_policy<8, 0>::items};
  for (std::size_t t : tile_keys(merge_sort_policy<4, 0>::four_way_tiles{})) tiles.push_back(t);
  for (std::size_t t : tile_keys(merge_sort_policy<4, 4>::four_way_tiles{})) tiles.push_back(t);
  for (std::size_t t : tiles)
    for (std::size_t m : {1u, 2u, 3u, 4u, 9u})
      for (long d : {-1L, 0L, 1L}) sizes.push_back(std::size_t(long(t * m) + d));
  for (std::size_t n : sizes)
    for (bool aligned : {false, true}) {
      SCOPED_TRACE(testing::Message() << n << (aligned ? " aligned" : " unaligned"));
      expect_stable_sorts(random_keys<std::uint32_t>(rng, n, 1ull << 32), corank::less{}, false,
                          aligned);
    }
}

TEST_F(StableSort, IsStableWithAllEqualAndFewDistinctKeys) {
  for (std::size_t n : {100u, 5633u, 7681u, 50000u, 1000003u}) {
    expect_stable_sorts(std::vector<std::uint32_t>(n, 7u), corank::less{});
    expect_stable_sorts(random_keys<std::uint32_t>(rng, n, 3), corank::less{});
    expect_stable_sorts(random_keys<std::uint32_t>(rng, n, 3), corank::greater{});
  }
}

TEST_F(StableSort, SortsSortedAndReversedInput) {
  auto v = random_keys<std::uint32_t>(rng, 123457, 5000);
  std::sort(v.begin(), v.end());
  expect_stable_sorts(v, corank::less{});
  std::reverse(v.begin(), v.end());
  expect_stable_sorts(v, corank::less{});
}

// The order check (kernels::find_input_order) reads chunks of 2048 pairs, 1024 blocks' worth at a
// time; the tile sorts take 4096 to 39936 keys.
constexpr std::size_t order_chunk = 2048;

/// The tuned policy with the order check at every size (it runs from 32 MB of keys and values).
template <class K, class V>
struct order_checked_policy : corank::cuda::detail::sort_policy<K, V> {
  static constexpr std::size_t order_check_from_bytes = 1;
};

/// The tuned policy with four-way passes at every size (they start at a few million keys).
template <class K, class V>
struct four_way_everywhere_policy : corank::cuda::detail::sort_policy<K, V> {
  static constexpr std::size_t four_way_from = 2;
};

/// As expect_stable_sorts (keys alone and pairs whose values record the input position, against
/// std::stable_sort), through detail::merge_sort_run with Policy<K, V> (V: none, or u32 values).
template <template <class, class> class Policy, class K, class Compare>
void expect_policy_sorts(const std::vector<K>& keys, Compare comp, bool aligned = false) {
  CORANK_REQUIRE_GPU();
  using namespace corank::cuda::detail;
  using no_value = corank::cuda::block::no_value;
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> want(n), vals(n);
  std::iota(want.begin(), want.end(), 0u);
  std::iota(vals.begin(), vals.end(), 0u);
  std::stable_sort(want.begin(), want.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return comp(keys[x], keys[y]); });
  guarded<K> dk(keys, aligned), dk2(keys, aligned);
  guarded<std::uint32_t> dv(vals, aligned);
  using keys_policy = Policy<K, no_value>;
  using pairs_policy = Policy<K, std::uint32_t>;
  device_buffer<unsigned char> temp(
      std::max(merge_sort_layout<K, no_value, keys_policy>::bytes(n),
               merge_sort_layout<K, std::uint32_t, pairs_policy>::bytes(n)) +
      1);
  if (n >= 2) {
    CORANK_ASSERT_CUDA((merge_sort_run<K, no_value, Compare, keys_policy>(
        dk.data(), static_cast<no_value*>(nullptr), n, temp.data(), comp, cudaStream_t(0))));
    CORANK_ASSERT_CUDA((merge_sort_run<K, std::uint32_t, Compare, pairs_policy>(
        dk2.data(), dv.data(), n, temp.data(), comp, cudaStream_t(0))));
  }
  CORANK_ASSERT_CUDA(cudaDeviceSynchronize());
  const auto got_keys = dk.result(), got_keys2 = dk2.result();
  const auto got_vals = dv.result();
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(got_vals[i], want[i]) << "not stable (or not sorted) at " << i << " of " << n;
    ASSERT_EQ(std::memcmp(&got_keys[i], &keys[want[i]], sizeof(K)), 0)
        << "keys-only sort differs at " << i;
    ASSERT_EQ(std::memcmp(&got_keys2[i], &keys[want[i]], sizeof(K)), 0)
        << "key-value sort's keys differ at " << i;
  }
}

/// expect_policy_sorts through the tuned sort with the order check at any size.
template <class K, class Compare>
void expect_order_checked_sorts(const std::vector<K>& keys, Compare comp, bool aligned = false) {
  expect_policy_sorts<order_checked_policy>(keys, comp, aligned);
}

/// Sorted keys, each repeated about n / distinct times (ties that only a stable sort keeps in
/// input order: the values show it).
std::vector<std::uint32_t> sorted_keys(std::mt19937_64& rng, std::size_t n,
                                       std::uint64_t distinct) {
  auto v = random_keys<std::uint32_t>(rng, n, distinct);
  std::sort(v.begin(), v.end());
  return v;
}

/// Positions around the check's chunks (and its second sweep), the tiles, and both ends, below n
/// - 1.
std::vector<std::size_t> boundary_positions(std::size_t n) {
  std::vector<std::size_t> at = {0, 1, n - 2};
  for (std::size_t b :
       {order_chunk, std::size_t(4096), std::size_t(10752), std::size_t(39936), 1024 * order_chunk})
    for (long d : {-1L, 0L, 1L})
      if (std::size_t(long(b) + d) < n - 1) at.push_back(std::size_t(long(b) + d));
  return at;
}

/// Where the largest sizes are tested alone (their sorts are slow on the host): the ends and the
/// check's chunk boundaries +-1.
bool near_a_chunk_end(std::size_t at, std::size_t n) {
  return at < 2 || at == n - 2 || at % order_chunk < 2 || at % order_chunk == order_chunk - 1;
}

TEST_F(StableSort, LeavesSortedInputAsItIsAndSortsItWithOneDescentAnywhere) {
  for (std::size_t n : {2u, 3u, 2047u, 2049u, 40001u, 2u * 1024 * 2048 + 4096 + 7}) {
    const auto sorted = sorted_keys(rng, n, n / 3 + 1);
    SCOPED_TRACE(testing::Message() << "n " << n);
    expect_order_checked_sorts(sorted, corank::less{});
    for (std::size_t at : boundary_positions(n)) {
      if (n > 100000 && !near_a_chunk_end(at, n)) continue;
      SCOPED_TRACE(testing::Message() << "descent after " << at);
      auto v = sorted;
      v[at + 1] = v[at] == 0 ? 0 : v[at] - 1;  // below its predecessor, or equal at the bottom
      if (v[at + 1] == v[at]) v[at] = v[at] + 1;
      expect_order_checked_sorts(v, corank::less{}, at % 2 == 1);
    }
  }
}

TEST_F(StableSort, ReversesStrictlyDescendingInputAndSortsDescendingInputWithTies) {
  for (std::size_t n : {2u, 3u, 2048u, 2049u, 40001u, 2u * 1024 * 2048 + 4096 + 7}) {
    std::vector<std::uint32_t> v(n);  // strictly descending
    for (std::size_t i = 0; i < n; ++i) v[i] = std::uint32_t((n - i) * 4 + rng() % 3);
    SCOPED_TRACE(testing::Message() << "n " << n);
    expect_order_checked_sorts(v, corank::less{});
    expect_order_checked_sorts(v, corank::greater{});  // sorted already under greater
    for (std::size_t at : boundary_positions(n)) {
      if (n > 100000 && !near_a_chunk_end(at, n)) continue;
      SCOPED_TRACE(testing::Message() << "tie, then an ascent, after " << at);
      auto tie = v;
      tie[at + 1] = tie[at];  // a reversal would swap the two: the values show it
      expect_order_checked_sorts(tie, corank::less{}, at % 2 == 0);
      auto ascent = v;
      ascent[at + 1] = ascent[at] + 1;
      expect_order_checked_sorts(ascent, corank::less{});
    }
  }
}

/// The benchmarks' nearly sorted shape: sorted with 1% of the positions swapped at random.
TEST_F(StableSort, SortsNearlySortedInput) {
  for (std::size_t n : {5000u, 300007u}) {
    auto v = sorted_keys(rng, n, 1u << 30);
    for (std::size_t k = 0; k < n / 100; ++k) std::swap(v[rng() % n], v[rng() % n]);
    expect_order_checked_sorts(v, corank::less{});
    std::vector<pair_key> records(n);
    for (std::size_t i = 0; i < n; ++i) records[i] = {v[i] / 64, std::uint32_t(rng())};
    expect_order_checked_sorts(records, by_hi{});
  }
}

/// Sorted and strictly descending inputs of 8- and 16-byte keys by custom comparators; through the
/// public entry points (which check the order from 32 MB of keys and values), u32 keys alone and
/// pairs through four-way passes, sorted, with one descent, and strictly descending.
TEST_F(StableSort, FindsTheOrderOfWideKeysAndOfLargeInputs) {
  for (std::size_t n : {33u, 70001u}) {
    std::vector<wide_key> wide(n);
    for (std::size_t i = 0; i < n; ++i)
      wide[i] = {i / 3, std::uint32_t(rng() % 1000), std::uint32_t(rng())};
    std::sort(wide.begin(), wide.end(), wide_order{});
    expect_order_checked_sorts(wide, wide_order{});
    std::reverse(wide.begin(), wide.end());
    expect_order_checked_sorts(wide, wide_order{});  // strictly descending unless two keys tie
  }
  using corank::cuda::tuning::merge_sort_policy;
  const std::size_t n = merge_sort_policy<4, 0>::order_check_from_bytes / 4 + 3;
  ASSERT_GE(n, (merge_sort_policy<4, 0>::four_way_from));
  auto v = sorted_keys(rng, n, 1u << 20);
  expect_stable_sorts(v, corank::less{}, false, true);
  std::swap(v[n / 2], v[n / 2 + 1]);
  expect_stable_sorts(v, corank::less{});
  for (std::size_t i = 0; i < n; ++i) v[i] = std::uint32_t((n - i) * 2);
  expect_stable_sorts(v, corank::less{}, true);
}

/// Floating-point keys sort their registers by the network, then put the zeros' signs back in
/// input order: zeros of both signs in every thread (1 in 2 keys), in some (1 in 64), of one sign.
TEST_F(StableSort, KeepsSignedZerosInInputOrder) {
  for (unsigned every : {4u, 128u}) {
    std::vector<float> v(40000);
    std::vector<double> d(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      const auto r = rng() % every;
      v[i] = r == 0 ? 0.0f : r == 1 ? -0.0f : float(std::int64_t(rng() % 201) - 100) / 3.0f;
      d[i] = double(v[i]);
    }
    expect_stable_sorts(v, corank::less{});
    expect_stable_sorts(v, corank::greater{});
    expect_stable_sorts(d, corank::less{});
    for (auto& x : v) x = x == 0.0f ? -0.0f : x;
    expect_stable_sorts(v, corank::less{});
  }
}

TEST_F(StableSort, SortsStructKeysWithCustomComparators) {
  for (std::size_t n : {0u, 1u, 1791u, 1793u, 5633u, 70001u}) {
    std::vector<pair_key> a(n);
    for (auto& k : a) k = {std::uint32_t(rng() % 100), std::uint32_t(rng())};
    expect_stable_sorts(a, by_hi{});
    std::vector<wide_key> b(n);
    for (auto& k : b) k = {rng() % 50, std::uint32_t(rng() % 1000), std::uint32_t(rng())};
    expect_stable_sorts(b, wide_order{});
  }
}

/// The tuned four-way passes start at merge_sort_policy::four_way_from keys: u32 keys and pairs,
/// f32 keys, 8-byte struct keys alone and with values, and 16-byte ones, above it; u32
/// keys with the cut searches of several lanes, then of one (from lane_search_below). The sizes
/// make the sort choose each of its four-way tiles (asserted), for u32 keys by less (the network
/// tiles) and for u32 pairs.
TEST_F(StableSort, SortsLargeArraysThroughFourWayPasses) {
  using corank::cuda::detail::fewest_passes_tile;
  using corank::cuda::tuning::merge_sort_policy;
  const std::size_t from = merge_sort_policy<4, 0>::four_way_from;
  // Just below five passes' reach from the smallest key tile, which the larger ones reach too.
  const std::size_t five_passes = tile_keys(merge_sort_policy<4, 0>::four_way_tiles{})[0] * 1024;
  const std::vector<std::size_t> sizes = {from + 4097, five_passes - 5,
                                          merge_sort_policy<4, 0>::lane_search_below + 64 * 3 + 1};
  std::vector<int> key_tiles, pair_tiles;
  for (std::size_t n : sizes) {
    key_tiles.push_back(fewest_passes_tile(n, merge_sort_policy<4, 0>::four_way_tiles{}));
    pair_tiles.push_back(fewest_passes_tile(n, merge_sort_policy<4, 4>::four_way_tiles{}));
  }
  EXPECT_EQ(key_tiles, (std::vector<int>{1, 0, 2}));
  EXPECT_EQ(pair_tiles, (std::vector<int>{0, 1, 1}));
  for (std::size_t i = 0; i < sizes.size(); ++i)
    expect_stable_sorts(random_keys<std::uint32_t>(rng, sizes[i], 1000), corank::less{}, false,
                        i % 2 == 0);
  std::vector<pair_key> keys(merge_sort_policy<8, 0>::four_way_from + 31);
  for (auto& k : keys) k = {std::uint32_t(rng() % 5000), std::uint32_t(rng())};
  expect_stable_sorts(keys, by_hi{}, false, true);
  // f32 keys take the network tiles too (ties_are_identical_but_zeros): a few zeros of both signs,
  // so that most threads sort by the network and some, holding both, by transposition.
  std::vector<float> floats(sizes[0]);
  for (auto& x : floats) {
    const auto r = rng() % 4096;
    x = r == 0 ? 0.0f : r == 1 ? -0.0f : float(std::int64_t(rng() % 20001) - 10000) / 8.0f;
  }
  expect_stable_sorts(floats, corank::less{}, false, true);
  expect_stable_sorts(floats, corank::greater{});
  // 16-byte keys alone and 20-byte pairs through the public calls.
  std::vector<wide_key> wide(merge_sort_policy<16, 4>::four_way_from + 4097);
  for (auto& k : wide) k = {rng() % 3000, std::uint32_t(rng() % 4), std::uint32_t(rng())};
  expect_stable_sorts(wide, wide_order{});
}

/// Keys and values wider than 8 bytes take four-way passes too, from tiles of their own
/// (merge_sort_policy::four_way_tiles): 16-byte keys alone, 20- and 12-byte pairs, at sizes around
/// each tile's multiples and its pass-count steps (tile x 4^k), through the tuned shapes with
/// four-way passes at every size; few distinct keys make any instability show.
TEST_F(StableSort, SortsWideKeysAndPairsThroughFourWayPassesAtEdgeSizes) {
  using corank::cuda::tuning::merge_sort_policy;
  std::vector<std::size_t> tiles = tile_keys(merge_sort_policy<16, 4>::four_way_tiles{});
  for (std::size_t t : tile_keys(merge_sort_policy<8, 4>::four_way_tiles{})) tiles.push_back(t);
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  std::vector<std::size_t> sizes = {2, 3, 1000};
  for (std::size_t t : tiles)
    for (std::size_t s : {t - 1, t + 1, 4 * t + 1, 5 * t - 1, 16 * t + 1}) sizes.push_back(s);
  for (std::size_t n : sizes) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    std::vector<wide_key> wide(n);
    for (auto& k : wide) k = {rng() % 7, std::uint32_t(rng() % 1000), std::uint32_t(rng())};
    expect_policy_sorts<four_way_everywhere_policy>(wide, wide_order{}, n % 2 == 0);
    std::vector<pair_key> narrow(n);
    for (auto& k : narrow) k = {std::uint32_t(rng() % 50), std::uint32_t(rng())};
    expect_policy_sorts<four_way_everywhere_policy>(narrow, by_hi{}, n % 2 == 1);
  }
}

TEST_F(StableSort, UsesTheCallersTemporaryStorage) {
  expect_stable_sorts(random_keys<std::uint32_t>(rng, 777777, 1000), corank::less{}, true);
  CORANK_REQUIRE_GPU();
  std::uint32_t* keys = nullptr;
  char temp[16];
  // No buffer where storage is needed; where none is (fewer than two keys), none is asked for.
  EXPECT_EQ(corank::cuda::stable_sort(reinterpret_cast<std::uint32_t*>(temp), 4,
                                      static_cast<void*>(nullptr), 1 << 20, corank::less{}),
            cudaErrorInvalidValue);
  EXPECT_EQ(corank::cuda::stable_sort(keys, 0, static_cast<void*>(nullptr), 0, corank::less{}),
            cudaSuccess);
  EXPECT_EQ(
      corank::cuda::stable_sort(reinterpret_cast<std::uint32_t*>(temp), 4, temp, 1, corank::less{}),
      cudaErrorInvalidValue);  // too small a temporary
}

}  // namespace
