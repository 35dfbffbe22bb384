// The CPU segmented scans against the sequential reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
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
#if defined(_OPENMP)
#include <omp.h>
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

/// The iteration in place, with a floor of work per thread (0: as many threads as opt asks for).
template <class T, class Op = std::plus<>>
void iterate(std::vector<T>& a, const std::vector<T>& scale,
             const std::vector<std::int64_t>& offsets, long long iterations,
             const corank::cpu::segmented_scan_options& opt, Op op = {},
             std::size_t min_work_per_thread = 0) {
  corank::cpu::detail::scaled_segmented_scan_iterations(a.data(), scale.data(), a.size(),
                                                        offsets.data(), offsets.size() - 1,
                                                        iterations, op, opt, min_work_per_thread);
}

/// How the iteration would run those (no floor of work per thread).
template <class T>
corank::cpu::detail::iteration_plan plan_on_every_thread(
    const std::vector<std::int64_t>& offsets, long long iterations,
    const corank::cpu::segmented_scan_options& opt) {
  return corank::cpu::detail::plan_iteration<T>(std::size_t(offsets.back()), offsets.data(),
                                                offsets.size() - 1, iterations, opt, 0);
}

/// The sequential loop, as the iteration runs it (subnormal results flushed to zero).
template <class T, class Op = std::plus<>>
std::vector<T> sequential_loop(const std::vector<T>& a, const std::vector<T>& scale,
                               const std::vector<std::int64_t>& offsets, long long iterations,
                               Op op = {}) {
  [[maybe_unused]] const corank::cpu::detail::flush_subnormals in_this_thread;
  return reference_scaled_iterations<T>(a, scale, offsets, iterations, op);
}

/// Whether two float arrays hold the same bits (NaNs included); the first index that differs.
std::size_t first_different_bits(const std::vector<float>& x, const std::vector<float>& y) {
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::memcmp(&x[i], &y[i], sizeof(float)) != 0) return i;
  return x.size() == y.size() ? x.size() : std::min(x.size(), y.size());
}

/// `iterations` steps of a = scan(a * scale) at once (scaled_segmented_scan_iterations, with no
/// floor of work per thread unless given) against the reference applied step by step. u32 sums wrap
/// modulo 2^32 on both sides, so the check is exact.
template <class Op = std::plus<>>
void check_iterations(std::mt19937_64& rng, const std::vector<std::int64_t>& offsets,
                      long long iterations, const corank::cpu::segmented_scan_options& opt,
                      Op op = {}, std::size_t min_work_per_thread = 0) {
  using u32 = std::uint32_t;
  const std::size_t n = static_cast<std::size_t>(offsets.back()), p = offsets.size() - 1;
  SCOPED_TRACE("n=" + std::to_string(n) + " segments=" + std::to_string(p) + " iterations=" +
               std::to_string(iterations) + " threads=" + std::to_string(opt.threads) +
               " steps_per_pass=" + std::to_string(opt.steps_per_pass));
  const auto a = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto scale = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto want = reference_scaled_iterations<u32>(a, scale, offsets, iterations, op);
  std::vector<u32> got = a;
  iterate(got, scale, offsets, iterations, opt, op, min_work_per_thread);
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

// Segments longer than a thread's share: slices without any head, segments spanning everything
// (one thread; pipelined pieces; each step a scan of its own), with empty segments.
TEST_F(CpuSegmentedScan, ScaledIterationsCarryAcrossSlices) {
  check_iterations(rng, random_offsets(rng, 2000000, 1000.0), 18, parallel(7));
  check_iterations(rng, {0, 300000}, 20, parallel(1));
  check_iterations(rng, {0, 300000}, 200, parallel(4));
  check_iterations(rng, {0, 300000}, 20, parallel(16));
  check_iterations(rng, random_offsets(rng, 100000, 1.0, 0.3), 17, parallel(3));
  check_iterations(rng, random_offsets(rng, 100000, 40.0), 17, parallel(3), max_op{});
}

// A segment cut into pieces is pipelined while the last piece starts soon enough, measured in
// sweeps; with too few sweeps for the pipeline to fill, each step is a scan of its own. Exact both
// ways.
TEST_F(CpuSegmentedScan, ScaledIterationsScanEachStepWhenThePipelineCannotFill) {
  const std::vector<std::int64_t> one_segment{0, 300000};
  for (int threads : {4, 16})
    for (long long iterations : {16LL, 400LL}) {
      const auto plan =
          plan_on_every_thread<std::uint32_t>(one_segment, iterations, parallel(threads));
      EXPECT_EQ(plan.per_step, iterations == 16) << threads << " threads, " << iterations;
      check_iterations(rng, one_segment, iterations, parallel(threads));
    }
}

// The slowest path through the slices: a slice alone; pieces joined inside a segment, their
// largest for every sweep and one more for each piece after the first.
TEST_F(CpuSegmentedScan, LongestPathCountsThePipelinesFill) {
  corank::cpu::detail::iteration_slices s;
  const std::size_t none = corank::cpu::detail::no_handoff;
  s.cuts = {0, 10, 40, 50, 60, 70, 70};  // 10, [30 | 10 | 10 | 10] joined, 0
  s.handoff = {none, none, 0, 1, 2, none, none};
  s.handoffs = 3;
  EXPECT_DOUBLE_EQ(corank::cpu::detail::longest_path_items(s, 1), 30.0 * 4);
  EXPECT_DOUBLE_EQ(corank::cpu::detail::longest_path_items(s, 3), 30.0 * 6 / 3);
  s.handoff = {none, none, none, none, none, none, none};
  s.handoffs = 0;
  EXPECT_DOUBLE_EQ(corank::cpu::detail::longest_path_items(s, 5), 30.0);
}

// Heads on the threads' even shares and one element either side (slices of at least
// iteration_min_slice_items), many steps per sweep and a shorter last sweep.
TEST_F(CpuSegmentedScan, ScaledIterationsWithHeadsAtSliceEdgesPlusMinusOne) {
  const std::size_t scale = corank::cpu::tuning::iteration_min_slice_items;
  for (long delta : {-1L, 0L, 1L})
    for (int threads : {2, 3, 7})
      check_iterations(rng, heads_at_slice_edges(delta, scale), 37, parallel(threads));
}

// The slices: at heads (or n), or anywhere inside a segment longer than the long-segment length,
// in order, covering [0, n), the largest as small as any such cut into that many slices (against
// every cut, by dynamic programming), with empty segments, segments longer than a share, and more
// slices than segments; the handoffs numbered, in order, at the cuts inside segments alone.
TEST_F(CpuSegmentedScan, IterationCutsAreTheBestCutsAtHeadsAndInsideLongSegments) {
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng() % 60;
    const std::vector<std::int64_t> offsets = random_offsets(rng, n, 1.0 + double(rng() % 8), 0.2);
    const std::size_t p = offsets.size() - 1;
    // Where a slice may end: the heads (and n), and inside segments longer than long_items.
    for (std::size_t long_items : {n, std::size_t(rng() % 8), std::size_t(0)}) {
      std::vector<bool> may_cut(n + 1, false);
      for (std::size_t r = 0; r < p; ++r) {
        const auto head = std::size_t(offsets[r]), end = std::size_t(offsets[r + 1]);
        may_cut[head] = true;
        if (end - head > long_items)
          for (std::size_t j = head + 1; j < end; ++j) may_cut[j] = true;
      }
      may_cut[n] = true;
      for (std::size_t slices = 1; slices <= 9; ++slices) {
        SCOPED_TRACE("n=" + std::to_string(n) + " segments=" + std::to_string(p) +
                     " slices=" + std::to_string(slices) + " long=" + std::to_string(long_items));
        const auto s =
            corank::cpu::detail::iteration_cuts(offsets.data(), p, n, slices, long_items);
        ASSERT_EQ(s.cuts.size(), slices + 1);
        ASSERT_EQ(s.cuts.front(), 0u);
        ASSERT_EQ(s.cuts.back(), n);
        std::size_t handoffs = 0;
        for (std::size_t u = 0; u + 1 < s.cuts.size(); ++u) ASSERT_LE(s.cuts[u], s.cuts[u + 1]);
        for (std::size_t u = 0; u < s.cuts.size(); ++u) {
          const std::size_t c = s.cuts[u];
          ASSERT_TRUE(may_cut[c]) << c << " is no head and not inside a long segment";
          const bool at_head =
              std::find(offsets.begin(), offsets.end(), std::int64_t(c)) != offsets.end();
          ASSERT_EQ(s.handoff[u], at_head ? corank::cpu::detail::no_handoff : handoffs++) << u;
        }
        ASSERT_EQ(s.handoffs, handoffs);
        // best[k][i]: the least largest slice cutting [0, i) into k slices at allowed places.
        const std::size_t none = std::numeric_limits<std::size_t>::max();
        std::vector<std::vector<std::size_t>> best(slices + 1,
                                                   std::vector<std::size_t>(n + 1, none));
        best[0][0] = 0;
        for (std::size_t k = 1; k <= slices; ++k)
          for (std::size_t i = 0; i <= n; ++i)
            if (may_cut[i])
              for (std::size_t j = 0; j <= i; ++j)
                if (may_cut[j] && best[k - 1][j] != none)
                  best[k][i] = std::min(best[k][i], std::max(best[k - 1][j], i - j));
        ASSERT_EQ(corank::cpu::detail::largest_slice(s), best[slices][n]);
      }
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

// With the default options and floor of work per thread (all cores, one thread below
// sequential_below elements x a pass's steps): sizes around that threshold, one iteration and many.
TEST_F(CpuSegmentedScan, ScaledIterationsWithDefaultOptions) {
  const std::size_t edge = corank::cpu::segmented_scan_options{}.sequential_below;
  for (std::size_t n : {edge - 1, edge, edge + 1, 3 * edge + 7})
    for (long long iterations : {1LL, 17LL, 200LL})
      check_iterations(rng, random_offsets(rng, n, 12.0), iterations, {}, std::plus<>{},
                       corank::cpu::tuning::iteration_min_work_per_thread);
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

/// Offsets over n elements: segments of the given lengths, the first at 0 and (more than one) the
/// last ending at n, evenly apart among short ones (mean 8), with two empty segments on each side
/// of each.
std::vector<std::int64_t> long_segments_among_short(std::mt19937_64& rng, std::size_t n,
                                                    const std::vector<std::size_t>& lengths) {
  std::size_t long_total = 0;
  for (const std::size_t l : lengths) long_total += l;
  const std::size_t gap = lengths.size() > 1 ? (n - long_total) / (lengths.size() - 1) : 0;
  std::vector<std::int64_t> offsets{0};
  std::size_t pos = 0;
  const auto end_at = [&](std::size_t end) {
    offsets.push_back(std::int64_t(end));
    pos = end;
  };
  const auto short_ones_to = [&](std::size_t end) {
    for (const auto o : random_offsets(rng, end - pos, 8.0))
      if (o > 0) offsets.push_back(std::int64_t(pos) + o);
    pos = end;
  };
  for (std::size_t k = 0; k < lengths.size(); ++k) {
    if (k > 0) short_ones_to(k + 1 == lengths.size() ? n - lengths[k] : pos + gap);
    end_at(pos), end_at(pos);  // empty
    end_at(pos + lengths[k]);
    end_at(pos), end_at(pos);  // empty
  }
  if (pos < n) short_ones_to(n);
  return offsets;
}

/// x in [-1, 1) scaled by 1.5 / sqrt(its segment's length): running sums of a segment stay within
/// a few orders of magnitude over tens of steps, so float results are neither all zero nor
/// infinite.
std::vector<float> damped_scale(std::mt19937_64& rng, const std::vector<std::int64_t>& offsets) {
  std::vector<float> scale = random_values<float>(rng, std::size_t(offsets.back()), -1.0, 1.0);
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r)
    for (auto l = std::size_t(offsets[r]); l < std::size_t(offsets[r + 1]); ++l)
      scale[l] *= float(1.5 / std::sqrt(double(offsets[r + 1] - offsets[r])));
  return scale;
}

// Segments longer than every slice are cut into pieces that hand their running values on, step by
// step: the results equal the sequential loop's bit for bit in float, on 1 to 64 threads (more
// than cores), with a long segment first and last, empty segments around each, and a shorter last
// sweep (37 steps).
TEST_F(CpuSegmentedScan, PipelinedLongSegmentsEqualTheSequentialLoopBitForBit) {
  const std::size_t n = 40000;
  for (int threads = 1; threads <= 64; ++threads) {
    const std::size_t share = (n + std::size_t(threads) - 1) / std::size_t(threads);
    std::vector<std::size_t> lengths{threads > 1 ? share + 1 : n / 2};            // the first
    if (threads >= 4) lengths.insert(lengths.end(), {share / 2, 2 * share + 3});  // the last
    const auto offsets = long_segments_among_short(rng, n, lengths);
    const auto a0 = random_values<float>(rng, n, -1.0, 1.0);
    const auto scale = damped_scale(rng, offsets);
    const long long iterations = 37;
    const auto plan = plan_on_every_thread<float>(offsets, iterations, parallel(threads));
    SCOPED_TRACE("threads=" + std::to_string(threads) +
                 " pieces joined=" + std::to_string(plan.slices.handoffs));
    ASSERT_FALSE(plan.per_step);
    if (threads > 1) {
      ASSERT_GT(plan.slices.handoffs, 0u);
    }
    for (std::size_t u = 0; u < plan.slices.count(); ++u)
      ASSERT_LE(plan.slices.size(u), share) << "slice " << u;
    const auto want = sequential_loop(a0, scale, offsets, iterations);
    std::size_t finite_nonzero = 0;
    for (const float v : want) finite_nonzero += std::isfinite(v) && v != 0;
    ASSERT_GT(finite_nonzero, n / 2);  // the comparison means something
    std::vector<float> got = a0;
    iterate(got, scale, offsets, iterations, parallel(threads));
    const std::size_t i = first_different_bits(got, want);
    ASSERT_EQ(i, n) << got[i] << " against " << want[i];
  }
}

// Pieces of one element, every one joined to the next (the longest chains of handoffs), on 1 to
// 64 threads, with sweeps of 16 steps and of 3.
TEST_F(CpuSegmentedScan, PipelinedPiecesOfOneElement) {
  const std::size_t n = 600;
  const auto offsets = long_segments_among_short(rng, n, {300, 150});
  const std::size_t p = offsets.size() - 1;
  const auto a0 = random_values<float>(rng, n, -1.0, 1.0);
  const auto scale = damped_scale(rng, offsets);
  for (int per_pass : {16, 3}) {
    const long long iterations = 40;
    const auto want = sequential_loop(a0, scale, offsets, iterations);
    for (int threads = 1; threads <= 64; ++threads) {
      SCOPED_TRACE("threads=" + std::to_string(threads) +
                   " steps per pass=" + std::to_string(per_pass));
      corank::cpu::detail::iteration_plan plan;
      plan.threads = threads;
      plan.per_pass = per_pass;
      plan.slices = corank::cpu::detail::iteration_cuts(offsets.data(), p, n, n, 0);
      ASSERT_EQ(corank::cpu::detail::largest_slice(plan.slices), 1u);
      plan.batch = corank::cpu::detail::batch_steps<float>(plan.slices, iterations, per_pass);
      std::vector<float> got = a0;
      corank::plus op;
      corank::cpu::detail::iterate_slices(got.data(), scale.data(), plan, offsets.data(), p,
                                          iterations, op);
      const std::size_t i = first_different_bits(got, want);
      ASSERT_EQ(i, n) << got[i] << " against " << want[i];
    }
  }
}

// One segment holding every element, pipelined through all its pieces on 1 to 64 threads: enough
// sweeps that the blocked form takes it.
TEST_F(CpuSegmentedScan, PipelinedSingleSegment) {
  using u32 = std::uint32_t;
  const std::size_t n = 20000;
  const std::vector<std::int64_t> offsets{0, std::int64_t(n)};
  const long long iterations = 704;
  const auto a0 = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto scale = random_values<u32>(rng, n, 0, 4294967295.0);
  const auto want = reference_scaled_iterations<u32>(a0, scale, offsets, iterations, std::plus<>{});
  for (int threads = 1; threads <= 64; ++threads) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    const auto plan = plan_on_every_thread<u32>(offsets, iterations, parallel(threads));
    ASSERT_FALSE(plan.per_step);
    ASSERT_EQ(plan.slices.handoffs, threads > 1 ? plan.slices.count() - 1 : 0);
    std::vector<u32> got = a0;
    iterate(got, scale, offsets, iterations, parallel(threads));
    ASSERT_EQ(got, want);
  }
}

// Where the running values that pieces hand on would outgrow tuning::iteration_handoff_bytes, the
// iterations run in batches of whole passes, a parallel region each: still exact.
TEST_F(CpuSegmentedScan, PipelinedIterationsInBatches) {
  using u64 = std::uint64_t;
  const std::vector<std::int64_t> offsets{0, 7, 40000};
  const long long iterations = 1100;
  const auto plan = plan_on_every_thread<u64>(offsets, iterations, parallel(16));
  ASSERT_FALSE(plan.per_step);
  ASSERT_LT(plan.batch, iterations);
  ASSERT_EQ(plan.batch % plan.per_pass, 0);
  ASSERT_LE(plan.slices.handoffs * std::size_t(plan.batch) * sizeof(u64),
            corank::cpu::tuning::iteration_handoff_bytes);
  const auto a = random_values<u64>(rng, 40000, 0, 1e18);
  const auto scale = random_values<u64>(rng, 40000, 0, 1e18);
  std::vector<u64> got = a;
  iterate(got, scale, offsets, iterations, parallel(16));
  ASSERT_EQ(got, reference_scaled_iterations<u64>(a, scale, offsets, iterations, std::plus<>{}));
}

// A team smaller than asked for: called inside a parallel region (one thread), or with OpenMP
// free to give fewer threads (dynamic adjustment), pieces still come in an order that never waits
// on one no thread has taken.
TEST_F(CpuSegmentedScan, PipelinedPiecesWithFewerThreadsThanAskedFor) {
  const std::size_t n = 50000;
  const auto offsets = long_segments_among_short(rng, n, {20000, 9000, 5000});
  const auto a0 = random_values<float>(rng, n, -1.0, 1.0);
  const auto scale = damped_scale(rng, offsets);
  const auto want = sequential_loop(a0, scale, offsets, 50);
  ASSERT_GT(plan_on_every_thread<float>(offsets, 50, parallel(32)).slices.handoffs, 0u);
  std::vector<std::vector<float>> got(2, a0);
#pragma omp parallel num_threads(2)
  {
#pragma omp for
    for (int c = 0; c < 2; ++c) iterate(got[std::size_t(c)], scale, offsets, 50, parallel(32));
  }
  EXPECT_EQ(first_different_bits(got[0], want), n);
  EXPECT_EQ(first_different_bits(got[1], want), n);
#if defined(_OPENMP)
  const int dynamic = omp_get_dynamic();
  omp_set_dynamic(1);
  for (int threads : {8, 64}) {
    std::vector<float> g = a0;
    iterate(g, scale, offsets, 50, parallel(threads));
    EXPECT_EQ(first_different_bits(g, want), n) << threads;
  }
  omp_set_dynamic(dynamic);
#endif
}

// An exception thrown by op inside a piece reaches the caller, and the pieces waiting on it stop
// waiting.
TEST_F(CpuSegmentedScan, PipelinedPiecesStopWaitingWhenOneThrows) {
  const std::size_t n = 40000;
  const std::vector<std::int64_t> offsets{0, std::int64_t(n)};
  const auto scale = random_values<std::uint32_t>(rng, n, 0, 1000);
  for (int threads : {2, 8, 24}) {
    std::atomic<long long> calls{0};
    const long long throw_at = 1 + std::int64_t(rng() % (n * 50));
    const auto op = [&](std::uint32_t x, std::uint32_t y) {
      if (calls.fetch_add(1, std::memory_order_relaxed) == throw_at) throw std::runtime_error("op");
      return x + y;
    };
    std::vector<std::uint32_t> a(n, 1);
    ASSERT_FALSE(plan_on_every_thread<std::uint32_t>(offsets, 200, parallel(threads)).per_step);
    EXPECT_THROW(iterate(a, scale, offsets, 200, parallel(threads), op), std::runtime_error)
        << threads << " threads, throwing at call " << throw_at;
  }
}

// The threads: at most one per min_work_per_thread of elements x a pass's steps, never more than
// asked for; no floor with 0.
TEST_F(CpuSegmentedScan, IterationThreadsKeepAFloorOfWorkPerThread) {
  using corank::cpu::detail::iteration_threads;
  const auto opt = parallel(16);
  EXPECT_EQ(iteration_threads(1, opt, 0), 16);
  EXPECT_EQ(iteration_threads(1000, opt, 1000), 1);
  EXPECT_EQ(iteration_threads(1001, opt, 1000), 2);
  EXPECT_EQ(iteration_threads(7500, opt, 1000), 8);
  EXPECT_EQ(iteration_threads(std::size_t(1) << 40, opt, 1000), 16);
  // Through the plan: 2449 elements x 16 steps, as the smallest matrix of the study at 200
  // iterations.
  const std::vector<std::int64_t> offsets = random_offsets(rng, 2449, 20.0);
  for (std::size_t floor :
       {std::size_t(0), std::size_t(2048), std::size_t(8192), std::size_t(32768)}) {
    const auto plan = corank::cpu::detail::plan_iteration<float>(
        2449, offsets.data(), offsets.size() - 1, 200, opt, floor);
    const std::size_t by_floor = floor ? (2449 * 16 + floor - 1) / floor : 16;
    EXPECT_EQ(std::size_t(plan.threads), std::min<std::size_t>({16, by_floor, 2449 / 128}))
        << floor;
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
