// A measured tuning table for the GPU merge (written by `corank tune merge`, read back by
// `corank merge/bench merge --tuning FILE` or any caller, and handed to the kernels through
// merge_options::tuning). Host-only C++.
//
// The file is text, one entry per line; '#' starts a comment:
//
//   corank-merge-tuning 1
//   # kernel   sizes it applies to        parameters (absent or 0: the default)
//   automatic  up_to=2000000  scheme=single_launch blocks=0
//   automatic  up_to=max      scheme=partitioned threads=256
//   tiled      up_to=max      threads=256 tile=1024 blocks=0
//
// An entry applies to merges of m + n outputs up to `up_to` (inclusive) and above the kernel's
// previous entry; sizes above every entry take the largest. Keys: up_to (required: a count or
// "max"), scheme (automatic: single_launch | partitioned), threads (a multiple of 32 in
// [32, 1024]), blocks, tile (items per input, tiled/circular).
#pragma once

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "corank/cuda/merge_options.hpp"

namespace corank::cuda {

struct merge_tuning_entry {
  merge_algorithm algorithm = merge_algorithm::automatic;
  std::size_t up_to = std::numeric_limits<std::size_t>::max();  ///< largest m + n it covers
  merge_scheme scheme = merge_scheme::by_size;
  unsigned threads = 0, blocks = 0, tile_items = 0;
};

class merge_tuning {
 public:
  static constexpr const char* header = "corank-merge-tuning 1";

  merge_tuning() = default;
  /// Entries in any order; two of one kernel with the same up_to are an error.
  explicit merge_tuning(std::vector<merge_tuning_entry> entries) : entries_(std::move(entries)) {
    std::stable_sort(entries_.begin(), entries_.end(), [](const auto& x, const auto& y) {
      return x.algorithm != y.algorithm ? x.algorithm < y.algorithm : x.up_to < y.up_to;
    });
    for (std::size_t i = 1; i < entries_.size(); ++i)
      if (entries_[i].algorithm == entries_[i - 1].algorithm &&
          entries_[i].up_to == entries_[i - 1].up_to)
        throw std::invalid_argument("two " + std::string(to_string(entries_[i].algorithm)) +
                                    " entries for up_to=" + std::to_string(entries_[i].up_to));
  }

  const std::vector<merge_tuning_entry>& entries() const { return entries_; }

  /// The entry of `algorithm` for m + n = total, or null when the table has none for it.
  const merge_tuning_entry* find(merge_algorithm algorithm, std::size_t total) const {
    const merge_tuning_entry* last = nullptr;
    for (const merge_tuning_entry& e : entries_) {
      if (e.algorithm != algorithm) continue;
      if (total <= e.up_to) return &e;
      last = &e;
    }
    return last;
  }

 private:
  std::vector<merge_tuning_entry> entries_;
};

/// Reads a table; a malformed one throws std::invalid_argument naming `source` and the line.
inline merge_tuning parse_merge_tuning(std::istream& in, const std::string& source) {
  std::vector<merge_tuning_entry> entries;
  std::string line;
  int line_no = 0;
  bool header_seen = false;
  const auto fail = [&](const std::string& why) {
    return std::invalid_argument(source + ":" + std::to_string(line_no) + ": " + why);
  };
  const auto number = [&](const std::string& key, const std::string& text) -> std::size_t {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
      throw fail("'" + key + "' needs a non-negative integer, not '" + text + "'");
    try {
      return std::stoull(text);
    } catch (const std::out_of_range&) {
      throw fail("'" + key + "' is too large: " + text);
    }
  };
  const auto small = [&](const std::string& key, const std::string& text) {
    const std::size_t v = number(key, text);
    if (v > std::numeric_limits<unsigned>::max()) throw fail("'" + key + "' is too large");
    return unsigned(v);
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;  // blank or comment
    if (!header_seen) {
      std::string version;
      words >> version;
      if (word + " " + version != merge_tuning::header)
        throw fail("not a corank merge tuning file (the first line must be '" +
                   std::string(merge_tuning::header) + "')");
      header_seen = true;
      continue;
    }
    const auto algorithm = parse_merge_algorithm(word);
    if (!algorithm)
      throw fail("unknown kernel '" + word + "' (expected automatic, basic, tiled or circular)");
    merge_tuning_entry e;
    e.algorithm = *algorithm;
    bool has_up_to = false;
    while (words >> word) {
      const auto eq = word.find('=');
      if (eq == std::string::npos) throw fail("expected key=value, got '" + word + "'");
      const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
      if (key == "up_to") {
        e.up_to = value == "max" ? std::numeric_limits<std::size_t>::max() : number(key, value);
        has_up_to = true;
      } else if (key == "scheme") {
        const auto s = parse_merge_scheme(value);
        if (!s || *s == merge_scheme::by_size)
          throw fail("scheme must be single_launch or partitioned, not '" + value + "'");
        if (e.algorithm != merge_algorithm::automatic)
          throw fail("scheme applies to automatic only");
        e.scheme = *s;
      } else if (key == "threads") {
        e.threads = small(key, value);
        if (e.threads != 0 && (e.threads % 32 || e.threads > 1024))
          throw fail("threads must be a multiple of 32 in [32, 1024], not " + value);
      } else if (key == "blocks") {
        e.blocks = small(key, value);
      } else if (key == "tile") {
        e.tile_items = small(key, value);
      } else {
        throw fail("unknown key '" + key + "' (expected up_to, scheme, threads, blocks, tile)");
      }
    }
    if (!has_up_to) throw fail("missing up_to=COUNT|max");
    entries.push_back(e);
  }
  if (!header_seen) throw fail("empty file (expected '" + std::string(merge_tuning::header) + "')");
  try {
    return merge_tuning(std::move(entries));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(source + ": " + e.what());
  }
}

/// Reads a table from a file; a missing file or a malformed table throws with its name.
inline merge_tuning load_merge_tuning(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the tuning file");
  return parse_merge_tuning(in, path);
}

/// Writes a table that parse_merge_tuning reads back; `comment` goes on '#' lines after the header.
inline void write_merge_tuning(std::ostream& out, const merge_tuning& table,
                               const std::string& comment = {}) {
  out << merge_tuning::header << "\n";
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
  for (const merge_tuning_entry& e : table.entries()) {
    out << to_string(e.algorithm) << " up_to=";
    if (e.up_to == std::numeric_limits<std::size_t>::max())
      out << "max";
    else
      out << e.up_to;
    if (e.scheme != merge_scheme::by_size) out << " scheme=" << to_string(e.scheme);
    out << " threads=" << e.threads << " blocks=" << e.blocks;
    if (e.algorithm == merge_algorithm::tiled || e.algorithm == merge_algorithm::circular)
      out << " tile=" << e.tile_items;
    out << "\n";
  }
}

}  // namespace corank::cuda
