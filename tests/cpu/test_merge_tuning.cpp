// The GPU merge's tuning file (corank/cuda/tuning/merge_table.hpp): host-only, so it is tested
// without a GPU. Malformed files give an error naming the source and the line.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>

#include "corank/cuda/tuning/merge_table.hpp"

namespace {

using corank::cuda::merge_algorithm;
using corank::cuda::merge_scheme;
using corank::cuda::merge_tuning;
using corank::cuda::parse_merge_tuning;

merge_tuning parse(const std::string& text) {
  std::istringstream in(text);
  return parse_merge_tuning(in, "t.tuning");
}

/// The message of the error parsing `text` throws ("" when it parses).
std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const std::string header = "corank-merge-tuning 1\n";

TEST(MergeTuningFile, ReadsEntriesAndFindsTheOneForASize) {
  const merge_tuning t = parse(header +
                               "# comment line\n"
                               "\n"
                               "automatic up_to=max scheme=partitioned threads=256  # trailing\n"
                               "automatic up_to=2000000 scheme=single_launch blocks=528\n"
                               "tiled up_to=1000 threads=128 tile=512 blocks=0\n");
  ASSERT_EQ(t.entries().size(), 3u);
  const auto* small = t.find(merge_algorithm::automatic, 2000000);
  ASSERT_NE(small, nullptr);
  EXPECT_EQ(small->scheme, merge_scheme::single_launch);
  EXPECT_EQ(small->blocks, 528u);
  const auto* large = t.find(merge_algorithm::automatic, 2000001);
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(large->scheme, merge_scheme::partitioned);
  EXPECT_EQ(large->threads, 256u);
  // Above every entry: the largest one; a kernel without entries: none.
  EXPECT_EQ(t.find(merge_algorithm::tiled, 5000)->tile_items, 512u);
  EXPECT_EQ(t.find(merge_algorithm::circular, 5), nullptr);
}

TEST(MergeTuningFile, WhatIsWrittenReadsBack) {
  const merge_tuning t({{merge_algorithm::automatic, 123, merge_scheme::single_launch, 0, 7, 0},
                        {merge_algorithm::automatic, std::numeric_limits<std::size_t>::max(),
                         merge_scheme::partitioned, 128, 0, 0},
                        {merge_algorithm::circular, 99, merge_scheme::by_size, 64, 5, 2048}});
  std::ostringstream out;
  write_merge_tuning(out, t, "device: test\nsecond line");
  const merge_tuning back = parse(out.str());
  ASSERT_EQ(back.entries().size(), t.entries().size()) << out.str();
  for (std::size_t i = 0; i < t.entries().size(); ++i) {
    const auto &x = t.entries()[i], &y = back.entries()[i];
    EXPECT_EQ(x.algorithm, y.algorithm);
    EXPECT_EQ(x.up_to, y.up_to);
    EXPECT_EQ(x.scheme, y.scheme);
    EXPECT_EQ(x.threads, y.threads);
    EXPECT_EQ(x.blocks, y.blocks);
    EXPECT_EQ(x.tile_items, y.tile_items);
  }
}

TEST(MergeTuningFile, MalformedFilesNameTheLineAndTheProblem) {
  EXPECT_NE(error_of("").find("t.tuning:0: empty file"), std::string::npos) << error_of("");
  EXPECT_NE(error_of("automatic up_to=1\n").find("t.tuning:1: not a corank merge tuning file"),
            std::string::npos);
  const auto line2 = [&](const std::string& entry, const std::string& expected) {
    const std::string e = error_of(header + entry + "\n");
    EXPECT_NE(e.find("t.tuning:2: " + expected), std::string::npos) << entry << " -> " << e;
  };
  line2("fastest up_to=1", "unknown kernel 'fastest'");
  line2("automatic threads=256", "missing up_to");
  line2("automatic up_to=12x", "'up_to' needs a non-negative integer, not '12x'");
  line2("automatic up_to=-1", "'up_to' needs a non-negative integer");
  line2("automatic up_to=99999999999999999999999", "'up_to' is too large");
  line2("automatic up_to=1 threads=100", "threads must be a multiple of 32");
  line2("automatic up_to=1 threads=2048", "threads must be a multiple of 32");
  line2("automatic up_to=1 blocks=5000000000", "'blocks' is too large");
  line2("automatic up_to=1 scheme=fast", "scheme must be single_launch or partitioned");
  line2("tiled up_to=1 scheme=partitioned", "scheme applies to automatic only");
  line2("automatic up_to=1 colour=blue", "unknown key 'colour'");
  line2("automatic up_to=1 threads", "expected key=value, got 'threads'");
  EXPECT_NE(error_of(header + "tiled up_to=5\ntiled up_to=5 tile=8\n").find("two tiled entries"),
            std::string::npos);
}

TEST(MergeTuningFile, AMissingFileIsAClearError) {
  try {
    corank::cuda::load_merge_tuning("/nonexistent/dir/x.tuning");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.tuning: cannot open"),
              std::string::npos);
  }
}

}  // namespace
