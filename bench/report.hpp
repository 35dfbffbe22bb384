// The results of one benchmark run: printed as an aligned table, written as JSON and CSV.
//
// Rows come from any backend (CPU here, GPU rows from .cu files). Each row may be a plain
// contender, the baseline that speed-ups are relative to, or the copy of the same bytes that
// bandwidth fractions are relative to; both references are matched by problem size, the copy
// also by backend.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "timing.hpp"

namespace corank::bench {

enum class role { contender, baseline, copy };

struct row {
  std::string contender;  ///< e.g. "corank::cpu::merge", "std::merge", "memcpy"
  std::string backend;    ///< "cpu" or "gpu"
  role kind = role::contender;
  std::size_t size = 0;   ///< problem size as the table shows it (e.g. items per input)
  std::size_t items = 0;  ///< items processed (outputs), for elements/s
  std::size_t bytes = 0;  ///< bytes read + written once
  int threads = 0;
  stats time;
  bool verified = true;  ///< output matched the reference
};

class report {
 public:
  explicit report(std::string experiment) : experiment_(std::move(experiment)) {}

  void add(row r) { rows_.push_back(std::move(r)); }
  /// Free-form facts about the run (key type, distribution, host, command line).
  void set_meta(const std::string& key, const std::string& value) { meta_[key] = value; }

  const std::vector<row>& rows() const { return rows_; }
  double elements_per_s(const row& r) const;
  double gb_per_s(const row& r) const;
  /// GB/s of this row over that of the copy row of the same size and backend.
  std::optional<double> copy_fraction(const row& r) const;
  /// Baseline median over this row's median, at the same size.
  std::optional<double> speedup(const row& r) const;

  void print_table(std::ostream& out) const;
  void write_json(const std::string& path) const;
  void write_csv(const std::string& path) const;
  bool all_verified() const;

 private:
  const row* find(role kind, std::size_t size, const std::string* backend) const;

  std::string experiment_;
  std::map<std::string, std::string> meta_;
  std::vector<row> rows_;
};

/// "1K", "10M", "1.5G" ... for table labels.
std::string human_count(std::size_t n);

}  // namespace corank::bench
