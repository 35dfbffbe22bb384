// `corank bench all`: every experiment of the studies in one process, CPU and (when asked) GPU,
// each printed as a table when it ends, all of them returned for one JSON document.
//
// The defaults of each experiment, full and quick, are here, in one place; the single experiments
// (`corank bench merge` ...) start from them too.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "bench/contender.hpp"
#include "bench/gpu_merge.hpp"
#include "bench/gpu_segmented_scan.hpp"
#include "bench/gpu_sort.hpp"
#include "bench/gpu_toolbox.hpp"
#include "bench/report.hpp"

namespace corank::bench {

struct suite_config {
  bool gpu = false;                   ///< also the GPU experiments (the CPU ones always run)
  bool quick = false;                 ///< small sizes: about a minute on two cores without a GPU
  std::vector<std::size_t> sizes;     ///< merge and sort sizes instead of the defaults
  std::vector<std::string> matrices;  ///< spmv-scan matrices instead of the defaults
  int threads = 0;                    ///< CPU threads (0: OpenMP's default)
  int min_runs = 0;  ///< CPU experiments and the GPU toolbox: at least this many timed runs
  bool show_progress = true;
};

/// What one run of the suite produced: the reports of the experiments that ran, and a line for
/// each experiment that failed (the others still run).
struct suite_result {
  std::vector<report> reports;
  std::vector<std::string> failures;
};

/// Runs the experiments in order (CPU merge, CPU sort, CPU spmv-scan, CPU toolbox, then GPU merge,
/// GPU sorts, GPU segmented scan, GPU spmv-scan, GPU toolbox), printing each table to `tables` as
/// it ends.
suite_result run_suite(const suite_config& config, std::ostream& tables);

// Defaults, full (the study's sizes) or quick.
run_config cpu_run_config(bool quick, int threads, bool show_progress);
gpu_merge_config gpu_merge_defaults(bool quick);
gpu_sort_config gpu_sort_defaults(bool quick);
gpu_scan_bench_config gpu_scan_defaults(bool quick);
gpu_toolbox_config gpu_toolbox_defaults(bool quick);

}  // namespace corank::bench
