// Fresh random inputs on every run, reproducible on failure.
//
// The run seed comes from CORANK_TEST_SEED when set, else from std::random_device. Each test draws
// from its own generator seeded by the run seed and the test's name, and every failure message
// carries the seed, so `CORANK_TEST_SEED=<seed> ./test --gtest_filter=<test>` replays it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>

namespace corank::test {

inline std::uint64_t run_seed() {
  static const std::uint64_t seed = []() -> std::uint64_t {
    if (const char* env = std::getenv("CORANK_TEST_SEED")) return std::strtoull(env, nullptr, 0);
    std::random_device rd;
    return (std::uint64_t(rd()) << 32) ^ rd();
  }();
  return seed;
}

inline std::string seed_message() { return "CORANK_TEST_SEED=" + std::to_string(run_seed()); }

inline std::uint64_t test_seed() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name =
      info ? std::string(info->test_suite_name()) + "." + info->name() : std::string();
  return run_seed() ^ std::hash<std::string>{}(name);
}

/// Fixture base: `rng` is fresh per run; failures name the seed.
class seeded_test : public ::testing::Test {
 protected:
  ::testing::ScopedTrace trace_{__FILE__, __LINE__, seed_message()};
  std::mt19937_64 rng{test_seed()};
};

}  // namespace corank::test
