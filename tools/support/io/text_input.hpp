// Reading text input, shared by the text arrays (--format text) and the Matrix Market reader:
// numbers as the CLI accepts them, lines read in chunks from any source (a file, gzip-compressed
// or not, a pipe, memory), and offending text shown short in error messages.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "support/io/file_error.hpp"

namespace corank::io {

/// `text` quoted for a message: at most `max_chars` characters (then "..."), non-printable ones
/// as '?', so that a 10 MB line or binary garbage stays one short line on the terminal.
std::string shown(std::string_view text, std::size_t max_chars = 60);

enum class number_status { ok, invalid, out_of_range };

/// Parses all of `token` as a T: an optional sign ('+' or, for signed and floating types, '-')
/// and the digits from_chars takes. Floating values too small for T read as 0 or the nearest
/// subnormal (as strtod does); too large ones are out_of_range. "nan" and "inf" parse: the
/// caller decides whether they are welcome.
template <class T>
number_status parse_number(std::string_view token, T& value) {
  const char* first = token.data();
  const char* last = first + token.size();
  if (first != last && *first == '+') {
    ++first;  // from_chars takes no '+'; a second sign ("+-5") is not a number
    if (first != last && (*first == '-' || *first == '+')) return number_status::invalid;
  }
  const auto [end, ec] = std::from_chars(first, last, value);
  if (end != last || first == last) return number_status::invalid;
  if (ec == std::errc::result_out_of_range) {
    if constexpr (std::is_floating_point_v<T>) {
      // Underflow or overflow? strtod tells: it gives the rounded tiny value, or HUGE_VAL.
      const std::string copy(first, last);
      const long double v = std::strtold(copy.c_str(), nullptr);
      if (std::fabs(v) < 1) {
        value = static_cast<T>(v);
        return number_status::ok;
      }
    }
    return number_status::out_of_range;
  }
  return ec == std::errc() ? number_status::ok : number_status::invalid;
}

/// Bytes from somewhere, in chunks.
class byte_source {
 public:
  virtual ~byte_source() = default;
  /// Up to `size` bytes into `buffer`; 0 at the end. Throws file_error on a read error.
  virtual std::size_t read(char* buffer, std::size_t size) = 0;
  /// The total size in bytes when it is known ahead (a plain regular file, memory), else 0.
  virtual std::size_t size_hint() const { return 0; }
};

/// `text` itself (not copied: it must outlive the source).
std::unique_ptr<byte_source> memory_source(std::string_view text);

/// The file at `path`, gzip-compressed or plain (zlib tells them apart by their first bytes), read
/// as a stream: pipes and `<(...)` work. `name` is the quoted name for messages.
std::unique_ptr<byte_source> file_source(const std::filesystem::path& path,
                                         const std::string& name);

/// Lines of a source, numbered from 1 ('\n' or "\r\n" ends one; the last may lack it). A line
/// longer than max_line_bytes is an error: no text input of ours has one.
class line_reader {
 public:
  static constexpr std::size_t max_line_bytes = std::size_t(1) << 20;

  line_reader(std::unique_ptr<byte_source> source, std::string name);

  /// The next line, valid until the next call; false at the end.
  bool next(std::string_view& line);

  [[noreturn]] void fail(const std::string& what) const {
    throw file_error(name_ + ":" + std::to_string(line_no_) + ": " + what);
  }
  std::size_t line_no() const { return line_no_; }
  const std::string& name() const { return name_; }
  std::size_t size_hint() const { return source_->size_hint(); }

 private:
  std::unique_ptr<byte_source> source_;
  std::string name_;
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0, begin_ = 0, end_ = 0, line_no_ = 0;
  bool at_end_ = false;
};

}  // namespace corank::io
