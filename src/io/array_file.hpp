// Typed arrays in files: raw little-endian binary or text (one number per line).
// Every failure is a corank::io::file_error whose message names the file and, where it applies,
// the line or index. Outputs are written to a temporary file in the target's directory and renamed
// over it, so a failed run never leaves a half-written or clobbered file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace corank::io {

class file_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class file_format { binary, text };
file_format parse_file_format(std::string_view name);

template <class T>
std::vector<T> read_array(const std::filesystem::path& path, file_format format);

template <class T>
void write_array(const std::filesystem::path& path, const T* data, std::size_t count,
                 file_format format);

/// Runs `write(stream)` into a temporary file beside `path`, then renames it over `path`.
/// The temporary file is removed if `write` throws.
void write_atomically(const std::filesystem::path& path,
                      const std::function<void(std::FILE*)>& write);

/// Index of the first element that is smaller than its predecessor, or `count` if sorted.
template <class T, class Compare = std::less<>>
std::size_t first_unsorted(const T* data, std::size_t count, Compare comp = {}) {
  for (std::size_t i = 1; i < count; ++i)
    if (comp(data[i], data[i - 1])) return i;
  return count;
}

}  // namespace corank::io
