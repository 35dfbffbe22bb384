// The study's sparse-matrix iteration on the CPU, shared by the CLI and the benchmarks:
//   repeat: a_l <- sum over l' from the head of l's row to l of a_l' * xbar_l'
// with xbar_l = x[col_l] flattened once: cpu::scaled_segmented_scan_iterations (multiply while
// scanning, in place, several steps on each block in cache), and the double-precision sequential
// reference the GPU and CPU results are checked against.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <vector>

#include "corank/cpu/segmented_scan.hpp"

namespace corank::backend {

/// Runs `iterations` steps over a (in place) on all cores (cpu::scaled_segmented_scan_iterations,
/// `steps_per_pass` on each cache-sized block; 0: tuned); returns the wall time in ms. Like the
/// GPU's, an untimed warm-up on a copy of a comes first: it starts the OpenMP threads, which the
/// first parallel region of a process pays for. Up to 16 iterations (a pass's steps), so that it
/// takes as many threads as the timed call (the library sizes them by elements x a pass's steps:
/// with 3, matrices below 11K non-zeros warmed up on one thread and the timed call started them).
inline double cpu_spmv_scan(float* a, const float* xbar, const std::int64_t* offsets, std::size_t n,
                            std::size_t rows, int iterations, int threads = 0,
                            int steps_per_pass = 0) {
  cpu::segmented_scan_options opt;
  opt.threads = threads;
  opt.steps_per_pass = steps_per_pass;
  {
    std::vector<float> scratch(a, a + n);
    cpu::scaled_segmented_scan_iterations(scratch.data(), xbar, n, offsets, rows,
                                          std::min(iterations, segmented_scan_most_steps_per_pass),
                                          corank::plus{}, opt);
  }
  const auto t0 = std::chrono::steady_clock::now();
  cpu::scaled_segmented_scan_iterations(a, xbar, n, offsets, rows, iterations, corank::plus{}, opt);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// The reference: `iterations` sequential passes in double; `on_iteration(it)` is called before
/// each (progress).
inline std::vector<double> reference_spmv_scan(const std::vector<float>& a0,
                                               const std::vector<float>& xbar,
                                               const std::vector<std::int64_t>& offsets,
                                               int iterations,
                                               const std::function<void(int)>& on_iteration = {}) {
  std::vector<double> a(a0.begin(), a0.end());
  for (int it = 0; it < iterations; ++it) {
    if (on_iteration) on_iteration(it);
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      double acc = 0;
      for (auto l = std::size_t(offsets[r]); l < std::size_t(offsets[r + 1]); ++l)
        a[l] = acc = acc + a[l] * double(xbar[l]);
    }
  }
  return a;
}

/// ||got - want||_2 / ||want||_2 (NaN when the reference is not finite).
inline double relative_l2_error(const std::vector<float>& got, const std::vector<double>& want) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double d = double(got[i]) - want[i];
    diff += d * d;
    norm += want[i] * want[i];
  }
  return norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

}  // namespace corank::backend
