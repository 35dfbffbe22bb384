// The results of one experiment: printed as an aligned table, written as JSON and CSV.
//
// Every benchmark, CPU or GPU, reports through this one model. A row is a contender on a problem
// (its group and size), with the spread of its timed runs. Each row may be a plain contender, the
// baseline that speed-ups are relative to, or a copy of the same bytes that bandwidth fractions are
// relative to. The baseline is matched by group and size; the copy by backend and size, else the
// largest copy measured on that backend (the bandwidth of a big copy is the machine's).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/timing.hpp"

namespace corank::bench {

enum class role { contender, baseline, copy };

struct row {
  std::string group;      ///< what kind of problem: "keys", "pairs", "mean length 32", a matrix...
  std::string contender;  ///< e.g. "corank::cpu::merge", "std::merge", "memcpy"
  std::string backend;    ///< "cpu" or "gpu"
  role kind = role::contender;
  std::size_t size = 0;   ///< problem size as the table shows it (e.g. items per input)
  std::size_t items = 0;  ///< items processed (outputs) per operation, for elements/s
  /// Bytes the problem must move per operation (read + written once), the same for every
  /// contender on it: GB/s then compares contenders like their times do.
  std::size_t bytes = 0;
  int iterations = 1;  ///< operations in one timed run (the study's iteration counts)
  int threads = 0;
  stats time;            ///< per timed run
  bool verified = true;  ///< output matched the reference
};

/// The problem part of a row (what every contender on it shares).
row problem_shape(std::string group, std::string backend, std::size_t size, std::size_t items,
                  std::size_t bytes, int iterations = 1, int threads = 0);

class report {
 public:
  explicit report(std::string experiment) : experiment_(std::move(experiment)) {}

  void add(row r) { rows_.push_back(std::move(r)); }
  /// Adds the measurement of `contender` on the problem `shape`.
  void add(const row& shape, const std::string& contender, role kind, const stats& time,
           bool verified = true);
  /// Free-form facts about the run (key type, distribution, timing method).
  void set_meta(const std::string& key, const std::string& value) { meta_[key] = value; }

  const std::string& experiment() const { return experiment_; }
  const std::map<std::string, std::string>& meta() const { return meta_; }
  const std::vector<row>& rows() const { return rows_; }
  double elements_per_s(const row& r) const;
  double gb_per_s(const row& r) const;
  /// GB/s of this row over that of its copy row (see the file comment).
  std::optional<double> copy_fraction(const row& r) const;
  /// Baseline median over this row's median, same group and size.
  std::optional<double> speedup(const row& r) const;

  void print_table(std::ostream& out) const;
  /// One JSON document holding this report (see write_json below).
  void write_json(const std::string& path) const;
  void write_csv(const std::string& path) const;
  bool all_verified() const;

 private:
  const row* copy_for(const row& r) const;

  std::string experiment_;
  std::map<std::string, std::string> meta_;
  std::vector<row> rows_;
};

/// `reports` as one JSON document: the machine (host, cores, CPU model), the GPU (name,
/// SMs, driver and runtime), the versions (corank, compiler, CUDA, CUB), the copy bandwidth
/// measured on each backend, `run` (how the run was asked for), and every experiment's rows with
/// median, min, max and runs.
std::string json_document(const std::vector<report>& reports,
                          const std::map<std::string, std::string>& run = {});

/// The rows of `reports` as one CSV table (a column names each row's experiment).
std::string csv_table(const std::vector<report>& reports);

/// json_document / csv_table written to `path` (io::output_file: atomically, every write
/// checked; a file_error names the path on failure).
void write_json(const std::string& path, const std::vector<report>& reports,
                const std::map<std::string, std::string>& run = {});
void write_csv(const std::string& path, const std::vector<report>& reports);

/// "1K", "10M", "1.5G" ... for table labels.
std::string human_count(std::size_t n);

}  // namespace corank::bench
