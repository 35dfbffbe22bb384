// One row source of a benchmark: a named implementation on a backend that times itself on a
// problem. Experiments hold lists of these, so a backend adds rows by adding contenders.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/progress.hpp"
#include "bench/report.hpp"
#include "bench/timing.hpp"

namespace corank::bench {

/// What a CPU experiment runs over.
struct run_config {
  std::vector<std::size_t> sizes;  ///< problem sizes (items per input)
  int threads = 0;                 ///< 0: OpenMP's default
  timing_config timing;
  bool show_progress = true;
  std::uint64_t seed = 1;
  /// CPU sort and merge: the item types to run ("u32", "u64", "pairs"); empty: the defaults.
  std::vector<std::string> types;
  /// Only the contenders whose name contains one of these (the copy reference always); empty: all.
  std::vector<std::string> only;
};

/// At least `runs` timed runs (`corank bench --min-runs`).
inline void require_runs(timing_config& cfg, int runs) {
  cfg.min_runs = cfg.min_runs > runs ? cfg.min_runs : runs;
  cfg.max_runs = cfg.max_runs > cfg.min_runs ? cfg.max_runs : cfg.min_runs;
}

/// Whether `type` is among config.types, or among `defaults` when config.types is empty.
inline bool runs_type(const run_config& config, const std::string& type,
                      const std::vector<std::string>& defaults) {
  const auto& types = config.types.empty() ? defaults : config.types;
  for (const auto& t : types)
    if (t == type) return true;
  return false;
}

template <class Problem>
struct contender {
  std::string name;
  std::string backend = "cpu";
  role kind = role::contender;
  /// Threads it runs on; 0: the benchmark's thread count (sequential peers say 1).
  int threads = 0;
  /// Runs the implementation on `problem` (warm-up + timed runs), leaving its output where the
  /// problem says, so the runner can check it.
  std::function<stats(const Problem&, const timing_config&)> measure;
};

/// Runs every contender on `problem` and adds a row for each to `rep`: `shape` gives the size,
/// items, bytes and thread count; `output_ok(contender)` checks what it left behind.
template <class Problem, class Check>
void run_contenders(const std::vector<contender<Problem>>& contenders, const Problem& problem,
                    const row& shape, const timing_config& cfg, const std::string& label,
                    progress& bar, report& rep, Check&& output_ok,
                    const std::vector<std::string>& only = {}) {
  const auto chosen = [&](const contender<Problem>& c) {
    if (only.empty() || c.kind == role::copy) return true;
    for (const auto& part : only)
      if (c.name.find(part) != std::string::npos) return true;
    return false;
  };
  for (const contender<Problem>& c : contenders) {
    if (!chosen(c)) continue;
    bar.step(label + ": " + c.name);
    row on_backend = shape;
    on_backend.backend = c.backend;
    if (c.threads > 0) on_backend.threads = c.threads;
    const stats time = c.measure(problem, cfg);
    rep.add(on_backend, c.name, c.kind, time, output_ok(c));
  }
}

}  // namespace corank::bench
