// corank_toolbox_bench: the co-rank toolbox's benchmark as its own binary (also behind `corank
// bench toolbox`): the GPU rows at --sizes, then the CPU rows at --cpu-sizes.
#include <CLI/CLI.hpp>
#include <cstddef>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "bench/gpu_main.hpp"
#include "bench/gpu_toolbox.hpp"
#include "bench/suite.hpp"
#include "bench/toolbox_bench.hpp"

int main(int argc, char** argv) {
  CLI::App app{"The co-rank toolbox: corank vs thrust/CUB (GPU) and vs the std:: ways (CPU)"};
  corank::bench::gpu_toolbox_config gpu;
  gpu.sizes = {100000000};
  std::vector<std::size_t> cpu_sizes = {10000000};
  int repeats = 5;
  std::string json_path;
  app.add_option("--sizes", gpu.sizes, "GPU: items per input (sorted u32 keys)")->expected(0, -1);
  app.add_option("--cpu-sizes", cpu_sizes, "CPU: items per input (none: skip the CPU rows)")
      ->expected(0, -1);
  app.add_option("--runs", gpu.num_runs, "runs of the k-way merge")->capture_default_str();
  app.add_option("--repeats", repeats, "timed runs per measurement (the median is reported)")
      ->capture_default_str();
  app.add_flag("--unsorted-sweep", gpu.unsorted_search_sweep,
               "GPU: lower_bound of needles in any order over needle counts 10^3..n, both ways");
  app.add_option("--json", json_path, "write the measurements as JSON to this file");
  CLI11_PARSE(app, argc, argv);
  gpu.timing.min_runs = gpu.timing.max_runs = repeats;
  try {
    std::vector<corank::bench::report> reports;
    if (!gpu.sizes.empty()) reports.push_back(corank::bench::run_gpu_toolbox_bench(gpu));
    if (!cpu_sizes.empty()) {
      corank::bench::run_config cpu = corank::bench::cpu_run_config(false, 0, true);
      cpu.sizes = cpu_sizes;
      cpu.timing.min_runs = cpu.timing.max_runs = repeats;
      reports.push_back(corank::bench::run_cpu_toolbox_bench(cpu, gpu.num_runs));
    }
    return corank::bench::print_reports(reports, json_path);
  } catch (const std::exception& e) {
    std::cerr << "corank_toolbox_bench: " << e.what() << "\n";
    return 2;
  }
}
