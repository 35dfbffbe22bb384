// Typed arrays in files: raw little-endian binary or text (one number per line).
// Every failure is a corank::io::file_error whose message names the file and, where it applies,
// the line or index. Inputs are read as streams, so pipes and `<(...)` work; text may be
// gzip-compressed. Outputs go through io::output_file (temporary file and rename, or straight to
// a device; see output_file.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "support/io/file_error.hpp"
#include "support/io/output_file.hpp"

namespace corank::io {

enum class file_format { binary, text };
file_format parse_file_format(std::string_view name);

/// Reads a whole file. Binary: its size must be a multiple of sizeof(T), and a file that is
/// plainly text (digits, signs and newlines only in its first KiB) is refused with a hint to use
/// --format text. Text: blank lines are skipped; anything else must be one number of type T.
/// Floating-point NaN is refused (it cannot be ordered), naming the element or file:line.
template <class T>
std::vector<T> read_array(const std::filesystem::path& path, file_format format);

/// The text format parsed from memory; `name` is used in error messages.
template <class T>
std::vector<T> parse_text_array(std::string_view text, const std::string& name);

/// Throws the file_error reading `path` would ("cannot open 'x': No such file or directory", "it is
/// a directory") without opening it (a FIFO would block): for checking inputs before the output.
void check_readable(const std::filesystem::path& path);

template <class T>
void write_array(output_file& out, const T* data, std::size_t count, file_format format);

/// Index of the first element that is smaller than its predecessor, or `count` if sorted.
template <class T, class Compare = std::less<>>
std::size_t first_unsorted(const T* data, std::size_t count, Compare comp = {}) {
  for (std::size_t i = 1; i < count; ++i)
    if (comp(data[i], data[i - 1])) return i;
  return count;
}

/// "bytes" as "3.2 GB" for messages.
std::string human_bytes(double bytes);

/// Throws file_error("out of memory: <what> need N GB, more than the M GB available") when
/// `bytes` exceed the memory available now (MemAvailable and free swap): better said before a
/// long read than by the OOM killer after it.
void check_memory(double bytes, const std::string& what);

/// Throws file_error("out of memory: <what> need N GB ..."): for a failed allocation.
[[noreturn]] void out_of_memory(double bytes, const std::string& what);

/// v.resize(n), or a file_error that says what needed how much memory.
template <class Vector>
void resize_for(Vector& v, std::size_t n, const std::string& what) {
  const double bytes = double(n) * sizeof(typename Vector::value_type);
  check_memory(bytes, what);
  try {
    v.resize(n);
  } catch (const std::bad_alloc&) {
    out_of_memory(bytes, what);
  } catch (const std::length_error&) {
    out_of_memory(bytes, what);
  }
}

}  // namespace corank::io
