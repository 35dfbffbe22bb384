// corank::cuda::merge / merge_by_key (the production kernel) and corank::study::cuda's (the study's
// kernels) against std::merge. Outputs are poisoned before each run; payloads record each key's
// origin, so stability is checked, not assumed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "corank/cuda/merge.cuh"
#include "corank/study/merge.cuh"
#include "support/cuda_test.cuh"
#include "support/merge_reference.hpp"
#include "support/seeded_test.hpp"

namespace {

using corank::cuda::merge_algorithm;
using merge_options = corank::study::cuda::merge_options;  // any kernel's
using corank::test::device_buffer;

/// A 16-byte key ordered by `major` then `minor` descending: a custom comparator over a struct.
struct wide_key {
  std::uint64_t major;
  std::uint32_t minor;
  std::uint32_t pad;
};
struct wide_key_greater {
  __host__ __device__ bool operator()(const wide_key& x, const wide_key& y) const {
    return x.major != y.major ? x.major > y.major : x.minor > y.minor;
  }
};

/// One configuration under test: the algorithm and the study's parameters.
struct config {
  std::string name;
  merge_options options;
};

void PrintTo(const config& c, std::ostream* os) { *os << c.name; }

std::vector<config> all_configs() {
  std::vector<config> c;
  const auto add = [&](std::string name, merge_algorithm alg, unsigned threads, unsigned tile,
                       unsigned blocks, bool reuse, bool branch_free) {
    merge_options o;
    o.algorithm = alg, o.threads = threads, o.tile_items = tile, o.blocks = blocks;
    o.reuse_neighbor_co_rank = reuse, o.branch_free = branch_free;
    c.push_back({std::move(name), o});
  };
  add("automatic", merge_algorithm::automatic, 0, 0, 0, true, true);
  // Small grids: each block walks many tiles, finding each tile's end from the previous one.
  for (unsigned blocks : {1u, 3u, 7u})
    add("automatic_grid" + std::to_string(blocks), merge_algorithm::automatic, 0, 0, blocks, true,
        true);
  // The partitioned scheme at every size, with small (many tiles) to large blocks.
  for (unsigned threads : {0u, 32u, 96u, 512u}) {
    add("automatic_partitioned_t" + std::to_string(threads), merge_algorithm::automatic, threads, 0,
        0, true, true);
    c.back().options.scheme = corank::cuda::merge_scheme::partitioned;
  }
  // At the tests' sizes a wave of lead tiles covers every tile, so no pass runs by default: these
  // run the pass for every tile (lead 0), and for all but the first few (lead tiles beside it).
  for (std::size_t lead : {0u, 1u, 3u}) {
    add("automatic_partitioned_t32_lead" + std::to_string(lead), merge_algorithm::automatic, 32, 0,
        0, true, true);
    c.back().options.scheme = corank::cuda::merge_scheme::partitioned;
    c.back().options.lead_tiles = lead;
  }
  for (bool reuse : {false, true})
    for (bool bf : {false, true})
      add(std::string("basic_reuse") + char('0' + reuse) + "_bf" + char('0' + bf),
          merge_algorithm::basic, 128, 0, 0, reuse, bf);
  add("basic_few_blocks", merge_algorithm::basic, 64, 0, 3, true, true);
  // The study's tiles (1024, 2048, 2560 bytes of u32 per input pair) and smaller ones, down to a
  // single item: the published circular kernel fails below a few thousand.
  for (merge_algorithm alg : {merge_algorithm::tiled, merge_algorithm::circular})
    for (unsigned tile : {1u, 2u, 5u, 32u, 127u, 128u, 256u, 320u, 1024u})
      for (bool reuse : {false, true}) {
        const std::string name = std::string(alg == merge_algorithm::tiled ? "tiled" : "circular") +
                                 "_tile" + std::to_string(tile) + (reuse ? "_reuse" : "");
        add(name, alg, 128, tile, 0, reuse, tile % 2 == 0);
      }
  add("tiled_one_block", merge_algorithm::tiled, 256, 64, 1, true, true);
  add("circular_one_block", merge_algorithm::circular, 256, 64, 1, true, true);
  add("circular_big_tile", merge_algorithm::circular, 512, 8192, 0, true, true);
  return c;
}

/// A merge by any kernel: the product's entry point for `automatic`, the study's for the others.
template <class K, class Compare = corank::less>
cudaError_t merge_with(const merge_options& opt, const K* a, std::size_t m, const K* b,
                       std::size_t n, K* out, Compare comp = {}) {
  if (opt.algorithm == merge_algorithm::automatic)
    return corank::cuda::merge(static_cast<const corank::cuda::merge_options&>(opt), a, m, b, n,
                               out, comp);
  return corank::study::cuda::merge(opt, a, m, b, n, out, comp);
}

template <class K, class V, class Compare>
cudaError_t merge_by_key_with(const merge_options& opt, const K* a, const V* va, std::size_t m,
                              const K* b, const V* vb, std::size_t n, K* out, V* vout,
                              Compare comp) {
  if (opt.algorithm == merge_algorithm::automatic)
    return corank::cuda::merge_by_key(static_cast<const corank::cuda::merge_options&>(opt), a, va,
                                      m, b, vb, n, out, vout, comp);
  return corank::study::cuda::merge_by_key(opt, a, va, m, b, vb, n, out, vout, comp);
}

/// Runs the merge on the device: with options when `opt` is given, else the plain overload.
template <class K, class Compare>
std::vector<K> device_merge(const merge_options* opt, const std::vector<K>& a,
                            const std::vector<K>& b, Compare comp, std::size_t offset = 0) {
  // `offset` shifts every array by that many elements off its allocation's alignment.
  device_buffer<K> da(a.size() + offset), db(b.size() + offset), dout(a.size() + b.size() + offset);
  if (!a.empty())
    cudaMemcpy(da.data() + offset, a.data(), a.size() * sizeof(K), cudaMemcpyHostToDevice);
  if (!b.empty())
    cudaMemcpy(db.data() + offset, b.data(), b.size() * sizeof(K), cudaMemcpyHostToDevice);
  dout.poison();
  const cudaError_t launched =
      opt ? merge_with(*opt, da.data() + offset, a.size(), db.data() + offset, b.size(),
                       dout.data() + offset, comp)
          : corank::cuda::merge(da.data() + offset, a.size(), db.data() + offset, b.size(),
                                dout.data() + offset, comp);
  EXPECT_EQ(launched, cudaSuccess) << cudaGetErrorString(launched);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<K> all = dout.to_host();
  return std::vector<K>(all.begin() + offset, all.end());
}

template <class K, class Compare>
void expect_keys_merged(const merge_options* opt, const std::vector<K>& a, const std::vector<K>& b,
                        Compare comp, std::size_t offset = 0) {
  std::vector<K> expected(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), comp);
  const std::vector<K> got = device_merge(opt, a, b, comp, offset);
  ASSERT_EQ(got.size(), expected.size());
  // Bitwise: also tells -0.0 from +0.0 and struct padding from garbage.
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &expected[i], sizeof(K)), 0)
        << "first wrong output at " << i << " of " << got.size() << " (m=" << a.size()
        << ", n=" << b.size() << ")";
}

/// merge_by_key with origin payloads: the merged payloads equal the stable reference's.
template <class K, class Compare>
void expect_pairs_merged(const merge_options* opt, const std::vector<K>& a, const std::vector<K>& b,
                         Compare comp, std::size_t offset = 0) {
  using V = std::uint64_t;
  std::vector<K> expected_keys;
  std::vector<V> expected_vals;
  corank::test::reference_merge_by_key(a, b, comp, expected_keys, expected_vals);
  const auto va = corank::test::origins(0, a.size()), vb = corank::test::origins(1, b.size());
  const std::size_t total = a.size() + b.size();
  device_buffer<K> da(a.size() + offset), db(b.size() + offset), dk(total + offset);
  device_buffer<V> dva(a.size() + offset), dvb(b.size() + offset), dv(total + offset);
  const auto up = [](auto& dst, const auto& src, std::size_t off) {
    if (!src.empty())
      cudaMemcpy(dst.data() + off, src.data(), src.size() * sizeof(src[0]), cudaMemcpyHostToDevice);
  };
  up(da, a, offset), up(db, b, offset), up(dva, va, offset), up(dvb, vb, offset);
  dk.poison(), dv.poison();
  const cudaError_t launched =
      opt ? merge_by_key_with(*opt, da.data() + offset, dva.data() + offset, a.size(),
                              db.data() + offset, dvb.data() + offset, b.size(), dk.data() + offset,
                              dv.data() + offset, comp)
          : corank::cuda::merge_by_key(da.data() + offset, dva.data() + offset, a.size(),
                                       db.data() + offset, dvb.data() + offset, b.size(),
                                       dk.data() + offset, dv.data() + offset, comp);
  ASSERT_EQ(launched, cudaSuccess) << cudaGetErrorString(launched);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto keys = dk.to_host();
  const auto vals = dv.to_host();
  for (std::size_t i = 0; i < total; ++i) {
    ASSERT_EQ(std::memcmp(&keys[offset + i], &expected_keys[i], sizeof(K)), 0)
        << "key " << i << " of " << total << " (m=" << a.size() << ", n=" << b.size() << ")";
    ASSERT_EQ(vals[offset + i], expected_vals[i])
        << "value " << i << " of " << total << " (m=" << a.size() << ", n=" << b.size() << ")";
  }
}

/// Sizes at the edges of the kernels' units: warps, blocks, the tiles of the tests' configs and
/// the production kernel's block tiles (256 x 15 = 3840 and 256 x 31 = 7936 for 4-byte keys, 992
/// and 2976 for 32- and 96-thread partitioned blocks), each +-1.
std::vector<std::size_t> edge_sizes() {
  std::vector<std::size_t> s = {0, 1, 2, 3};
  for (std::size_t unit : {32u, 127u, 128u, 256u, 992u, 1024u, 2976u, 3840u, 7680u, 7936u})
    for (std::size_t d : {unit - 1, unit, unit + 1}) s.push_back(d);
  return s;
}

class GpuMerge : public corank::test::seeded_test, public ::testing::WithParamInterface<config> {};

TEST_P(GpuMerge, MatchesStdMergeAtEdgeSizes) {
  CORANK_REQUIRE_GPU();
  const merge_options opt = GetParam().options;
  const auto sizes = edge_sizes();
  for (std::size_t m : sizes)
    for (std::size_t n :
         {std::size_t(0), std::size_t(1), std::size_t(127), std::size_t(3841), m + 1}) {
      const auto a = corank::test::sorted_keys<std::uint32_t>(rng, m, 1000);
      const auto b = corank::test::sorted_keys<std::uint32_t>(rng, n, 1000);
      expect_keys_merged(&opt, a, b, corank::less{});
      if (HasFatalFailure()) return;
    }
}

TEST_P(GpuMerge, MatchesStdMergeOnRandomSizes) {
  CORANK_REQUIRE_GPU();
  const merge_options opt = GetParam().options;
  std::uniform_int_distribution<std::size_t> size(0, 50000);
  for (int round = 0; round < 4; ++round) {
    const std::size_t m = size(rng), n = size(rng);
    const std::uint64_t range = round % 2 ? 1u << 30 : 64;  // few or many ties
    expect_keys_merged(&opt, corank::test::sorted_keys<std::uint32_t>(rng, m, range),
                       corank::test::sorted_keys<std::uint32_t>(rng, n, range), corank::less{});
    if (HasFatalFailure()) return;
  }
}

TEST_P(GpuMerge, IsStableWhenAllKeysAreEqual) {
  CORANK_REQUIRE_GPU();
  const merge_options opt = GetParam().options;
  for (std::size_t m : {std::size_t(1), std::size_t(1000), std::size_t(3839), std::size_t(20000)}) {
    const std::vector<std::uint32_t> a(m, 7u), b(m + 13, 7u);
    expect_pairs_merged(&opt, a, b, corank::less{});
    if (HasFatalFailure()) return;
  }
}

TEST_P(GpuMerge, IsStableWithManyTies) {
  CORANK_REQUIRE_GPU();
  const merge_options opt = GetParam().options;
  expect_pairs_merged(&opt, corank::test::sorted_keys<std::uint32_t>(rng, 30001, 50),
                      corank::test::sorted_keys<std::uint32_t>(rng, 20011, 50), corank::less{});
}

TEST_P(GpuMerge, OneInputEntirelyBeforeTheOther) {
  CORANK_REQUIRE_GPU();
  const merge_options opt = GetParam().options;
  auto low = corank::test::sorted_keys<std::uint32_t>(rng, 10007, 1000);
  auto high = corank::test::sorted_keys<std::uint32_t>(rng, 9001, 1000);
  for (auto& k : high) k += 1000;
  expect_pairs_merged(&opt, low, high, corank::less{});
  expect_pairs_merged(&opt, high, low, corank::less{});
}

TEST_P(GpuMerge, HandlesUnalignedPointers) {
  CORANK_REQUIRE_GPU();
  const merge_options opt = GetParam().options;
  for (std::size_t offset : {1, 2, 3}) {
    expect_pairs_merged(&opt, corank::test::sorted_keys<std::uint32_t>(rng, 9000 + offset, 5000),
                        corank::test::sorted_keys<std::uint32_t>(rng, 7001, 5000), corank::less{},
                        offset);
    expect_keys_merged(&opt, corank::test::sorted_keys<std::uint8_t>(rng, 5003, 200),
                       corank::test::sorted_keys<std::uint8_t>(rng, 9001, 200), corank::less{},
                       offset);
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, GpuMerge, ::testing::ValuesIn(all_configs()),
                         [](const auto& info) { return info.param.name; });

// ---- key types and comparators, production kernel and one studied kernel ---------------------

template <class K>
class GpuMergeTyped : public corank::test::seeded_test {};
using key_types = ::testing::Types<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t,
                                   std::int64_t, float, double>;
TYPED_TEST_SUITE(GpuMergeTyped, key_types);

template <class K>
std::vector<K> typed_keys(std::mt19937_64& rng, std::size_t n, bool descending) {
  std::uniform_int_distribution<int> pick(-300, 300);
  std::vector<K> v(n);
  for (K& k : v) {
    const int x = pick(rng);
    if constexpr (std::is_floating_point_v<K>)
      k = x == 0 && (rng() & 1) ? K(-0.0) : K(x) / K(4);  // -0.0 ties +0.0
    else
      k = static_cast<K>(std::is_signed_v<K> ? x : x + 300);
  }
  if (descending)
    std::sort(v.begin(), v.end(), corank::greater{});
  else
    std::sort(v.begin(), v.end(), corank::less{});
  return v;
}

TYPED_TEST(GpuMergeTyped, MatchesStdMergeForEveryKeyType) {
  CORANK_REQUIRE_GPU();
  using K = TypeParam;
  merge_options tiled, few_blocks, partitioned;
  tiled.algorithm = merge_algorithm::circular, tiled.tile_items = 100, tiled.threads = 64;
  few_blocks.blocks = 5;
  few_blocks.scheme = corank::cuda::merge_scheme::single_launch;
  partitioned.scheme = corank::cuda::merge_scheme::partitioned, partitioned.threads = 32;
  merge_options partition_pass = partitioned;  // the pass finds all but two tiles' co-ranks
  partition_pass.lead_tiles = 2;
  for (std::size_t m : {std::size_t(0), std::size_t(5), std::size_t(3839), std::size_t(100003)}) {
    const auto a = typed_keys<K>(this->rng, m, false),
               b = typed_keys<K>(this->rng, 77777 - m / 2, false);
    expect_keys_merged<K>(nullptr, a, b, corank::less{});
    expect_pairs_merged<K>(nullptr, a, b, corank::less{});
    expect_pairs_merged<K>(&few_blocks, a, b, corank::less{});
    expect_keys_merged<K>(&tiled, a, b, corank::less{});
    expect_keys_merged<K>(nullptr, a, b, corank::less{}, 1);  // unaligned
    expect_keys_merged<K>(&partitioned, a, b, corank::less{}, 1);
    expect_pairs_merged<K>(&partitioned, a, b, corank::less{}, 1);
    expect_pairs_merged<K>(&partition_pass, a, b, corank::less{}, 1);
    const auto da = typed_keys<K>(this->rng, m, true), db = typed_keys<K>(this->rng, m + 3, true);
    expect_pairs_merged<K>(nullptr, da, db, corank::greater{});
    if (this->HasFatalFailure()) return;
  }
}

class GpuMergeStruct : public corank::test::seeded_test {};

TEST_F(GpuMergeStruct, SixteenByteKeysWithCustomComparator) {
  CORANK_REQUIRE_GPU();
  const auto make = [&](std::size_t n) {
    std::vector<wide_key> v(n);
    for (auto& k : v) k = {rng() % 50, std::uint32_t(rng() % 4), 0};
    std::sort(v.begin(), v.end(), wide_key_greater{});
    return v;
  };
  merge_options circular, few_blocks, partitioned;
  circular.algorithm = merge_algorithm::circular, circular.tile_items = 3;
  few_blocks.blocks = 2;
  few_blocks.scheme = corank::cuda::merge_scheme::single_launch;
  partitioned.scheme = corank::cuda::merge_scheme::partitioned, partitioned.threads = 64;
  merge_options partition_pass = partitioned;  // the pass finds all but two tiles' co-ranks
  partition_pass.lead_tiles = 2;
  for (std::size_t m : {std::size_t(1), std::size_t(1000), std::size_t(54321)}) {
    const auto a = make(m), b = make(m / 3 + 7);
    expect_pairs_merged(nullptr, a, b, wide_key_greater{});
    expect_pairs_merged(&few_blocks, a, b, wide_key_greater{});
    expect_pairs_merged(&circular, a, b, wide_key_greater{});
    expect_pairs_merged(&partitioned, a, b, wide_key_greater{}, 1);
    expect_pairs_merged(&partition_pass, a, b, wide_key_greater{}, 1);
    expect_keys_merged(nullptr, a, b, wide_key_greater{}, 1);
    if (HasFatalFailure()) return;
  }
}

// ---- argument checks ---------------------------------------------------------------------------

TEST(GpuMergeArguments, BadArgumentsReturnErrorsAndLaunchNothing) {
  CORANK_REQUIRE_GPU();
  device_buffer<std::uint32_t> a(100), b(100), out(200);
  const auto merge = [&](const std::uint32_t* pa, std::size_t m, const std::uint32_t* pb,
                         std::size_t n,
                         std::uint32_t* po) { return corank::cuda::merge(pa, m, pb, n, po); };
  EXPECT_EQ(merge(nullptr, 1, b.data(), 100, out.data()), cudaErrorInvalidValue);
  EXPECT_EQ(merge(a.data(), 100, nullptr, 1, out.data()), cudaErrorInvalidValue);
  EXPECT_EQ(merge(a.data(), 100, b.data(), 100, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(merge(a.data(), 100, b.data(), 100, a.data()), cudaErrorInvalidValue);  // overlaps A
  EXPECT_EQ(merge(a.data(), 100, b.data(), 100, b.data() - 50), cudaErrorInvalidValue);
  EXPECT_EQ(merge(a.data(), SIZE_MAX, b.data(), 2, out.data()),
            cudaErrorInvalidValue);  // m + n wraps
  EXPECT_EQ(merge(a.data(), SIZE_MAX / 2, b.data(), 2, out.data()),
            cudaErrorInvalidValue);                                // bytes wrap
  EXPECT_EQ(merge(nullptr, 0, nullptr, 0, nullptr), cudaSuccess);  // empty: nothing to do
  merge_options opt;
  opt.algorithm = merge_algorithm::tiled, opt.threads = 100;  // not a multiple of 32
  EXPECT_EQ(merge_with(opt, a.data(), 100, b.data(), 100, out.data()), cudaErrorInvalidValue);
  merge_options single, partitioned;  // automatic's block shapes: fixed, or up to 512 threads
  single.scheme = corank::cuda::merge_scheme::single_launch, single.threads = 128;
  partitioned.scheme = corank::cuda::merge_scheme::partitioned, partitioned.threads = 1024;
  EXPECT_EQ(merge_with(single, a.data(), 100, b.data(), 100, out.data()), cudaErrorInvalidValue);
  EXPECT_EQ(merge_with(partitioned, a.data(), 100, b.data(), 100, out.data()),
            cudaErrorInvalidValue);
  device_buffer<std::uint64_t> va(100), vb(100), vout(200);
  EXPECT_EQ(corank::cuda::merge_by_key(a.data(), va.data(), 100, b.data(), vb.data(), 100,
                                       out.data(), va.data()),
            cudaErrorInvalidValue);  // value output overlaps an input
  EXPECT_EQ(corank::cuda::merge_by_key(a.data(), static_cast<const std::uint64_t*>(nullptr), 100,
                                       b.data(), vb.data(), 100, out.data(), vout.data()),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// ---- tuning tables
// -------------------------------------------------------------------------------

class GpuMergeTuning : public corank::test::seeded_test {};

TEST_F(GpuMergeTuning, TableFillsWhatTheOptionsLeaveOpen) {
  CORANK_REQUIRE_GPU();
  using corank::cuda::merge_scheme;
  using corank::cuda::merge_tuning_entry;
  // Up to 1000 outputs: single launch on 2 blocks; 1001..20000: partitioned 64-thread blocks;
  // beyond: a single-launch shape that does not exist (so the table's choice is seen to apply).
  const corank::cuda::merge_tuning table({
      {merge_algorithm::automatic, 1000, merge_scheme::single_launch, 0, 2, 0},
      {merge_algorithm::automatic, 20000, merge_scheme::partitioned, 64, 0, 0},
      {merge_algorithm::automatic, 40000, merge_scheme::single_launch, 64, 0, 0},
      {merge_algorithm::tiled, 100000, merge_scheme::by_size, 64, 3, 7},
  });
  merge_options opt;
  opt.tuning = &table;
  for (std::size_t m : {std::size_t(100), std::size_t(9000)}) {
    expect_keys_merged(&opt, corank::test::sorted_keys<std::uint32_t>(rng, m, 1000),
                       corank::test::sorted_keys<std::uint32_t>(rng, m + 7, 1000), corank::less{});
    expect_pairs_merged(&opt, corank::test::sorted_keys<std::uint32_t>(rng, m, 1000),
                        corank::test::sorted_keys<std::uint32_t>(rng, m + 7, 1000), corank::less{});
  }
  device_buffer<std::uint32_t> a(15000), b(15000), out(30000);
  EXPECT_EQ(merge_with(opt, a.data(), 15000, b.data(), 15000, out.data()), cudaErrorInvalidValue);
  opt.threads = 256;  // the options win over the table
  EXPECT_EQ(merge_with(opt, a.data(), 15000, b.data(), 15000, out.data()), cudaSuccess);
  merge_options tiled;
  tiled.algorithm = merge_algorithm::tiled, tiled.tuning = &table;
  expect_keys_merged(&tiled, corank::test::sorted_keys<std::uint32_t>(rng, 3000, 100),
                     corank::test::sorted_keys<std::uint32_t>(rng, 2000, 100), corank::less{});
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// ---- 64-bit sizes -------------------------------------------------------------------------------

/// m + n > 2^32 with u8 keys: both inputs are runs of equal keys (made on the device by memset),
/// so the output is checked by its runs: value v repeated count_a[v] + count_b[v] times.
TEST(GpuMergeLarge, MoreThanTwoToThe32Outputs) {
  CORANK_REQUIRE_GPU();
  const std::size_t m = (std::size_t(1) << 31) + 12345, n = (std::size_t(1) << 31) + 777;
  std::size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  if (free_bytes < 2 * (m + n) + (std::size_t(1) << 30)) GTEST_SKIP() << "not enough device memory";
  std::mt19937_64 rng(corank::test::run_seed());
  // Run lengths per value; 0xA5 (the poison byte) never occurs, so unwritten outputs show.
  const auto runs = [&](std::size_t total) {
    std::vector<std::size_t> count(256, 0);
    std::size_t left = total;
    for (int v = 0; v < 255 && left; ++v) {
      if (v == 0xA5) continue;
      count[v] = std::min<std::size_t>(left, rng() % (total / 64));
      left -= count[v];
    }
    count[255] += left;
    return count;
  };
  const auto count_a = runs(m), count_b = runs(n);
  device_buffer<std::uint8_t> a(m), b(n), out(m + n);
  const auto fill = [](device_buffer<std::uint8_t>& buf, const std::vector<std::size_t>& count) {
    std::size_t at = 0;
    for (int v = 0; v < 256; at += count[v], ++v) cudaMemset(buf.data() + at, v, count[v]);
  };
  fill(a, count_a), fill(b, count_b);
  // automatic as the size chooses (partitioned), its single launch, and a studied kernel.
  merge_options single, circular;
  single.scheme = corank::cuda::merge_scheme::single_launch;
  circular.algorithm = merge_algorithm::circular;
  for (const merge_options& opt : {merge_options{}, single, circular}) {
    out.poison();
    ASSERT_EQ(merge_with(opt, a.data(), m, b.data(), n, out.data()), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<std::uint8_t> host = out.to_host();
    std::size_t at = 0;
    for (int v = 0; v < 256; ++v) {
      const std::size_t len = count_a[v] + count_b[v];
      const auto end = host.begin() + std::ptrdiff_t(at + len);
      const auto wrong = std::find_if(host.begin() + std::ptrdiff_t(at), end,
                                      [v](std::uint8_t x) { return x != v; });
      ASSERT_EQ(wrong, end) << "value " << v << " run wrong at " << (wrong - host.begin());
      at += len;
    }
  }
}

}  // namespace
