// The GPU segmented scans (corank::cuda's production kernel and corank::study::cuda's two) against
// the sequential reference: exact for integers, within float rounding of a double reference for
// floats.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "corank/cuda/segmented_scan.cuh"
#include "corank/study/segmented_scan.cuh"
#include "support/cuda_test.cuh"
#include "support/seeded_test.hpp"
#include "support/segmented_scan_reference.hpp"

namespace {

using corank::test::device_buffer;
using corank::test::offsets_with_heads;
using corank::test::random_offsets;
using corank::test::random_values;
using corank::test::reference_scaled_iterations;
using corank::test::reference_segmented_scan;

constexpr int tile4 = corank::cuda::tuning::segmented_scan_policy<4>::shape::tile;
constexpr int tile8 = corank::cuda::tuning::segmented_scan_policy<8>::shape::tile;
constexpr int most_steps_per_pass =
    corank::cuda::tuning::segmented_scan_iteration::most_steps_per_pass;

/// The kernel under test: the production one, or one of the study's.
enum class segmented_scan_algorithm { automatic, thread_per_segment, warp_per_segment };

/// The scans of one kernel: the product's entry points (with `product`, its options) for
/// `automatic`, the study's for the others.
struct scans {
  segmented_scan_algorithm algorithm;
  corank::cuda::segmented_scan_options product{};

  corank::study::cuda::segmented_scan_algorithm studied() const {
    return algorithm == segmented_scan_algorithm::thread_per_segment
               ? corank::study::cuda::segmented_scan_algorithm::thread_per_segment
               : corank::study::cuda::segmented_scan_algorithm::warp_per_segment;
  }
  template <class T, class Offset, class Op = corank::plus>
  cudaError_t inclusive(const T* in, std::size_t n, const Offset* offsets, std::size_t p, T* out,
                        Op op = {}) const {
    if (algorithm == segmented_scan_algorithm::automatic)
      return corank::cuda::segmented_inclusive_scan(product, in, n, offsets, p, out, op);
    return corank::study::cuda::segmented_inclusive_scan(studied(), in, n, offsets, p, out, op);
  }
  template <class T, class Offset, class Op = corank::plus>
  cudaError_t exclusive(const T* in, std::size_t n, const Offset* offsets, std::size_t p, T* out,
                        T init, Op op = {}) const {
    if (algorithm == segmented_scan_algorithm::automatic)
      return corank::cuda::segmented_exclusive_scan(product, in, n, offsets, p, out, init, op);
    return corank::study::cuda::segmented_exclusive_scan(studied(), in, n, offsets, p, out, init,
                                                         op);
  }
  template <class T, class Offset, class Op = corank::plus>
  cudaError_t scaled(const T* in, const T* scale, std::size_t n, const Offset* offsets,
                     std::size_t p, T* out, Op op = {}) const {
    if (algorithm == segmented_scan_algorithm::automatic)
      return corank::cuda::scaled_segmented_inclusive_scan(product, in, scale, n, offsets, p, out,
                                                           op);
    return corank::study::cuda::scaled_segmented_inclusive_scan(studied(), in, scale, n, offsets, p,
                                                                out, op);
  }
  template <class T, class Offset, class Op = corank::plus>
  cudaError_t iterations(T* a, const T* scale, std::size_t n, const Offset* offsets, std::size_t p,
                         long long steps, Op op = {}) const {
    if (algorithm == segmented_scan_algorithm::automatic)
      return corank::cuda::scaled_segmented_scan_iterations(product, a, scale, n, offsets, p, steps,
                                                            op);
    return corank::study::cuda::scaled_segmented_scan_iterations(studied(), a, scale, n, offsets, p,
                                                                 steps, op);
  }
};

using corank::cuda::segmented_scan_look_back;

std::string name_of(segmented_scan_look_back by) {
  switch (by) {
    case segmented_scan_look_back::thread:
      return "look-back by a thread";
    case segmented_scan_look_back::warp:
      return "look-back by a warp";
    default:
      return "automatic look-back";
  }
}

class GpuSegmentedScan : public corank::test::seeded_test,
                         public ::testing::WithParamInterface<segmented_scan_algorithm> {
 protected:
  /// The production kernel's look-back for the checks below (for_each_look_back).
  segmented_scan_look_back look_back = segmented_scan_look_back::automatic;

  scans options() const {
    scans s{GetParam()};
    s.product.look_back = look_back;
    return s;
  }

  /// Runs `check` with the look-back forced to one thread, forced to a warp, and automatic.
  template <class Check>
  void for_each_look_back(Check&& check) {
    for (auto by : {segmented_scan_look_back::thread, segmented_scan_look_back::warp,
                    segmented_scan_look_back::automatic}) {
      SCOPED_TRACE(name_of(by));
      look_back = by;
      check();
      if (HasFatalFailure()) break;
    }
    look_back = segmented_scan_look_back::automatic;
  }

  /// Runs the scan on the device; `shift` elements of offset make the pointers unaligned; in place
  /// when `in_place`. Returns the output (poisoned beforehand).
  template <bool Exclusive, class T, class Offset, class Op>
  std::vector<T> run(const std::vector<T>& in, const std::vector<Offset>& offsets, Op op, T init,
                     bool in_place, std::size_t shift = 0) {
    const std::size_t n = in.size(), p = offsets.size() - 1;
    std::vector<T> padded(shift, T{});
    padded.insert(padded.end(), in.begin(), in.end());
    device_buffer<T> d_in(padded), d_out(n + shift);
    device_buffer<Offset> d_off(offsets);
    d_out.poison();
    T* out = in_place ? d_in.data() + shift : d_out.data() + shift;
    const T* src = d_in.data() + shift;
    cudaError_t e;
    if constexpr (Exclusive)
      e = options().exclusive(src, n, d_off.data(), p, out, init, op);
    else
      e = options().inclusive(src, n, d_off.data(), p, out, op);
    EXPECT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    auto all = in_place ? d_in.to_host() : d_out.to_host();
    return std::vector<T>(all.begin() + static_cast<std::ptrdiff_t>(shift), all.end());
  }

  /// Exact check of inclusive and exclusive, out of place and in place.
  template <class T, class Offset, class Op = corank::plus>
  void check_exact(const std::vector<T>& in, const std::vector<Offset>& offsets, Op op = {},
                   T init = T{}, std::size_t shift = 0) {
    SCOPED_TRACE("n=" + std::to_string(in.size()) +
                 " segments=" + std::to_string(offsets.size() - 1));
    const auto inc = reference_segmented_scan<T>(in, offsets, op, false);
    const auto exc = reference_segmented_scan<T>(in, offsets, op, true, init);
    for (bool in_place : {false, true}) {
      SCOPED_TRACE(in_place ? "in place" : "out of place");
      ASSERT_EQ((run<false>(in, offsets, op, init, in_place, shift)), inc);
      ASSERT_EQ((run<true>(in, offsets, op, init, in_place, shift)), exc);
    }
  }
};

TEST_P(GpuSegmentedScan, IntegerSumsAreExactForRandomSegmentLengths) {
  CORANK_REQUIRE_GPU();
  for (double mean : {1.0, 4.0, 32.0, 1024.0, 20000.0}) {
    const std::size_t n = std::uniform_int_distribution<std::size_t>(1, 400000)(rng);
    check_exact(random_values<std::int32_t>(rng, n, -1000, 1000), random_offsets(rng, n, mean));
  }
}

// Scans of more tiles than fit the device at once find their tiles' first heads in a pass of
// their own (the smaller tests above take the other path: each tile searches).
TEST_P(GpuSegmentedScan, LargeScansTakeTheTileHeadPass) {
  CORANK_REQUIRE_GPU();
  if (GetParam() != segmented_scan_algorithm::automatic) GTEST_SKIP() << "automatic only";
  using shape4 = corank::cuda::tuning::segmented_scan_policy<4>::shape;
  using shape8 = corank::cuda::tuning::segmented_scan_policy<8>::shape;
  const std::size_t n4 = 12000007, n8 = 5000011;
  ASSERT_TRUE(corank::cuda::detail::use_tile_head_pass<shape4>((n4 + tile4 - 1) / tile4));
  ASSERT_TRUE(corank::cuda::detail::use_tile_head_pass<shape8>((n8 + tile8 - 1) / tile8));
  for (double mean : {4.0, 700.0}) {
    check_exact(random_values<std::int32_t>(rng, n4, -1000, 1000),
                random_offsets<std::int32_t>(rng, n4, mean, 0.05));
    check_exact(random_values<std::int64_t>(rng, n8, -1000000, 1000000),
                random_offsets(rng, n8, mean));
  }
}

TEST_P(GpuSegmentedScan, TakesThirtyTwoBitOffsets) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 100000;
  check_exact(random_values<std::int32_t>(rng, n, -99, 99),
              random_offsets<std::int32_t>(rng, n, 7.0, 0.1));
}

TEST_P(GpuSegmentedScan, HandlesEmptySegmentsAndEmptyInput) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 3 * tile4 + 17;
  check_exact(random_values<std::int32_t>(rng, n, -100, 100), random_offsets(rng, n, 6.0, 0.4));
  std::vector<std::int64_t> offsets(300, 0);  // empties at the start, piled mid-tile, at the end
  for (int i = 0; i < 300; ++i) offsets.push_back(tile4 + 5);
  for (int i = 0; i < 300; ++i) offsets.push_back(n);
  check_exact(random_values<std::int32_t>(rng, n, -100, 100), offsets);
  EXPECT_EQ(
      options().inclusive((const int*)nullptr, 0, (const std::int64_t*)nullptr, 0, (int*)nullptr),
      cudaSuccess);
}

TEST_P(GpuSegmentedScan, OneSegmentSpanningEverything) {
  CORANK_REQUIRE_GPU();
  const std::size_t n =
      GetParam() == segmented_scan_algorithm::thread_per_segment ? 200003 : 3000017;
  check_exact(random_values<std::int32_t>(rng, n, -9, 9),
              std::vector<std::int64_t>{0, std::int64_t(n)});
}

/// An associative operator that does not commute: the left operand. An inclusive scan gives each
/// segment's first value everywhere, and any carry combined out of order shows.
struct keep_left {
  template <class T>
  __host__ __device__ T operator()(const T& left, const T&) const {
    return left;
  }
};
/// The right operand: an exclusive scan gives each element's predecessor within its segment.
struct keep_right {
  template <class T>
  __host__ __device__ T operator()(const T&, const T& right) const {
    return right;
  }
};

TEST_P(GpuSegmentedScan, OneSegmentOverManyTilesCombinesCarriesInOrder) {
  CORANK_REQUIRE_GPU();
  if (GetParam() != segmented_scan_algorithm::automatic) GTEST_SKIP() << "production kernel";
  // More than 32 tiles (a look-back round) of one segment, and a segment ending a tile early;
  // each look-back forced, and the automatic one (a warp's, by the mean length).
  for (std::size_t n : {std::size_t(75) * tile4 + 1, std::size_t(75) * tile4 - 1}) {
    const auto in = random_values<std::int32_t>(rng, n, -1000, 1000);
    for_each_look_back([&] {
      check_exact(in, std::vector<std::int64_t>{0, std::int64_t(n)}, keep_left{}, 7);
      check_exact(in, std::vector<std::int32_t>{0, std::int32_t(n)}, keep_left{}, 7);
      check_exact(in, std::vector<std::int32_t>{0, std::int32_t(n - tile4 - 1), std::int32_t(n)},
                  keep_left{}, 7);
      check_exact(in, std::vector<std::int64_t>{0, std::int64_t(n)}, keep_right{}, 7);
    });
  }
}

TEST_P(GpuSegmentedScan, LookBacksEndingAtAnyDistanceCombineInOrder) {
  CORANK_REQUIRE_GPU();
  if (GetParam() != segmented_scan_algorithm::automatic) GTEST_SKIP() << "production kernel";
  // Segments of 1, 2, 3, 32, 33, 34 and 65 tiles, each starting 5 elements into a tile, so a
  // tile's carry lies 1 to 64 tiles back: at its nearest predecessor (one load), in the first
  // round of 32 after it, at that round's edges, or in a later round.
  std::vector<std::size_t> heads;
  std::size_t at = 5;
  for (int tiles : {1, 2, 3, 32, 33, 34, 65}) {
    heads.push_back(at);
    at += std::size_t(tiles) * tile4;
  }
  const std::size_t n = at;
  const auto in = random_values<std::int32_t>(rng, n, -1000, 1000);
  for_each_look_back([&] {
    check_exact(in, offsets_with_heads<std::int32_t>(n, heads), keep_left{}, 7);
    check_exact(in, offsets_with_heads<std::int64_t>(n, heads), keep_right{}, 7);
  });
}

/// Composition of affine maps x -> m x + c modulo 2^16, packed as m << 16 | c (apply `first`,
/// then `then`): associative and not commutative, so a scan's result shows the order of every
/// combine, not only of those that keep_left and keep_right see.
struct compose_affine {
  __host__ __device__ std::uint32_t operator()(std::uint32_t first, std::uint32_t then) const {
    const std::uint32_t m1 = first >> 16, c1 = first & 0xffffu, m2 = then >> 16,
                        c2 = then & 0xffffu;
    return ((m1 * m2) & 0xffffu) << 16 | ((m2 * c1 + c2) & 0xffffu);
  }
};

/// n random affine maps with odd factors (no information lost in a composition).
std::vector<std::uint32_t> random_affine_maps(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint32_t> maps(n);
  for (auto& m : maps) m = std::uint32_t(rng()) | 0x10000u;
  return maps;
}

// Both look-backs on a frozen tile state (no tile publishes meanwhile), each tile's walk ending
// 1 to 98 tiles back, at a carry or at a stored tile: the carry in is every predecessor's value
// back to the nearest carry, combined oldest first, read from the array its status word names.
template <corank::cuda::block::look_back_by By>
__global__ void look_back_each_tile(corank::cuda::block::tile_state<std::uint32_t> state,
                                    std::uint32_t* carry_in) {
  const std::int64_t tile = std::int64_t(blockIdx.x) + 1;
  const int lane = int(threadIdx.x);
  compose_affine op;
  if constexpr (By == corank::cuda::block::look_back_by::warp) {
    const std::uint32_t carry = state.warp_look_back(tile, op, lane);
    if (lane == 0) carry_in[tile] = carry;
  } else if (lane == 0) {
    carry_in[tile] = state.look_back(tile, op);
  }
}

class TileLookBack : public corank::test::seeded_test {};

TEST_F(TileLookBack, CombinesEveryPredecessorInOrderAtAnyDistance) {
  CORANK_REQUIRE_GPU();
  namespace cb = corank::cuda::block;
  // Runs of aggregates between carries: 0, 1, 2, 30-34 (a round's edges), 63-66, 97.
  std::vector<bool> is_carry{true};
  for (int run : {0, 1, 2, 30, 31, 32, 33, 34, 63, 64, 65, 66, 97, 5}) {
    is_carry.insert(is_carry.end(), std::size_t(run), false);
    is_carry.push_back(true);
  }
  const std::size_t tiles = is_carry.size();
  constexpr unsigned epoch = 5, poison = 0xdeadbeefu;
  std::vector<unsigned> words(tiles);
  std::vector<std::uint32_t> aggregates = random_affine_maps(rng, tiles),
                             carries = random_affine_maps(rng, tiles);
  for (std::size_t t = 0; t < tiles; ++t) {
    // Half the carries as stored tiles; the array a word does not name holds poison.
    const unsigned kind = is_carry[t] ? (t % 2 ? cb::tile_status::stored : cb::tile_status::carry)
                                      : cb::tile_status::aggregate;
    words[t] = epoch << 2 | kind;
    (is_carry[t] ? aggregates : carries)[t] = poison;
  }
  std::vector<std::uint32_t> want(tiles, 0);
  const compose_affine op;
  for (std::size_t t = 1; t < tiles; ++t) {
    std::size_t c = t - 1;
    while (!is_carry[c]) --c;
    std::uint32_t carry = carries[c];
    for (std::size_t p = c + 1; p < t; ++p) carry = op(carry, aggregates[p]);
    want[t] = carry;
  }
  device_buffer<unsigned> d_words(words);
  device_buffer<std::uint32_t> d_aggregates(aggregates), d_carries(carries);
  const cb::tile_state<std::uint32_t> state{d_words.data(), d_aggregates.data(), d_carries.data(),
                                            epoch};
  for (bool by_warp : {false, true}) {
    SCOPED_TRACE(by_warp ? "by a warp" : "by a thread");
    device_buffer<std::uint32_t> d_carry_in(std::vector<std::uint32_t>(tiles, 0));
    if (by_warp)
      look_back_each_tile<cb::look_back_by::warp>
          <<<unsigned(tiles - 1), 32>>>(state, d_carry_in.data());
    else
      look_back_each_tile<cb::look_back_by::thread>
          <<<unsigned(tiles - 1), 32>>>(state, d_carry_in.data());
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto got = d_carry_in.to_host();
    for (std::size_t t = 1; t < tiles; ++t) ASSERT_EQ(got[t], want[t]) << "tile " << t;
  }
}

// The host picks the look-back from the mean segment length n / num_segments: a warp's from
// tuning::segmented_scan_look_back::warp_from_mean_length up. Shapes at that mean -1, 0 and +1
// (one segment, and two of unequal lengths, so a head falls mid-tile), scanned by an operator
// that shows any combine out of order; the options force either look-back at any length.
TEST_P(GpuSegmentedScan, LookBackFollowsTheMeanSegmentLength) {
  CORANK_REQUIRE_GPU();
  if (GetParam() != segmented_scan_algorithm::automatic) GTEST_SKIP() << "production kernel";
  using corank::cuda::detail::look_back_of;
  using by = corank::cuda::block::look_back_by;
  constexpr std::size_t from =
      corank::cuda::tuning::segmented_scan_look_back::warp_from_mean_length;
  const auto automatic = segmented_scan_look_back::automatic;
  for (std::size_t segments : {1, 2})
    for (int delta : {-1, 0, 1}) {
      const std::size_t n = segments * from + delta;
      SCOPED_TRACE("segments=" + std::to_string(segments) + " delta=" + std::to_string(delta));
      ASSERT_EQ(look_back_of(automatic, n, segments), delta < 0 ? by::thread : by::warp);
      const auto in = random_affine_maps(rng, n);
      // Two segments: the second the longer, its head mid-tile.
      const std::vector<std::size_t> heads =
          segments == 1 ? std::vector<std::size_t>{} : std::vector<std::size_t>{from / 3 + 5};
      const auto offsets32 = offsets_with_heads<std::int32_t>(n, heads);
      ASSERT_EQ(offsets32.size(), segments + 1);
      check_exact(in, offsets32, compose_affine{}, 0x10000u);
      check_exact(in, offsets_with_heads<std::int64_t>(n, heads), compose_affine{}, 0x10000u);
    }
  EXPECT_EQ(look_back_of(segmented_scan_look_back::warp, 1, 1), by::warp);
  EXPECT_EQ(look_back_of(segmented_scan_look_back::thread, std::size_t(1) << 40, 1), by::thread);
  // Either look-back forced, on segments of every length from 1 to many tiles.
  const std::size_t n = 50 * std::size_t(tile4) + 3;
  const auto in = random_affine_maps(rng, n);
  const auto offsets = random_offsets<std::int32_t>(rng, n, 3.0 * tile4, 0.05);
  const auto short_ones = random_offsets<std::int32_t>(rng, n, 5.0, 0.05);
  for_each_look_back([&] {
    check_exact(in, offsets, compose_affine{}, 0x10000u);
    check_exact(in, short_ones, compose_affine{}, 0x10000u);
  });
}

// The scaled scan and the iteration (one step per pass, and several on a staged tile) take the
// same look-back choice as the plain scans: each forced, over one segment of many tiles and
// segments of a few tiles, with an operator that shows combines out of order (on u32 products).
TEST_P(GpuSegmentedScan, ScaledScansAndIterationsTakeEitherLookBack) {
  CORANK_REQUIRE_GPU();
  if (GetParam() != segmented_scan_algorithm::automatic) GTEST_SKIP() << "production kernel";
  using u32 = std::uint32_t;
  constexpr int tile = corank::cuda::tuning::segmented_scan_policy<4, 2>::shape::tile;
  const std::size_t n = 70 * std::size_t(tile) + 9;
  const auto a = random_affine_maps(rng, n), xbar = random_affine_maps(rng, n);
  device_buffer<u32> d_x(xbar);
  for (const auto& offsets :
       {offsets_with_heads<std::int32_t>(n, {}), random_offsets<std::int32_t>(rng, n, 4.0 * tile)})
    for_each_look_back([&] {
      SCOPED_TRACE("segments=" + std::to_string(offsets.size() - 1));
      device_buffer<std::int32_t> d_off(offsets);
      device_buffer<u32> d_a(a), d_out(n);
      ASSERT_EQ(options().scaled(d_a.data(), d_x.data(), n, d_off.data(), offsets.size() - 1,
                                 d_out.data(), compose_affine{}),
                cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      ASSERT_EQ(d_out.to_host(),
                reference_scaled_iterations<u32>(a, xbar, offsets, 1, compose_affine{}));
      for (int steps_per_pass : {1, 0}) {  // one step a pass; the tuned passes of several
        SCOPED_TRACE("steps_per_pass=" + std::to_string(steps_per_pass));
        auto opt = options();
        opt.product.steps_per_pass = steps_per_pass;
        device_buffer<u32> d_it(a);
        ASSERT_EQ(opt.iterations(d_it.data(), d_x.data(), n, d_off.data(), offsets.size() - 1, 5,
                                 compose_affine{}),
                  cudaSuccess);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        ASSERT_EQ(d_it.to_host(),
                  reference_scaled_iterations<u32>(a, xbar, offsets, 5, compose_affine{}));
      }
    });
}

TEST_P(GpuSegmentedScan, AllSegmentsOfLengthOne) {
  CORANK_REQUIRE_GPU();
  // A few tiles with 64-bit offsets; 40 tiles (more than a look-back round) with 32-bit ones.
  const std::size_t n64 = 5 * tile4 + 3, n32 = 40 * tile4 + 1;
  std::vector<std::int64_t> offsets64(n64 + 1);
  std::iota(offsets64.begin(), offsets64.end(), std::int64_t(0));
  std::vector<std::int32_t> offsets32(n32 + 1);
  std::iota(offsets32.begin(), offsets32.end(), std::int32_t(0));
  check_exact(random_values<std::int32_t>(rng, n64, -1000, 1000), offsets64);
  check_exact(random_values<std::int32_t>(rng, n32, -1000, 1000), offsets32);
}

TEST_P(GpuSegmentedScan, HeadsAtTileEdgesPlusMinusOne) {
  CORANK_REQUIRE_GPU();
  for (int delta : {-1, 0, 1}) {
    const std::size_t n4 = 6 * tile4 + delta + 1, n8 = 6 * tile8 + delta + 1;
    std::vector<std::size_t> h4, h8;
    for (int k = 1; k <= 5; k += 2) {  // heads at some edges; tiles 2 and 4 have no head at all
      h4.push_back(std::size_t(k * tile4 + delta));
      h8.push_back(std::size_t(k * tile8 + delta));
    }
    check_exact(random_values<std::int32_t>(rng, n4, -9, 9), offsets_with_heads(n4, h4));
    check_exact(random_values<std::int64_t>(rng, n8, -9, 9), offsets_with_heads(n8, h8));
  }
}

TEST_P(GpuSegmentedScan, MaxAndMinOperators) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 50000;
  const auto offsets = random_offsets(rng, n, 40.0, 0.1);
  const auto in = random_values<std::int32_t>(rng, n, -1000000, 1000000);
  check_exact(in, offsets, corank::maximum{}, std::numeric_limits<std::int32_t>::lowest());
  check_exact(in, offsets, corank::minimum{}, std::numeric_limits<std::int32_t>::max());
  const auto f = random_values<float>(rng, n);
  check_exact(f, offsets, corank::maximum{}, -1e30f);
}

TEST_P(GpuSegmentedScan, ExclusiveStartsEachSegmentAtInit) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 20000;
  check_exact(random_values<std::int64_t>(rng, n, 0, 50), random_offsets(rng, n, 16.0, 0.2),
              corank::plus{}, std::int64_t{1000});
}

TEST_P(GpuSegmentedScan, HandlesUnalignedPointers) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 4 * tile4 + 11;
  check_exact(random_values<std::int32_t>(rng, n, -50, 50), random_offsets(rng, n, 20.0),
              corank::plus{}, 0, 1);
}

TEST_P(GpuSegmentedScan, FloatAndDoubleSumsMatchTheDoubleReference) {
  CORANK_REQUIRE_GPU();
  for (double mean : {4.0, 32.0, 1024.0}) {
    const std::size_t n = 1000000;
    const auto offsets = random_offsets(rng, n, mean);
    const auto f = random_values<float>(rng, n, 0.5, 1.0);
    const auto want_f = reference_segmented_scan<double>(f, offsets, corank::plus{});
    EXPECT_LT(corank::test::relative_error_max_norm(
                  run<false>(f, offsets, corank::plus{}, 0.0f, false), want_f),
              1e-5)
        << "mean=" << mean;
    const auto d = random_values<double>(rng, n);
    const auto want_d = reference_segmented_scan<double>(d, offsets, corank::plus{});
    EXPECT_LT(corank::test::relative_error_max_norm(
                  run<false>(d, offsets, corank::plus{}, 0.0, true), want_d),
              1e-12)
        << "mean=" << mean;
  }
}

TEST_P(GpuSegmentedScan, ScaledIterationsInPlaceReuseTheWorkspace) {
  CORANK_REQUIRE_GPU();
  const std::size_t n = 700001;
  const auto offsets = random_offsets(rng, n, 12.0, 0.05);
  auto a = random_values<float>(rng, n, 0.1, 1.0);
  const auto xbar = random_values<float>(rng, n, 0.5, 1.0);
  const auto want = reference_scaled_iterations<double>(a, xbar, offsets, 5, corank::plus{});
  device_buffer<float> d_a(a), d_x(xbar);
  device_buffer<std::int64_t> d_off(offsets);
  corank::cuda::segmented_scan_workspace ws;
  auto opt = options();
  opt.product.workspace = &ws;
  for (int iter = 0; iter < 5; ++iter) {
    ASSERT_EQ(opt.scaled(d_a.data(), d_x.data(), n, d_off.data(), offsets.size() - 1, d_a.data()),
              cudaSuccess);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_LT(corank::test::relative_error_max_norm(d_a.to_host(), want), 1e-5);
}

/// `iterations` steps of a = scan(a * xbar) at once (scaled_segmented_scan_iterations) against
/// the reference applied step by step. Unsigned values wrap modulo 2^32 on both sides, so the
/// check is exact. `shift` elements make both pointers unaligned.
void check_iterations_at_once(std::mt19937_64& rng, const scans& opt, std::size_t n,
                              double mean_length, int iterations, std::size_t shift) {
  SCOPED_TRACE("n=" + std::to_string(n) + " mean=" + std::to_string(mean_length) +
               " shift=" + std::to_string(shift) + (opt.product.workspace ? " workspace" : ""));
  using u32 = std::uint32_t;
  const auto offsets = random_offsets<std::int32_t>(rng, n, mean_length, 0.02);
  const auto a = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto xbar = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto want = reference_scaled_iterations<u32>(a, xbar, offsets, iterations, corank::plus{});
  std::vector<u32> padded_a(shift, 0u), padded_x(shift, 0u);
  padded_a.insert(padded_a.end(), a.begin(), a.end());
  padded_x.insert(padded_x.end(), xbar.begin(), xbar.end());
  device_buffer<u32> d_a(padded_a), d_x(padded_x);
  device_buffer<std::int32_t> d_off(offsets);
  const cudaError_t e = opt.iterations(d_a.data() + shift, d_x.data() + shift, n, d_off.data(),
                                       offsets.size() - 1, iterations);
  ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto got = d_a.to_host();
  ASSERT_EQ(std::vector<u32>(got.begin() + std::ptrdiff_t(shift), got.end()), want);
}

// Sizes of one wave of tiles at tile edges +-1, short and long segments (look-back chains across
// tiles), with and without a workspace (one workspace reused by calls of growing and shrinking
// size); passes of 1, 2, 3 and the most steps and the tuned number, counts of 5 and 9 (whole
// passes, then the steps left in a shorter pass).
TEST_P(GpuSegmentedScan, ScaledIterationsAtOnceAreExact) {
  CORANK_REQUIRE_GPU();
  constexpr int tile = corank::cuda::tuning::segmented_scan_policy<4, 2>::shape::tile;
  corank::cuda::segmented_scan_workspace ws;
  for (bool with_workspace : {false, true})
    for (int steps_per_pass : {0, 1, 2, 3, most_steps_per_pass}) {
      SCOPED_TRACE("steps_per_pass=" + std::to_string(steps_per_pass));
      auto opt = options();
      opt.product.workspace = with_workspace ? &ws : nullptr;
      opt.product.steps_per_pass = steps_per_pass;
      for (std::size_t n : {std::size_t(120001), std::size_t(1), std::size_t(tile - 1),
                            std::size_t(tile + 1), std::size_t(3 * tile), std::size_t(70001)})
        for (double mean : {3.0, 60.0, 9000.0})
          check_iterations_at_once(rng, opt, n, mean, 5 + 4 * int(n % 2), n % 2);
    }
  EXPECT_EQ(options().iterations((std::uint32_t*)nullptr, (const std::uint32_t*)nullptr, 0,
                                 (const std::int32_t*)nullptr, 0, 3),
            cudaSuccess);
}

// More tiles than fit the device at once: steps in one grid (up to the tuned number of waves) and
// a grid per pass (above) of one or several steps on each staged tile (counts that end with a
// shorter pass and counts that do not), with short and long segments.
TEST_P(GpuSegmentedScan, LargeScaledIterationsAtOnceAreExact) {
  CORANK_REQUIRE_GPU();
  if (GetParam() == segmented_scan_algorithm::thread_per_segment) GTEST_SKIP() << "too slow";
  // Sizes from the tiles of one step per pass; those of several steps fall in the same regimes.
  using one_step = corank::cuda::tuning::segmented_scan_policy<4, 2>::shape;
  using several = corank::cuda::tuning::segmented_scan_iteration::policy<4>::shape;
  const double one_grid_up_to =
      corank::cuda::tuning::segmented_scan_iteration::one_grid_up_to_waves;
  int sms = 0;
  ASSERT_EQ(corank::cuda::detail::multiprocessor_count(&sms), cudaSuccess);
  const double wave = double(sms) * one_step::min_blocks;  // tiles
  const std::size_t one_grid = std::size_t(one_grid_up_to * 0.9 * wave) * one_step::tile,
                    grid_per_step = std::size_t(one_grid_up_to * 1.5 * wave) * one_step::tile + 7;
  const auto waves = [](auto shape, std::size_t n) {
    using tiles = decltype(shape);
    return corank::cuda::detail::waves_of<tiles>((n + tiles::tile - 1) / tiles::tile);
  };
  for (double w : {waves(one_step{}, one_grid), waves(several{}, one_grid)}) {
    ASSERT_GT(w, 1.0);
    ASSERT_LE(w, one_grid_up_to);
  }
  ASSERT_GT(waves(one_step{}, grid_per_step), one_grid_up_to);
  ASSERT_GT(waves(several{}, grid_per_step), one_grid_up_to);
  corank::cuda::segmented_scan_workspace ws;
  auto opt = options();
  opt.product.workspace = &ws;
  for (int steps_per_pass : {0, 1, 2, 3, most_steps_per_pass}) {
    SCOPED_TRACE("steps_per_pass=" + std::to_string(steps_per_pass));
    opt.product.steps_per_pass = steps_per_pass;
    for (std::size_t n : {one_grid, grid_per_step}) {
      check_iterations_at_once(rng, opt, n, 40.0, 5, 0);
      check_iterations_at_once(rng, opt, n, 30000.0, 3, 1);
    }
    check_iterations_at_once(rng, opt, grid_per_step, 8.0, 2, 0);
    check_iterations_at_once(rng, opt, grid_per_step, 3000.0, 4, 0);
    check_iterations_at_once(rng, opt, grid_per_step, 500.0, 1, 0);
    check_iterations_at_once(rng, opt, grid_per_step, 60.0, 11, 0);
  }
  opt.product.steps_per_pass =
      most_steps_per_pass;  // whole passes of the most steps, then a short one
  check_iterations_at_once(rng, opt, one_grid, 700.0, 2 * most_steps_per_pass + 3, 1);
  check_iterations_at_once(rng, opt, grid_per_step, 700.0, most_steps_per_pass + 3, 1);
}

// What the CPU's scans refuse with std::invalid_argument (segmented_scan_contract.hpp), every
// kernel refuses with cudaErrorInvalidValue, writing nothing: steps per pass out of range (the
// production kernel's option), negative iterations, no segments or no offsets for n > 0.
TEST_P(GpuSegmentedScan, RejectsUnsupportedStepsPerPass) {
  CORANK_REQUIRE_GPU();
  const std::vector<std::int32_t> offsets{0, 2};
  device_buffer<std::uint32_t> d_a(std::vector<std::uint32_t>{1, 2}), d_x(d_a.to_host());
  device_buffer<std::int32_t> d_off(offsets);
  if (GetParam() == segmented_scan_algorithm::automatic)
    for (int bad : {-1, most_steps_per_pass + 1}) {
      auto opt = options();
      opt.product.steps_per_pass = bad;
      EXPECT_EQ(opt.iterations(d_a.data(), d_x.data(), 2, d_off.data(), 1, 4),
                cudaErrorInvalidValue)
          << bad;
      EXPECT_EQ(opt.inclusive(d_a.data(), 2, d_off.data(), 1, d_a.data()), cudaErrorInvalidValue)
          << bad;
    }
  EXPECT_EQ(options().iterations(d_a.data(), d_x.data(), 2, d_off.data(), 1, -1),
            cudaErrorInvalidValue);
  EXPECT_EQ(options().inclusive(d_a.data(), 2, d_off.data(), 0, d_a.data()), cudaErrorInvalidValue);
  EXPECT_EQ(options().inclusive(d_a.data(), 2, (const std::int32_t*)nullptr, 1, d_a.data()),
            cudaErrorInvalidValue);
  EXPECT_EQ(d_a.to_host(), (std::vector<std::uint32_t>{1, 2}));
}

INSTANTIATE_TEST_SUITE_P(, GpuSegmentedScan,
                         ::testing::Values(segmented_scan_algorithm::automatic,
                                           segmented_scan_algorithm::thread_per_segment,
                                           segmented_scan_algorithm::warp_per_segment),
                         [](const auto& info) {
                           switch (info.param) {
                             case segmented_scan_algorithm::automatic:
                               return std::string("automatic");
                             case segmented_scan_algorithm::thread_per_segment:
                               return std::string("thread_per_segment");
                             default:
                               return std::string("warp_per_segment");
                           }
                         });

}  // namespace
