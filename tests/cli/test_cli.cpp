// The corank CLI end to end: good runs produce the right files, bad inputs give a clear error,
// a non-zero exit code, and leave no output (or temporary) file behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_fixture.hpp"
#include "corank/cuda/tuning/segmented_scan.cuh"
#include "support/io/array_file.hpp"
#include "support/merge_reference.hpp"

using corank::test::Cli;
using corank::test::result;
using corank::test::run_cli;
namespace fs = std::filesystem;

namespace {

TEST_F(Cli, MergesBinaryFiles) {
  const auto a = corank::test::sorted_keys<std::uint32_t>(rng, 100000, 1000);
  const auto b = corank::test::sorted_keys<std::uint32_t>(rng, 70001, 1000);
  write("a.bin", a);
  write("b.bin", b);
  const result r = run_cli("merge " + path("a.bin") + " " + path("b.bin") + " -o " + path("c.bin") +
                           " --backend cpu");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::uint32_t> want(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
  EXPECT_EQ(corank::io::read_array<std::uint32_t>(path("c.bin"), corank::io::file_format::binary),
            want);
}

TEST_F(Cli, MergesTextFilesOfEachType) {
  write_text("a.txt", "-3\n0\n5\n");
  write_text("b.txt", "-4\n\n1\n5\n");
  for (const char* type : {"i32", "i64", "f32", "f64"}) {
    const result r = run_cli(std::string("merge ") + path("a.txt") + " " + path("b.txt") + " -o " +
                             path("c.txt") + " --format text --backend cpu --type " + type);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(path("c.txt"));
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(all, "-4\n-3\n0\n1\n5\n5\n") << type;
  }
}

TEST_F(Cli, GenThenMergeOneSided) {
  ASSERT_EQ(run_cli("gen -n 5000 --dist high --seed 3 -o " + path("a.bin")).exit_code, 0);
  ASSERT_EQ(run_cli("gen -n 4000 --dist low --seed 4 -o " + path("b.bin")).exit_code, 0);
  ASSERT_EQ(run_cli("merge " + path("a.bin") + " " + path("b.bin") + " -o " + path("c.bin") +
                    " --backend cpu")
                .exit_code,
            0);
  const auto c =
      corank::io::read_array<std::uint32_t>(path("c.bin"), corank::io::file_format::binary);
  const auto b =
      corank::io::read_array<std::uint32_t>(path("b.bin"), corank::io::file_format::binary);
  ASSERT_EQ(c.size(), 9000u);
  EXPECT_TRUE(std::is_sorted(c.begin(), c.end()));
  EXPECT_TRUE(std::equal(b.begin(), b.end(), c.begin()));  // all of B precedes A
}

TEST_F(Cli, RefusesAnUnsortedInputNamingFileAndIndex) {
  write("a.bin", std::vector<std::uint32_t>{1, 2, 3, 2, 5});
  write("b.bin", std::vector<std::uint32_t>{1, 2});
  expect_failure("merge " + path("b.bin") + " " + path("a.bin") + " -o " + path("c.bin"),
                 "a.bin' is not sorted: element 3");
}

TEST_F(Cli, RefusesAMissingFile) {
  write("a.bin", std::vector<std::uint32_t>{1});
  expect_failure("merge " + path("a.bin") + " " + path("nope.bin") + " -o " + path("c.bin"),
                 "cannot open '" + path("nope.bin") + "'");
}

TEST_F(Cli, RefusesASizeThatIsNotAMultipleOfTheElementSize) {
  write("a.bin", std::vector<std::uint8_t>{1, 2, 3, 4, 5, 6});
  write("b.bin", std::vector<std::uint32_t>{1});
  expect_failure(
      "merge " + path("a.bin") + " " + path("b.bin") + " -o " + path("c.bin") + " --type u64",
      "not a multiple of the element size 8");
}

TEST_F(Cli, RefusesNaNKeys) {
  write("a.bin", std::vector<std::uint32_t>{0x7fc00000u, 1});
  write("b.bin", std::vector<float>{1.0f});
  expect_failure(
      "merge " + path("a.bin") + " " + path("b.bin") + " -o " + path("c.bin") + " --type f32",
      "element 0 is NaN");
}

TEST_F(Cli, RefusesMalformedText) {
  write_text("a.txt", "1\n2\nthree\n");
  write_text("b.txt", "1\n");
  expect_failure(
      "merge " + path("a.txt") + " " + path("b.txt") + " -o " + path("c.txt") + " --format text",
      "a.txt':3: 'three' is not a number");
  write_text("n.txt", "1\n-2\n");
  expect_failure("merge " + path("n.txt") + " " + path("b.txt") + " -o " + path("c.txt") +
                     " --format text --type u32",
                 "n.txt':2: '-2' is not a number");
}

TEST_F(Cli, RefusesAnUnknownType) {
  write("a.bin", std::vector<std::uint32_t>{1});
  expect_failure(
      "merge " + path("a.bin") + " " + path("a.bin") + " -o " + path("c.bin") + " --type u7",
      "unknown type 'u7'");
}

TEST_F(Cli, AFailedRunKeepsTheExistingOutput) {
  write("a.bin", std::vector<std::uint32_t>{3, 1});
  write("b.bin", std::vector<std::uint32_t>{1});
  write_text("c.bin", "precious");
  expect_failure("merge " + path("a.bin") + " " + path("b.bin") + " -o " + path("c.bin"),
                 "not sorted");
  std::ifstream in(path("c.bin"));
  std::string kept;
  in >> kept;
  EXPECT_EQ(kept, "precious");
}

TEST_F(Cli, InfoNamesTheBackends) {
  const result r = run_cli("info");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("cpu backend"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cuda backend"), std::string::npos) << r.output;
}

TEST_F(Cli, BenchMergeCpuPrintsTheTableAndWritesJsonAndCsv) {
  const result r = run_cli("bench merge --backend cpu --quiet --sizes 1K,3000 --threads 2 --json " +
                           path("m.json") + " --csv " + path("m.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* name : {"memcpy", "std::merge", "__gnu_parallel::merge", "corank::cpu::merge"})
    EXPECT_NE(r.output.find(name), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("WRONG"), std::string::npos) << r.output;
  std::ifstream json(path("m.json")), csv(path("m.csv"));
  std::string first_line;
  std::getline(csv, first_line);
  EXPECT_EQ(first_line.rfind("experiment,group,contender", 0), 0u);
  std::string text((std::istreambuf_iterator<char>(json)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"speedup\""), std::string::npos);
}

TEST_F(Cli, BenchAllOnTheCpuWritesOneJsonDocumentOfEveryCpuExperiment) {
  const result r = run_cli(
      "bench all --backend cpu --quick --quiet --sizes 1K,2K --matrices jonheart "
      "--threads 2 --json " +
      path("all.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream json(path("all.json"));
  const std::string text((std::istreambuf_iterator<char>(json)), std::istreambuf_iterator<char>());
  for (const char* key : {"\"machine\"", "\"gpu\"", "\"versions\"", "\"copy_bandwidth\"",
                          "\"experiments\"", "\"cpu merge\"", "\"cpu sort\"", "\"cpu spmv-scan\"",
                          "\"cpu toolbox\"", "\"median_ms\"", "\"min_ms\"", "\"max_ms\""})
    EXPECT_NE(text.find(key), std::string::npos) << key << " missing in " << text.substr(0, 400);
  EXPECT_NE(text.find("skipped (cpu backend)"), std::string::npos);
  EXPECT_EQ(r.output.find("WRONG"), std::string::npos) << r.output;
}

TEST_F(Cli, SortsABinaryFile) {
  std::vector<std::int64_t> keys(100003);
  for (auto& k : keys) k = std::int64_t(rng() % 2000) - 1000;
  write("in.bin", keys);
  const result r = run_cli("sort " + path("in.bin") + " -o " + path("out.bin") +
                           " --type i64 --backend cpu --algo merge");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(corank::io::read_array<std::int64_t>(path("out.bin"), corank::io::file_format::binary),
            keys);
}

TEST_F(Cli, SortRefusesBitonicOnTheCpu) {
  write("in.bin", std::vector<std::uint32_t>{3, 1, 2});
  expect_failure(
      "sort " + path("in.bin") + " -o " + path("out.bin") + " --backend cpu --algo bitonic",
      "GPU only");
}

TEST_F(Cli, SortRefusesAMissingFile) {
  expect_failure("sort " + path("nothing.bin") + " -o " + path("out.bin") + " --backend cpu",
                 "nothing.bin");
}

TEST_F(Cli, BenchSortCpuChecksEveryOutput) {
  const result r = run_cli("bench sort --backend cpu --quiet --sizes 1K,5000 --threads 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("corank::cpu::stable_sort"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("WRONG"), std::string::npos) << r.output;
}

TEST_F(Cli, BenchToolboxCpuChecksEveryOutput) {
  // Sizes 1 (empty runs of the k-way merge, one segment) and 5000, at least 5 runs each.
  const result r =
      run_cli("bench toolbox --backend cpu --quiet --sizes 1,5000 --threads 2 --min-runs 5");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* name :
       {"corank::cpu::sorted_lower_bound", "corank::cpu::lower_bound", "corank::cpu::set_union",
        "corank::cpu::set_intersection", "corank::cpu::set_difference",
        "corank::cpu::set_symmetric_difference", "corank::cpu::join",
        "corank::cpu::load_balancing_search", "corank::cpu::multiway_merge"})
    EXPECT_NE(r.output.find(name), std::string::npos) << name << " missing in " << r.output;
  EXPECT_EQ(r.output.find("WRONG"), std::string::npos) << r.output;
}

TEST_F(Cli, TuneMergeWithoutAGpuFailsClearly) {
  if (run_cli("info").output.find("gpu         : none") == std::string::npos)
    GTEST_SKIP() << "a GPU is present: the sweep would run";
  expect_failure("tune merge --sizes 1K --save " + path("out.tuning"), "needs a CUDA GPU");
}

TEST_F(Cli, TuneMergeRefusesAnUnknownKernel) {
  expect_failure("tune merge --kernels tiled,fastest", "unknown kernel 'fastest'");
}

TEST_F(Cli, MergeRefusesAMalformedTuningFile) {
  write("a.bin", std::vector<std::uint32_t>{1, 3});
  write("b.bin", std::vector<std::uint32_t>{2});
  write_text("bad.tuning", "corank-merge-tuning 1\nautomatic up_to=1000 threads=100\n");
  expect_failure("merge " + path("a.bin") + " " + path("b.bin") + " -o " + path("c.bin") +
                     " --tuning " + path("bad.tuning"),
                 "bad.tuning:2: threads must be a multiple of 32");
  expect_failure("merge " + path("a.bin") + " " + path("b.bin") + " -o " + path("c.bin") +
                     " --tuning " + path("missing.tuning"),
                 "missing.tuning: cannot open the tuning file");
}

TEST_F(Cli, BenchRefusesABadSize) {
  expect_failure("bench merge --backend cpu --sizes 10X", "bad size");
}

TEST_F(Cli, SpmvScanRunsTheIterationOnAGeneratedMatrix) {
  ASSERT_EQ(run_cli("gen matrix --like jonheart -o " + path("j.mtx")).exit_code, 0);
  const result r = run_cli("spmv-scan --matrix " + path("j.mtx") + " --iters 3 --backend cpu");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("running time for 3 iterations:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("relative error vs CPU double reference (L2 norm"), std::string::npos)
      << r.output;
}

TEST_F(Cli, SpmvScanNamesTheBadLineOfAMatrix) {
  write_text("bad.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 5 1\n");
  expect_failure("spmv-scan --matrix " + path("bad.mtx"), "bad.mtx':3: column index 5");
  expect_failure("gen matrix --like nosuch -o " + path("x.mtx"), "unknown matrix 'nosuch'");
}

TEST_F(Cli, SpmvScanRefusesAnUnsupportedStepsPerPass) {
  ASSERT_EQ(run_cli("gen matrix --like jonheart -o " + path("j.mtx")).exit_code, 0);
  const int most = corank::cuda::tuning::segmented_scan_iteration::most_steps_per_pass;
  for (const std::string& bad : {std::to_string(most + 1), std::string("-1")})
    expect_failure("spmv-scan --matrix " + path("j.mtx") + " --steps-per-pass " + bad,
                   "--steps-per-pass must be 0 (tuned) to " + std::to_string(most));
}

}  // namespace

// --- the co-rank toolbox's commands (issue 22) --------------------------------------------------

namespace {
std::string text_of(const std::string& file) {
  std::ifstream in(file);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
}  // namespace

TEST_F(Cli, SetOperationsAreStdSetOperationsOnFiles) {
  write_text("a.txt", "1\n3\n3\n5\n7\n");
  write_text("b.txt", "3\n4\n5\n5\n");
  const std::pair<const char*, const char*> want[] = {{"union", "1\n3\n3\n4\n5\n5\n7\n"},
                                                      {"intersection", "3\n5\n"},
                                                      {"difference", "1\n3\n7\n"},
                                                      {"symmetric-difference", "1\n3\n4\n5\n7\n"}};
  for (const auto& [op, expected] : want) {
    const result r = run_cli(std::string("set ") + op + " " + path("a.txt") + " " + path("b.txt") +
                             " -o " + path("c.txt") + " --format text --type i32 --backend cpu");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(text_of(path("c.txt")), expected) << op;
  }
  const result r = run_cli("set union " + path("b.txt") + " " + path("a.txt") + " -o " +
                           path("c.txt") + " --format text --type u32 --backend cpu");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  write_text("unsorted.txt", "5\n0\n");
  const result bad = run_cli("set intersection " + path("a.txt") + " " + path("unsorted.txt") +
                             " -o " + path("c.txt") + " --format text --backend cpu");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.output.find("unsorted.txt' is not sorted: element 1"), std::string::npos)
      << bad.output;
}

TEST_F(Cli, SearchGivesLowerAndUpperBoundsOfSortedAndUnsortedNeedles) {
  write_text("hay.txt", "1\n3\n3\n5\n7\n");
  write_text("sorted.txt", "0\n3\n5\n8\n");
  write_text("unsorted.txt", "5\n0\n3\n8\n");
  const auto search = [&](const std::string& needles, const std::string& flags) {
    const result r = run_cli("search " + path("hay.txt") + " " + path(needles) + " -o " +
                             path("i.txt") + " --format text --type i32 --backend cpu " + flags);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return text_of(path("i.txt"));
  };
  EXPECT_EQ(search("sorted.txt", ""), "0\n1\n3\n5\n");
  EXPECT_EQ(search("sorted.txt", "--upper"), "0\n3\n4\n5\n");
  EXPECT_EQ(search("unsorted.txt", ""), "3\n0\n1\n5\n");
  EXPECT_EQ(search("unsorted.txt", "--upper"), "4\n0\n3\n5\n");
}

TEST_F(Cli, MergesMoreThanTwoInputsStablyInOneKWayMerge) {
  std::vector<std::uint32_t> all;
  std::string inputs;
  for (int r = 0; r < 5; ++r) {
    const auto run = corank::test::sorted_keys<std::uint32_t>(rng, 20000 + 17 * r, 500);
    write("r" + std::to_string(r) + ".bin", run);
    inputs += path("r" + std::to_string(r) + ".bin") + " ";
    all.insert(all.end(), run.begin(), run.end());
  }
  const result r = run_cli("merge " + inputs + "-o " + path("m.bin") + " --backend cpu");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::sort(all.begin(), all.end());
  EXPECT_EQ(corank::io::read_array<std::uint32_t>(path("m.bin"), corank::io::file_format::binary),
            all);
  const result one = run_cli("merge " + path("r0.bin") + " -o " + path("m.bin"));
  EXPECT_NE(one.exit_code, 0);
}

TEST_F(Cli, JoinWritesTheIndexPairsOfEqualKeys) {
  write_text("a.txt", "1\n3\n3\n5\n");
  write_text("b.txt", "0\n3\n3\n4\n");
  const std::string none = "18446744073709551615\n";
  const std::pair<const char*, std::string> want[] = {
      {"inner", "1\n1\n1\n2\n2\n1\n2\n2\n"},
      {"left", "0\n" + none + "1\n1\n1\n2\n2\n1\n2\n2\n3\n" + none},
      {"full", "0\n" + none + "1\n1\n1\n2\n2\n1\n2\n2\n3\n" + none + none + "0\n" + none + "3\n"}};
  for (const auto& [kind, expected] : want) {
    const result r =
        run_cli(std::string("join ") + kind + " " + path("a.txt") + " " + path("b.txt") + " -o " +
                path("p.txt") + " --format text --type i32 --backend cpu");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(text_of(path("p.txt")), expected) << kind;
  }
}
