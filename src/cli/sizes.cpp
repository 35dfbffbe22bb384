// Item counts on the command line: "1000", "10K", "1.5M", "1G" (powers of ten, as the study's
// sizes are), shared by the commands that take --sizes.
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"

namespace corank::cli {

std::size_t parse_size(const std::string& text) {
  const auto bad = [&](const char* why) {
    return std::invalid_argument("bad size '" + text + "' (" + why + ")");
  };
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw bad("a number, optionally with K, M or G");
  }
  double scale = 1;
  const std::string suffix = text.substr(used);
  if (suffix == "K" || suffix == "k")
    scale = 1e3;
  else if (suffix == "M" || suffix == "m")
    scale = 1e6;
  else if (suffix == "G" || suffix == "g")
    scale = 1e9;
  else if (!suffix.empty())
    throw bad("a number, optionally with K, M or G");
  if (value < 0) throw bad("negative");
  return static_cast<std::size_t>(value * scale + 0.5);
}


std::vector<std::size_t> parse_sizes(const std::vector<std::string>& texts) {
  std::vector<std::size_t> sizes;
  for (const std::string& t : texts) sizes.push_back(parse_size(t));
  return sizes;
}

}  // namespace corank::cli
