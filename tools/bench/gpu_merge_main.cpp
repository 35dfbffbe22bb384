// corank_gpu_bench: the GPU merge benchmark as its own binary (also behind `corank bench merge
// --backend gpu`).
#include <CLI/CLI.hpp>
#include <cstddef>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bench/gpu_main.hpp"
#include "bench/gpu_merge.hpp"

int main(int argc, char** argv) {
  CLI::App app{"GPU merge benchmark: corank kernels vs thrust and CUB"};
  corank::bench::gpu_merge_config config;
  config.sizes = {1000, 10000, 100000, 1000000, 10000000, 100000000};
  bool keys_only = false, production_only = false;
  int repeats = 0;
  std::string json_path;
  app.add_option("--sizes", config.sizes, "items per input")->expected(1, -1);
  app.add_option("--json", json_path, "write the measurements as JSON to this file");
  app.add_option("--repeats", repeats, "timed runs per measurement (0: as many as fit 0.2 s)");
  app.add_option("--grids", config.automatic_grids, "also time automatic with these grids");
  app.add_option("--types", config.key_types, "key types (u32 u64 f32 f64 record16)");
  app.add_flag("--keys-only", keys_only, "skip the key-value merges");
  app.add_flag("--production-only", production_only, "skip the study's kernels");
  std::string tuning_path;
  app.add_option("--tuning", tuning_path, "automatic with this tuning file (corank tune merge)");
  CLI11_PARSE(app, argc, argv);
  config.pairs = !keys_only;
  config.studied = !production_only;
  if (repeats > 0) config.timing.min_runs = config.timing.max_runs = repeats;
  try {
    std::optional<corank::cuda::merge_tuning> tuning;
    if (!tuning_path.empty()) tuning = corank::cuda::load_merge_tuning(tuning_path);
    config.tuning = tuning ? &*tuning : nullptr;
    return corank::bench::print_reports(corank::bench::run_gpu_merge_bench(config), json_path);
  } catch (const std::exception& e) {
    std::cerr << "corank_gpu_bench: " << e.what() << "\n";
    return 2;
  }
}
