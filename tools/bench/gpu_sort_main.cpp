// corank_gpu_sort_bench: the GPU sort benchmark as its own binary.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>

#include "bench/gpu_main.hpp"
#include "bench/gpu_sort.hpp"

int main(int argc, char** argv) {
  CLI::App app{"GPU sort benchmark: corank merge/bitonic/segmented sorts vs CUB"};
  corank::bench::gpu_sort_config config;
  int repeats = 0;
  std::string json_path;
  app.add_option("--sizes", config.sizes, "keys per whole-array sort");
  app.add_option("--segmented-keys", config.segmented_keys,
                 "keys of the segmented sorts (0: skip)");
  app.add_option("--cpu-sizes", config.cpu_sizes, "sizes of the std::sort comparison");
  app.add_option("--repeats", repeats, "timed runs per measurement (0: as many as fit 0.2 s)");
  app.add_option("--json", json_path, "write the measurements as JSON to this file");
  CLI11_PARSE(app, argc, argv);
  if (repeats > 0) config.timing.min_runs = config.timing.max_runs = repeats;
  try {
    return corank::bench::print_reports(corank::bench::run_gpu_sort_bench(config), json_path);
  } catch (const std::exception& e) {
    std::cerr << "corank_gpu_sort_bench: " << e.what() << "\n";
    return 2;
  }
}
