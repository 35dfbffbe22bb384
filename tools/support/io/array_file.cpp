#include "support/io/array_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#include "support/io/element_type.hpp"
#include "support/io/text_input.hpp"

namespace corank::io {
namespace {

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

template <class T>
constexpr std::string_view type_name() {
  if constexpr (std::is_same_v<T, std::uint32_t>) return "u32";
  if constexpr (std::is_same_v<T, std::int32_t>) return "i32";
  if constexpr (std::is_same_v<T, std::uint64_t>) return "u64";
  if constexpr (std::is_same_v<T, std::int64_t>) return "i64";
  if constexpr (std::is_same_v<T, float>) return "f32";
  return "f64";
}

struct file_closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

/// Opens for reading; `bytes` gets the size of a regular file, -1 for a stream (pipe, device).
file_ptr open_for_reading(const std::filesystem::path& path, long long& bytes) {
  file_ptr f(std::fopen(path.c_str(), "rb"));
  if (!f) throw file_error("cannot open " + quoted(path) + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(::fileno(f.get()), &st) != 0)
    throw file_error("cannot read " + quoted(path) + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw file_error("cannot read " + quoted(path) + ": it is a directory");
  bytes = S_ISREG(st.st_mode) ? static_cast<long long>(st.st_size) : -1;
  return f;
}

/// Plain text of numbers: only digits, signs, points, exponents and whitespace, with a digit and
/// a line break. Raw binary keys look like this by accident only when crafted to.
bool looks_like_text(const char* bytes, std::size_t size) {
  bool digit = false, newline = false;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = bytes[i];
    digit = digit || (c >= '0' && c <= '9');
    newline = newline || c == '\n';
    if (!std::strchr("0123456789+-.eE \t\r\n", c) || c == '\0') return false;
  }
  return digit && newline;
}

template <class T>
std::vector<T> read_binary(const std::filesystem::path& path) {
  long long bytes = 0;
  file_ptr f = open_for_reading(path, bytes);
  std::vector<T> values;
  std::size_t got_bytes = 0;
  const auto read_into = [&](std::size_t at_most_bytes) {
    auto* dst = reinterpret_cast<char*>(values.data()) + got_bytes;
    const std::size_t n = std::fread(dst, 1, at_most_bytes, f.get());
    got_bytes += n;
    if (n < at_most_bytes && std::ferror(f.get()))
      throw file_error("error reading " + quoted(path) + ": " + std::strerror(errno));
    return n;
  };
  const std::string what = "the keys of " + quoted(path);
  if (bytes >= 0) {
    resize_for(values, (std::size_t(bytes) + sizeof(T) - 1) / sizeof(T), what);
    read_into(std::size_t(bytes));
  } else {  // a stream: read until its end, growing
    for (std::size_t chunk = std::size_t(1) << 16;;
         chunk = std::min(chunk * 2, std::size_t(1) << 28)) {
      resize_for(values, (got_bytes + chunk) / sizeof(T) + 1, what);
      if (read_into(chunk) < chunk) break;
    }
    bytes = static_cast<long long>(got_bytes);
  }
  if (got_bytes != std::size_t(bytes))
    throw file_error("short read from " + quoted(path) + ": " + std::to_string(got_bytes) + " of " +
                     std::to_string(bytes) + " bytes");
  const char* raw = reinterpret_cast<const char*>(values.data());
  const bool textual = looks_like_text(raw, std::min<std::size_t>(got_bytes, 1024));
  const std::string text_hint = " looks like text (numbers on lines), not raw binary " +
                                std::string(type_name<T>()) + " keys: use --format text";
  if (got_bytes % sizeof(T) != 0)
    throw file_error(quoted(path) + " holds " + std::to_string(got_bytes) +
                     " bytes, not a multiple of the element size " + std::to_string(sizeof(T)) +
                     (textual ? "; it" + text_hint : " (wrong --type, or a truncated file?)"));
  if (textual) throw file_error(quoted(path) + text_hint);
  values.resize(got_bytes / sizeof(T));
  if constexpr (std::is_floating_point_v<T>) {
    for (std::size_t i = 0; i < values.size(); ++i)
      if (std::isnan(values[i]))
        throw file_error(quoted(path) + ": element " + std::to_string(i) +
                         " is NaN (NaN cannot be ordered; is the file really of this --type?)");
  }
  return values;
}

template <class T>
std::vector<T> read_text(line_reader& in) {
  std::vector<T> values;
  if (const std::size_t hint = in.size_hint())
    values.reserve(std::min<std::size_t>(hint / 2, 1 << 20));
  std::string_view line;
  while (in.next(line)) {
    const std::size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string_view::npos) continue;  // blank lines are allowed
    const std::string_view token = line.substr(begin, line.find_last_not_of(" \t\r") + 1 - begin);
    T value{};
    switch (parse_number(token, value)) {
      case number_status::out_of_range:
        in.fail(shown(token) + " is out of range for " + std::string(type_name<T>()));
      case number_status::invalid:
        in.fail(shown(token) + " is not a number of type " + std::string(type_name<T>()));
      case number_status::ok:
        break;
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(value)) in.fail(shown(token) + " is NaN (NaN cannot be ordered)");
    }
    try {
      values.push_back(value);
    } catch (const std::bad_alloc&) {
      out_of_memory(double(values.size()) * 2 * sizeof(T), "the numbers of " + in.name());
    }
  }
  return values;
}

template <class T>
void write_text(output_file& out, const T* data, std::size_t count) {
  char buffer[1 << 14];
  std::size_t used = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (used + 64 > sizeof buffer) out.write(buffer, std::exchange(used, 0));
    const auto end = std::to_chars(buffer + used, buffer + sizeof buffer - 1, data[i]).ptr;
    *end = '\n';  // 64 characters hold any of our types
    used = std::size_t(end + 1 - buffer);
  }
  out.write(buffer, used);
}

}  // namespace

file_format parse_file_format(std::string_view name) {
  if (name == "binary" || name == "bin") return file_format::binary;
  if (name == "text" || name == "txt") return file_format::text;
  throw std::invalid_argument("unknown format '" + std::string(name) + "' (binary|text)");
}

std::string human_bytes(double bytes) {
  char text[32];
  if (bytes >= 1e9)
    std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  else if (bytes >= 1e6)
    std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  else
    std::snprintf(text, sizeof text, "%.0f bytes", bytes);
  return text;
}

/// What the kernel says can be had now without swapping others out (MemAvailable), plus free
/// swap; the physical memory where /proc/meminfo is missing.
double available_memory_bytes() {
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    double available_kb = -1, swap_free_kb = 0;
    while (std::fgets(line, sizeof line, f)) {
      double kb = 0;
      if (std::sscanf(line, "MemAvailable: %lf kB", &kb) == 1) available_kb = kb;
      if (std::sscanf(line, "SwapFree: %lf kB", &kb) == 1) swap_free_kb = kb;
    }
    std::fclose(f);
    if (available_kb >= 0) return (available_kb + swap_free_kb) * 1024;
  }
  return double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGESIZE));
}

void check_memory(double bytes, const std::string& what) {
  const double available = available_memory_bytes();
  if (available > 0 && bytes > available)
    throw file_error("out of memory: " + what + " need " + human_bytes(bytes) + ", more than the " +
                     human_bytes(available) + " available");
}

void out_of_memory(double bytes, const std::string& what) {
  throw file_error("out of memory: " + what + " need " + human_bytes(bytes) +
                   ", which could not be allocated");
}

void check_readable(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || ::access(path.c_str(), R_OK) != 0)
    throw file_error("cannot open " + quoted(path) + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw file_error("cannot read " + quoted(path) + ": it is a directory");
}

template <class T>
std::vector<T> read_array(const std::filesystem::path& path, file_format format) {
  if (format == file_format::binary) return read_binary<T>(path);
  line_reader in(file_source(path, quoted(path)), quoted(path));
  return read_text<T>(in);
}

template <class T>
std::vector<T> parse_text_array(std::string_view text, const std::string& name) {
  line_reader in(memory_source(text), name);
  return read_text<T>(in);
}

template <class T>
void write_array(output_file& out, const T* data, std::size_t count, file_format format) {
  if (format == file_format::text) return write_text(out, data, count);
  out.write(data, count * sizeof(T));
}

#define CORANK_INSTANTIATE(T, tag)                                                   \
  template std::vector<T> read_array<T>(const std::filesystem::path&, file_format);  \
  template std::vector<T> parse_text_array<T>(std::string_view, const std::string&); \
  template void write_array<T>(output_file&, const T*, std::size_t, file_format);
CORANK_FOR_EACH_ELEMENT_TYPE(CORANK_INSTANTIATE)
#undef CORANK_INSTANTIATE

}  // namespace corank::io
