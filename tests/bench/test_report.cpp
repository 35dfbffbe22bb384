// The benchmark report model: which rows speed-ups and copy fractions are taken against, and the
// shape of the JSON document every `corank bench` writes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "bench/report.hpp"

namespace {

using corank::bench::report;
using corank::bench::role;
using corank::bench::row;

row make_row(std::string group, std::string contender, role kind, std::size_t size,
             double median_ms, std::string backend = "gpu") {
  row r;
  r.group = std::move(group);
  r.contender = std::move(contender);
  r.backend = std::move(backend);
  r.kind = kind;
  r.size = r.items = size;
  r.bytes = 8 * size;
  r.time = {median_ms, median_ms * 0.9, median_ms * 1.2, 5};
  return r;
}

TEST(BenchReport, SpeedUpIsAgainstTheBaselineOfTheSameGroupAndSize) {
  report rep("merge");
  rep.add(make_row("keys", "cub", role::baseline, 100, 2.0));
  rep.add(make_row("pairs", "cub", role::baseline, 100, 8.0));
  rep.add(make_row("keys", "ours", role::contender, 100, 1.0));
  rep.add(make_row("pairs", "ours", role::contender, 100, 4.0));
  rep.add(make_row("keys", "ours", role::contender, 200, 1.0));
  EXPECT_DOUBLE_EQ(*rep.speedup(rep.rows()[2]), 2.0);
  EXPECT_DOUBLE_EQ(*rep.speedup(rep.rows()[3]), 2.0);
  EXPECT_FALSE(rep.speedup(rep.rows()[4]).has_value()) << "no baseline at that size";
}

TEST(BenchReport, CopyFractionUsesTheSameSizeElseTheLargestCopyOfThatBackend) {
  report rep("scan");
  rep.add(make_row("", "copy", role::copy, 100, 1.0));
  rep.add(make_row("", "copy", role::copy, 1000, 5.0));  // 1.6 GB/s, the larger copy
  rep.add(make_row("a", "ours", role::contender, 100, 2.0));
  rep.add(make_row("a", "ours", role::contender, 50, 0.5));
  rep.add(make_row("a", "ours", role::contender, 50, 0.5, "cpu"));
  EXPECT_DOUBLE_EQ(*rep.copy_fraction(rep.rows()[2]), 0.5);
  EXPECT_NEAR(*rep.copy_fraction(rep.rows()[3]), (400.0 / 0.5) / (8000.0 / 5.0), 1e-12);
  EXPECT_FALSE(rep.copy_fraction(rep.rows()[4]).has_value()) << "no copy on the CPU";
}

TEST(BenchReport, IterationsMultiplyTheWorkOfOneTimedRun) {
  report rep("spmv");
  row r = make_row("cant", "ours", role::contender, 1000, 2.0);
  r.iterations = 50;
  rep.add(r);
  EXPECT_DOUBLE_EQ(rep.gb_per_s(rep.rows()[0]), 8000.0 * 50 / 2e-3 / 1e9);
  EXPECT_DOUBLE_EQ(rep.elements_per_s(rep.rows()[0]), 1000.0 * 50 / 2e-3);
  std::ostringstream table;
  rep.print_table(table);
  EXPECT_NE(table.str().find("ms/iter"), std::string::npos) << table.str();
}

TEST(BenchReport, JsonDocumentHoldsMachineVersionsCopyBandwidthAndEveryRow) {
  report merge("merge"), sort("sort");
  merge.add(make_row("keys", "copy", role::copy, 100, 1.0));
  merge.add(make_row("keys", "ours", role::contender, 100, 2.0));
  sort.add(make_row("", "std::sort", role::baseline, 10, 3.0, "cpu"));
  const auto path = std::filesystem::temp_directory_path() /
                    ("corank_report_" + std::to_string(getpid()) + ".json");
  corank::bench::write_json(path.string(), {merge, sort}, {{"command", "test"}});
  std::ifstream in(path);
  const auto doc = nlohmann::json::parse(in);
  std::filesystem::remove(path);
  for (const char* key :
       {"schema", "run", "machine", "gpu", "versions", "copy_bandwidth", "experiments"})
    EXPECT_TRUE(doc.contains(key)) << key;
  EXPECT_EQ(doc["run"]["command"], "test");
  EXPECT_GT(doc["machine"]["cores"].get<int>(), 0);
  EXPECT_FALSE(doc["versions"]["corank"].get<std::string>().empty());
  EXPECT_DOUBLE_EQ(doc["copy_bandwidth"]["gpu"]["gb_per_s"].get<double>(), 800.0 / 1e-3 / 1e9);
  ASSERT_EQ(doc["experiments"].size(), 2u);
  const auto& r = doc["experiments"][0]["rows"][1];
  EXPECT_EQ(r["contender"], "ours");
  EXPECT_EQ(r["group"], "keys");
  for (const char* key : {"median_ms", "min_ms", "max_ms", "runs", "gb_per_s", "copy_fraction",
                          "speedup", "verified", "iterations", "bytes"})
    EXPECT_TRUE(r.contains(key)) << key;
  EXPECT_DOUBLE_EQ(r["copy_fraction"].get<double>(), 0.5);
  EXPECT_TRUE(doc["experiments"][1]["rows"][0]["copy_fraction"].is_null());
}

}  // namespace
