// corank_gpu_scan_bench: the GPU segmented-scan benchmarks as their own binary.
//   corank_gpu_scan_bench segmented [--n N] [--json F]
//   corank_gpu_scan_bench spmv [--matrices cant ...] [--json F]
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>

#include "bench/gpu_segmented_scan.hpp"

int main(int argc, char** argv) {
  CLI::App app{"GPU segmented-scan benchmarks: corank vs CUB"};
  app.require_subcommand(1);
  corank::bench::gpu_scan_bench_config config;
  bool production_only = false;
  int repeats = 0;
  std::string json_path;
  for (CLI::App* sub : {app.add_subcommand("segmented", "f32 over every segment shape"),
                        app.add_subcommand("spmv", "the study's iteration on its matrices")}) {
    sub->add_option("--n", config.n, "values (segmented)");
    sub->add_option("--matrices", config.matrices, "matrix names (spmv; default all)");
    sub->add_option("--repeats", repeats, "timed runs (0: as many as fit 0.2 s)");
    sub->add_option("--json", json_path, "write the measurements as JSON");
    sub->add_flag("--production-only", production_only, "skip the study's kernels");
  }
  CLI11_PARSE(app, argc, argv);
  config.studied = !production_only;
  config.cases = corank::bench::default_segment_cases(false);
  if (repeats > 0) config.timing.min_runs = config.timing.max_runs = repeats;
  try {
    const corank::bench::report rep = app.got_subcommand("segmented")
                                          ? corank::bench::run_gpu_segmented_scan_bench(config)
                                          : corank::bench::run_gpu_spmv_scan_bench(config);
    rep.print_table(std::cout);
    if (!json_path.empty()) rep.write_json(json_path);
    return rep.all_verified() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "corank_gpu_scan_bench: " << e.what() << "\n";
    return 2;
  }
}
