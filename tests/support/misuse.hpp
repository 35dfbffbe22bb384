// Support for the misuse tests (the library under violated preconditions): a watchdog for calls
// that used to hang (a regression must fail the test, not stall CI), a comparator that is no
// strict weak order, and a permutation check that NaN does not confuse.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <future>
#include <thread>
#include <utility>
#include <vector>

#include "corank/config.hpp"

namespace corank::test {

/// How long a call may take before finishes_within declares it hung: generous, for a loaded
/// 2-core machine and sanitizer builds.
inline constexpr std::chrono::seconds hang_limit{60};

/// Runs f() on another thread and waits for it; an exception it throws is rethrown here. If it has
/// not returned within `limit`, the whole test binary ends at once with a failure (a thread that
/// never returns cannot be stopped, and its arguments live on this stack).
template <class F>
void finishes_within(std::chrono::seconds limit, F&& f, const char* what = "the call") {
  std::promise<void> done;
  std::future<void> finished = done.get_future();
  std::thread worker([&] {
    try {
      f();
      done.set_value();
    } catch (...) {
      done.set_exception(std::current_exception());
    }
  });
  if (finished.wait_for(limit) == std::future_status::timeout) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::fprintf(stderr, "%s.%s: %s did not return within %lld s (a hang)\n",
                 info ? info->test_suite_name() : "?", info ? info->name() : "?", what,
                 static_cast<long long>(limit.count()));
    std::fflush(stderr);
    std::_Exit(EXIT_FAILURE);
  }
  worker.join();
  finished.get();
}

/// Not a strict weak order: a pseudo-random answer for each pair of keys (deterministic, so
/// threads may share it; host and device).
struct coin_less {
  CORANK_HD bool operator()(std::uint32_t x, std::uint32_t y) const {
    std::uint64_t h = (std::uint64_t(x) << 32 | y) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return (h * 0xBF58476D1CE4E5B9ull) >> 63;
  }
};

/// The elements' bit patterns, sorted: equal for two arrays iff one is a permutation of the other
/// (NaN included).
template <class T>
std::vector<std::uint64_t> bit_multiset(const std::vector<T>& v) {
  static_assert(sizeof(T) <= sizeof(std::uint64_t), "keys of up to 8 bytes");
  std::vector<std::uint64_t> bits(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v[i], sizeof(T));
    bits[i] = b;
  }
  std::sort(bits.begin(), bits.end());
  return bits;
}

}  // namespace corank::test
