// `corank bench spmv-scan` on the CPU: the study's iteration (a = segmented scan of a * xbar by
// row) on stand-ins of its matrices, the fused OpenMP passes (several steps on each block in cache,
// and one step per pass) against a sequential pass.
#pragma once

#include <string>
#include <vector>

#include "bench/contender.hpp"
#include "bench/report.hpp"

namespace corank::bench {

/// "cpu spmv-scan": a memcpy (the copy), then per matrix (group; size nnz; iterations the study's)
/// the sequential pass (baseline, one thread) and corank's fused passes, each checked against the
/// double-precision reference (relative L2 error below 1e-4). Bytes: 12 per element and step, so
/// "% copy" is the fraction of the bandwidth floor of a step that moves the data. `config.sizes`
/// is not used.
report run_cpu_spmv_scan_bench(const run_config& config, const std::vector<std::string>& matrices);

/// The study's matrices, or two of them (cant, webbase-1M) for a quick look.
std::vector<std::string> default_spmv_matrices(bool quick);

}  // namespace corank::bench
