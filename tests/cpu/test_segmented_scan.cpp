// The CPU segmented scans against the sequential reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "corank/cpu/segmented_scan.hpp"
#include "corank/functional.hpp"
#include "support/seeded_test.hpp"
#include "support/segmented_scan_reference.hpp"

namespace {

using corank::test::offsets_with_heads;
using corank::test::random_offsets;
using corank::test::random_values;
using corank::test::reference_scaled_iterations;
using corank::test::reference_segmented_scan;

struct max_op {
  template <class T>
  T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};
struct min_op {
  template <class T>
  T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};
/// Associative, not commutative: catches an operand order swapped across a carry.
struct affine_compose {  // (a1, b1) then (a2, b2): x -> a2 (a1 x + b1) + b2, in integers mod 2^64
  struct value {
    std::uint64_t a = 7, b = 7;
    bool operator==(const value& o) const { return a == o.a && b == o.b; }
  };
  value operator()(const value& f, const value& g) const { return {g.a * f.a, g.a * f.b + g.b}; }
};

/// Fills outputs so an element left unwritten shows.
template <class T>
T poison() {
  if constexpr (std::is_arithmetic_v<T>)
    return T(0x5A5A5A5A);
  else
    return T{};
}

class CpuSegmentedScan : public corank::test::seeded_test {
 protected:
  static corank::cpu::segmented_scan_options parallel(int threads) {
    corank::cpu::segmented_scan_options opt;
    opt.threads = threads;
    opt.sequential_below = 0;
    return opt;
  }

  // Exact check (integers): inclusive and exclusive, out of place and in place, 1..7 threads.
  template <class T, class Offset, class Op = std::plus<>>
  void check_exact(const std::vector<T>& in, const std::vector<Offset>& offsets, Op op = {},
                   T init = T{}) {
    const std::size_t n = in.size(), p = offsets.size() - 1;
    const auto want_inc = reference_segmented_scan<T>(in, offsets, op, false);
    const auto want_exc = reference_segmented_scan<T>(in, offsets, op, true, init);
    for (int threads : {1, 2, 3, 7}) {
      SCOPED_TRACE("threads=" + std::to_string(threads) + " n=" + std::to_string(n) +
                   " segments=" + std::to_string(p));
      const auto opt = parallel(threads);
      std::vector<T> out(n, poison<T>());
      corank::cpu::segmented_inclusive_scan(in.data(), n, offsets.data(), p, out.data(), op, opt);
      ASSERT_EQ(out, want_inc);
      out.assign(n, poison<T>());
      corank::cpu::segmented_exclusive_scan(in.data(), n, offsets.data(), p, out.data(), init, op,
                                            opt);
      ASSERT_EQ(out, want_exc);
      std::vector<T> inplace = in;
      corank::cpu::segmented_inclusive_scan(inplace.data(), n, offsets.data(), p, inplace.data(),
                                            op, opt);
      ASSERT_EQ(inplace, want_inc);
      inplace = in;
      corank::cpu::segmented_exclusive_scan(inplace.data(), n, offsets.data(), p, inplace.data(),
                                            init, op, opt);
      ASSERT_EQ(inplace, want_exc);
    }
  }
};

TEST_F(CpuSegmentedScan, IntegerSumsAreExactForRandomSegmentLengths) {
  for (double mean : {1.0, 4.0, 32.0, 1000.0}) {
    const std::size_t n = std::uniform_int_distribution<std::size_t>(1, 200000)(rng);
    check_exact(random_values<std::int64_t>(rng, n, -1000, 1000), random_offsets(rng, n, mean));
  }
}

TEST_F(CpuSegmentedScan, HandlesEmptySegments) {
  const std::size_t n = 50000;
  check_exact(random_values<std::int32_t>(rng, n, -100, 100), random_offsets(rng, n, 8.0, 0.3));
  // Many empty segments at the start, the end, and piled at one position.
  std::vector<std::int64_t> offsets(100, 0);
  for (int i = 0; i < 50; ++i) offsets.push_back(n / 2);
  for (int i = 0; i < 50; ++i) offsets.push_back(n);
  check_exact(random_values<std::int32_t>(rng, n, -100, 100), offsets);
}

TEST_F(CpuSegmentedScan, HandlesEmptyInput) {
  check_exact(std::vector<std::int32_t>{}, std::vector<std::int64_t>{0});
  check_exact(std::vector<std::int32_t>{}, std::vector<std::int64_t>{0, 0, 0});
}

TEST_F(CpuSegmentedScan, OneSegmentSpanningEverything) {
  const std::size_t n = 300001;
  check_exact(random_values<std::int64_t>(rng, n, -1000, 1000), std::vector<std::int64_t>{0, n});
}

TEST_F(CpuSegmentedScan, AllSegmentsOfLengthOne) {
  const std::size_t n = 100003;
  std::vector<std::int32_t> offsets(n + 1);
  for (std::size_t i = 0; i <= n; ++i) offsets[i] = static_cast<std::int32_t>(i);
  check_exact(random_values<std::int64_t>(rng, n, -1000, 1000), offsets);
}

/// Offsets over 420 elements with a head `delta` from each place where 2, 3 or 7 threads' even
/// slices end (multiples of 60, 140 and 210).
/// Heads on the even shares of 420 * scale elements among 2, 3 and 7 threads, moved by delta.
std::vector<std::int64_t> heads_at_slice_edges(long delta, std::size_t scale = 1) {
  std::vector<std::size_t> heads;
  for (std::size_t edge : {60, 120, 140, 180, 210, 240, 280, 300, 360})
    heads.push_back(static_cast<std::size_t>(static_cast<long>(edge * scale) + delta));
  return offsets_with_heads(420 * scale, heads);
}

TEST_F(CpuSegmentedScan, HeadsAtThreadSliceEdgesPlusMinusOne) {
  for (long delta : {-1L, 0L, 1L})
    check_exact(random_values<std::int64_t>(rng, 420, -9, 9), heads_at_slice_edges(delta));
}

TEST_F(CpuSegmentedScan, MaxAndMinOperators) {
  const std::size_t n = 80000;
  const auto offsets = random_offsets(rng, n, 20.0, 0.1);
  const auto in = random_values<std::int32_t>(rng, n, -1000000, 1000000);
  check_exact(in, offsets, max_op{}, std::numeric_limits<std::int32_t>::lowest());
  check_exact(in, offsets, min_op{}, std::numeric_limits<std::int32_t>::max());
}

TEST_F(CpuSegmentedScan, KeepsOperandOrderForNonCommutativeOperators) {
  const std::size_t n = 20000;
  std::vector<affine_compose::value> in(n);
  std::uniform_int_distribution<std::uint64_t> d;
  for (auto& v : in) v = {d(rng) | 1, d(rng)};
  check_exact(in, random_offsets(rng, n, 3000.0), affine_compose{}, affine_compose::value{1, 0});
}

TEST_F(CpuSegmentedScan, ExclusiveStartsEachSegmentAtInit) {
  const std::size_t n = 10000;
  check_exact(random_values<std::int64_t>(rng, n, 0, 50), random_offsets(rng, n, 16.0, 0.2),
              std::plus<>{}, std::int64_t{1000});
}

TEST_F(CpuSegmentedScan, FloatSumsMatchTheDoubleReference) {
  for (double mean : {4.0, 32.0, 1024.0}) {
    const std::size_t n = 500000;
    const auto in = random_values<float>(rng, n, 0.5, 1.0);
    const auto offsets = random_offsets(rng, n, mean);
    const auto want = reference_segmented_scan<double>(in, offsets, std::plus<>{});
    std::vector<float> out(n);
    corank::cpu::segmented_inclusive_scan(in.data(), n, offsets.data(), offsets.size() - 1,
                                          out.data(), std::plus<>{}, parallel(4));
    EXPECT_LT(corank::test::relative_error_max_norm(out, want), 1e-5) << "mean=" << mean;
  }
}

/// `iterations` steps of a = scan(a * scale) at once (scaled_segmented_scan_iterations) against
/// the reference applied step by step. u32 sums wrap modulo 2^32 on both sides, so the check is
/// exact.
template <class Op = std::plus<>>
void check_iterations(std::mt19937_64& rng, const std::vector<std::int64_t>& offsets,
                      long long iterations, const corank::cpu::segmented_scan_options& opt,
                      Op op = {}) {
  using u32 = std::uint32_t;
  const std::size_t n = static_cast<std::size_t>(offsets.back()), p = offsets.size() - 1;
  SCOPED_TRACE("n=" + std::to_string(n) + " segments=" + std::to_string(p) + " iterations=" +
               std::to_string(iterations) + " threads=" + std::to_string(opt.threads) +
               " steps_per_pass=" + std::to_string(opt.steps_per_pass));
  const auto a = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto scale = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto want = reference_scaled_iterations<u32>(a, scale, offsets, iterations, op);
  std::vector<u32> got = a;
  corank::cpu::scaled_segmented_scan_iterations(got.data(), scale.data(), n, offsets.data(), p,
                                                iterations, op, opt);
  ASSERT_EQ(got, want);
}

// Short and long segments, 1 to 7 threads, passes of the tuned number of steps and of 1 to 3
// (19 steps: whole passes, then a shorter one).
TEST_F(CpuSegmentedScan, ScaledIterationsAreExact) {
  int round = 0;
  for (std::size_t n :
       {std::size_t(1), std::size_t(7), std::size_t(1000), std::size_t(16385), std::size_t(200001)})
    for (double mean : {3.0, 60.0, 5000.0})
      for (int threads : {1, 3, 7}) {
        auto opt = parallel(threads);
        opt.steps_per_pass = round++ % 4;
        check_iterations(rng, random_offsets(rng, n, mean, 0.05), 19, opt);
      }
}

// Segments longer than a thread's share: slices without any head, the largest slice at the most
// shares the blocked form takes on all threads and one element past it (fewer threads), segments
// spanning everything (one thread, or each step a scan of its own), with empty segments.
TEST_F(CpuSegmentedScan, ScaledIterationsCarryAcrossSlices) {
  check_iterations(rng, random_offsets(rng, 2000000, 1000.0), 18, parallel(7));
  // 100 shares of 10000: a segment of 10000 * shares + extra elements among segments of about
  // 20 makes the largest slice of whole segments that long: at the most shares the blocked form
  // takes, and one past it (each step a scan of its own).
  const std::size_t shares = corank::cpu::tuning::iteration_largest_slice_shares;
  for (std::size_t extra : {0, 1}) {
    const std::size_t long_end = 90000 + 10000 * shares + extra;
    std::vector<std::int64_t> offsets = random_offsets(rng, 90000, 20.0);
    offsets.push_back(std::int64_t(long_end));
    for (const auto o : random_offsets(rng, 1000000 - long_end, 20.0))
      if (o > 0) offsets.push_back(std::int64_t(long_end) + o);
    const auto cuts =
        corank::cpu::detail::iteration_cuts(offsets.data(), offsets.size() - 1, 1000000, 100);
    ASSERT_EQ(corank::cpu::detail::largest_slice(cuts), 10000 * shares + extra);
    check_iterations(rng, offsets, 18, parallel(100));
  }
  check_iterations(rng, {0, 300000}, 20, parallel(4));
  check_iterations(rng, {0, 300000}, 20, parallel(16));
  check_iterations(rng, random_offsets(rng, 100000, 1.0, 0.3), 17, parallel(3));
  check_iterations(rng, random_offsets(rng, 100000, 40.0), 17, parallel(3), max_op{});
}

// Heads on the threads' even shares and one element either side (slices of at least
// iteration_min_slice_items), many steps per sweep and a shorter last sweep.
TEST_F(CpuSegmentedScan, ScaledIterationsWithHeadsAtSliceEdgesPlusMinusOne) {
  const std::size_t scale = corank::cpu::tuning::iteration_min_slice_items;
  for (long delta : {-1L, 0L, 1L})
    for (int threads : {2, 3, 7})
      check_iterations(rng, heads_at_slice_edges(delta, scale), 37, parallel(threads));
}

// The slices of whole segments: at heads (or n), in order, covering [0, n), the largest as small
// as any cut of whole segments into that many slices (against every cut, by dynamic programming),
// with empty segments, segments longer than a share, and more threads than segments.
TEST_F(CpuSegmentedScan, IterationCutsAreTheBestCutsOfWholeSegments) {
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng() % 60;
    const std::vector<std::int64_t> offsets = random_offsets(rng, n, 1.0 + double(rng() % 8), 0.2);
    const std::size_t p = offsets.size() - 1;
    for (int threads = 1; threads <= 9; ++threads) {
      SCOPED_TRACE("n=" + std::to_string(n) + " segments=" + std::to_string(p) +
                   " threads=" + std::to_string(threads));
      const auto cuts = corank::cpu::detail::iteration_cuts(offsets.data(), p, n, threads);
      ASSERT_EQ(cuts.size(), std::size_t(threads) + 1);
      ASSERT_EQ(cuts.front(), 0u);
      ASSERT_EQ(cuts.back(), n);
      for (std::size_t u = 0; u + 1 < cuts.size(); ++u) ASSERT_LE(cuts[u], cuts[u + 1]);
      for (const std::size_t c : cuts)
        ASSERT_TRUE(std::find(offsets.begin(), offsets.end(), std::int64_t(c)) != offsets.end())
            << c << " is no head";
      // best[k][i]: the least largest slice cutting [0, heads[i]) into k slices at heads.
      std::vector<std::size_t> heads(offsets.begin(), offsets.end());
      heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
      const std::size_t none = std::numeric_limits<std::size_t>::max(), h = heads.size();
      std::vector<std::vector<std::size_t>> best(std::size_t(threads) + 1,
                                                 std::vector<std::size_t>(h, none));
      best[0][0] = 0;
      for (std::size_t k = 1; k <= std::size_t(threads); ++k)
        for (std::size_t i = 0; i < h; ++i)
          for (std::size_t j = 0; j <= i; ++j)
            if (best[k - 1][j] != none)
              best[k][i] = std::min(best[k][i], std::max(best[k - 1][j], heads[i] - heads[j]));
      ASSERT_EQ(corank::cpu::detail::largest_slice(cuts), best[std::size_t(threads)][h - 1]);
    }
  }
}

// Called from inside a parallel region, the iteration's own region gets one thread (nesting is
// off by default), which then sweeps every slice.
TEST_F(CpuSegmentedScan, ScaledIterationsInsideAParallelRegion) {
  const std::size_t n = 100000;
  const std::vector<std::int64_t> offsets = random_offsets(rng, n, 30.0);
  const auto a0 = random_values<std::uint32_t>(rng, n, 0, 1000);
  const auto scale = random_values<std::uint32_t>(rng, n, 0, 1000);
  const auto want =
      reference_scaled_iterations<std::uint32_t>(a0, scale, offsets, 20, std::plus<>{});
  std::vector<std::vector<std::uint32_t>> got(2, a0);
#pragma omp parallel num_threads(2)
  {
#pragma omp for
    for (int c = 0; c < 2; ++c)
      corank::cpu::scaled_segmented_scan_iterations(got[std::size_t(c)].data(), scale.data(), n,
                                                    offsets.data(), offsets.size() - 1, 20,
                                                    std::plus<>{}, parallel(4));
  }
  EXPECT_EQ(got[0], want);
  EXPECT_EQ(got[1], want);
}

// With the default options (all cores, one thread below sequential_below elements): sizes around
// that threshold, one iteration and many.
TEST_F(CpuSegmentedScan, ScaledIterationsWithDefaultOptions) {
  const std::size_t edge = corank::cpu::segmented_scan_options{}.sequential_below;
  for (std::size_t n : {edge - 1, edge, edge + 1, 3 * edge + 7})
    for (long long iterations : {1LL, 17LL, 200LL})
      check_iterations(rng, random_offsets(rng, n, 12.0), iterations, {});
}

// The blocked form takes each segment through the sequential loop's operations in its order, so
// float results equal that loop's bit for bit (no tolerance), with any thread count.
TEST_F(CpuSegmentedScan, ScaledFloatIterationsEqualTheSequentialLoop) {
  const std::size_t n = 100003;
  const std::vector<std::int64_t> offsets = random_offsets(rng, n, 30.0);
  // Positive values that grow (below 30^21): no subnormal results, which the iteration flushes.
  const auto a0 = random_values<float>(rng, n, 0.5, 1.0);
  const auto scale = random_values<float>(rng, n, 0.5, 1.0);
  std::vector<float> want = a0;
  for (int it = 0; it < 21; ++it)
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      float acc = 0;
      for (auto l = std::size_t(offsets[r]); l < std::size_t(offsets[r + 1]); ++l)
        want[l] = acc =
            l == std::size_t(offsets[r]) ? want[l] * scale[l] : acc + want[l] * scale[l];
    }
  for (int threads : {1, 2, 5, 16}) {
    std::vector<float> got = a0;
    corank::cpu::scaled_segmented_scan_iterations(got.data(), scale.data(), n, offsets.data(),
                                                  offsets.size() - 1, 21, std::plus<>{},
                                                  parallel(threads));
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], want[i]) << "i=" << i << " threads=" << threads;
  }
}

#if defined(__SSE2__)
// Values that shrink into the subnormal range come out as zero (x86: FTZ/DAZ in the sweeps, an
// Intel core's microcode assist otherwise), and the caller's floating-point mode is left as it was.
TEST_F(CpuSegmentedScan, ScaledIterationsFlushSubnormalsAndRestoreTheCallersMode) {
  const std::size_t n = 100000;
  std::vector<std::int64_t> offsets = random_offsets(rng, n, 4.0);
  for (int threads : {1, 3})
    for (int steps_per_pass : {0, 1}) {  // blocked sweeps; a segmented scan per step
      std::vector<float> a(n, 1e-30f), scale(n, 1e-5f);  // one step: 1e-35, two: 1e-40 (subnormal)
      const unsigned mode = _mm_getcsr();
      auto opt = parallel(threads);
      opt.steps_per_pass = steps_per_pass;
      corank::cpu::scaled_segmented_scan_iterations(a.data(), scale.data(), n, offsets.data(),
                                                    offsets.size() - 1, 2, std::plus<>{}, opt);
      EXPECT_EQ(_mm_getcsr(), mode);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(a[i], 0.0f) << "i=" << i << " threads=" << threads
                              << " steps per pass=" << steps_per_pass << ": " << a[i];
    }
}
#endif

// Zero iterations or elements leave the data alone; what the GPU's scans refuse with
// cudaErrorInvalidValue (segmented_scan_contract.hpp) throws, before anything is written.
TEST_F(CpuSegmentedScan, ScaledIterationsOfNothingDoNothing) {
  std::vector<std::uint32_t> a{3, 4}, scale{5, 6};
  const std::vector<std::int64_t> offsets{0, 2};
  corank::cpu::scaled_segmented_scan_iterations(a.data(), scale.data(), 2, offsets.data(), 1, 0);
  corank::cpu::scaled_segmented_scan_iterations(a.data(), scale.data(), 0, offsets.data(), 1, 5);
  EXPECT_EQ(a, (std::vector<std::uint32_t>{3, 4}));
  for (int bad : {-1, corank::segmented_scan_most_steps_per_pass + 1}) {
    corank::cpu::segmented_scan_options opt;
    opt.steps_per_pass = bad;
    EXPECT_THROW(corank::cpu::scaled_segmented_scan_iterations(
                     a.data(), scale.data(), 2, offsets.data(), 1, 4, corank::plus{}, opt),
                 std::invalid_argument)
        << bad;
  }
  EXPECT_THROW(corank::cpu::scaled_segmented_scan_iterations(a.data(), scale.data(), 2,
                                                             offsets.data(), 1, -1),
               std::invalid_argument);
  EXPECT_THROW(corank::cpu::segmented_inclusive_scan(a.data(), 2, offsets.data(), 0, a.data()),
               std::invalid_argument);
  EXPECT_THROW(
      corank::cpu::segmented_inclusive_scan(a.data(), 2, (const std::int64_t*)nullptr, 1, a.data()),
      std::invalid_argument);
  EXPECT_EQ(a, (std::vector<std::uint32_t>{3, 4}));
}

}  // namespace
