// The step every key-file command takes on its backend, timed: the GPU's call times itself
// (device events, transfers excluded: support/backend), the CPU's is timed here on the wall clock.
#pragma once

#include <chrono>

#include "corank/cpu/options.hpp"
#include "support/backend/gpu.hpp"

namespace corank::cli {

/// on_gpu() (which returns its kernel time in ms) on the GPU; on the CPU on_cpu(options) with
/// `threads` threads (0: all), timed on the wall clock. Returns the milliseconds.
template <class OnGpu, class OnCpu>
double timed_run(backend::backend_kind where, int threads, OnGpu&& on_gpu, OnCpu&& on_cpu) {
  if (where == backend::backend_kind::gpu) return on_gpu();
  cpu::options opt;
  opt.threads = threads;
  const auto start = std::chrono::steady_clock::now();
  on_cpu(opt);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace corank::cli
