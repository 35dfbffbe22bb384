// Timing helpers shared by every benchmark: warm-up, repeated runs, median / min / max.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace corank::bench {

struct timing_config {
  int warmup_runs = 1;
  /// Timed runs: as many as fit in `target_seconds`, clamped to [min_runs, max_runs].
  int min_runs = 3;
  int max_runs = 25;
  double target_seconds = 0.4;
  /// Runs shorter than this are repeated back to back within one sample (clock resolution).
  double min_sample_ms = 0.05;
};

/// Timing for device work (CUDA events): a few more warm-up runs than on the host (the first
/// launches load modules and allocate), and more runs, which are cheap. `quick`: fewer.
timing_config device_timing_config(bool quick = false);
/// The GPU sweeps' timing: hundreds of problems each, so fewer runs (the spread stays in each
/// row's min and max).
timing_config sweep_timing_config(bool quick = false);

/// Summary of the timed runs of one measurement, in milliseconds.
struct stats {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int runs = 0;
};

/// Median, min and max of per-run times (ms). Empty input gives all zeros.
stats summarize(std::vector<double> ms);

/// Timed samples for a measurement whose warm-up run took `warmup_ms`.
int runs_for(double warmup_ms, const timing_config& cfg);
/// Runs per sample, so that one sample lasts at least cfg.min_sample_ms.
int batch_for(double warmup_ms, const timing_config& cfg);

/// Times `run()` on the host clock (ms per run). For work timed elsewhere (device events), use
/// measure_reported.
template <class Run>
stats measure(Run&& run, const timing_config& cfg = {}) {
  using clock = std::chrono::steady_clock;
  auto sample_ms = [&](int batch) {
    const auto start = clock::now();
    for (int i = 0; i < batch; ++i) run();
    return std::chrono::duration<double, std::milli>(clock::now() - start).count() / batch;
  };
  double first_ms = 0;
  for (int i = 0; i < cfg.warmup_runs; ++i) first_ms = sample_ms(1);
  const int batch = batch_for(first_ms, cfg);
  std::vector<double> ms;
  const int runs = runs_for(first_ms * batch, cfg);
  for (int i = 0; i < runs; ++i) ms.push_back(sample_ms(batch));
  return summarize(std::move(ms));
}

/// Like measure, with an untimed `setup()` before every run (e.g. restoring a sort's input).
/// Runs are timed one by one, never batched.
template <class Setup, class Run>
stats measure_with_setup(Setup&& setup, Run&& run, const timing_config& cfg = {}) {
  using clock = std::chrono::steady_clock;
  auto once_ms = [&] {
    setup();
    const auto start = clock::now();
    run();
    return std::chrono::duration<double, std::milli>(clock::now() - start).count();
  };
  double first_ms = 0;
  for (int i = 0; i < cfg.warmup_runs; ++i) first_ms = once_ms();
  std::vector<double> ms;
  const int runs = runs_for(first_ms, cfg);
  for (int i = 0; i < runs; ++i) ms.push_back(once_ms());
  return summarize(std::move(ms));
}

/// Like measure, but `run()` returns its own time in ms (e.g. from CUDA events).
template <class Run>
stats measure_reported(Run&& run, const timing_config& cfg = {}) {
  double first_ms = 0;
  for (int i = 0; i < cfg.warmup_runs; ++i) first_ms = run();
  std::vector<double> ms;
  const int runs = runs_for(first_ms, cfg);
  for (int i = 0; i < runs; ++i) ms.push_back(run());
  return summarize(std::move(ms));
}

}  // namespace corank::bench
