// The CPU co-rank toolbox past 32-bit sizes: set operations and joins on inputs of more than 2^32
// elements (formulas, not memory: x[i] computed from i, outputs checked as they are written), the
// k-way merge past 2^31 one-byte keys (memory: skipped when the machine has too little free).
// Registered with the label "long" (tests/CMakeLists.txt): seconds each on two cores.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "corank/cpu/join.hpp"
#include "corank/cpu/multiway_merge.hpp"
#include "corank/cpu/set_operations.hpp"

namespace {

using u64 = std::uint64_t;
using corank::set_op;

/// A sorted input without memory: element i is key(i).
template <class Key>
struct formula_iterator {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = u64;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = u64;
  u64 at;
  Key key;
  u64 operator[](difference_type i) const { return key(at + u64(i)); }
  u64 operator*() const { return key(at); }
  formula_iterator operator+(difference_type i) const { return {at + u64(i), key}; }
  difference_type operator-(const formula_iterator& o) const { return difference_type(at - o.at); }
};
template <class Key>
formula_iterator<Key> formula(Key key) {
  return {0, key};
}

/// An output without memory: out[k] = v checks v against expected(k) and counts the writes, in
/// a tally per thread (no shared cache line: billions of writes).
template <class Expected>
struct checking_output {
  struct tally {
    struct alignas(64) of_thread {
      u64 writes = 0, wrong = 0, first_wrong = ~u64(0);
    };
    of_thread threads[256];
    u64 writes() const {
      u64 sum = 0;
      for (const auto& t : threads) sum += t.writes;
      return sum;
    }
    u64 wrong() const {
      u64 sum = 0;
      for (const auto& t : threads) sum += t.wrong;
      return sum;
    }
    u64 first_wrong() const {
      u64 first = ~u64(0);
      for (const auto& t : threads) first = std::min(first, t.first_wrong);
      return first;
    }
  };
  struct slot {
    const checking_output* out;
    u64 k;
    void operator=(u64 v) const {
      auto& mine = out->counts->threads[omp_get_thread_num() % 256];
      ++mine.writes;
      if (v != out->expected(k)) ++mine.wrong, mine.first_wrong = std::min(mine.first_wrong, k);
    }
  };
  u64 at;
  Expected expected;
  tally* counts;
  slot operator[](std::ptrdiff_t i) const { return {this, at + u64(i)}; }
  checking_output operator+(std::ptrdiff_t i) const { return {at + u64(i), expected, counts}; }
};

/// A's keys 0, 1, ..., ka - 1, once each; B's keys s, s + 1, ..., s + kb - 1, twice each, s < ka
/// < s + kb: keys only in A, in both, only in B. Values: A's element i is i, B's element j is
/// 2^63 + j (the output says where each element came from).
struct overlapping_inputs {
  u64 ka, s, kb;
  static constexpr u64 from_b = u64(1) << 63;

  u64 m() const { return ka; }
  u64 n() const { return 2 * kb; }
  /// Per key of each stretch, std::set_*'s outputs (at most two): (from A?, copy). A key p = 1
  /// times in A and q = 2 in B gives max(p, q), min(p, q), max(p - q, 0), |p - q| copies: the first
  /// of a pair is A's, the unpaired ones the last of the longer run.
  struct pick {
    bool a;
    u64 copy;
  };
  static std::vector<pick> per_key(set_op op, int stretch) {
    switch (stretch) {
      case 0:  // only in A
        return op == set_op::intersect ? std::vector<pick>{} : std::vector<pick>{{true, 0}};
      case 1:  // in both
        switch (op) {
          case set_op::unite:
            return {{true, 0}, {false, 1}};
          case set_op::intersect:
            return {{true, 0}};
          case set_op::difference:
            return {};
          case set_op::symmetric_difference:
            return {{false, 1}};
        }
        return {};
      default:  // only in B
        return op == set_op::unite || op == set_op::symmetric_difference
                   ? std::vector<pick>{{false, 0}, {false, 1}}
                   : std::vector<pick>{};
    }
  }
};

/// The k-th output (key, value) of the set operation, by stretch and position in it.
class expected_output {
 public:
  expected_output(overlapping_inputs in, set_op op, bool value) : in_(in), value_(value) {
    const u64 first_key[3] = {0, in.s, in.ka}, keys[3] = {in.s, in.ka - in.s, in.s + in.kb - in.ka};
    for (int stretch = 0; stretch < 3; ++stretch) {
      const auto picks = overlapping_inputs::per_key(op, stretch);
      stretch_[stretch] = {first_key[stretch], keys[stretch] * picks.size(), picks.size(), {}};
      std::copy(picks.begin(), picks.end(), stretch_[stretch].picks);
    }
  }
  u64 operator()(u64 k) const {
    for (const stretch& s : stretch_) {
      if (k >= s.outputs) {
        k -= s.outputs;
        continue;
      }
      const u64 key = s.first_key + (s.per_key == 2 ? k / 2 : k);
      const auto& p = s.picks[s.per_key == 2 ? k % 2 : 0];
      if (!value_) return key;
      return p.a ? key : overlapping_inputs::from_b | (2 * (key - in_.s) + p.copy);
    }
    return ~u64(0);  // past the end: no write may land here
  }
  u64 count() const { return stretch_[0].outputs + stretch_[1].outputs + stretch_[2].outputs; }

 private:
  struct stretch {
    u64 first_key, outputs, per_key;
    overlapping_inputs::pick picks[2];
  };
  overlapping_inputs in_;
  bool value_;
  stretch stretch_[3];
};

/// m = 2^31 + 5 keys in A, n = 2^31 + 2 in B: m + n = 2^32 + 7.
constexpr overlapping_inputs past_32_bits{(u64(1) << 31) + 5, (u64(1) << 30) + 7,
                                          (u64(1) << 30) + 1};

void check_set_operation_past_32_bits(set_op op) {
  const overlapping_inputs in = past_32_bits;
  ASSERT_GT(in.m() + in.n(), u64(1) << 32);
  const auto a = formula([](u64 i) { return i; });
  const auto b = formula([s = in.s](u64 j) { return s + j / 2; });
  const auto va = formula([](u64 i) { return i; });
  const auto vb = formula([](u64 j) { return overlapping_inputs::from_b | j; });
  const expected_output want_key{in, op, false}, want_value{in, op, true};
  auto keys = std::make_unique<checking_output<expected_output>::tally>();
  auto values = std::make_unique<checking_output<expected_output>::tally>();
  const checking_output<expected_output> out{0, want_key, keys.get()},
      vout{0, want_value, values.get()};
  const auto ends = corank::cpu::set_operation_by_key(op, a, a + std::ptrdiff_t(in.m()), va, b,
                                                      b + std::ptrdiff_t(in.n()), vb, out, vout);
  const u64 want = want_key.count();
  EXPECT_EQ(ends.first.at, want);
  EXPECT_EQ(ends.second.at, want);
  EXPECT_EQ(keys->writes(), want);
  EXPECT_EQ(keys->wrong(), 0u) << "first wrong key at " << keys->first_wrong();
  EXPECT_EQ(values->wrong(), 0u) << "first wrong value at " << values->first_wrong();
}

TEST(CpuToolbox64Bit, SetUnionPast32Bits) { check_set_operation_past_32_bits(set_op::unite); }
TEST(CpuToolbox64Bit, SetIntersectionPast32Bits) {
  check_set_operation_past_32_bits(set_op::intersect);
}
TEST(CpuToolbox64Bit, SetDifferencePast32Bits) {
  check_set_operation_past_32_bits(set_op::difference);
}
TEST(CpuToolbox64Bit, SetSymmetricDifferencePast32Bits) {
  check_set_operation_past_32_bits(set_op::symmetric_difference);
}

TEST(CpuToolbox64Bit, JoinFindsMatchesPast32Bits) {
  // B: 2^32 + 7 keys, each key twice (j / 2), the last key once; A: keys at B's start, around
  // index 2^32, and past B's end.
  const u64 n = (u64(1) << 32) + 7;
  const auto b = formula([](u64 j) { return j / 2; });
  const u64 last = (n - 1) / 2;  // B's last key, once
  const std::vector<u64> a{0, 5, (u64(1) << 31) - 1, last, last, last + 6};
  const auto no = corank::no_match;
  for (const auto kind : {corank::join_kind::inner, corank::join_kind::left_outer}) {
    const auto got = corank::cpu::join(kind, a.begin(), a.end(), b, b + std::ptrdiff_t(n));
    std::vector<std::size_t> want_a{0, 0, 1, 1, 2, 2, 3, 4},
        want_b{0, 1, 10, 11, (std::size_t(1) << 32) - 2, (std::size_t(1) << 32) - 1, n - 1, n - 1};
    if (kind == corank::join_kind::left_outer) want_a.push_back(5), want_b.push_back(no);
    EXPECT_EQ(got.a, want_a) << "kind " << int(kind);
    EXPECT_EQ(got.b, want_b) << "kind " << int(kind);
  }
}

/// MemAvailable of /proc/meminfo in bytes (0 where unknown).
u64 available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);)
    if (line.rfind("MemAvailable:", 0) == 0) return std::stoull(line.substr(13)) * 1024;  // kB
  return 0;
}

TEST(CpuToolbox64Bit, MultiwayMergePast31Bits) {
  // Five runs of one-byte keys, about 2.35 x 10^9 in all (64-bit offsets, past int32's range):
  // run r holds the keys r, r + 1 and r + 2 in blocks, the middle run the longest; the merge is
  // the keys 0 .. 6 in blocks of the counts' sums.
  const std::vector<u64> block{u64(1) << 27, (u64(3) << 25) + 3, 5};  // per run: r, r+1, r+2
  std::vector<u64> offsets{0}, per_key(7, 0);
  std::vector<u64> scale{1, 2, 4, 2, 1};  // the middle run is the long one
  for (std::size_t r = 0; r < scale.size(); ++r) {
    u64 length = 0;
    for (std::size_t v = 0; v < 3; ++v)
      length += scale[r] * block[v], per_key[r + v] += scale[r] * block[v];
    offsets.push_back(offsets.back() + length);
  }
  const u64 n = offsets.back();
  ASSERT_GT(n, u64(1) << 31);
  // Keys, output and (the tree of passes) a buffer of n bytes each, with room to spare.
  if (available_memory() < 4 * n) GTEST_SKIP() << "needs " << 4 * n << " bytes free";
  std::vector<std::uint8_t> keys(n), out(n, 0xEE);
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    u64 at = offsets[r];
    for (std::size_t v = 0; v < 3; ++v) {
      std::memset(keys.data() + at, int(r + v), scale[r] * block[v]);
      at += scale[r] * block[v];
    }
  }
  corank::cpu::multiway_merge(keys.data(), offsets.data(), scale.size(), out.data());
  u64 at = 0;
  for (std::size_t v = 0; v < per_key.size(); ++v) {
    u64 run = 0;
    while (at < n && out[at] == v) ++at, ++run;
    ASSERT_EQ(run, per_key[v]) << "key " << v << " ends at " << at;
  }
  EXPECT_EQ(at, n);
}

}  // namespace
