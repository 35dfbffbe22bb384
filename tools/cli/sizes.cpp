// Item counts on the command line: "1000", "10K", "1.5M", "1G" (powers of ten, as the study's
// sizes are), shared by the commands that take --sizes and by gen -n.
#include <cctype>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"

namespace corank::cli {
namespace {

/// A whole number: digits, an optional fraction, an optional K, M, G or T (case-insensitive).
/// Exact (no floating point): "1.5K" is 1500, "0.4" and "1.0005K" are not whole, "1e3" is not
/// of this form.
std::size_t parse_whole(const std::string& text, const char* kind) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument("bad " + std::string(kind) + " '" + text + "' (" + why + ")");
  };
  const std::string form = "a whole number, optionally with K, M, G or T, e.g. 1000, 10K, 1.5M";
  std::size_t i = 0;
  std::string digits;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) digits += text[i++];
  if (digits.empty()) throw bad(text.empty() || text[0] != '-' ? form : "negative");
  int exponent = 0;
  if (i < text.size() && text[i] == '.') {
    const std::size_t start = ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
      digits += text[i++];
    if (i == start) throw bad(form);
    exponent -= int(i - start);
  }
  if (i < text.size()) {
    const char unit = char(std::toupper(static_cast<unsigned char>(text[i++])));
    const std::string units = "KMGT";
    const std::size_t u = units.find(unit);
    if (u == std::string::npos || i != text.size()) throw bad(form);
    exponent += 3 * int(u + 1);
  }
  for (; exponent < 0; ++exponent) {  // digits past the point must be zeros
    if (digits.back() != '0') throw bad("not a whole number of items");
    digits.pop_back();
  }
  std::uint64_t value = 0;
  const std::uint64_t most = std::numeric_limits<std::int64_t>::max();
  for (char d : digits + std::string(std::size_t(exponent), '0')) {
    if (value > (most - std::uint64_t(d - '0')) / 10) throw bad("too large");
    value = value * 10 + std::uint64_t(d - '0');
  }
  return std::size_t(value);
}

}  // namespace

std::size_t parse_size(const std::string& text) {
  const std::size_t n = parse_whole(text, "size");
  if (n == 0) throw std::invalid_argument("bad size '" + text + "' (must be at least 1)");
  return n;
}

std::vector<std::size_t> parse_sizes(const std::vector<std::string>& texts) {
  std::vector<std::size_t> sizes;
  for (const std::string& t : texts) sizes.push_back(parse_size(t));
  return sizes;
}

std::size_t parse_count(const std::string& text) { return parse_whole(text, "count"); }

}  // namespace corank::cli
