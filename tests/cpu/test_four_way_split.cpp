// The four-way merge's sample cuts (four_way_split.hpp, run by the GPU sort's four-way passes),
// checked on the CPU against std::stable_sort of the four runs, and the grid searches under them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "corank/four_way_split.hpp"
#include "corank/functional.hpp"
#include "support/seeded_test.hpp"

namespace {

using split = corank::four_way_split<std::size_t>;

class FourWaySplit : public corank::test::seeded_test {
 protected:
  /// Four sorted runs of the given lengths, keys in [0, distinct), consecutive in `keys`.
  template <class Compare>
  std::vector<std::uint32_t> runs(const std::array<std::size_t, 4>& lengths, std::uint32_t distinct,
                                  Compare comp) {
    std::uniform_int_distribution<std::uint32_t> key(0, distinct - 1);
    std::vector<std::uint32_t> keys;
    for (std::size_t len : lengths) {
      const auto first = keys.size();
      for (std::size_t i = 0; i < len; ++i) keys.push_back(key(rng));
      std::sort(keys.begin() + long(first), keys.end(), comp);
    }
    return keys;
  }

  /// Every sample's cut is a prefix of the stable merge of the four runs; sorted_index orders the
  /// cuts by position, 0 first; tiles of `parts` consecutive cuts stay within the bounds the GPU
  /// tile is sized by, and merging each as the GPU pass does (A with B, C with D, then the two)
  /// gives the stable merge, keys and origins.
  template <class Compare = corank::less>
  void check(const std::array<std::size_t, 4>& lengths, std::size_t stride, std::uint32_t distinct,
             Compare comp = {}) {
    SCOPED_TRACE(testing::Message()
                 << "runs " << lengths[0] << " " << lengths[1] << " " << lengths[2] << " "
                 << lengths[3] << ", stride " << stride << ", distinct " << distinct);
    const std::vector<std::uint32_t> keys = runs(lengths, distinct, comp);
    const std::size_t total = keys.size();
    const std::uint32_t* p = keys.data();
    const corank::four_runs<const std::uint32_t*, std::size_t> r{
        p,
        p + lengths[0],
        p + lengths[0] + lengths[1],
        p + lengths[0] + lengths[1] + lengths[2],
        lengths[0],
        lengths[1],
        lengths[2],
        lengths[3]};

    // Reference: positions in the stable merge, and how many of each run precede each rank.
    std::vector<std::size_t> order(total);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return comp(keys[x], keys[y]); });
    const auto run_of = [&](std::size_t pos) {
      std::size_t run = 0, start = 0;
      while (pos >= start + lengths[run]) start += lengths[run++];
      return run;
    };
    std::vector<std::array<std::size_t, 4>> taken(total + 1, {0, 0, 0, 0});
    for (std::size_t i = 0; i < total; ++i) {
      taken[i + 1] = taken[i];
      ++taken[i + 1][run_of(order[i])];
    }

    const auto grid = corank::sample_grid<std::size_t>::of(r, stride);
    std::vector<split> cuts(grid.samples(), split{total + 1, 0, 0, 0});
    for (bool cd : {false, true})
      for (std::size_t i = 0; i < grid.samples(cd); ++i) {
        const split s = corank::split_before_sample(r, stride, cd, i, comp);
        const std::size_t at = s.position();
        ASSERT_LE(at, total);
        ASSERT_EQ((std::array<std::size_t, 4>{s.a, s.b, s.c, s.d}), taken[at])
            << (cd ? "CD" : "AB") << " sample " << i << " is not a stable cut";
        ASSERT_EQ(cd ? s.c + s.d : s.a + s.b, i * stride) << "the sample is not the next element";
        const std::size_t q = corank::sorted_index(grid, cd, i, s);
        ASSERT_LT(q, cuts.size());
        ASSERT_EQ(cuts[q].a, total + 1) << "two samples at sorted index " << q;
        cuts[q] = s;
      }
    for (std::size_t q = 1; q < cuts.size(); ++q)
      ASSERT_GT(cuts[q].position(), cuts[q - 1].position()) << "cuts out of order at " << q;
    if (!cuts.empty()) {
      ASSERT_EQ(cuts[0].position(), 0u);
    }

    for (std::size_t parts : {1u, 2u, 3u, 5u}) {
      std::vector<std::uint32_t> out_keys(total, 0xDEADBEEFu);
      std::vector<std::size_t> out_origin(total, ~std::size_t(0));
      for (std::size_t q = 0; q < cuts.size(); q += parts) {
        const split s = cuts[q], e = q + parts < cuts.size() ? cuts[q + parts] : r.end();
        const std::size_t n_ab = e.a + e.b - s.a - s.b, n_cd = e.c + e.d - s.c - s.d;
        ASSERT_LE(n_ab, (parts + 1) * stride);
        ASSERT_LE(n_cd, (parts + 1) * stride);
        ASSERT_LT(n_ab + n_cd, (parts + 2) * stride);
        // Origins are positions in `keys`; A, B, C, D start at offsets 0, |A|, |AB|, |AB| + |C|.
        const auto piece = [&](std::size_t offset, std::size_t from, std::size_t to) {
          std::vector<std::pair<std::uint32_t, std::size_t>> v;
          for (std::size_t i = from; i < to; ++i) v.emplace_back(keys[offset + i], offset + i);
          return v;
        };
        const auto by_key = [&](const auto& x, const auto& y) { return comp(x.first, y.first); };
        const auto merged = [&](const auto& x, const auto& y) {
          std::vector<std::pair<std::uint32_t, std::size_t>> m;
          std::merge(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(m), by_key);
          return m;
        };
        const std::size_t ob = lengths[0], oc = ob + lengths[1], od = oc + lengths[2];
        const auto ab = merged(piece(0, s.a, e.a), piece(ob, s.b, e.b));
        const auto cd = merged(piece(oc, s.c, e.c), piece(od, s.d, e.d));
        const auto all = merged(ab, cd);
        for (std::size_t i = 0; i < all.size(); ++i)
          out_keys[s.position() + i] = all[i].first, out_origin[s.position() + i] = all[i].second;
      }
      for (std::size_t i = 0; i < total; ++i) {
        ASSERT_EQ(out_origin[i], order[i]) << "merged tile differs at " << i << ", parts " << parts;
        ASSERT_EQ(out_keys[i], keys[order[i]]);
      }
    }
  }
};

TEST_F(FourWaySplit, GridSearchesMatchLowerAndUpperBound) {
  std::uniform_int_distribution<std::size_t> len(0, 300);
  for (int round = 0; round < 200; ++round) {
    const std::uint32_t distinct = round % 2 ? 8 : 1000;
    const auto x = runs({len(rng), 0, 0, 0}, distinct, corank::less{});
    const auto y = runs({len(rng), 0, 0, 0}, distinct, corank::less{});
    for (std::uint32_t key = 0; key <= 1001; key += round % 2 ? 1 : 37) {
      const auto lower =
          corank::ranks_on_grid<false>(x.data(), x.size(), y.data(), y.size(), key, corank::less{});
      const auto upper =
          corank::ranks_on_grid<true>(x.data(), x.size(), y.data(), y.size(), key, corank::less{});
      ASSERT_EQ(lower.x, std::size_t(std::lower_bound(x.begin(), x.end(), key) - x.begin()));
      ASSERT_EQ(lower.y, std::size_t(std::lower_bound(y.begin(), y.end(), key) - y.begin()));
      ASSERT_EQ(upper.x, std::size_t(std::upper_bound(x.begin(), x.end(), key) - x.begin()));
      ASSERT_EQ(upper.y, std::size_t(std::upper_bound(y.begin(), y.end(), key) - y.begin()));
    }
  }
}

TEST_F(FourWaySplit, EdgeShapes) {
  for (std::size_t stride : {1u, 2u, 3u, 8u}) {
    check({1, 0, 0, 0}, stride, 4);
    check({5, 5, 0, 0}, stride, 4);      // the last pass of a sort: two runs
    check({5, 5, 3, 0}, stride, 4);      // three runs
    check({8, 8, 8, 2}, stride, 1);      // all keys equal: order is A, B, C, D
    check({0, 7, 0, 9}, stride, 3);      // empty A and C
    check({16, 16, 16, 16}, stride, 2);  // strides dividing the runs, and not
  }
}

TEST_F(FourWaySplit, RandomRunsAndStrides) {
  std::uniform_int_distribution<std::size_t> len(0, 200), stride(1, 70);
  for (int round = 0; round < 300; ++round)
    check({len(rng), len(rng), len(rng), len(rng)}, stride(rng),
          round % 3 == 0   ? 4u
          : round % 3 == 1 ? 100u
                           : 1u << 30);
}

/// The cut searches through grid samples (grid_sampled_ptr) find the same cuts as on the keys,
/// and read the keys nowhere on the grid: there the array holds poison, the samples the keys.
TEST_F(FourWaySplit, SearchesThroughGridSamplesFindTheSameCuts) {
  constexpr unsigned every = 8;
  std::uniform_int_distribution<std::size_t> len(0, 120), stride(1, 40);
  for (int round = 0; round < 200; ++round) {
    const std::array<std::size_t, 4> lengths{len(rng), len(rng), len(rng), len(rng)};
    const std::vector<std::uint32_t> keys = runs(lengths, round % 2 ? 5u : 1000u, corank::less{});
    std::vector<std::uint32_t> samples(2 * ((keys.size() + every - 1) / every), 0u),
        poisoned = keys;
    for (std::size_t q = 0; q < keys.size(); ++q)
      if (q % every == 0 || q % every == every - 1) {
        samples[2 * (q / every) + (q % every != 0)] = keys[q];
        poisoned[q] = 0xFFFFFFFFu;
      }
    const corank::grid_sampled_ptr<std::uint32_t, every> all{poisoned.data(), samples.data(), 0};
    for (std::size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(all[i], keys[i]) << i;
    for (std::size_t i = 0; i + 3 < keys.size(); ++i) ASSERT_EQ((all + 3)[i], keys[i + 3]) << i;

    std::size_t start[5] = {0};
    for (int r = 0; r < 4; ++r) start[r + 1] = start[r] + lengths[r];
    const std::uint32_t* p = keys.data();
    const corank::four_runs<const std::uint32_t*, std::size_t> plain{
        p + start[0], p + start[1], p + start[2], p + start[3],
        lengths[0],   lengths[1],   lengths[2],   lengths[3]};
    const corank::four_runs<corank::grid_sampled_ptr<std::uint32_t, every>, std::size_t> sampled{
        all + start[0], all + start[1], all + start[2], all + start[3],
        lengths[0],     lengths[1],     lengths[2],     lengths[3]};
    const std::size_t s = round % 3 ? stride(rng) : every * (1 + round % 4);
    const auto grid = corank::sample_grid<std::size_t>::of(plain, s);
    for (bool cd : {false, true})
      for (std::size_t k = 0; k < grid.samples(cd); ++k) {
        const split want = corank::split_before_sample(plain, s, cd, k, corank::less{});
        const split got = corank::split_before_sample(sampled, s, cd, k, corank::less{});
        ASSERT_EQ(got.a, want.a);
        ASSERT_EQ(got.b, want.b);
        ASSERT_EQ(got.c, want.c);
        ASSERT_EQ(got.d, want.d);
      }
  }
}

TEST_F(FourWaySplit, CustomComparator) {
  std::uniform_int_distribution<std::size_t> len(0, 100), stride(1, 20);
  for (int round = 0; round < 50; ++round)
    check({len(rng), len(rng), len(rng), len(rng)}, stride(rng), 10, std::greater<>{});
}

}  // namespace
