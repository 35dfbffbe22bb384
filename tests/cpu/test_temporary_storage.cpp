// The library's cache of the CPU algorithms' temporary storage (cpu/memory.hpp): blocks reused
// across calls of different sizes and types, host threads calling at once, the limit and the
// release call. Every result is checked against std::stable_sort / std::sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <thread>
#include <vector>

#include "corank/cpu/memory.hpp"
#include "corank/cpu/multiway_merge.hpp"
#include "corank/cpu/sort.hpp"
#include "support/seeded_test.hpp"

namespace {

namespace cpu = corank::cpu;

class CpuTemporaryStorage : public corank::test::seeded_test {
 protected:
  void SetUp() override {
    saved_limit_ = cpu::cache_limit();
    cpu::set_cache_limit(std::size_t(1) << 30);
    cpu::release_cached_memory();
  }
  void TearDown() override {
    cpu::set_cache_limit(saved_limit_);
    cpu::release_cached_memory();
  }

  template <class T>
  std::vector<T> random_keys(std::size_t n, std::uint64_t range) {
    std::vector<T> keys(n);
    for (T& k : keys) k = T(rng() % range);
    return keys;
  }

  /// stable_sort_by_key (values: original positions) and stable_sort of `keys` on `threads`
  /// threads, checked against std::stable_sort.
  template <class T>
  void sort_and_check(const std::vector<T>& keys, int threads) {
    cpu::sort_options opt;
    opt.threads = threads;
    std::vector<std::uint32_t> want(keys.size());
    std::iota(want.begin(), want.end(), 0u);
    std::stable_sort(want.begin(), want.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
    std::vector<T> got = keys;
    std::vector<std::uint32_t> pos(keys.size());
    std::iota(pos.begin(), pos.end(), 0u);
    cpu::stable_sort_by_key(got.begin(), got.end(), pos.begin(), corank::less{}, opt);
    ASSERT_EQ(pos, want) << "n=" << keys.size() << " sizeof=" << sizeof(T);
    std::vector<T> only = keys;
    cpu::stable_sort(only.begin(), only.end(), corank::less{}, opt);
    std::vector<T> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(only, sorted) << "n=" << keys.size() << " sizeof=" << sizeof(T);
  }

 private:
  std::size_t saved_limit_ = 0;
};

TEST_F(CpuTemporaryStorage, SecondCallOfTheSameSizeReusesTheCachedBlocks) {
  const auto keys = random_keys<std::uint32_t>(400'000, 1000);
  sort_and_check(keys, 2);
  const std::size_t after_first = cpu::cached_memory_bytes();
  EXPECT_GE(after_first, keys.size() * sizeof(std::uint32_t)) << "the sort's buffer is kept";
  sort_and_check(keys, 2);
  // A block taken anew rather than reused would be kept beside the first: more bytes.
  EXPECT_EQ(cpu::cached_memory_bytes(), after_first);
}

TEST_F(CpuTemporaryStorage, CallsOfOtherSizesAndTypesShareTheCache) {
  // Larger calls grow the cache (replacing blocks too small), smaller ones and other item types
  // take what is there: the kept bytes do not grow on a call that needs no more blocks, nor
  // larger ones, than one before. First the most blocks: the by-key sort of 32-bit keys takes
  // three (its pairs, their buffer, the tagged order), 12 MB each.
  sort_and_check(random_keys<std::uint32_t>(1'500'000, ~0u), 2);
  const std::size_t largest = cpu::cached_memory_bytes();
  EXPECT_GT(largest, 0u);
  sort_and_check(random_keys<std::uint64_t>(700'000, ~0ull), 2);
  sort_and_check(random_keys<std::uint32_t>(500'000, 50), 2);
  sort_and_check(random_keys<std::uint16_t>(900'000, 65536), 1);
  sort_and_check(random_keys<std::int64_t>(300'000, 1u << 20), 2);
  EXPECT_EQ(cpu::cached_memory_bytes(), largest);

  // The k-way merge's buffer (several passes) comes from the same cache.
  const std::size_t n = 600'000, runs = 300;
  std::vector<std::uint64_t> keys = random_keys<std::uint64_t>(n, ~0ull), out(n);
  std::vector<std::uint32_t> offsets(runs + 1);
  for (std::size_t r = 0; r <= runs; ++r) offsets[r] = std::uint32_t(r * n / runs);
  for (std::size_t r = 0; r < runs; ++r)
    std::sort(keys.begin() + offsets[r], keys.begin() + offsets[r + 1]);
  cpu::multiway_options opt;
  opt.threads = 2;
  opt.one_pass_most_runs = 1;  // passes of at most most_runs_per_pass: through the buffer
  opt.most_runs_per_pass = 4;
  cpu::multiway_merge(keys.data(), offsets.data(), runs, out.data(), corank::less{}, opt);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(out, keys);
  EXPECT_EQ(cpu::cached_memory_bytes(), largest);

  // A larger call grows it.
  sort_and_check(random_keys<std::uint64_t>(2'000'000, ~0ull), 2);
  EXPECT_GT(cpu::cached_memory_bytes(), largest);
}

TEST_F(CpuTemporaryStorage, HostThreadsCallingAtOnceEachGetTheirOwnStorage) {
  // Eight host threads, each sorting inputs of its own sizes and types on two threads: a block
  // shared by two calls would mix their items and fail the checks.
  std::vector<std::thread> callers;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t)
    callers.emplace_back([&, t] {
      std::mt19937_64 gen(corank::test::test_seed() + std::uint64_t(t));
      for (int call = 0; call < 4; ++call) {
        const std::size_t n = 200'000 + gen() % 400'000;
        std::vector<std::uint64_t> keys(n);
        for (auto& k : keys) k = gen() % (t % 2 ? 100 : ~0ull);
        std::vector<std::uint32_t> pos(n), want(n);
        std::iota(pos.begin(), pos.end(), 0u);
        std::iota(want.begin(), want.end(), 0u);
        std::stable_sort(want.begin(), want.end(),
                         [&](std::uint32_t x, std::uint32_t y) { return keys[x] < keys[y]; });
        std::vector<std::uint64_t> got = keys;
        cpu::sort_options opt;
        opt.threads = 2;
        if (t % 3 == 0) {
          std::vector<std::uint32_t> small(got.begin(), got.end());  // 32-bit keys too
          cpu::stable_sort_by_key(small.begin(), small.end(), pos.begin(), corank::less{}, opt);
        } else {
          cpu::stable_sort_by_key(got.begin(), got.end(), pos.begin(), corank::less{}, opt);
        }
        if (t % 3 != 0 && pos != want) ++failures[std::size_t(t)];
        if (t % 3 == 0)  // ties among the truncated keys differ: check order and stability
          for (std::size_t i = 1; i < n; ++i) {
            const auto a = std::uint32_t(keys[pos[i - 1]]), b = std::uint32_t(keys[pos[i]]);
            if (a > b || (a == b && pos[i - 1] > pos[i])) {
              ++failures[std::size_t(t)];
              break;
            }
          }
      }
    });
  for (auto& c : callers) c.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(failures[std::size_t(t)], 0) << "host thread " << t;
  EXPECT_LE(cpu::cached_memory_bytes(), cpu::cache_limit());
}

TEST_F(CpuTemporaryStorage, ReleaseGivesEveryFreeBlockBack) {
  sort_and_check(random_keys<std::uint32_t>(600'000, ~0u), 2);
  EXPECT_GT(cpu::cached_memory_bytes(), 0u);
  cpu::release_cached_memory();
  EXPECT_EQ(cpu::cached_memory_bytes(), 0u);
  sort_and_check(random_keys<std::uint32_t>(600'000, ~0u), 2);  // and it fills again
  EXPECT_GT(cpu::cached_memory_bytes(), 0u);
}

TEST_F(CpuTemporaryStorage, TheLimitBoundsWhatIsKept) {
  sort_and_check(random_keys<std::uint64_t>(800'000, ~0ull), 2);
  const std::size_t kept = cpu::cached_memory_bytes();
  ASSERT_GT(kept, 0u);
  cpu::set_cache_limit(kept / 2);  // gives blocks back now
  EXPECT_LE(cpu::cached_memory_bytes(), kept / 2);
  EXPECT_EQ(cpu::cache_limit(), kept / 2);
  cpu::set_cache_limit(0);  // every call allocates and frees
  EXPECT_EQ(cpu::cached_memory_bytes(), 0u);
  sort_and_check(random_keys<std::uint64_t>(800'000, ~0ull), 2);
  EXPECT_EQ(cpu::cached_memory_bytes(), 0u);
  // Many blocks of growing sizes: never more than the limit, nor more than most_cached_blocks.
  cpu::set_cache_limit(std::size_t(24) << 20);
  for (std::size_t n = 300'000; n <= 1'500'000; n += 300'000) {
    sort_and_check(random_keys<std::uint32_t>(n, ~0u), 2);
    EXPECT_LE(cpu::cached_memory_bytes(), std::size_t(24) << 20) << n;
  }
}

TEST_F(CpuTemporaryStorage, CallsBelowTheCachedSizeLeaveItAlone) {
  sort_and_check(random_keys<std::uint32_t>(50'000, ~0u), 2);  // 200 KB buffers: malloc's
  EXPECT_EQ(cpu::cached_memory_bytes(), 0u);
}

}  // namespace
