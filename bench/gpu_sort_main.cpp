// corank_gpu_sort_bench: the GPU sort benchmark as its own binary.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "gpu_sort.hpp"

int main(int argc, char** argv) {
  CLI::App app{"GPU sort benchmark: corank bitonic/segmented sorts vs CUB"};
  corank::bench::gpu_sort_config config;
  app.add_option("--sizes", config.sizes, "keys per whole-array sort");
  app.add_option("--segmented-keys", config.segmented_keys,
                 "keys of the segmented sorts (0: skip)");
  app.add_option("--cpu-sizes", config.cpu_sizes, "sizes of the std::sort speed-up table");
  app.add_option("--repeats", config.repeats, "timed runs per measurement (0: by size)");
  app.add_option("--json", config.json_path, "write the measurements as JSON to this file");
  CLI11_PARSE(app, argc, argv);
  try {
    return corank::bench::run_gpu_sort_bench(config, std::cout);
  } catch (const std::exception& e) {
    std::cerr << "corank_gpu_sort_bench: " << e.what() << "\n";
    return 2;
  }
}
