// The CPU segmented scans against the sequential reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>
#include <vector>

#include "corank/cpu/segmented_scan.hpp"
#include "corank/functional.hpp"
#include "support/seeded_test.hpp"
#include "support/segmented_scan_reference.hpp"

namespace {

using corank::test::offsets_with_heads;
using corank::test::random_offsets;
using corank::test::random_values;
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
  static corank::cpu::options parallel(int threads) {
    corank::cpu::options opt;
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

TEST_F(CpuSegmentedScan, HeadsAtThreadSliceEdgesPlusMinusOne) {
  // With 2, 3 and 7 threads over n = 420 the slices end at multiples of 60, 140 and 210.
  const std::size_t n = 420;
  for (long delta : {-1L, 0L, 1L}) {
    std::vector<std::size_t> heads;
    for (std::size_t edge : {60, 120, 140, 180, 210, 240, 280, 300, 360})
      heads.push_back(static_cast<std::size_t>(static_cast<long>(edge) + delta));
    std::sort(heads.begin(), heads.end());
    check_exact(random_values<std::int64_t>(rng, n, -9, 9), offsets_with_heads(n, heads));
  }
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

}  // namespace
