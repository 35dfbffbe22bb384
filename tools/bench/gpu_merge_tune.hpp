// `corank tune merge`: the study's auto-tuning on the GPU at hand. For each input size and each
// kernel it times a sweep of blocks, threads per block and tile size (shared memory), keeps the
// fastest configuration whose output is right, and turns the winners into a merge_tuning table
// that `automatic` (and the studied kernels) take through merge_options::tuning (the study's
// corank::study::cuda::merge_options::tuning for its kernels).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <vector>

#include "corank/cuda/merge_options.hpp"
#include "corank/cuda/tuning/merge_table.hpp"

namespace corank::bench {

struct gpu_merge_tune_config {
  std::vector<std::size_t> sizes;              ///< items per input (u32 keys, uniform random)
  std::vector<cuda::merge_algorithm> kernels;  ///< which kernels to sweep
  int repeats = 0;                             ///< timed runs per configuration; 0: by time
  bool progress = true;                        ///< one line per size and kernel on stderr
};

/// Runs the sweep, prints per size and kernel the best configuration beside the default's time,
/// and returns the table of the winners (each size's entry covers the outputs up to halfway, in
/// log scale, to the next size measured; the largest covers everything above). Throws
/// std::runtime_error without a usable GPU or when a CUDA call fails.
cuda::merge_tuning run_gpu_merge_tune(const gpu_merge_tune_config& config, std::ostream& out);

}  // namespace corank::bench
