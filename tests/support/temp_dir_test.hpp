// Fixture base for tests that write files: a fresh folder per test, removed after it.
#pragma once

#include <filesystem>
#include <string>

#include "support/seeded_test.hpp"

namespace corank::test {

class temp_dir_test : public seeded_test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("corank_test_" + std::to_string(rng()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

}  // namespace corank::test
