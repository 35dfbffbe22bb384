#include "io/array_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <system_error>
#include <type_traits>

#include "io/element_type.hpp"

namespace corank::io {
namespace {

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

std::string errno_text() { return std::strerror(errno); }

struct file_closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

file_ptr open_for_reading(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw file_error("cannot read " + quoted(path) + ": it is a directory");
  file_ptr f(std::fopen(path.c_str(), "rb"));
  if (!f) throw file_error("cannot open " + quoted(path) + ": " + errno_text());
  return f;
}

// NaN is not ordered, so no sorted array can hold one; seeing one usually means the file holds
// another type than --type says.
template <class T>
void reject_nan(const std::filesystem::path& path, const std::vector<T>& values) {
  if constexpr (std::is_floating_point_v<T>) {
    for (std::size_t i = 0; i < values.size(); ++i)
      if (std::isnan(values[i]))
        throw file_error(quoted(path) + ": element " + std::to_string(i) +
                         " is NaN (NaN cannot be ordered; is the file really of this --type?)");
  }
}

template <class T>
std::vector<T> read_binary(const std::filesystem::path& path) {
  file_ptr f = open_for_reading(path);
  if (std::fseek(f.get(), 0, SEEK_END) != 0)
    throw file_error("cannot seek in " + quoted(path) + ": " + errno_text());
  const long bytes = std::ftell(f.get());
  if (bytes < 0) throw file_error("cannot size " + quoted(path) + ": " + errno_text());
  std::rewind(f.get());
  if (bytes % long(sizeof(T)) != 0)
    throw file_error(quoted(path) + " holds " + std::to_string(bytes) +
                     " bytes, not a multiple of the element size " + std::to_string(sizeof(T)) +
                     " (wrong --type, or a truncated file?)");
  std::vector<T> values(std::size_t(bytes) / sizeof(T));
  if (std::fread(values.data(), sizeof(T), values.size(), f.get()) != values.size())
    throw file_error("short read from " + quoted(path));
  return values;
}

template <class T>
std::vector<T> read_text(const std::filesystem::path& path) {
  file_ptr probe = open_for_reading(path);  // for the error message of a missing file
  probe.reset();
  std::ifstream in(path);
  if (!in) throw file_error("cannot open " + quoted(path));
  std::vector<T> values;
  std::string line;
  for (std::size_t line_no = 1; std::getline(in, line); ++line_no) {
    std::size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos) continue;  // blank lines are allowed
    std::size_t end = line.find_last_not_of(" \t\r") + 1;
    const char* first = line.data() + begin;
    const char* last = line.data() + end;
    if (*first == '+') ++first;  // from_chars does not take a leading '+'
    T value{};
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec == std::errc::result_out_of_range)
      throw file_error(quoted(path) + ":" + std::to_string(line_no) + ": '" +
                       line.substr(begin, end - begin) + "' is out of range for this --type");
    if (ec != std::errc() || ptr != last)
      throw file_error(quoted(path) + ":" + std::to_string(line_no) + ": '" +
                       line.substr(begin, end - begin) + "' is not a number of this --type");
    values.push_back(value);
  }
  if (in.bad()) throw file_error("error reading " + quoted(path));
  return values;
}

template <class T>
void write_text(std::FILE* f, const T* data, std::size_t count) {
  char buffer[64];
  for (std::size_t i = 0; i < count; ++i) {
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer - 1, data[i]);
    (void)ec;  // 64 characters hold any of our types
    *end++ = '\n';
    if (std::fwrite(buffer, 1, std::size_t(end - buffer), f) != std::size_t(end - buffer))
      throw file_error("write failed: " + errno_text());
  }
}

}  // namespace

file_format parse_file_format(std::string_view name) {
  if (name == "binary" || name == "bin") return file_format::binary;
  if (name == "text" || name == "txt") return file_format::text;
  throw std::invalid_argument("unknown format '" + std::string(name) + "' (binary|text)");
}

template <class T>
std::vector<T> read_array(const std::filesystem::path& path, file_format format) {
  std::vector<T> values = format == file_format::binary ? read_binary<T>(path) : read_text<T>(path);
  reject_nan(path, values);
  return values;
}

template <class T>
void write_array(const std::filesystem::path& path, const T* data, std::size_t count,
                 file_format format) {
  write_atomically(path, [&](std::FILE* f) {
    if (format == file_format::text) return write_text(f, data, count);
    if (count && std::fwrite(data, sizeof(T), count, f) != count)
      throw file_error("write failed: " + errno_text());
  });
}

void write_atomically(const std::filesystem::path& path,
                      const std::function<void(std::FILE*)>& write) {
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::string tmp = (dir / ("." + path.filename().string() + ".corank-XXXXXX")).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0)
    throw file_error("cannot create a temporary file in " + quoted(dir) + ": " + errno_text());
  file_ptr f(::fdopen(fd, "wb"));
  if (!f) {
    ::close(fd);
    std::remove(tmp.c_str());
    throw file_error("cannot open temporary file " + quoted(std::filesystem::path(tmp)) + ": " + errno_text());
  }
  try {
    write(f.get());
    if (std::fflush(f.get()) != 0 || ::fsync(fd) != 0)
      throw file_error("cannot write " + quoted(path) + ": " + errno_text());
    f.reset();
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
      throw file_error("cannot rename the output into " + quoted(path) + ": " + errno_text());
  } catch (...) {
    f.reset();
    std::remove(tmp.c_str());
    throw;
  }
}

#define CORANK_INSTANTIATE(T, tag)                                                   \
  template std::vector<T> read_array<T>(const std::filesystem::path&, file_format); \
  template void write_array<T>(const std::filesystem::path&, const T*, std::size_t, file_format);
CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE)
#undef CORANK_INSTANTIATE

}  // namespace corank::io
