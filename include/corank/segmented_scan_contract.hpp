// The segmented scans' contract, one for both backends (corank/cpu/segmented_scan.hpp and
// corank/cuda/segmented_scan.cuh): the same argument order and defaults, the same options field
// for the iteration, the same checks.
//
//   segmented_inclusive_scan(in, n, offsets, num_segments, out, op = corank::plus{})
//   segmented_exclusive_scan(in, n, offsets, num_segments, out, init, op = corank::plus{})
//   scaled_segmented_scan_iterations(a, scale, n, offsets, num_segments, iterations,
//                                    op = corank::plus{})
//
// As the merges and sorts of each backend: each input before its size, the output after the
// inputs, then the operator; the CPU's options come last, the GPU's options (or a memory resource)
// first and its stream last. Host-only C++.
#pragma once

#include <cstddef>

namespace corank {

/// The most steps of the iteration one pass may take (segmented_scan_options::steps_per_pass, 0
/// for the backend's tuned number): the GPU's look-back state holds a slot per step of two passes,
/// the CPU compiles a sweep for each count.
inline constexpr int segmented_scan_most_steps_per_pass = 16;

namespace detail {

/// What is wrong with a segmented scan's arguments, or null: the one check of both backends (the
/// CPU throws std::invalid_argument with this text, the GPU returns cudaErrorInvalidValue).
/// `iterations` is 1 for a single scan; a null pointer counts only when n > 0.
inline const char* segmented_scan_argument_error(std::size_t n, bool null_input, bool null_output,
                                                 bool null_offsets, std::size_t num_segments,
                                                 long long iterations, int steps_per_pass) {
  if (steps_per_pass < 0 || steps_per_pass > segmented_scan_most_steps_per_pass)
    return "segmented scan: steps_per_pass must lie in [0, 16]";
  if (iterations < 0) return "segmented scan: a negative number of iterations";
  if (n == 0) return nullptr;
  if (null_input || null_output || null_offsets) return "segmented scan: a null pointer with n > 0";
  if (num_segments == 0) return "segmented scan: no segments for n > 0 elements";
  return nullptr;
}

}  // namespace detail
}  // namespace corank
