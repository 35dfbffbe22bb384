// Inputs and options of the corank CLI under misuse: Matrix Market headers that ask for more than
// the file holds, duplicates, values beyond f32, compressed matrices and pipes, text given as
// binary, malformed text, negative and zero counts, and the options that say what a run does.
#include <unistd.h>
#include <zlib.h>

#include <regex>

#include "cli/cli_fixture.hpp"
#include "support/io/array_file.hpp"

namespace {

using namespace corank::test;  // Cli, run_cli, run_shell, result

const std::string mm_real = "%%MatrixMarket matrix coordinate real general\n";

/// Runs corank under a 2 GB address-space limit; false when this build cannot run under one
/// (AddressSanitizer reserves terabytes of address space).
bool run_limited(const std::string& args, result& r) {
  const std::string limit = "ulimit -v 2000000; ";
  if (run_shell(limit + CORANK_CLI + " --version >/dev/null 2>&1").exit_code != 0) return false;
  r = run_shell(limit + CORANK_CLI + " " + args + " 2>&1");
  return true;
}

TEST_F(Cli, AMatrixHeaderCannotDemandMemoryItsFileDoesNotHold) {
  write_text("wide.mtx", mm_real + "1 2147483647 1\n1 2147483647 2\n");
  result r;
  if (!run_limited("spmv-scan --backend cpu --matrix " + path("wide.mtx"), r))
    GTEST_SKIP() << "this build cannot run under ulimit -v";
  EXPECT_EQ(r.exit_code, 0) << "x is drawn for the used column only: " << r.output;
  write_text("tall.mtx", mm_real + "2147483647 2147483647 1\n1 1 2\n");
  ASSERT_TRUE(run_limited("spmv-scan --backend cpu --matrix " + path("tall.mtx"), r));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("out of memory: the "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tall.mtx' (2147483647 x 2147483647, 1 entries) need 17.2 GB"),
            std::string::npos)
      << r.output;
  write_text("huge.mtx", mm_real + "3000000000 1 0\n");
  expect_failure("spmv-scan --matrix " + path("huge.mtx"),
                 "huge.mtx':2: dimensions 3000000000 x 1 exceed the limit of 2147483647");
}

TEST_F(Cli, AHugeCountIsRefusedBeforeAnyWork) {
  expect_failure("gen -n 1000T -o " + path("a.bin"), "out of memory: 1000000000000000 u32 keys");
}

TEST_F(Cli, SpmvScanSumsDuplicatesAndSaysSo) {
  write_text("dup.mtx", mm_real + "2 2 4\n1 1 1\n1 2 2\n1 1 3\n2 2 4\n");
  const result r = run_cli("spmv-scan --backend cpu --matrix " + path("dup.mtx"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("2 x 2, 3 non-zeros"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 duplicate entries were summed"), std::string::npos) << r.output;
  const result help = run_cli("spmv-scan --help");
  EXPECT_NE(help.output.find("duplicate entries are summed"), std::string::npos) << help.output;
}

TEST_F(Cli, SpmvScanNamesAValueBeyondF32AndReadsTinyOnesAsZero) {
  write_text("big.mtx", mm_real + "2 2 2\n1 1 1\n2 2 1e299\n");
  expect_failure("spmv-scan --backend cpu --matrix " + path("big.mtx"),
                 "big.mtx':4: value '1e299' is beyond the f32 range");
  write_text("tiny.mtx", mm_real + "2 2 2\n1 1 1\n2 2 1e-400\n");
  const result r = run_cli("spmv-scan --backend cpu --matrix " + path("tiny.mtx"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

/// `text` gzip-compressed into the test folder.
void write_gzip(const std::string& file, const std::string& text) {
  gzFile f = gzopen(file.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, text.data(), unsigned(text.size())), int(text.size()));
  ASSERT_EQ(gzclose(f), Z_OK);
}

TEST_F(Cli, ReadsCompressedMatricesAndPipes) {
  const std::string text = mm_real + "3 3 3\n1 1 1\n2 2 2\n3 1 3\n";
  write_gzip(path("m.mtx.gz"), text);
  result r = run_cli("spmv-scan --backend cpu --matrix " + path("m.mtx.gz"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("3 x 3, 3 non-zeros"), std::string::npos) << r.output;
  r = run_shell("cat " + path("m.mtx.gz") + " | " + CORANK_CLI +
                " spmv-scan --backend cpu --matrix /dev/stdin 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("3 x 3, 3 non-zeros"), std::string::npos) << r.output;
  // A truncated download: zlib's word, with the file's name.
  const std::string whole = read_file("m.mtx.gz");
  write_text("cut.mtx.gz", whole.substr(0, whole.size() / 2));
  expect_failure("spmv-scan --matrix " + path("cut.mtx.gz"), "cut.mtx.gz'");
  // Binary keys from a pipe.
  write("keys.bin", std::vector<std::uint32_t>{3, 1, 2});
  r = run_shell("cat " + path("keys.bin") + " | " + CORANK_CLI + " sort /dev/stdin -o " +
                path("out.bin") + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(corank::io::read_array<std::uint32_t>(path("out.bin"), corank::io::file_format::binary),
            (std::vector<std::uint32_t>{1, 2, 3}));
}

TEST_F(Cli, ReadsTheSharedRealMatrices) {
  const fs::path shared = fs::path(CORANK_SOURCE_DIR) / ".." / "shared" / "data" / "matrices";
  if (!fs::exists(shared / "lund_a.mtx.gz")) GTEST_SKIP() << "no " << shared;
  // name, rows, nnz of the full matrix (MANIFEST.tsv)
  for (const auto& [name, rows, nnz] : {std::tuple<std::string, int, int>{"lund_a", 147, 2449},
                                        {"bcspwr10", 5300, 21842},
                                        {"utm300", 300, 3155}}) {
    const result r = run_cli("spmv-scan --backend cpu --iters 2 --matrix " +
                             (shared / (name + ".mtx.gz")).string());
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.output;
    EXPECT_NE(r.output.find(std::to_string(rows) + " x " + std::to_string(rows) + ", " +
                            std::to_string(nnz) + " non-zeros"),
              std::string::npos)
        << r.output;
  }
}

TEST_F(Cli, RefusesTextGivenAsBinary) {
  write_text("keys.txt", "10\n20\n30\n40\n5\n6\n");  // 16 bytes: four u32 by accident
  expect_failure("sort " + path("keys.txt") + " -o " + path("out.bin"),
                 "keys.txt' looks like text (numbers on lines), not raw binary u32 keys: use "
                 "--format text");
}

TEST_F(Cli, TextErrorsShowTheLineShortAndNameFileAndLine) {
  write_text("long.txt", "1\n" + std::string(100000, '7') + "\n");
  const result r = run_cli("sort " + path("long.txt") + " -f text -o " + path("out.txt"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("long.txt':2: '777"), std::string::npos) << r.output.substr(0, 300);
  EXPECT_LT(r.output.size(), 300u) << "the offending line is cut short";
  write_text("signs.txt", "1\n+-5\n");
  expect_failure("sort " + path("signs.txt") + " -f text -t i32 -o " + path("out.txt"),
                 "signs.txt':2: '+-5' is not a number of type i32");
  write_text("nan.txt", "1\n\n2\nnan\n");
  expect_failure("sort " + path("nan.txt") + " -f text -t f64 -o " + path("out.txt"),
                 "nan.txt':4: 'nan' is NaN");
}

TEST_F(Cli, GenLowAndHighSplitTheSignedRange) {
  for (const std::string type : {"i32", "i64"}) {
    ASSERT_EQ(run_cli("gen -n 1000 -t " + type + " --dist low -o " + path("low.txt") + " -f text")
                  .exit_code,
              0);
    ASSERT_EQ(run_cli("gen -n 1000 -t " + type + " --dist high -o " + path("high.txt") + " -f text")
                  .exit_code,
              0);
    const auto low =
        corank::io::read_array<std::int64_t>(path("low.txt"), corank::io::file_format::text);
    const auto high =
        corank::io::read_array<std::int64_t>(path("high.txt"), corank::io::file_format::text);
    EXPECT_LT(low.back(), 0) << type;
    EXPECT_GE(high.front(), 0) << type;
    EXPECT_GT(low.back() - low.front(), 1000) << type << ": low holds more than one value";
  }
}

TEST_F(Cli, RefusesNegativeAndEmptyCounts) {
  expect_failure("gen -n -5 -o " + path("a.bin"), "bad count '-5' (negative)");
  expect_failure("gen -s -1 -o " + path("a.bin"), "--seed: must not be negative");
  write("a.bin", std::vector<std::uint32_t>{1});
  expect_failure(
      "merge " + path("a.bin") + " " + path("a.bin") + " -o " + path("c.bin") + " --threads -3",
      "--threads: must not be negative");
  expect_failure("bench merge --backend cpu --sizes 0", "bad size '0' (must be at least 1)");
  expect_failure("bench merge --backend cpu --sizes 0.4", "bad size '0.4' (not a whole number");
  expect_failure("bench spmv-scan --backend cpu --sizes 1K", "--sizes does not apply");
}

TEST_F(Cli, GenTakesTheSizeSuffixes) {
  const result r = run_cli("gen -n 1.5K -o " + path("a.bin"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(fs::file_size(path("a.bin")), 6000u);
}

TEST_F(Cli, PrintsItsVersionAsInfoDoes) {
  const result v = run_cli("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.output, "corank " CORANK_PROJECT_VERSION "\n");
  EXPECT_EQ(run_cli("info").output.rfind("corank " CORANK_PROJECT_VERSION "\n", 0), 0u);
}

TEST_F(Cli, InfoNamesTheGpuOrSaysThatNoneWasFound) {
  const result r = run_cli("info");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::size_t at = r.output.find("gpu         : ");
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
  if (r.output.find("cuda backend: not compiled in") != std::string::npos)
    EXPECT_EQ(line, "gpu         : none (not compiled in)");
  else if (line.rfind("gpu         : none", 0) == 0)  // no driver reads as no GPU, not as a bad one
    EXPECT_EQ(line, "gpu         : none (no GPU or CUDA driver found)");
  else  // a GPU: its name, compute capability, multiprocessors and memory
    EXPECT_TRUE(
        std::regex_match(line, std::regex(R"(gpu         : .+ \(sm_\d+, \d+ SMs, [0-9.]+ GiB\))")))
        << line;
}

TEST_F(Cli, BenchSegmentedScanSaysItIsGpuOnly) {
  expect_failure("bench segmented-scan --backend cpu", "runs on the GPU only");
}

TEST_F(Cli, ShowsProgressWhenAskedAndNeverWhenQuiet) {
  write("a.bin", std::vector<std::uint32_t>{1, 3});
  write("b.bin", std::vector<std::uint32_t>{2});
  const std::string merge =
      "merge " + path("a.bin") + " " + path("b.bin") + " -o " + path("c.bin") + " -b cpu";
  result r = run_cli(merge + " --progress");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("[3/4"), std::string::npos) << r.output;
  r = run_cli(merge + " --progress -q");
  EXPECT_EQ(r.output.find("[1/4"), std::string::npos) << r.output;
}

TEST_F(Cli, SpmvScanCanSkipTheReference) {
  ASSERT_EQ(run_cli("gen matrix --like jonheart -o " + path("j.mtx")).exit_code, 0);
  const result r = run_cli("spmv-scan --backend cpu --no-reference --matrix " + path("j.mtx"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("not checked (--no-reference)"), std::string::npos) << r.output;
}

}  // namespace
