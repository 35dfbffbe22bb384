// The text format of key files (--format text): what is a number of each type, and what the
// messages say about what is not.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/io/array_file.hpp"

namespace {

using corank::io::file_error;
using corank::io::parse_text_array;

/// The message of the file_error parsing `text` as T throws ("" when none).
template <class T>
std::string error_of(const std::string& text) {
  try {
    parse_text_array<T>(text, "'t'");
  } catch (const file_error& e) {
    return e.what();
  }
  return "";
}

TEST(TextArray, ReadsSignsBlankLinesAndCrlf) {
  EXPECT_EQ(parse_text_array<std::int32_t>("+5\r\n\n  -3 \n7", "'t'"),
            (std::vector<std::int32_t>{5, -3, 7}));
  EXPECT_EQ(parse_text_array<double>("1e-400\n-2.5e-320\n", "'t'"),
            (std::vector<double>{0.0, -2.5e-320}));  // below the range: 0 or the subnormal
  EXPECT_EQ(parse_text_array<float>("1e-50\n", "'t'"), (std::vector<float>{0.0f}));
}

TEST(TextArray, RefusesTwoSignsAndNamesTheLine) {
  EXPECT_EQ(error_of<std::int32_t>("1\n+-5\n"), "'t':2: '+-5' is not a number of type i32");
  EXPECT_EQ(error_of<double>("++5\n"), "'t':1: '++5' is not a number of type f64");
  EXPECT_EQ(error_of<std::uint32_t>("-1\n"), "'t':1: '-1' is not a number of type u32");
}

TEST(TextArray, RefusesNaNByLineAndOverflowByType) {
  EXPECT_EQ(error_of<float>("1\n\nnan\n"), "'t':3: 'nan' is NaN (NaN cannot be ordered)");
  EXPECT_EQ(error_of<float>("1e39\n"), "'t':1: '1e39' is out of range for f32");
  EXPECT_EQ(error_of<std::int64_t>("9223372036854775808\n"),
            "'t':1: '9223372036854775808' is out of range for i64");
}

TEST(TextArray, ShowsAtMostSixtyCharactersOfAnOffendingLine) {
  const std::string message = error_of<std::uint64_t>("1\n" + std::string(100000, 'x') + "\n");
  EXPECT_EQ(message, "'t':2: '" + std::string(60, 'x') + "...' is not a number of type u64");
  const std::string huge = error_of<std::uint64_t>(std::string(3 << 20, '1'));
  EXPECT_NE(huge.find("'t':1: line longer than 1 MiB"), std::string::npos) << huge;
}

}  // namespace
