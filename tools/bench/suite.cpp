#include "bench/suite.hpp"

#include <exception>
#include <functional>
#include <ostream>

#include "bench/merge_bench.hpp"
#include "bench/sort_bench.hpp"
#include "bench/spmv_bench.hpp"
#include "bench/toolbox_bench.hpp"

namespace corank::bench {

run_config cpu_run_config(bool quick, int threads, bool show_progress) {
  run_config config;
  config.threads = threads;
  if (quick) config.timing.target_seconds = 0.1, config.timing.max_runs = 15;
  config.show_progress = show_progress;
  return config;
}

gpu_merge_config gpu_merge_defaults(bool quick) {
  gpu_merge_config config;
  config.sizes = quick
                     ? std::vector<std::size_t>{1000, 100000, 1000000, 10000000}
                     : std::vector<std::size_t>{1000, 10000, 100000, 1000000, 10000000, 100000000};
  if (quick) config.key_types = {"u32"};
  config.timing = sweep_timing_config(quick);
  return config;
}

gpu_sort_config gpu_sort_defaults(bool quick) {
  gpu_sort_config config;
  if (quick) {
    config.sizes = {1000000, 10000000};
    config.key_types = {"u32"};
    config.segmented_keys = std::size_t(1) << 24;
    config.cpu_sizes = {2000, 20000, 200000, 2000000};
  }
  config.timing = sweep_timing_config(quick);
  return config;
}

std::vector<segment_case> default_segment_cases(bool quick) {
  using data::segment_shape;
  std::vector<segment_case> cases;
  const auto add = [&](segment_shape shape, std::size_t length, bool wide = false) {
    cases.push_back({shape, length, wide});
  };
  if (quick) {
    for (std::size_t length : {1, 7, 32, 1024, 65536}) add(segment_shape::fixed, length);
    add(segment_shape::uniform, 64);
    add(segment_shape::power_law, 0);
    add(segment_shape::one_segment, 0);
    add(segment_shape::half_empty, 32);
    add(segment_shape::fixed, 32, true);
    return cases;
  }
  // Every length from 1 to 64, then 2^k - 1, 2^k, 2^k + 1 up to 2^20.
  for (std::size_t length = 1; length <= 64; ++length) add(segment_shape::fixed, length);
  for (int k = 6; k <= 20; ++k)
    for (std::size_t length :
         {(std::size_t(1) << k) - 1, std::size_t(1) << k, (std::size_t(1) << k) + 1})
      if (length > 64) add(segment_shape::fixed, length);
  for (int k = 2; k <= 20; k += 2) add(segment_shape::uniform, std::size_t(1) << k);
  add(segment_shape::power_law, 0);
  add(segment_shape::one_segment, 0);
  add(segment_shape::half_empty, 4);
  add(segment_shape::half_empty, 1024);
  // 64-bit offsets on a subset.
  for (std::size_t length : {1, 4, 32, 64, 1024, 1 << 20}) add(segment_shape::fixed, length, true);
  add(segment_shape::uniform, 64, true);
  add(segment_shape::uniform, 4096, true);
  add(segment_shape::power_law, 0, true);
  add(segment_shape::one_segment, 0, true);
  return cases;
}

gpu_scan_bench_config gpu_scan_defaults(bool quick) {
  gpu_scan_bench_config config;
  if (quick) config.n = 10000000, config.matrices = {"cant", "webbase-1M"};
  config.cases = default_segment_cases(quick);
  config.timing = device_timing_config(quick);
  config.sweep_timing = sweep_timing_config(quick);
  return config;
}

gpu_toolbox_config gpu_toolbox_defaults(bool quick) {
  gpu_toolbox_config config;
  if (quick) config.sizes = {1000000, 10000000};
  config.timing = device_timing_config(quick);
  return config;
}

suite_result run_suite(const suite_config& config, std::ostream& tables) {
  suite_result result;
  // Runs one experiment; a failure is recorded and the suite goes on.
  const auto run = [&](const std::string& name, const std::function<std::vector<report>()>& f) {
    try {
      for (report& rep : f()) {
        rep.print_table(tables);
        tables << "\n" << std::flush;
        if (!rep.all_verified()) result.failures.push_back(rep.experiment() + ": wrong output");
        result.reports.push_back(std::move(rep));
      }
    } catch (const std::exception& e) {
      result.failures.push_back(name + ": " + e.what());
      tables << name << ": FAILED: " << e.what() << "\n\n" << std::flush;
    }
  };
  const auto sizes_or = [&](std::vector<std::size_t> fallback) {
    return config.sizes.empty() ? fallback : config.sizes;
  };
  const auto matrices_or = [&](std::vector<std::string> fallback) {
    return config.matrices.empty() ? fallback : config.matrices;
  };

  run_config cpu = cpu_run_config(config.quick, config.threads, config.show_progress);
  require_runs(cpu.timing, config.min_runs);
  run("cpu merge", [&] {
    run_config c = cpu;
    c.sizes = sizes_or(default_merge_sizes(config.quick));
    return run_cpu_merge_benches(c, config.quick);
  });
  run("cpu sort", [&] {
    run_config c = cpu;
    c.sizes = sizes_or(default_sort_sizes(config.quick));
    return run_cpu_sort_benches(c, config.quick);
  });
  run("cpu spmv-scan", [&] {
    return std::vector<report>{
        run_cpu_spmv_scan_bench(cpu, matrices_or(default_spmv_matrices(config.quick)))};
  });
  run("cpu toolbox", [&] {
    run_config c = cpu;
    c.sizes = sizes_or(default_toolbox_sizes(config.quick));
    return std::vector<report>{run_cpu_toolbox_bench(c)};
  });
  if (!config.gpu) return result;

  run("gpu merge", [&] {
    gpu_merge_config c = gpu_merge_defaults(config.quick);
    c.sizes = sizes_or(c.sizes);
    c.show_progress = config.show_progress;
    return run_gpu_merge_bench(c);
  });
  run("gpu sort", [&] {
    gpu_sort_config c = gpu_sort_defaults(config.quick);
    c.sizes = sizes_or(c.sizes);
    c.cpu_sizes = sizes_or(c.cpu_sizes);
    c.show_progress = config.show_progress;
    return run_gpu_sort_bench(c);
  });
  gpu_scan_bench_config scan = gpu_scan_defaults(config.quick);
  scan.matrices = matrices_or(scan.matrices);
  scan.show_progress = config.show_progress;
  run("gpu segmented scan",
      [&] { return std::vector<report>{run_gpu_segmented_scan_bench(scan)}; });
  run("gpu spmv-scan", [&] { return std::vector<report>{run_gpu_spmv_scan_bench(scan)}; });
  run("gpu toolbox", [&] {
    gpu_toolbox_config c = gpu_toolbox_defaults(config.quick);
    c.sizes = sizes_or(c.sizes);
    require_runs(c.timing, config.min_runs);
    c.show_progress = config.show_progress;
    return std::vector<report>{run_gpu_toolbox_bench(c)};
  });
  return result;
}

}  // namespace corank::bench
