#include "bench/timing.hpp"

#include <algorithm>
#include <cmath>

namespace corank::bench {

stats summarize(std::vector<double> ms) {
  stats s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  s.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  s.runs = static_cast<int>(n);
  return s;
}

timing_config device_timing_config(bool quick) {
  timing_config cfg;
  cfg.warmup_runs = 3;
  cfg.min_runs = 5;
  cfg.max_runs = quick ? 15 : 50;
  cfg.target_seconds = quick ? 0.05 : 0.2;
  return cfg;
}

timing_config sweep_timing_config(bool quick) {
  timing_config cfg;
  cfg.warmup_runs = 2;
  cfg.min_runs = 3;
  cfg.max_runs = quick ? 5 : 15;
  cfg.target_seconds = quick ? 0.02 : 0.08;
  return cfg;
}

int runs_for(double warmup_ms, const timing_config& cfg) {
  const double budget_ms = cfg.target_seconds * 1e3;
  const double fit = warmup_ms > 0 ? std::floor(budget_ms / warmup_ms) : cfg.max_runs;
  return static_cast<int>(std::clamp<double>(fit, cfg.min_runs, cfg.max_runs));
}

int batch_for(double warmup_ms, const timing_config& cfg) {
  if (warmup_ms >= cfg.min_sample_ms) return 1;
  const double fit = warmup_ms > 0 ? std::ceil(cfg.min_sample_ms / warmup_ms) : 1000;
  return static_cast<int>(std::min(fit, 100000.0));
}

}  // namespace corank::bench
