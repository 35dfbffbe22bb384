// The Matrix Market reader against hand-written files: each header variant, each kind of error.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/io/matrix_market.hpp"

namespace {

namespace fs = std::filesystem;
using corank::io::csr_matrix;
using corank::io::file_error;

/// Writes `text` to a fresh file and reads it back through the file path, as the CLI does.
csr_matrix read_text(const std::string& text) {
  const fs::path path =
      fs::temp_directory_path() /
      ("corank_mm_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".mtx");
  { std::ofstream(path, std::ios::binary) << text; }
  struct remover {
    fs::path p;
    ~remover() { fs::remove(p); }
  } cleanup{path};
  return corank::io::read_matrix_market(path);
}

/// Expects a file_error whose message names line `line` and contains `words`.
void expect_error(const std::string& text, std::size_t line, const std::string& words) {
  try {
    read_text(text);
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const file_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(".mtx':" + std::to_string(line) + ": "), std::string::npos)
        << "message does not name line " << line << ": " << msg;
    EXPECT_NE(msg.find(words), std::string::npos) << "message lacks '" << words << "': " << msg;
  }
}

struct dense_view {
  std::vector<std::vector<double>> cells;
  explicit dense_view(const csr_matrix& m) : cells(m.rows, std::vector<double>(m.cols, 0.0)) {
    for (std::size_t r = 0; r < m.rows; ++r)
      for (auto k = m.row_offsets[r]; k < m.row_offsets[r + 1]; ++k)
        cells[r][static_cast<std::size_t>(m.col_indices[static_cast<std::size_t>(k)])] +=
            m.values[static_cast<std::size_t>(k)];
  }
};

TEST(MatrixMarket, ReadsRealGeneralIntoCsrKeepingFileOrderInRows) {
  const auto m = read_text(
      "%%MatrixMarket matrix coordinate real general\n"
      "% a comment\n"
      "%\n"
      "3 4 5\n"
      "3 4 -2.5e1\n"
      "1 2 1.5\n"
      "1 1 +0.25\n"
      "\n"
      "3 1 7\n"
      "2 3 1E-3\n");
  EXPECT_EQ(m.rows, 3u);
  EXPECT_EQ(m.cols, 4u);
  EXPECT_EQ(m.row_offsets, (std::vector<std::int64_t>{0, 2, 3, 5}));
  EXPECT_EQ(m.col_indices, (std::vector<std::int32_t>{1, 0, 2, 3, 0}));
  EXPECT_EQ(m.values, (std::vector<double>{1.5, 0.25, 1e-3, -25.0, 7.0}));
}

TEST(MatrixMarket, ReadsIntegerAndPattern) {
  const auto i =
      read_text("%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 -3\n2 2 4\n");
  EXPECT_EQ(i.values, (std::vector<double>{-3.0, 4.0}));
  const auto p =
      read_text("%%MatrixMarket matrix coordinate pattern general\r\n2 3 2\r\n2 3\r\n1 1\r\n");
  EXPECT_EQ(p.col_indices, (std::vector<std::int32_t>{0, 2}));
  EXPECT_EQ(p.values, (std::vector<double>{1.0, 1.0}));
}

TEST(MatrixMarket, ExpandsSymmetricAndSkewSymmetric) {
  const auto s =
      read_text("%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 2\n3 1 5\n3 2 -1\n");
  EXPECT_EQ(s.nnz(), 5u);
  const dense_view d(s);
  EXPECT_EQ(d.cells, (std::vector<std::vector<double>>{{2, 0, 5}, {0, 0, -1}, {5, -1, 0}}));
  const auto k = read_text("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n");
  EXPECT_EQ(dense_view(k).cells, (std::vector<std::vector<double>>{{0, -3}, {3, 0}}));
  const auto p = read_text("%%MatrixMarket MATRIX Coordinate Pattern Symmetric\n2 2 2\n1 1\n2 1\n");
  EXPECT_EQ(p.nnz(), 3u);
}

TEST(MatrixMarket, AcceptsEmptyMatricesAndRows) {
  const auto m = read_text("%%MatrixMarket matrix coordinate real general\n4 2 1\n4 2 1\n");
  EXPECT_EQ(m.row_offsets, (std::vector<std::int64_t>{0, 0, 0, 0, 1}));
  EXPECT_EQ(read_text("%%MatrixMarket matrix coordinate real general\n0 0 0\n").nnz(), 0u);
}

TEST(MatrixMarket, RejectsWrongHeaders) {
  expect_error("", 0, "empty file");
  expect_error("3 3 1\n1 1 1\n", 1, "%%MatrixMarket");
  expect_error("%%MatrixMarket matrix coordinate real\n1 1 0\n", 1, "4 words");
  expect_error("%%MatrixMarket vector coordinate real general\n", 1, "object");
  expect_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1, "array");
  expect_error("%%MatrixMarket matrix coordinate complex general\n", 1, "complex");
  expect_error("%%MatrixMarket matrix coordinate float general\n", 1, "unknown field");
  expect_error("%%MatrixMarket matrix coordinate real hermitian\n", 1, "hermitian");
  expect_error("%%MatrixMarket matrix coordinate real upper\n", 1, "unknown symmetry");
}

TEST(MatrixMarket, RejectsBadSizeLines) {
  const std::string h = "%%MatrixMarket matrix coordinate real general\n";
  expect_error(h, 1, "truncated");
  expect_error(h + "% only comments\n", 2, "truncated");
  expect_error(h + "3 3\n", 2, "size line needs 3");
  expect_error(h + "3 x 1\n", 2, "column count 'x'");
  expect_error(h + "-3 3 1\n", 2, "row count '-3'");
  expect_error(h + "3 3 99999999999999999999999\n", 2, "too large");
  expect_error(h + "2 2 5\n", 2, "exceeds rows x cols");
  expect_error(h + "3000000000 1 0\n", 2, "exceed the limit");
  expect_error("%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", 2, "square");
}

TEST(MatrixMarket, RejectsMalformedAndTruncatedEntries) {
  const std::string h = "%%MatrixMarket matrix coordinate real general\n3 3 2\n";
  expect_error(h + "1 1 1\n", 3, "truncated: 1 entries of the 2");
  expect_error(h, 2, "truncated: 0 entries");
  expect_error(h + "1 1 1\n2 2 2\n3 3 3\n", 5, "more entries");
  expect_error(h + "1 1\n2 2 2\n", 3, "needs 3 words");
  expect_error(h + "1 1 1 1\n2 2 2\n", 3, "needs 3 words");
  expect_error(h + "1 1 1\n2 2 abc\n", 4, "value 'abc'");
  expect_error(h + "1 1 1\n2 2 nan\n", 4, "finite");
  expect_error(h + "1.5 1 1\n2 2 2\n", 3, "row index '1.5'");
  expect_error("%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 2.5\n", 3,
               "not an integer");
  expect_error("%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1 2.5\n", 3,
               "needs 2 words");
}

TEST(MatrixMarket, RejectsIndicesOutOfRange) {
  const std::string h = "%%MatrixMarket matrix coordinate real general\n3 2 1\n";
  expect_error(h + "0 1 1\n", 3, "row index 0 is out of range 1..3");
  expect_error(h + "4 1 1\n", 3, "row index 4 is out of range");
  expect_error(h + "1 3 1\n", 3, "column index 3 is out of range 1..2");
  expect_error("%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n", 3,
               "above the diagonal");
  expect_error("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n", 3,
               "no diagonal");
}

TEST(MatrixMarket, SumsDuplicateEntriesKeepingTheFileOrderOfTheRest) {
  const auto m = read_text(
      "%%MatrixMarket matrix coordinate real general\n"
      "2 4 6\n"
      "1 3 1\n"
      "1 1 2\n"
      "1 3 10\n"
      "2 2 5\n"
      "1 1 20\n"
      "1 3 100\n");
  EXPECT_EQ(m.duplicates_summed, 3u);
  EXPECT_EQ(m.row_offsets, (std::vector<std::int64_t>{0, 2, 3}));
  EXPECT_EQ(m.col_indices, (std::vector<std::int32_t>{2, 0, 1}));
  EXPECT_EQ(m.values, (std::vector<double>{111, 22, 5}));
  // Symmetric: an off-diagonal entry given twice is summed on both sides.
  const auto s =
      read_text("%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n2 1 2\n");
  EXPECT_EQ(dense_view(s).cells, (std::vector<std::vector<double>>{{0, 3}, {3, 0}}));
}

TEST(MatrixMarket, ReadsValuesBelowTheDoubleRangeAsZeroAndRefusesThoseAbove) {
  const std::string h = "%%MatrixMarket matrix coordinate real general\n1 2 2\n";
  EXPECT_EQ(read_text(h + "1 1 1e-400\n1 2 -1e-320\n").values, (std::vector<double>{0.0, -1e-320}));
  expect_error(h + "1 1 1\n1 2 1e400\n", 4, "value '1e400' is beyond the double range");
  expect_error(h + "1 1 1\n1 2 +-1\n", 4, "value '+-1' is not a finite real number");
}

TEST(MatrixMarket, AValueLimitNamesTheLine) {
  corank::io::matrix_market_limits limits;
  limits.max_abs_value = 3.4e38;
  limits.max_abs_value_reason = "f32";
  try {
    corank::io::parse_matrix_market(
        "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 -1e39\n", "'m'", limits);
    ADD_FAILURE() << "no error";
  } catch (const file_error& e) {
    EXPECT_STREQ(e.what(), "'m':3: value '-1e39' is beyond f32");
  }
}

TEST(MatrixMarket, ReadsGzipCompressedFiles) {
  const fs::path path =
      fs::temp_directory_path() /
      ("corank_mm_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
       "_gz.mtx.gz");
  const std::string text = "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n";
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, text.data(), unsigned(text.size()));
  gzclose(f);
  const auto m = corank::io::read_matrix_market(path);
  fs::remove(path);
  EXPECT_EQ(m.nnz(), 3u);
  EXPECT_EQ(m.row_offsets, (std::vector<std::int64_t>{0, 1, 2, 3}));
}

TEST(MatrixMarket, TheSizeLineDoesNotDecideTheMemoryReserved) {
  // Two billion declared entries in a 70-byte text: refused as truncated, after reserving what
  // the text can hold, not 32 GB.
  expect_error("%%MatrixMarket matrix coordinate real general\n65536 65536 2000000000\n1 1 1\n", 3,
               "truncated: 1 entries of the 2000000000");
}

TEST(MatrixMarket, ReportsMissingFiles) {
  EXPECT_THROW(corank::io::read_matrix_market("/nonexistent/corank.mtx"), file_error);
  EXPECT_THROW(corank::io::read_matrix_market(fs::temp_directory_path()), file_error);
}

TEST(MatrixMarket, WriteThenReadRoundTrips) {
  csr_matrix m;
  m.rows = 3;
  m.cols = 5;
  m.row_offsets = {0, 2, 2, 4};
  m.col_indices = {4, 0, 1, 3};
  m.values = {0.1, -2.0, 1e300, 3.0};
  const fs::path path = fs::temp_directory_path() / "corank_mm_roundtrip.mtx";
  corank::io::write_matrix_market(path, m, false, "round trip");
  const auto back = corank::io::read_matrix_market(path);
  fs::remove(path);
  EXPECT_EQ(back.row_offsets, m.row_offsets);
  EXPECT_EQ(back.col_indices, m.col_indices);
  EXPECT_EQ(back.values, m.values);
}

}  // namespace
